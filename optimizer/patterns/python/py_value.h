#pragma once
// Values of the sandboxed Python subset: immutable scalars inline, lists and dicts shared (Python's aliasing),
// and everything torch-flavoured (modules, tensors, FX nodes, Match) as a PyObject subclass.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

class PyObject;
class PyInterpreter;
struct PyValue;

using PyList = std::vector<PyValue>;
struct PyDictData;

struct PyValue {
    enum class Kind { None, Bool, Int, Float, Str, List, Tuple, Dict, Object };
    Kind kind = Kind::None;
    int64_t i = 0;
    double f = 0;
    std::shared_ptr<const std::string> s;
    std::shared_ptr<PyList> list; // List and Tuple
    std::shared_ptr<PyDictData> dict;
    std::shared_ptr<PyObject> obj;

    static PyValue none() { return {}; }
    static PyValue ofBool(bool b);
    static PyValue ofInt(int64_t v);
    static PyValue ofFloat(double v);
    static PyValue ofStr(std::string v);
    static PyValue ofList(PyList items);
    static PyValue ofTuple(PyList items);
    static PyValue ofDict(std::vector<std::pair<PyValue, PyValue>> items);
    static PyValue ofObject(std::shared_ptr<PyObject> o);

    bool isNone() const { return kind == Kind::None; }
    bool isNumber() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
    bool isIntLike() const { return kind == Kind::Bool || kind == Kind::Int; }
    bool isSequence() const { return kind == Kind::List || kind == Kind::Tuple; }
    double number() const { return kind == Kind::Float ? f : double(i); }
    const std::string &str() const { return *s; }
    template <typename T>
    T *as() const
    {
        return dynamic_cast<T *>(obj.get());
    }
};

struct PyDictData {
    std::vector<std::pair<PyValue, PyValue>> items;
};

struct PyCallArgs {
    std::vector<PyValue> args;
    std::vector<std::pair<std::string, PyValue>> kwargs;
    const PyValue *kwarg(const std::string &name) const;
};

// A Python exception raised inside the sandbox; never escapes PyInterpreter's public API.
struct PyException {
    std::string type; // "TypeError", "SandboxLimit", "SubsetError", ...
    std::string message;
    int line = 0;
    int column = 0;
};

[[noreturn]] void pyRaise(std::string type, std::string message);

class PyObject {
public:
    virtual ~PyObject() = default;
    virtual std::string typeName() const = 0;
    virtual std::string repr() const { return "<" + typeName() + ">"; }
    // False when there is no such attribute (AttributeError, or hasattr → False).
    virtual bool getAttr(PyInterpreter &, const std::string &, PyValue &) { return false; }
    virtual PyValue call(PyInterpreter &, PyCallArgs &)
    {
        pyRaise("TypeError", "'" + typeName() + "' object is not callable");
    }
    virtual bool getItem(PyInterpreter &, const PyValue &, PyValue &) { return false; }
    virtual bool contains(PyInterpreter &, const PyValue &, bool &) { return false; }
    virtual bool iterate(PyInterpreter &, PyList &) { return false; }
    virtual bool length(size_t &) const { return false; }
    virtual bool equals(const PyObject &other) const { return this == &other; }
    virtual bool truthy() const { return true; }
    // `with obj:`; false when the object is not a context manager.
    virtual bool isContextManager() const { return false; }
    // Python operators (+, -, *, /, **, @, ...) with this object on the left, or on the right when reflected.
    virtual bool binaryOp(PyInterpreter &, const std::string &, const PyValue &, bool, PyValue &) { return false; }
    virtual bool unaryOp(PyInterpreter &, const std::string &, PyValue &) { return false; }
    // For isinstance(x, cls): the dotted class names this object is an instance of ("torch.Tensor").
    virtual bool isInstanceOf(const std::string &) const { return false; }
};

// Python semantics helpers.
bool pyTruthy(const PyValue &v);
bool pyEquals(const PyValue &a, const PyValue &b);
std::string pyRepr(const PyValue &v);
std::string pyStr(const PyValue &v);
// format(v, spec) with Python's format-spec mini-language ([[fill]align][sign][#][0][width][,|_][.precision][type])
// for str, int, bool and float; an empty spec is str(v). A bad spec raises ValueError/TypeError as Python does.
std::string pyFormat(const PyValue &v, const std::string &spec);
std::string pyTypeName(const PyValue &v);

} // namespace fxs
