#include "py_value.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

namespace fxs {

PyValue PyValue::ofBool(bool b)
{
    PyValue v;
    v.kind = Kind::Bool;
    v.i = b ? 1 : 0;
    return v;
}

PyValue PyValue::ofInt(int64_t x)
{
    PyValue v;
    v.kind = Kind::Int;
    v.i = x;
    return v;
}

PyValue PyValue::ofFloat(double x)
{
    PyValue v;
    v.kind = Kind::Float;
    v.f = x;
    return v;
}

PyValue PyValue::ofStr(std::string x)
{
    PyValue v;
    v.kind = Kind::Str;
    v.s = std::make_shared<const std::string>(std::move(x));
    return v;
}

PyValue PyValue::ofList(PyList items)
{
    PyValue v;
    v.kind = Kind::List;
    v.list = std::make_shared<PyList>(std::move(items));
    return v;
}

PyValue PyValue::ofTuple(PyList items)
{
    PyValue v;
    v.kind = Kind::Tuple;
    v.list = std::make_shared<PyList>(std::move(items));
    return v;
}

PyValue PyValue::ofDict(std::vector<std::pair<PyValue, PyValue>> items)
{
    PyValue v;
    v.kind = Kind::Dict;
    v.dict = std::make_shared<PyDictData>();
    v.dict->items = std::move(items);
    return v;
}

PyValue PyValue::ofObject(std::shared_ptr<PyObject> o)
{
    PyValue v;
    v.kind = Kind::Object;
    v.obj = std::move(o);
    return v;
}

const PyValue *PyCallArgs::kwarg(const std::string &name) const
{
    for (const auto &kv : kwargs)
        if (kv.first == name)
            return &kv.second;
    return nullptr;
}

void pyRaise(std::string type, std::string message)
{
    throw PyException{std::move(type), std::move(message), 0, 0};
}

bool pyTruthy(const PyValue &v)
{
    switch (v.kind) {
    case PyValue::Kind::None: return false;
    case PyValue::Kind::Bool:
    case PyValue::Kind::Int: return v.i != 0;
    case PyValue::Kind::Float: return v.f != 0;
    case PyValue::Kind::Str: return !v.s->empty();
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple: return !v.list->empty();
    case PyValue::Kind::Dict: return !v.dict->items.empty();
    case PyValue::Kind::Object: return v.obj->truthy();
    }
    return false;
}

bool pyEquals(const PyValue &a, const PyValue &b)
{
    if (a.isNumber() && b.isNumber()) {
        if (a.kind == PyValue::Kind::Float || b.kind == PyValue::Kind::Float)
            return a.number() == b.number();
        return a.i == b.i;
    }
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case PyValue::Kind::None: return true;
    case PyValue::Kind::Str: return *a.s == *b.s;
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple:
        if (a.list->size() != b.list->size())
            return false;
        for (size_t i = 0; i < a.list->size(); ++i)
            if (!pyEquals((*a.list)[i], (*b.list)[i]))
                return false;
        return true;
    case PyValue::Kind::Dict:
        if (a.dict->items.size() != b.dict->items.size())
            return false;
        for (size_t i = 0; i < a.dict->items.size(); ++i)
            if (!pyEquals(a.dict->items[i].first, b.dict->items[i].first)
                || !pyEquals(a.dict->items[i].second, b.dict->items[i].second))
                return false;
        return true;
    case PyValue::Kind::Object: return a.obj == b.obj || a.obj->equals(*b.obj);
    default: return false;
    }
}

namespace {

std::string floatRepr(double d)
{
    if (std::isinf(d))
        return d > 0 ? "inf" : "-inf";
    if (std::isnan(d))
        return "nan";
    char buf[64];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, d);
        if (std::strtod(buf, nullptr) == d)
            break;
    }
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    // Python writes 1e-06, C writes 1e-06 as well; keep as is.
    return s;
}

std::string quote(const std::string &s)
{
    std::string q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? "\"" : "'";
    std::string out = q;
    for (char c : s) {
        if (c == '\\' || std::string(1, c) == q)
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + q;
}

} // namespace

