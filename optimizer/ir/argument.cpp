#include "argument.h"

#include "../util/json.h"
#include "node.h"

#include <cmath>

namespace fxs {

Argument Argument::ofBool(bool v)
{
    Argument a;
    a.m_kind = Kind::Bool;
    a.m_int = v;
    return a;
}

Argument Argument::ofInt(int64_t v)
{
    Argument a;
    a.m_kind = Kind::Int;
    a.m_int = v;
    return a;
}

Argument Argument::ofFloat(double v)
{
    Argument a;
    a.m_kind = Kind::Float;
    a.m_float = v;
    return a;
}

Argument Argument::ofString(std::string v)
{
    return ofText(Kind::String, std::move(v));
}

Argument Argument::ofNode(Node *node)
{
    Argument a;
    a.m_kind = Kind::NodeRef;
    a.m_node = node;
    return a;
}

Argument Argument::list(std::vector<Argument> items)
{
    Argument a;
    a.m_kind = Kind::List;
    a.m_items = std::move(items);
    return a;
}

Argument Argument::tuple(std::vector<Argument> items)
{
    Argument a = list(std::move(items));
    a.m_kind = Kind::Tuple;
    return a;
}

Argument Argument::dict(std::vector<std::pair<std::string, Argument>> entries)
{
    Argument a;
    a.m_kind = Kind::Dict;
    for (auto &e : entries) {
        a.m_keys.push_back(std::move(e.first));
        a.m_items.push_back(std::move(e.second));
    }
    return a;
}

Argument Argument::slice(Argument start, Argument stop, Argument step)
{
    Argument a = list({std::move(start), std::move(stop), std::move(step)});
    a.m_kind = Kind::Slice;
    return a;
}

Argument Argument::ellipsis()
{
    Argument a;
    a.m_kind = Kind::Ellipsis;
    return a;
}

Argument Argument::ofText(Kind kind, std::string text)
{
    Argument a;
    a.m_kind = kind;
    a.m_text = std::move(text);
    return a;
}

bool operator==(const Argument &a, const Argument &b)
{
    if (a.m_kind != b.m_kind)
        return false;
    switch (a.m_kind) {
    case Argument::Kind::None:
    case Argument::Kind::Ellipsis: return true;
    case Argument::Kind::Bool:
    case Argument::Kind::Int: return a.m_int == b.m_int;
    case Argument::Kind::Float: return a.m_float == b.m_float || (std::isnan(a.m_float) && std::isnan(b.m_float));
    case Argument::Kind::NodeRef: return a.m_node == b.m_node;
    case Argument::Kind::List:
    case Argument::Kind::Tuple:
    case Argument::Kind::Slice: return a.m_items == b.m_items;
    case Argument::Kind::Dict: return a.m_keys == b.m_keys && a.m_items == b.m_items;
    default: return a.m_text == b.m_text;
    }
}

const char *kindName(Argument::Kind kind)
{
    switch (kind) {
    case Argument::Kind::None: return "none";
    case Argument::Kind::Bool: return "bool";
    case Argument::Kind::Int: return "int";
    case Argument::Kind::Float: return "float";
    case Argument::Kind::String: return "str";
    case Argument::Kind::NodeRef: return "node";
    case Argument::Kind::List: return "list";
    case Argument::Kind::Tuple: return "tuple";
    case Argument::Kind::Dict: return "dict";
    case Argument::Kind::Dtype: return "dtype";
    case Argument::Kind::Device: return "device";
    case Argument::Kind::Layout: return "layout";
    case Argument::Kind::MemoryFormat: return "memory_format";
    case Argument::Kind::Slice: return "slice";
    case Argument::Kind::Ellipsis: return "ellipsis";
    case Argument::Kind::SymExpr: return "sym";
    case Argument::Kind::Verbatim: return "repr";
    }
    return "?";
}

std::string pythonStringRepr(const std::string &s)
{
    char quote = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
    std::string out(1, quote);
    for (unsigned char c : s) {
        if (c == '\\')
            out += "\\\\";
        else if (c == quote)
            out += std::string("\\") + char(quote);
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else
            out += char(c);
    }
    out += quote;
    return out;
}

namespace {

std::string floatText(double d)
{
    std::string s = formatDouble(d);
    // Python prints 1e-05 where to_chars gives 1e-05 too; both print 'inf' and 'nan' bare.
    return s;
}

std::string deviceRepr(const std::string &device)
{
    auto colon = device.find(':');
    if (colon == std::string::npos)
        return "device(type=" + pythonStringRepr(device) + ")";
    return "device(type=" + pythonStringRepr(device.substr(0, colon)) + ", index=" + device.substr(colon + 1) + ")";
}

template <typename Item>
std::string joinSequence(const Argument &a, Item &&item)
{
    const auto &items = a.items();
    std::string out;
    if (a.kind() == Argument::Kind::Dict) {
        out = "{";
        for (size_t i = 0; i < items.size(); ++i) {
            if (i)
                out += ", ";
            out += item(a, i, true) + ": " + item(a, i, false);
        }
        return out + "}";
    }
    bool tuple = a.kind() == Argument::Kind::Tuple;
    out = tuple ? "(" : "[";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += ", ";
        out += item(a, i, false);
    }
    if (tuple && items.size() == 1)
        out += ",";
    return out + (tuple ? ")" : "]");
}

} // namespace

std::string Argument::toFxText() const
{
    switch (m_kind) {
    case Kind::None: return "None";
    case Kind::Bool: return m_int ? "True" : "False";
    case Kind::Int: return std::to_string(m_int);
    case Kind::Float: return floatText(m_float);
    case Kind::NodeRef: return "%" + (m_node ? m_node->name() : std::string("?"));
    case Kind::List:
    case Kind::Tuple:
    case Kind::Dict:
        return joinSequence(
            *this, [](const Argument &a, size_t i, bool key) { return key ? a.keys()[i] : a.items()[i].toFxText(); });
    case Kind::Slice:
        return "slice(" + m_items[0].toFxText() + ", " + m_items[1].toFxText() + ", " + m_items[2].toFxText() + ")";
    case Kind::Ellipsis: return "Ellipsis";
    default: return m_text;
    }
}

std::string Argument::toPython() const
{
    switch (m_kind) {
    case Kind::NodeRef: return m_node ? m_node->name() : std::string("None");
    case Kind::String: return pythonStringRepr(m_text);
    case Kind::Device: return deviceRepr(m_text);
    case Kind::Ellipsis: return "...";
    case Kind::List:
    case Kind::Tuple:
    case Kind::Dict:
        return joinSequence(*this, [](const Argument &a, size_t i, bool key) {
            return key ? pythonStringRepr(a.keys()[i]) : a.items()[i].toPython();
        });
    case Kind::Slice:
        return "slice(" + m_items[0].toPython() + ", " + m_items[1].toPython() + ", " + m_items[2].toPython() + ")";
    default: return toFxText();
    }
}

} // namespace fxs
