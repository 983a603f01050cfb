// The builtins pattern files use: isinstance, hasattr, getattr, len, str, int, float, bool, any, all, list,
// tuple, dict, range, enumerate, zip, min, max, abs, sum, sorted, print (a no-op: nothing leaves the sandbox).

#include "py_interpreter.h"

#include <cmath>
#include <cstdlib>

namespace fxs {

namespace {

void needArgs(const PyCallArgs &a, size_t lo, size_t hi, const char *name)
{
    if (a.args.size() < lo || a.args.size() > hi)
        pyRaise("TypeError",
            std::string(name) + "() takes " + std::to_string(lo)
                + (hi != lo ? " to " + std::to_string(hi) : std::string()) + " arguments ("
                + std::to_string(a.args.size()) + " given)");
}

// The type objects builtins name (int, str, list, ...): callable, and usable in isinstance.
class PyTypeObject : public PyBuiltin {
public:
    using PyBuiltin::PyBuiltin;
    std::string typeName() const override { return "type"; }
    std::string repr() const override { return "<class '" + name() + "'>"; }
};

bool isInstance(const PyValue &v, const PyValue &cls)
{
    if (cls.kind == PyValue::Kind::Tuple) {
        for (const PyValue &c : *cls.list)
            if (isInstance(v, c))
                return true;
        return false;
    }
    if (auto *t = cls.as<PyTypeObject>()) {
        const std::string &n = t->name();
        if (n == "int")
            return v.kind == PyValue::Kind::Int || v.kind == PyValue::Kind::Bool;
        if (n == "float")
            return v.kind == PyValue::Kind::Float;
        if (n == "object")
            return true;
        return pyTypeName(v) == n;
    }
    if (auto *o = cls.as<PyOpaque>())
        return v.kind == PyValue::Kind::Object && v.obj->isInstanceOf(o->path());
    pyRaise("TypeError", "isinstance() arg 2 must be a type or tuple of types, not " + pyTypeName(cls));
}

PyValue minMax(PyInterpreter &in, PyCallArgs &a, bool isMax)
{
    PyList items = a.args.size() == 1 ? in.iterate(a.args[0]) : a.args;
    if (items.empty()) {
        if (const PyValue *d = a.kwarg("default"))
            return *d;
        pyRaise("ValueError", std::string(isMax ? "max" : "min") + "() arg is an empty sequence");
    }
    PyValue best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
        const PyValue &x = items[i];
        bool better;
        if (x.isNumber() && best.isNumber())
            better = isMax ? x.number() > best.number() : x.number() < best.number();
        else if (x.kind == PyValue::Kind::Str && best.kind == PyValue::Kind::Str)
            better = isMax ? *x.s > *best.s : *x.s < *best.s;
        else
            pyRaise("TypeError", "'<' not supported between '" + pyTypeName(x) + "' and '" + pyTypeName(best) + "'");
        if (better)
            best = x;
    }
    return best;
}

} // namespace

