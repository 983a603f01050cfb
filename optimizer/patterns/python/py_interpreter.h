#pragma once
// A sandboxed interpreter for the Python subset of pattern files (docs/python-subset.md). It has no access to
// files, network or processes: imports resolve to opaque module objects (or what the host provides), and every
// run is bounded in steps, call depth and allocated elements. Errors carry FILE:LINE:COL. While a trace is
// attached, each executed statement is recorded with the values it computed, which is how an extra_check
// explains its verdict.

#include "py_module.h"
#include "py_value.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fxs {

// What the embedding program provides: module contents and calls into torch-like namespaces.
class PyHost {
public:
    virtual ~PyHost() = default;
    // A call of an opaque dotted name (torch.add, functools.partial, torchair.register_replacement).
    // False: not handled (the interpreter then returns an opaque instance).
    virtual bool call(PyInterpreter &, const std::string &path, PyCallArgs &, PyValue &) { return false; }
    // An attribute of an opaque dotted name, when it is a value rather than a further namespace (torch.float16).
    virtual bool attribute(PyInterpreter &, const std::string &path, PyValue &) { return false; }
};

struct PyLimits {
    int64_t maxSteps = 2'000'000; // statements and expression nodes evaluated per run
    int maxCallDepth = 64; // nested Python calls
    int64_t maxElements = 4'000'000; // list/tuple/dict/str elements allocated per run
    size_t maxTraceLines = 200;
};

struct PyTrace {
    std::vector<std::string> lines; // "line 29: return a_shape[-1] == 7168 → False (a_shape[-1] = 4096)"
    std::vector<std::string> logs; // logger.debug/info/warning messages
};

// An opaque object standing for a module or a value fxscope does not model (torch.float16, FakeTensorMode()).
class PyOpaque : public PyObject {
public:
    explicit PyOpaque(std::string path, bool instance = false) : m_path(std::move(path)), m_instance(instance) { }
    std::string typeName() const override { return m_instance ? "object" : "module"; }
    std::string repr() const override { return m_path; }
    bool getAttr(PyInterpreter &interp, const std::string &name, PyValue &out) override;
    PyValue call(PyInterpreter &interp, PyCallArgs &args) override;
    bool equals(const PyObject &other) const override;
    bool isContextManager() const override { return true; }
    const std::string &path() const { return m_path; }

private:
    std::string m_path;
    bool m_instance;
};

class PyFunction : public PyObject {
public:
    std::string typeName() const override { return "function"; }
    std::string repr() const override { return "<function " + def->name + ">"; }
    bool getAttr(PyInterpreter &, const std::string &name, PyValue &out) override;
    PyValue call(PyInterpreter &interp, PyCallArgs &args) override;

    std::shared_ptr<const PyFunctionDef> def;
    std::vector<PyValue> defaults; // parallel to def->params (None where no default)
    std::shared_ptr<std::map<std::string, PyValue>> closure; // the defining frame's locals (nested defs)
    int calls = 0; // how often it ran (the loader's _register_ convention skips warnings for called ones)
};

// A class defined in the file: the namespace its body built (methods, values) and an optional base class.
// Calling it makes an instance and runs __init__; enough for the pass-manager classes pattern files define.
class PyClass : public PyObject {
public:
    std::string typeName() const override { return "type"; }
    std::string repr() const override { return "<class '" + name + "'>"; }
    bool getAttr(PyInterpreter &, const std::string &attr, PyValue &out) override { return lookup(attr, out); }
    PyValue call(PyInterpreter &interp, PyCallArgs &args) override;
    bool lookup(const std::string &attr, PyValue &out) const; // own namespace, then the base's

    std::string name;
    std::map<std::string, PyValue> attrs;
    std::shared_ptr<PyClass> base;
    std::weak_ptr<PyClass> self; // set by the class statement, for the instances' class pointer
};

// An instance of a PyClass: its own attributes (set through `self.x = ...`), then the class's; functions of the
// class come back bound to the instance.
class PyInstance : public PyObject, public std::enable_shared_from_this<PyInstance> {
public:
    explicit PyInstance(std::shared_ptr<PyClass> cls) : m_class(std::move(cls)) { }
    std::string typeName() const override { return m_class->name; }
    std::string repr() const override { return "<" + m_class->name + " object>"; }
    bool getAttr(PyInterpreter &, const std::string &attr, PyValue &out) override;
    void setAttr(const std::string &attr, PyValue value) { m_attrs[attr] = std::move(value); }

private:
    std::shared_ptr<PyClass> m_class;
    std::map<std::string, PyValue> m_attrs;
};