std::string pyRepr(const PyValue &v)
{
    switch (v.kind) {
    case PyValue::Kind::None: return "None";
    case PyValue::Kind::Bool: return v.i ? "True" : "False";
    case PyValue::Kind::Int: return std::to_string(v.i);
    case PyValue::Kind::Float: return floatRepr(v.f);
    case PyValue::Kind::Str: return quote(*v.s);
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple: {
        bool list = v.kind == PyValue::Kind::List;
        std::string out = list ? "[" : "(";
        for (size_t i = 0; i < v.list->size(); ++i) {
            if (i)
                out += ", ";
            out += pyRepr((*v.list)[i]);
            if (out.size() > 400) {
                out += ", ...";
                break;
            }
        }
        if (!list && v.list->size() == 1)
            out += ",";
        return out + (list ? "]" : ")");
    }
    case PyValue::Kind::Dict: {
        std::string out = "{";
        for (size_t i = 0; i < v.dict->items.size(); ++i) {
            if (i)
                out += ", ";
            out += pyRepr(v.dict->items[i].first) + ": " + pyRepr(v.dict->items[i].second);
            if (out.size() > 400) {
                out += ", ...";
                break;
            }
        }
        return out + "}";
    }
    case PyValue::Kind::Object: return v.obj->repr();
    }
    return "?";
}

std::string pyStr(const PyValue &v)
{
    return v.kind == PyValue::Kind::Str ? *v.s : pyRepr(v);
}

namespace {

struct FormatSpec {
    char fill = ' ';
    char align = 0; // < > ^ =, 0: the type's default
    char sign = '-';
    bool alternate = false;
    size_t width = 0;
    char grouping = 0; // , or _
    int precision = -1;
    char type = 0;
};

FormatSpec parseFormatSpec(const std::string &spec)
{
    FormatSpec f;
    size_t i = 0;
    auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
    if (spec.size() >= 2 && isAlign(spec[1])) {
        f.fill = spec[0];
        f.align = spec[1];
        i = 2;
    } else if (!spec.empty() && isAlign(spec[0])) {
        f.align = spec[0];
        i = 1;
    }
    if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' '))
        f.sign = spec[i++];
    if (i < spec.size() && spec[i] == '#') {
        f.alternate = true;
        ++i;
    }
    if (i < spec.size() && spec[i] == '0') {
        if (!f.align) {
            f.fill = '0';
            f.align = '=';
        }
        ++i;
    }
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])))
        f.width = f.width * 10 + size_t(spec[i++] - '0');
    if (f.width > 10000)
        pyRaise("ValueError", "format width " + std::to_string(f.width) + " is too large for the sandbox");
    if (i < spec.size() && (spec[i] == ',' || spec[i] == '_'))
        f.grouping = spec[i++];
    if (i < spec.size() && spec[i] == '.') {
        ++i;
        if (i >= spec.size() || !std::isdigit(static_cast<unsigned char>(spec[i])))
            pyRaise("ValueError", "Format specifier missing precision");
        f.precision = 0;
        while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])))
            f.precision = std::min(f.precision * 10 + (spec[i++] - '0'), 1000);
    }
    if (i < spec.size())
        f.type = spec[i++];
    if (i < spec.size())
        pyRaise("ValueError", "Invalid format specifier '" + spec + "'");
    return f;
}

// Inserts the grouping character every `every` digits of the integer part of `digits` (no sign): three for
// decimal, four for binary, octal and hex, as Python does.
std::string group(std::string digits, char sep, size_t every = 3)
{
    if (!sep)
        return digits;
    size_t end = digits.find_first_of(".eE%");
    if (end == std::string::npos)
        end = digits.size();
    for (size_t pos = end; pos > every;) {
        pos -= every;
        digits.insert(pos, 1, sep);
    }
    return digits;
}

std::string pad(const std::string &sign, const std::string &body, const FormatSpec &f, char defaultAlign)
{
    const size_t len = sign.size() + body.size();
    if (len >= f.width)
        return sign + body;
    const size_t n = f.width - len;
    switch (f.align ? f.align : defaultAlign) {
    case '<': return sign + body + std::string(n, f.fill);
    case '^': return std::string(n / 2, f.fill) + sign + body + std::string(n - n / 2, f.fill);
    case '=': return sign + std::string(n, f.fill) + body;
    default: return std::string(n, f.fill) + sign + body;
    }
}

} // namespace

