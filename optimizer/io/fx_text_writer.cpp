#include "fx_text_writer.h"

#include "fx_arg_scanner.h"

namespace fxs {

namespace {

bool isImplicit(const Node &node)
{
    const Json &extra = node.meta().extra;
    return extra.isObject() && extra["implicit"].toBool();
}

// A bare word reads back as the same string only when it is an identifier that classifies as a string.
std::string fxString(const std::string &s)
{
    if (FxArgScanner::isIdentifier(s) && FxArgScanner::classifyWord(s).kind() == Argument::Kind::String)
        return s;
    return pythonStringRepr(s);
}

std::string fxKey(const std::string &key)
{
    bool plain = !key.empty() && key.front() != ' ' && key.back() != ' ' && key.front() != '\'' && key.front() != '"'
        && key.find_first_of(":,{}\n") == std::string::npos;
    return plain ? key : pythonStringRepr(key);
}

// Like Argument::toFxText, with the quoting above. Recursion follows the argument's nesting, which the
// parsers bound.
std::string fxText(const Argument &a)
{
    switch (a.kind()) {
    case Argument::Kind::String: return fxString(a.text());
    case Argument::Kind::Device:
        // str(device) is 'cuda:0'; a device type the reader does not know by name keeps its repr.
        return FxArgScanner::classifyWord(a.text()).kind() == Argument::Kind::Device ? a.text() : a.toPython();
    case Argument::Kind::List:
    case Argument::Kind::Tuple: {
        bool tuple = a.kind() == Argument::Kind::Tuple;
        std::string out = tuple ? "(" : "[";
        for (size_t i = 0; i < a.items().size(); ++i) {
            if (i)
                out += ", ";
            out += fxText(a.items()[i]);
        }
        if (tuple && a.items().size() == 1)
            out += ",";
        return out + (tuple ? ")" : "]");
    }
    case Argument::Kind::Dict: {
        std::string out = "{";
        for (size_t i = 0; i < a.items().size(); ++i) {
            if (i)
                out += ", ";
            out += fxKey(a.keys()[i]) + ": " + fxText(a.items()[i]);
        }
        return out + "}";
    }
    case Argument::Kind::Slice:
        return "slice(" + fxText(a.items()[0]) + ", " + fxText(a.items()[1]) + ", " + fxText(a.items()[2]) + ")";
    default: return a.toFxText();
    }
}

// The `Tensor "..."` type part for meta['val'], or "" when it has no annotation that reads back the same.
std::string valueAnnotation(const NodeMeta &meta)
{
    if (!meta.val || meta.val->kind == ValueMeta::Kind::Tuple)
        return {};
    std::string text = meta.val->toAnnotation();
    if (text.find('"') != std::string::npos)
        return {};
    auto back = ValueMeta::parseAnnotation(text);
    if (!back || back->toAnnotation() != text)
        return {};
    return std::string(meta.val->kind == ValueMeta::Kind::Tensor ? "Tensor" : "Sym") + " \"" + text + "\"";
}

std::string nodeLine(const Node &n)
{
    std::string type = n.meta().typeAnnotation;
    std::string annotation = valueAnnotation(n.meta());
    if (!annotation.empty())
        type = type.empty() ? annotation : type + " " + annotation;
    else if (!type.empty())
        type += " ";
    std::string out = "%" + n.name() + " : " + type + "[num_users=" + std::to_string(n.users().size()) + "] = ";
    switch (n.op()) {
    case OpKind::Placeholder:
        out += "placeholder[target=" + n.target() + "]";
        if (!n.args().empty())
            out += "(default=" + n.args()[0].toPython() + ")";
        return out;
    case OpKind::GetAttr: return out + "get_attr[target=" + n.target() + "]";
    default: break;
    }
    std::vector<std::pair<std::string, Argument>> kwargs(n.kwargs().begin(), n.kwargs().end());
    out += std::string(opKindName(n.op())) + "[target=" + n.target() + "](args = " + fxText(Argument::tuple(n.args()))
        + ", kwargs = " + fxText(Argument::dict(std::move(kwargs))) + ")";
    return out;
}

std::string returnValue(const Node &output)
{
    return output.args().empty() ? std::string("None") : output.args()[0].toPython();
}

// Inductor's spelling, `return %a,%b`; a one-item tuple keeps a trailing comma so it reads back as one.
std::string fragmentReturnValue(const Node &output)
{
    if (output.args().empty())
        return "None";
    const Argument &v = output.args()[0];
    if (v.kind() != Argument::Kind::Tuple || v.items().empty())
        return fxText(v);
    std::string out;
    for (size_t i = 0; i < v.items().size(); ++i) {
        if (i)
            out += ",";
        out += fxText(v.items()[i]);
    }
    if (v.items().size() == 1)
        out += ",";
    return out;
}

} // namespace

std::string writeFxText(const Graph &graph)
{
    bool fragment = false;
    for (const auto &n : graph.nodes())
        fragment = fragment || isImplicit(*n);
    std::string out = fragment ? "# Graph fragment:\n" : "graph():\n";
    const char *indent = fragment ? "#   " : "    ";
    for (const auto &owned : graph.nodes()) {
        const Node &n = *owned;
        if (fragment && isImplicit(n))
            continue; // re-created from the references when read back
        out += indent;
        if (n.op() == OpKind::Output)
            out += "return " + (fragment ? fragmentReturnValue(n) : returnValue(n));
        else
            out += nodeLine(n);
        out += '\n';
    }
    return out;
}

} // namespace fxs