class PyBoundMethod : public PyObject {
public:
    PyBoundMethod(PyValue self, PyValue fn) : m_self(std::move(self)), m_fn(std::move(fn)) { }
    std::string typeName() const override { return "method"; }
    std::string repr() const override { return "<bound method " + pyRepr(m_fn) + ">"; }
    PyValue call(PyInterpreter &interp, PyCallArgs &args) override;

private:
    PyValue m_self;
    PyValue m_fn;
};

class PyBuiltin : public PyObject {
public:
    using Fn = std::function<PyValue(PyInterpreter &, PyCallArgs &)>;
    PyBuiltin(std::string name, Fn fn) : m_name(std::move(name)), m_fn(std::move(fn)) { }
    std::string typeName() const override { return "builtin_function_or_method"; }
    std::string repr() const override { return "<built-in function " + m_name + ">"; }
    PyValue call(PyInterpreter &interp, PyCallArgs &args) override { return m_fn(interp, args); }
    const std::string &name() const { return m_name; }

private:
    std::string m_name;
    Fn m_fn;
};

class PyInterpreter {
public:
    PyInterpreter(std::shared_ptr<const PyModule> module, PyHost *host, PyLimits limits = {});

    // Runs the module's top level. The error is FILE:LINE:COL: Type: message.
    Status run();
    // Calls a function value with the given arguments, resetting the step/element budget first.
    // With a trace, each statement executed is recorded.
    Result<PyValue> callFunction(const PyValue &fn, PyCallArgs args, PyTrace *trace = nullptr);
    // Runs host-side work that calls into the file (tracing a function) with the same fresh budget, turning a
    // Python exception into the error callFunction would give.
    Status runGuarded(const std::function<void()> &job);

    const PyModule &module() const { return *m_module; }
    std::map<std::string, PyValue> &globals() { return *m_globals; }
    PyHost *host() const { return m_host; }
    PyTrace *trace() const { return m_trace; }
    // The line of the statement being executed (for objects that record where they were created).
    int currentLine() const { return m_line; }

    // Used by objects and the host.
    PyValue call(const PyValue &fn, PyCallArgs &args);
    PyValue getAttr(const PyValue &v, const std::string &name, bool *found = nullptr);
    PyValue getItem(const PyValue &v, const PyValue &index);
    PyList iterate(const PyValue &v);
    void countElements(int64_t n);
    void countStep();
    PyValue makeOpaque(const std::string &path, bool instance = false);

private:
    enum class Flow { Normal, Break, Continue, Return };
    struct Frame {
        std::shared_ptr<std::map<std::string, PyValue>> locals;
        std::shared_ptr<std::map<std::string, PyValue>> closure;
        PyValue returnValue;
    };

    friend class PyFunction;
    PyValue callUser(PyFunction &fn, PyCallArgs &args);
    Flow execBlock(const std::vector<PyStmt> &body);
    Flow exec(const PyStmt &s);
    Flow execTry(const PyStmt &s);
    void traceStatement(const PyStmt &s, const std::string &text);
    PyValue eval(ExprId id);
    PyValue evalCall(ExprId id);
    PyValue evalCompare(ExprId id);
    PyValue evalBinary(const std::string &op, const PyValue &a, const PyValue &b);
    bool compareOne(const std::string &op, const PyValue &a, const PyValue &b);
    PyValue evalComprehension(ExprId id);
    void compFor(ExprId id, size_t clause, const std::function<void()> &emit);
    PyValue lookup(ExprId id);
    void assign(ExprId target, const PyValue &value);
    void setItem(const PyValue &container, const PyValue &index, const PyValue &value);
    void capture(ExprId id, const PyValue &value);
    std::string source(ExprId id) const;
    void installBuiltins();
    [[noreturn]] void fail(ExprId at, std::string type, std::string message);

    std::shared_ptr<const PyModule> m_module;
    const ExprTree &m_tree;
    PyHost *m_host;
    PyLimits m_limits;
    std::shared_ptr<std::map<std::string, PyValue>> m_globals;
    std::map<std::string, PyValue> m_builtins;
    std::vector<Frame> m_frames;
    int64_t m_steps = 0;
    int64_t m_elements = 0;
    int m_line = 0;
    int m_column = 0;
    PyTrace *m_trace = nullptr;
    std::vector<std::pair<std::string, std::string>> m_captures; // (source, value) of the traced statement
};

} // namespace fxs
