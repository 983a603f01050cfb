#include "py_value.h"

#include <cmath>
#include <cstdio>

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