std::string pyFormat(const PyValue &v, const std::string &spec)
{
    if (spec.empty())
        return pyStr(v);
    const FormatSpec f = parseFormatSpec(spec);
    if (v.kind == PyValue::Kind::Str) {
        if (f.type && f.type != 's')
            pyRaise("ValueError", std::string("Unknown format code '") + f.type + "' for object of type 'str'");
        std::string s = *v.s;
        if (f.precision >= 0 && size_t(f.precision) < s.size())
            s.resize(size_t(f.precision));
        return pad("", s, f, '<');
    }
    if (!v.isNumber())
        pyRaise("TypeError", "unsupported format string passed to " + pyTypeName(v) + ".__format__");
    char type = f.type;
    const bool integral = v.isIntLike();
    if (integral
        && (type == 0 || type == 'd' || type == 'n' || type == 'b' || type == 'o' || type == 'x' || type == 'X'
            || type == 'c')) {
        if (f.precision >= 0)
            pyRaise("ValueError", "Precision not allowed in integer format specifier");
        const int64_t x = v.i;
        uint64_t mag = x < 0 ? uint64_t(0) - uint64_t(x) : uint64_t(x);
        std::string digits;
        if (type == 'c') {
            digits = std::string(1, char(x));
        } else {
            const int base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
            const char *alphabet = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
            do {
                digits.insert(digits.begin(), alphabet[mag % uint64_t(base)]);
                mag /= uint64_t(base);
            } while (mag);
            digits = group(digits, f.grouping, base == 10 ? 3 : 4);
            if (f.alternate && base != 10)
                digits = std::string("0") + (type == 'X' ? 'X' : type) + digits;
        }
        const std::string sign = x < 0 ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
        return pad(sign, digits, f, '>');
    }
    if (!integral && type && std::string_view("eEfFgG%").find(type) == std::string_view::npos)
        pyRaise("ValueError", std::string("Unknown format code '") + type + "' for object of type 'float'");
    if (integral && std::string_view("eEfFgG%").find(type) == std::string_view::npos)
        pyRaise("ValueError", std::string("Unknown format code '") + type + "' for object of type 'int'");
    double x = v.number();
    std::string body;
    if (std::isnan(x) || std::isinf(x)) {
        body = std::isnan(x) ? "nan" : "inf";
        if (type == 'E' || type == 'F' || type == 'G')
            for (char &c : body)
                c = char(std::toupper(static_cast<unsigned char>(c)));
    } else if (type == 0 && f.precision < 0) {
        body = pyRepr(PyValue::ofFloat(std::fabs(x)));
    } else {
        const int precision = f.precision >= 0 ? f.precision : 6;
        char fmt[16];
        const char conv = type == 0 ? 'g' : type == '%' ? 'f' : type;
        std::snprintf(fmt, sizeof fmt, "%%%s.%d%c", f.alternate ? "#" : "", precision, conv);
        std::vector<char> buf(size_t(precision) + 400);
        std::snprintf(buf.data(), buf.size(), fmt, std::fabs(type == '%' ? x * 100 : x));
        body = buf.data();
        if (type == '%')
            body += '%';
    }
    body = group(body, f.grouping);
    const std::string sign = std::signbit(x) && !std::isnan(x) ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
    return pad(sign, body, f, '>');
}

std::string pyTypeName(const PyValue &v)
{
    switch (v.kind) {
    case PyValue::Kind::None: return "NoneType";
    case PyValue::Kind::Bool: return "bool";
    case PyValue::Kind::Int: return "int";
    case PyValue::Kind::Float: return "float";
    case PyValue::Kind::Str: return "str";
    case PyValue::Kind::List: return "list";
    case PyValue::Kind::Tuple: return "tuple";
    case PyValue::Kind::Dict: return "dict";
    case PyValue::Kind::Object: return v.obj->typeName();
    }
    return "object";
}

} // namespace fxs