void PyInterpreter::installBuiltins()
{
    auto add = [this](const std::string &name, PyBuiltin::Fn fn) {
        m_builtins[name] = PyValue::ofObject(std::make_shared<PyBuiltin>(name, std::move(fn)));
    };
    auto addType = [this](const std::string &name, PyBuiltin::Fn fn) {
        m_builtins[name] = PyValue::ofObject(std::make_shared<PyTypeObject>(name, std::move(fn)));
    };
    add("isinstance", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 2, 2, "isinstance");
        return PyValue::ofBool(isInstance(a.args[0], a.args[1]));
    });
    add("hasattr", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 2, 2, "hasattr");
        if (a.args[1].kind != PyValue::Kind::Str)
            pyRaise("TypeError", "hasattr(): attribute name must be string");
        bool found = false;
        in.getAttr(a.args[0], a.args[1].str(), &found);
        return PyValue::ofBool(found);
    });
    add("getattr", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 2, 3, "getattr");
        if (a.args[1].kind != PyValue::Kind::Str)
            pyRaise("TypeError", "getattr(): attribute name must be string");
        bool found = false;
        PyValue v = in.getAttr(a.args[0], a.args[1].str(), &found);
        if (found)
            return v;
        if (a.args.size() == 3)
            return a.args[2];
        pyRaise("AttributeError", "'" + pyTypeName(a.args[0]) + "' object has no attribute '" + a.args[1].str() + "'");
    });
    add("len", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 1, 1, "len");
        const PyValue &v = a.args[0];
        size_t n = 0;
        if (v.isSequence())
            n = v.list->size();
        else if (v.kind == PyValue::Kind::Str)
            n = v.s->size();
        else if (v.kind == PyValue::Kind::Dict)
            n = v.dict->items.size();
        else if (!(v.kind == PyValue::Kind::Object && v.obj->length(n)))
            pyRaise("TypeError", "object of type '" + pyTypeName(v) + "' has no len()");
        return PyValue::ofInt(int64_t(n));
    });
    addType("str", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 0, 1, "str");
        return PyValue::ofStr(a.args.empty() ? std::string() : pyStr(a.args[0]));
    });
    addType("int", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 0, 1, "int");
        if (a.args.empty())
            return PyValue::ofInt(0);
        const PyValue &v = a.args[0];
        if (v.isIntLike())
            return PyValue::ofInt(v.i);
        if (v.kind == PyValue::Kind::Float) {
            if (!std::isfinite(v.f))
                pyRaise("ValueError", "cannot convert float " + pyRepr(v) + " to integer");
            return PyValue::ofInt(int64_t(std::trunc(v.f)));
        }
        if (v.kind == PyValue::Kind::Str) {
            char *end = nullptr;
            long long x = std::strtoll(v.s->c_str(), &end, 10);
            if (v.s->empty() || *end)
                pyRaise("ValueError", "invalid literal for int() with base 10: " + pyRepr(v));
            return PyValue::ofInt(x);
        }
        pyRaise("TypeError", "int() argument must be a string or a number, not '" + pyTypeName(v) + "'");
    });
    addType("float", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 0, 1, "float");
        if (a.args.empty())
            return PyValue::ofFloat(0);
        const PyValue &v = a.args[0];
        if (v.isNumber())
            return PyValue::ofFloat(v.number());
        if (v.kind == PyValue::Kind::Str) {
            char *end = nullptr;
            double x = std::strtod(v.s->c_str(), &end);
            if (v.s->empty() || *end)
                pyRaise("ValueError", "could not convert string to float: " + pyRepr(v));
            return PyValue::ofFloat(x);
        }
        pyRaise("TypeError", "float() argument must be a string or a number, not '" + pyTypeName(v) + "'");
    });
    addType("bool", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 0, 1, "bool");
        return PyValue::ofBool(!a.args.empty() && pyTruthy(a.args[0]));
    });
    addType("list", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 0, 1, "list");
        return PyValue::ofList(a.args.empty() ? PyList{} : in.iterate(a.args[0]));
    });
    addType("tuple", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 0, 1, "tuple");
        return PyValue::ofTuple(a.args.empty() ? PyList{} : in.iterate(a.args[0]));
    });
    addType("dict", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 0, 0, "dict");
        std::vector<std::pair<PyValue, PyValue>> items;
        for (auto &kv : a.kwargs)
            items.push_back({PyValue::ofStr(kv.first), kv.second});
        return PyValue::ofDict(std::move(items));
    });
    addType("object", [](PyInterpreter &in, PyCallArgs &) { return in.makeOpaque("object()", true); });
    add("any", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 1, 1, "any");
        for (const PyValue &v : in.iterate(a.args[0]))
            if (pyTruthy(v))
                return PyValue::ofBool(true);
        return PyValue::ofBool(false);
    });
    add("all", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 1, 1, "all");
        for (const PyValue &v : in.iterate(a.args[0]))
            if (!pyTruthy(v))
                return PyValue::ofBool(false);
        return PyValue::ofBool(true);
    });
    add("range", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 1, 3, "range");
        for (const PyValue &v : a.args)
            if (!v.isIntLike())
                pyRaise("TypeError", "'" + pyTypeName(v) + "' object cannot be interpreted as an integer");
        int64_t start = a.args.size() > 1 ? a.args[0].i : 0;
        int64_t stop = a.args.size() > 1 ? a.args[1].i : a.args[0].i;
        int64_t step = a.args.size() > 2 ? a.args[2].i : 1;
        if (step == 0)
            pyRaise("ValueError", "range() arg 3 must not be zero");
        int64_t count = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                                 : (start > stop ? (start - stop - step - 1) / -step : 0);
        in.countElements(count); // ranges are materialised, so they count against the memory bound
        PyList items;
        items.reserve(size_t(count));
        for (int64_t k = 0; k < count; ++k)
            items.push_back(PyValue::ofInt(start + k * step));
        return PyValue::ofList(std::move(items));
    });
    add("enumerate", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 1, 2, "enumerate");
        int64_t start = a.args.size() > 1 ? a.args[1].i : 0;
        if (const PyValue *s = a.kwarg("start"))
            start = s->i;
        PyList items = in.iterate(a.args[0]);
        in.countElements(int64_t(items.size()) * 2);
        PyList out;
        for (size_t i = 0; i < items.size(); ++i)
            out.push_back(PyValue::ofTuple({PyValue::ofInt(start + int64_t(i)), items[i]}));
        return PyValue::ofList(std::move(out));
    });
    add("zip", [](PyInterpreter &in, PyCallArgs &a) {
        std::vector<PyList> lists;
        size_t n = SIZE_MAX;
        for (const PyValue &v : a.args) {
            lists.push_back(in.iterate(v));
            n = std::min(n, lists.back().size());
        }
        if (lists.empty())
            n = 0;
        in.countElements(int64_t(n * (lists.size() + 1)));
        PyList out;
        for (size_t i = 0; i < n; ++i) {
            PyList row;
            for (const auto &l : lists)
                row.push_back(l[i]);
            out.push_back(PyValue::ofTuple(std::move(row)));
        }
        return PyValue::ofList(std::move(out));
    });
    add("min", [](PyInterpreter &in, PyCallArgs &a) { return minMax(in, a, false); });
    add("max", [](PyInterpreter &in, PyCallArgs &a) { return minMax(in, a, true); });
    add("abs", [](PyInterpreter &, PyCallArgs &a) {
        needArgs(a, 1, 1, "abs");
        const PyValue &v = a.args[0];
        if (v.kind == PyValue::Kind::Float)
            return PyValue::ofFloat(std::fabs(v.f));
        if (v.isIntLike())
            return PyValue::ofInt(v.i < 0 ? -v.i : v.i);
        pyRaise("TypeError", "bad operand type for abs(): '" + pyTypeName(v) + "'");
    });
    add("sum", [](PyInterpreter &in, PyCallArgs &a) {
        needArgs(a, 1, 2, "sum");
        bool isFloat = false;
        double f = 0;
        int64_t i = a.args.size() > 1 ? a.args[1].i : 0;
        for (const PyValue &v : in.iterate(a.args[0])) {
            if (!v.isNumber())
                pyRaise("TypeError", "sum() of '" + pyTypeName(v) + "' values is outside the subset");
            if (v.kind == PyValue::Kind::Float)
                isFloat = true;
            f += v.number();
            i += v.isIntLike() ? v.i : 0;
        }
        return isFloat ? PyValue::ofFloat(f + (a.args.size() > 1 ? a.args[1].number() : 0)) : PyValue::ofInt(i);
    });
    add("print", [](PyInterpreter &, PyCallArgs &) { return PyValue::none(); });
    // Exception classes, so `raise ValueError("...")` names its type.
    for (const char *exc : {"Exception", "ValueError", "TypeError", "RuntimeError", "AssertionError", "KeyError",
             "IndexError", "NotImplementedError", "AttributeError"})
        m_builtins[exc] = makeOpaque(exc);
    for (const char *forbidden :
        {"open", "exec", "eval", "compile", "__import__", "input", "globals", "locals", "vars"})
        add(forbidden, [name = std::string(forbidden)](PyInterpreter &, PyCallArgs &) -> PyValue {
            pyRaise("SandboxError",
                name
                    + "() is not available: pattern code runs without file, process or "
                      "dynamic-code access");
        });
}

} // namespace fxs
