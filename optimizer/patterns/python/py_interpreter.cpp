#include "py_interpreter.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace fxs {

namespace {

// Python's floor division and modulo for ints.
int64_t floorDiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

int64_t floorMod(int64_t a, int64_t b)
{
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0)))
        m += b;
    return m;
}

bool isLiteral(const ExprTree &t, ExprId id)
{
    auto k = t[id].kind;
    if (k == ExprKind::UnaryOp && t.childCount(id) == 1)
        return isLiteral(t, t.child(id, 0)) && t[id].text != "not";
    return k == ExprKind::Number || k == ExprKind::String || k == ExprKind::Constant;
}

std::string shortRepr(const PyValue &v)
{
    std::string r = pyRepr(v);
    if (r.size() > 160)
        r = r.substr(0, 157) + "...";
    return r;
}

int64_t normIndex(int64_t i, size_t size, bool clamp = false)
{
    int64_t n = int64_t(size);
    if (i < 0)
        i += n;
    if (clamp)
        i = std::max<int64_t>(0, std::min(i, n));
    return i;
}

} // namespace

// ---- PyOpaque / PyFunction ----

bool PyOpaque::getAttr(PyInterpreter &interp, const std::string &name, PyValue &out)
{
    const std::string path = m_path + "." + name;
    if (interp.host() && interp.host()->attribute(interp, path, out))
        return true;
    if (name.size() > 4 && name.compare(0, 2, "__") == 0)
        return false; // dunder attributes are not modelled (unless the host knows them), so hasattr is honest
    out = interp.makeOpaque(path, m_instance);
    return true;
}

PyValue PyOpaque::call(PyInterpreter &interp, PyCallArgs &args)
{
    PyValue out;
    if (interp.host() && interp.host()->call(interp, m_path, args, out))
        return out;
    // Logging calls explain a check: logger.debug("...") becomes a reason line.
    const size_t dot = m_path.rfind('.');
    const std::string last = dot == std::string::npos ? m_path : m_path.substr(dot + 1);
    if (last == "debug" || last == "info" || last == "warning" || last == "warn" || last == "error") {
        std::string msg = args.args.empty() ? std::string() : pyStr(args.args[0]);
        size_t next = 1;
        for (size_t pos = 0; (pos = msg.find('%', pos)) != std::string::npos && pos + 1 < msg.size();) {
            char c = msg[pos + 1];
            if (c == '%') {
                msg.erase(pos, 1);
                ++pos;
                continue;
            }
            if ((c == 's' || c == 'd' || c == 'r' || c == 'f') && next < args.args.size()) {
                std::string v = c == 'r' ? pyRepr(args.args[next]) : pyStr(args.args[next]);
                ++next;
                msg.replace(pos, 2, v);
                pos += v.size();
            } else {
                ++pos;
            }
        }
        if (interp.trace())
            interp.trace()->logs.push_back("logger." + last + ": " + msg);
        return PyValue::none();
    }
    return interp.makeOpaque(m_path + "()", true);
}

bool PyClass::lookup(const std::string &attr, PyValue &out) const
{
    for (const PyClass *c = this; c; c = c->base.get()) {
        auto it = c->attrs.find(attr);
        if (it != c->attrs.end()) {
            out = it->second;
            return true;
        }
    }
    return false;
}

PyValue PyClass::call(PyInterpreter &interp, PyCallArgs &args)
{
    auto instance = PyValue::ofObject(std::make_shared<PyInstance>(self.lock()));
    PyValue init;
    if (lookup("__init__", init)) {
        PyCallArgs withSelf = args;
        withSelf.args.insert(withSelf.args.begin(), instance);
        interp.call(init, withSelf);
    } else if (!args.args.empty() || !args.kwargs.empty()) {
        pyRaise("TypeError", name + "() takes no arguments");
    }
    return instance;
}

bool PyInstance::getAttr(PyInterpreter &, const std::string &attr, PyValue &out)
{
    auto it = m_attrs.find(attr);
    if (it != m_attrs.end()) {
        out = it->second;
        return true;
    }
    if (!m_class->lookup(attr, out))
        return false;
    if (out.as<PyFunction>())
        out = PyValue::ofObject(std::make_shared<PyBoundMethod>(
            PyValue::ofObject(std::static_pointer_cast<PyObject>(shared_from_this())), out));
    return true;
}

PyValue PyBoundMethod::call(PyInterpreter &interp, PyCallArgs &args)
{
    PyCallArgs withSelf = args;
    withSelf.args.insert(withSelf.args.begin(), m_self);
    return interp.call(m_fn, withSelf);
}

bool PyOpaque::equals(const PyObject &other) const
{
    auto *o = dynamic_cast<const PyOpaque *>(&other);
    return o && o->m_path == m_path && !m_instance && !o->m_instance;
}

bool PyFunction::getAttr(PyInterpreter &, const std::string &name, PyValue &out)
{
    if (name == "__name__") {
        out = PyValue::ofStr(def->name);
        return true;
    }
    return false;
}

PyValue PyFunction::call(PyInterpreter &interp, PyCallArgs &args)
{
    return interp.callUser(*this, args);
}

// ---- interpreter ----

PyInterpreter::PyInterpreter(std::shared_ptr<const PyModule> module, PyHost *host, PyLimits limits)
    : m_module(std::move(module)), m_tree(m_module->tree()), m_host(host), m_limits(limits),
      m_globals(std::make_shared<std::map<std::string, PyValue>>())
{
    installBuiltins();
    // logging.getLogger(__name__) is how pattern files name their logger: the module's name is its file stem.
    std::string stem = m_module->fileName();
    stem = stem.substr(stem.find_last_of('/') + 1);
    (*m_globals)["__name__"] = PyValue::ofStr(stem.substr(0, stem.rfind('.')));
}

PyValue PyInterpreter::makeOpaque(const std::string &path, bool instance)
{
    return PyValue::ofObject(std::make_shared<PyOpaque>(path, instance));
}

void PyInterpreter::countStep()
{
    if (++m_steps > m_limits.maxSteps)
        pyRaise("SandboxLimit",
            "more than " + std::to_string(m_limits.maxSteps)
                + " steps (an endless loop?); fxscope stops pattern code there");
}

void PyInterpreter::countElements(int64_t n)
{
    if (n > m_limits.maxElements || (m_elements += n) > m_limits.maxElements)
        pyRaise("SandboxLimit",
            "more than " + std::to_string(m_limits.maxElements)
                + " list/tuple/dict/str elements allocated; fxscope stops pattern code there");
}

void PyInterpreter::fail(ExprId at, std::string type, std::string message)
{
    PyException e{std::move(type), std::move(message), m_line, m_column};
    if (at != kNoExpr) {
        e.line = m_tree[at].line;
        e.column = m_tree[at].column;
    }
    throw e;
}

std::string PyInterpreter::source(ExprId id) const
{
    return m_tree.toSource(id);
}

Status PyInterpreter::run()
{
    m_frames.clear();
    m_frames.push_back(Frame{m_globals, nullptr, {}});
    try {
        execBlock(m_module->body());
    } catch (const PyException &e) {
        m_frames.clear();
        return Error{
            m_module->fileName(), e.line ? e.line : m_line, e.line ? e.column : m_column, e.type + ": " + e.message};
    }
    m_frames.clear();
    return Ok{};
}

Result<PyValue> PyInterpreter::callFunction(const PyValue &fn, PyCallArgs args, PyTrace *trace)
{
    m_steps = 0;
    m_elements = 0;
    m_trace = trace;
    m_frames.clear();
    m_frames.push_back(Frame{m_globals, nullptr, {}});
    try {
        PyValue v = call(fn, args);
        m_trace = nullptr;
        m_frames.clear();
        return v;
    } catch (const PyException &e) {
        m_trace = nullptr;
        m_frames.clear();
        return Error{
            m_module->fileName(), e.line ? e.line : m_line, e.line ? e.column : m_column, e.type + ": " + e.message};
    }
}

Status PyInterpreter::runGuarded(const std::function<void()> &job)
{
    m_steps = 0;
    m_elements = 0;
    m_trace = nullptr;
    m_frames.clear();
    m_frames.push_back(Frame{m_globals, nullptr, {}});
    try {
        job();
        m_frames.clear();
        return Ok{};
    } catch (const PyException &e) {
        m_frames.clear();
        return Error{
            m_module->fileName(), e.line ? e.line : m_line, e.line ? e.column : m_column, e.type + ": " + e.message};
    }
}

PyValue PyInterpreter::call(const PyValue &fn, PyCallArgs &args)
{
    if (fn.kind != PyValue::Kind::Object)
        pyRaise("TypeError", "'" + pyTypeName(fn) + "' object is not callable");
    return fn.obj->call(*this, args);
}

PyValue PyInterpreter::callUser(PyFunction &fn, PyCallArgs &args)
{
    if (int(m_frames.size()) > m_limits.maxCallDepth)
        pyRaise("SandboxLimit",
            "calls nest more than " + std::to_string(m_limits.maxCallDepth) + " levels deep (unbounded recursion?)");
    const PyFunctionDef &def = *fn.def;
    ++fn.calls;
    auto locals = std::make_shared<std::map<std::string, PyValue>>();
    size_t pos = 0;
    const PyParam *star = nullptr;
    const PyParam *dstar = nullptr;
    std::vector<bool> bound(def.params.size(), false);
    for (size_t i = 0; i < def.params.size(); ++i) {
        const PyParam &p = def.params[i];
        if (p.kind == PyParam::Kind::Star) {
            star = &p;
            PyList rest;
            for (; pos < args.args.size(); ++pos)
                rest.push_back(args.args[pos]);
            (*locals)[p.name] = PyValue::ofTuple(std::move(rest));
            bound[i] = true;
        } else if (p.kind == PyParam::Kind::DoubleStar) {
            dstar = &p;
        } else if (!star && pos < args.args.size()) {
            (*locals)[p.name] = args.args[pos++];
            bound[i] = true;
        }
    }
    if (pos < args.args.size())
        pyRaise("TypeError",
            def.name + "() takes " + std::to_string(pos) + " positional arguments but "
                + std::to_string(args.args.size()) + " were given");
    std::vector<std::pair<PyValue, PyValue>> extra;
    for (auto &kv : args.kwargs) {
        bool matched = false;
        for (size_t i = 0; i < def.params.size(); ++i)
            if (def.params[i].kind == PyParam::Kind::Normal && def.params[i].name == kv.first) {
                if (bound[i])
                    pyRaise("TypeError", def.name + "() got multiple values for argument '" + kv.first + "'");
                (*locals)[kv.first] = kv.second;
                bound[i] = true;
                matched = true;
            }
        if (!matched) {
            if (!dstar)
                pyRaise("TypeError", def.name + "() got an unexpected keyword argument '" + kv.first + "'");
            extra.push_back({PyValue::ofStr(kv.first), kv.second});
        }
    }
    if (dstar)
        (*locals)[dstar->name] = PyValue::ofDict(std::move(extra));
    for (size_t i = 0; i < def.params.size(); ++i)
        if (!bound[i] && def.params[i].kind == PyParam::Kind::Normal) {
            if (def.params[i].defaultValue == kNoExpr)
                pyRaise("TypeError", def.name + "() missing required argument '" + def.params[i].name + "'");
            (*locals)[def.params[i].name] = fn.defaults[i];
        }
    const int savedLine = m_line;
    const int savedColumn = m_column;
    m_frames.push_back(Frame{locals, fn.closure, {}});
    Flow flow = execBlock(def.body);
    PyValue result = flow == Flow::Return ? m_frames.back().returnValue : PyValue::none();
    m_frames.pop_back();
    m_line = savedLine;
    m_column = savedColumn;
    return result;
}

PyInterpreter::Flow PyInterpreter::execBlock(const std::vector<PyStmt> &body)
{
    for (const PyStmt &s : body) {
        Flow f = exec(s);
        if (f != Flow::Normal)
            return f;
    }
    return Flow::Normal;
}

void PyInterpreter::traceStatement(const PyStmt &s, const std::string &text)
{
    if (!m_trace || m_trace->lines.size() >= m_limits.maxTraceLines)
        return;
    std::string line = "line " + std::to_string(s.line) + ": ";
    for (char c : text) // a file with CRLF line ends shows its lines as written, without the \r
        if (c != '\r')
            line += c;
    std::string extra;
    for (const auto &c : m_captures)
        extra += (extra.empty() ? "" : ", ") + c.first + " = " + c.second;
    if (!extra.empty())
        line += " (" + extra + ")";
    m_trace->lines.push_back(std::move(line));
    if (m_trace->lines.size() == m_limits.maxTraceLines)
        m_trace->lines.push_back("... trace truncated");
}

PyInterpreter::Flow PyInterpreter::exec(const PyStmt &s)
{
    countStep();
    m_line = s.line;
    m_column = s.column;
    m_captures.clear();
    try {
        switch (s.kind) {
        case PyStmtKind::Pass: return Flow::Normal;
        case PyStmtKind::Break: return Flow::Break;
        case PyStmtKind::Continue: return Flow::Continue;
        case PyStmtKind::Expr: {
            PyValue v = eval(s.value);
            if (m_tree[s.value].kind != ExprKind::String) // a docstring is no step of the check
                traceStatement(s, source(s.value));
            (void)v;
            return Flow::Normal;
        }
        case PyStmtKind::Assign: {
            PyValue v = eval(s.value);
            for (ExprId t : s.targets)
                assign(t, v);
            if (m_trace) {
                std::string lhs;
                for (ExprId t : s.targets)
                    lhs += source(t) + " = ";
                m_captures.clear();
                traceStatement(s, lhs + source(s.value) + " → " + shortRepr(v));
            }
            return Flow::Normal;
        }
        case PyStmtKind::AugAssign: {
            PyValue cur = eval(s.targets[0]);
            PyValue rhs = eval(s.value);
            PyValue v;
            if (s.op == "+" && cur.kind == PyValue::Kind::List && rhs.isSequence()) {
                countElements(int64_t(rhs.list->size()));
                cur.list->insert(cur.list->end(), rhs.list->begin(), rhs.list->end()); // in place, as list.__iadd__
                v = cur;
            } else {
                v = evalBinary(s.op, cur, rhs);
            }
            assign(s.targets[0], v);
            traceStatement(s, source(s.targets[0]) + " " + s.op + "= " + source(s.value) + " → " + shortRepr(v));
            return Flow::Normal;
        }
        case PyStmtKind::If: {
            PyValue test = eval(s.value);
            bool b = pyTruthy(test);
            traceStatement(s, "if " + source(s.value) + " → " + (b ? "True" : "False"));
            return execBlock(b ? s.body : s.orelse);
        }
        case PyStmtKind::While: {
            while (true) {
                m_line = s.line;
                m_captures.clear();
                bool b = pyTruthy(eval(s.value));
                countStep();
                if (!b)
                    return execBlock(s.orelse);
                Flow f = execBlock(s.body);
                if (f == Flow::Break)
                    return Flow::Normal;
                if (f == Flow::Return)
                    return f;
            }
        }
        case PyStmtKind::For: {
            PyList items = iterate(eval(s.value));
            traceStatement(s,
                "for " + source(s.targets[0]) + " in " + source(s.value) + " → " + std::to_string(items.size())
                    + " items");
            for (const PyValue &item : items) {
                countStep();
                m_line = s.line;
                assign(s.targets[0], item);
                Flow f = execBlock(s.body);
                if (f == Flow::Break)
                    return Flow::Normal;
                if (f == Flow::Return)
                    return f;
            }
            return execBlock(s.orelse);
        }
        case PyStmtKind::Return: {
            PyValue v = s.value == kNoExpr ? PyValue::none() : eval(s.value);
            m_frames.back().returnValue = v;
            traceStatement(
                s, "return " + (s.value == kNoExpr ? std::string() : source(s.value)) + " → " + shortRepr(v));
            return Flow::Return;
        }
        case PyStmtKind::Def: {
            auto fn = std::make_shared<PyFunction>();
            fn->def = s.def;
            for (const PyParam &p : s.def->params)
                fn->defaults.push_back(p.defaultValue == kNoExpr ? PyValue::none() : eval(p.defaultValue));
            if (m_frames.size() > 1)
                fn->closure = m_frames.back().locals;
            PyValue value = PyValue::ofObject(fn);
            // Decorators apply innermost first. Only functools.lru_cache/cache (handled by the host) and
            // functions of the file are modelled; an opaque decorator would silently replace the function.
            for (size_t i = s.def->decorators.size(); i-- > 0;) {
                const ExprId d = s.def->decorators[i];
                PyValue decorator = eval(d);
                PyCallArgs args;
                args.args.push_back(value);
                PyValue result = call(decorator, args);
                if (result.as<PyOpaque>() || result.isNone())
                    fail(d, "SubsetError",
                        "the decorator @" + source(d)
                            + " is outside fxscope's Python subset (only @functools.lru_cache(...), "
                              "@functools.cache and decorators defined in the file are applied); remove it, or "
                              "call the function explicitly");
                value = result;
            }
            (*m_frames.back().locals)[s.def->name] = value;
            return Flow::Normal;
        }
        case PyStmtKind::Import:
            for (const PyImportName &n : s.names) {
                if (!n.alias.empty())
                    (*m_frames.back().locals)[n.alias] = makeOpaque(n.name);
                else {
                    const std::string top = n.name.substr(0, n.name.find('.'));
                    (*m_frames.back().locals)[top] = makeOpaque(top);
                }
            }
            return Flow::Normal;
        case PyStmtKind::ImportFrom: {
            if (!s.module.empty() && s.module[0] == '.')
                fail(kNoExpr, "SubsetError", "relative imports are outside the subset; import by absolute name");
            PyValue mod = makeOpaque(s.module);
            for (const PyImportName &n : s.names)
                (*m_frames.back().locals)[n.alias.empty() ? n.name : n.alias] = getAttr(mod, n.name);
            return Flow::Normal;
        }
        case PyStmtKind::With: {
            for (size_t i = 0; i < s.items.size(); ++i) {
                PyValue cm = eval(s.items[i]);
                if (cm.kind != PyValue::Kind::Object || !cm.obj->isContextManager())
                    fail(s.items[i], "TypeError",
                        "'" + pyTypeName(cm)
                            + "' object does not support the context "
                              "manager protocol");
                if (s.targets[i] != kNoExpr)
                    assign(s.targets[i], cm);
            }
            return execBlock(s.body); // FakeTensorMode and friends: no-op context managers
        }
        case PyStmtKind::Raise: {
            PyValue v = s.value == kNoExpr ? PyValue::none() : eval(s.value);
            std::string type = "RuntimeError";
            std::string msg;
            if (auto *o = v.as<PyOpaque>()) {
                type = o->path();
                size_t paren = type.find("()");
                if (paren != std::string::npos)
                    type = type.substr(0, paren);
                type = type.substr(type.rfind('.') == std::string::npos ? 0 : type.rfind('.') + 1);
                // raise RuntimeError("why"): the message is the call's first argument.
                if (m_tree[s.value].kind == ExprKind::Call && m_tree.childCount(s.value) > 1)
                    msg = pyStr(eval(m_tree.child(s.value, 1)));
            } else if (!v.isNone()) {
                msg = pyStr(v);
            }
            traceStatement(s, "raise " + (s.value == kNoExpr ? std::string() : source(s.value)));
            pyRaise(type, msg.empty() ? "raised at line " + std::to_string(s.line) : msg);
        }
        case PyStmtKind::Unsupported: pyRaise("SubsetError", s.message);
        case PyStmtKind::Class: {
            auto cls = std::make_shared<PyClass>();
            cls->self = cls;
            cls->name = s.def->name;
            for (ExprId b : s.items) {
                PyValue base = eval(b);
                if (base.as<PyClass>())
                    cls->base = std::static_pointer_cast<PyClass>(base.obj);
                else if (!base.as<PyOpaque>())
                    fail(b, "TypeError", "a base class must be a class, found " + pyTypeName(base));
                // An opaque base (object, torch.nn.Module, ...) adds nothing the file can rely on here.
            }
            // The body runs in its own namespace; its defs become the class's methods.
            auto ns = std::make_shared<std::map<std::string, PyValue>>();
            m_frames.push_back(Frame{ns, m_frames.size() > 1 ? m_frames.back().locals : nullptr, {}});
            try {
                execBlock(s.def->body);
            } catch (...) {
                m_frames.pop_back();
                throw;
            }
            m_frames.pop_back();
            cls->attrs = *ns;
            for (size_t d = s.def->decorators.size(); d-- > 0;) {
                // @dataclass (the one class decorator modelled): an __init__ taking the annotated fields in order.
                const ExprId decorator = s.def->decorators[d];
                auto *o = eval(decorator).as<PyOpaque>();
                if (!o || (o->path() != "dataclasses.dataclass" && o->path() != "dataclasses.dataclass()"))
                    fail(decorator, "SubsetError",
                        "the class decorator @" + source(decorator)
                            + " is outside fxscope's Python subset (only @dataclass is modelled); remove it");
                std::vector<std::pair<std::string, std::optional<PyValue>>> fields;
                for (const PyStmt &f : s.def->body)
                    if (f.annotated && !f.targets.empty() && m_tree[f.targets[0]].kind == ExprKind::Name) {
                        const std::string field(m_tree[f.targets[0]].text);
                        auto value = ns->find(field);
                        fields.push_back({field, value == ns->end() ? std::nullopt : std::optional(value->second)});
                    }
                const std::string className = cls->name;
                cls->attrs["__init__"] = PyValue::ofObject(
                    std::make_shared<PyBuiltin>("__init__", [fields, className](PyInterpreter &, PyCallArgs &a) {
                        auto *self = a.args.empty() ? nullptr : a.args[0].as<PyInstance>();
                        if (!self || a.args.size() - 1 > fields.size())
                            pyRaise("TypeError",
                                className + "() takes at most " + std::to_string(fields.size())
                                    + " positional arguments");
                        for (size_t k = 0; k < fields.size(); ++k) {
                            const auto &[field, fallback] = fields[k];
                            std::optional<PyValue> v;
                            if (k + 1 < a.args.size())
                                v = a.args[k + 1];
                            for (const auto &kw : a.kwargs)
                                if (kw.first == field)
                                    v = kw.second;
                            if (!v)
                                v = fallback;
                            if (!v)
                                pyRaise("TypeError",
                                    className + "() missing 1 required positional argument: '" + field + "'");
                            self->setAttr(field, *v);
                        }
                        return PyValue::none();
                    }));
            }
            (*m_frames.back().locals)[cls->name] = PyValue::ofObject(cls);
            return Flow::Normal;
        }
        case PyStmtKind::Try: return execTry(s);
        case PyStmtKind::Assert: {
            bool b = pyTruthy(eval(s.value));
            traceStatement(s, "assert " + source(s.value) + " → " + (b ? "True" : "False"));
            if (!b)
                pyRaise("AssertionError", s.items.empty() ? source(s.value) : pyStr(eval(s.items[0])));
            return Flow::Normal;
        }
        }
    } catch (PyException &e) {
        if (e.line == 0) {
            e.line = s.line;
            e.column = s.column;
        }
        throw;
    }
    return Flow::Normal;
}

namespace {

// fxscope's own errors are never caught by a file's except clauses: a sandbox limit must stop the run, and a
// construct fxscope does not understand must not be silently taken for the file's own failure.
bool catchable(const std::string &type)
{
    return type != "SandboxLimit" && type != "SandboxError" && type != "SubsetError";
}

// Python's exception hierarchy, for the built-in exceptions this interpreter raises.
bool exceptionMatches(const std::string &raised, const std::string &handler)
{
    if (handler == raised || handler == "Exception" || handler == "BaseException")
        return true;
    if (handler == "LookupError")
        return raised == "KeyError" || raised == "IndexError";
    if (handler == "ArithmeticError")
        return raised == "ZeroDivisionError" || raised == "OverflowError";
    if (handler == "ImportError")
        return raised == "ModuleNotFoundError";
    return false;
}

} // namespace

PyInterpreter::Flow PyInterpreter::execTry(const PyStmt &s)
{
    auto runFinally = [&](Flow flow) {
        if (s.finalbody.empty())
            return flow;
        Flow f = execBlock(s.finalbody);
        return f == Flow::Normal ? flow : f; // a return/break in finally wins, as in Python
    };
    Flow flow = Flow::Normal;
    try {
        flow = execBlock(s.body);
    } catch (PyException &e) {
        if (!catchable(e.type))
            throw;
        const PyExceptHandler *handler = nullptr;
        for (const PyExceptHandler &h : s.handlers) {
            if (h.type == kNoExpr) {
                handler = &h;
                break;
            }
            // Exception classes are matched by name: `except KeyError`, `except (KeyError, IndexError)`.
            std::vector<ExprId> types;
            if (m_tree[h.type].kind == ExprKind::Tuple)
                for (size_t i = 0; i < m_tree.childCount(h.type); ++i)
                    types.push_back(m_tree.child(h.type, i));
            else
                types.push_back(h.type);
            for (ExprId t : types) {
                std::string name = m_tree.dottedName(t);
                name = name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
                if (exceptionMatches(e.type, name))
                    handler = &h;
            }
            if (handler)
                break;
        }
        if (!handler) {
            runFinally(Flow::Normal);
            throw;
        }
        m_line = handler->line;
        traceStatement(s,
            "except " + (handler->type == kNoExpr ? std::string() : source(handler->type)) + " → caught " + e.type
                + ": " + e.message);
        if (!handler->name.empty())
            (*m_frames.back().locals)[handler->name] = PyValue::ofStr(e.message); // str(err) is the message
        try {
            flow = execBlock(handler->body);
        } catch (PyException &inner) {
            if (catchable(inner.type))
                runFinally(Flow::Normal);
            throw;
        }
        return runFinally(flow);
    }
    if (flow == Flow::Normal && !s.orelse.empty()) {
        try {
            flow = execBlock(s.orelse);
        } catch (PyException &inner) {
            if (catchable(inner.type))
                runFinally(Flow::Normal);
            throw;
        }
    }
    return runFinally(flow);
}

void PyInterpreter::capture(ExprId id, const PyValue &value)
{
    if (!m_trace || isLiteral(m_tree, id))
        return;
    std::string src = source(id);
    for (const auto &c : m_captures)
        if (c.first == src)
            return;
    if (m_captures.size() < 8)
        m_captures.push_back({std::move(src), shortRepr(value)});
}

PyValue PyInterpreter::lookup(ExprId id)
{
    const std::string name(m_tree[id].text);
    Frame &f = m_frames.back();
    auto it = f.locals->find(name);
    if (it != f.locals->end())
        return it->second;
    if (f.closure) {
        auto c = f.closure->find(name);
        if (c != f.closure->end())
            return c->second;
    }
    auto g = m_globals->find(name);
    if (g != m_globals->end())
        return g->second;
    auto b = m_builtins.find(name);
    if (b != m_builtins.end())
        return b->second;
    fail(id, "NameError", "name '" + name + "' is not defined");
}

void PyInterpreter::assign(ExprId target, const PyValue &value)
{
    const Expr &e = m_tree[target];
    switch (e.kind) {
    case ExprKind::Name: (*m_frames.back().locals)[std::string(e.text)] = value; return;
    case ExprKind::Tuple:
    case ExprKind::List: {
        PyList items = iterate(value);
        size_t n = m_tree.childCount(target);
        size_t starAt = n;
        for (size_t i = 0; i < n; ++i)
            if (m_tree[m_tree.child(target, i)].kind == ExprKind::Starred)
                starAt = i;
        if (starAt == n) {
            if (items.size() != n)
                fail(target, "ValueError",
                    (items.size() > n ? "too many values to unpack (expected "
                                      : "not enough values to unpack (expected ")
                        + std::to_string(n) + ", got " + std::to_string(items.size()) + ")");
            for (size_t i = 0; i < n; ++i)
                assign(m_tree.child(target, i), items[i]);
            return;
        }
        if (items.size() < n - 1)
            fail(target, "ValueError", "not enough values to unpack");
        size_t after = n - 1 - starAt;
        for (size_t i = 0; i < starAt; ++i)
            assign(m_tree.child(target, i), items[i]);
        PyList rest(items.begin() + starAt, items.end() - after);
        assign(m_tree.child(m_tree.child(target, starAt), 0), PyValue::ofList(std::move(rest)));
        for (size_t i = 0; i < after; ++i)
            assign(m_tree.child(target, starAt + 1 + i), items[items.size() - after + i]);
        return;
    }
    case ExprKind::Subscript: setItem(eval(m_tree.child(target, 0)), eval(m_tree.child(target, 1)), value); return;
    case ExprKind::Attribute: {
        PyValue base = eval(m_tree.child(target, 0));
        if (auto *instance = base.as<PyInstance>()) {
            instance->setAttr(std::string(e.text), value);
            return;
        }
        if (auto *cls = base.as<PyClass>()) {
            cls->attrs[std::string(e.text)] = value;
            return;
        }
        fail(target, "SubsetError",
            "assigning to an attribute (" + source(target)
                + ") is outside the subset except on instances of classes defined in the file; keep the value in a "
                  "variable");
    }
    default: fail(target, "SyntaxError", "cannot assign to " + source(target));
    }
}

void PyInterpreter::setItem(const PyValue &c, const PyValue &index, const PyValue &value)
{
    if (c.kind == PyValue::Kind::List) {
        if (!index.isIntLike())
            pyRaise("TypeError", "list indices must be integers, not " + pyTypeName(index));
        int64_t i = normIndex(index.i, c.list->size());
        if (i < 0 || i >= int64_t(c.list->size()))
            pyRaise("IndexError", "list assignment index out of range");
        (*c.list)[size_t(i)] = value;
        return;
    }
    if (c.kind == PyValue::Kind::Dict) {
        for (auto &kv : c.dict->items)
            if (pyEquals(kv.first, index)) {
                kv.second = value;
                return;
            }
        countElements(1);
        c.dict->items.push_back({index, value});
        return;
    }
    pyRaise("TypeError", "'" + pyTypeName(c) + "' object does not support item assignment");
}

PyList PyInterpreter::iterate(const PyValue &v)
{
    switch (v.kind) {
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple: return *v.list;
    case PyValue::Kind::Dict: {
        PyList keys;
        for (const auto &kv : v.dict->items)
            keys.push_back(kv.first);
        return keys;
    }
    case PyValue::Kind::Str: {
        PyList chars;
        countElements(int64_t(v.s->size()));
        for (char c : *v.s)
            chars.push_back(PyValue::ofStr(std::string(1, c)));
        return chars;
    }
    case PyValue::Kind::Object: {
        PyList items;
        if (v.obj->iterate(*this, items))
            return items;
        break;
    }
    default: break;
    }
    pyRaise("TypeError", "'" + pyTypeName(v) + "' object is not iterable");
}

PyValue PyInterpreter::getAttr(const PyValue &v, const std::string &name, bool *found)
{
    if (found)
        *found = true;
    PyValue out;
    if (v.kind == PyValue::Kind::Object) {
        if (v.obj->getAttr(*this, name, out))
            return out;
    } else {
        // Methods of the built-in types, bound to v.
        auto method
            = [&](PyBuiltin::Fn fn) { return PyValue::ofObject(std::make_shared<PyBuiltin>(name, std::move(fn))); };
        if (v.kind == PyValue::Kind::Dict) {
            auto d = v.dict;
            if (name == "get")
                return method([d](PyInterpreter &, PyCallArgs &a) {
                    if (a.args.empty())
                        pyRaise("TypeError", "get expected at least 1 argument");
                    for (const auto &kv : d->items)
                        if (pyEquals(kv.first, a.args[0]))
                            return kv.second;
                    return a.args.size() > 1 ? a.args[1] : PyValue::none();
                });
            if (name == "update")
                return method([v](PyInterpreter &in, PyCallArgs &a) {
                    // update(mapping) and update(key=value, ...): setItem keeps insertion order and counts elements.
                    if (a.args.size() > 1)
                        pyRaise(
                            "TypeError", "update expected at most 1 argument, got " + std::to_string(a.args.size()));
                    if (!a.args.empty()) {
                        if (a.args[0].kind != PyValue::Kind::Dict)
                            pyRaise("TypeError", "update() here takes a dict, found " + pyTypeName(a.args[0]));
                        for (const auto &kv : a.args[0].dict->items)
                            in.setItem(v, kv.first, kv.second);
                    }
                    for (const auto &kw : a.kwargs)
                        in.setItem(v, PyValue::ofStr(kw.first), kw.second);
                    return PyValue::none();
                });
            if (name == "keys" || name == "values" || name == "items")
                return method([d, name](PyInterpreter &in, PyCallArgs &) {
                    PyList out;
                    in.countElements(int64_t(d->items.size()));
                    for (const auto &kv : d->items)
                        out.push_back(name == "keys" ? kv.first
                                : name == "values"   ? kv.second
                                                     : PyValue::ofTuple({kv.first, kv.second}));
                    return PyValue::ofList(std::move(out));
                });
        }
        if (v.kind == PyValue::Kind::List) {
            auto l = v.list;
            if (name == "append")
                return method([l](PyInterpreter &in, PyCallArgs &a) {
                    if (a.args.size() != 1)
                        pyRaise("TypeError", "append() takes exactly one argument");
                    in.countElements(1);
                    l->push_back(a.args[0]);
                    return PyValue::none();
                });
            if (name == "extend")
                return method([l](PyInterpreter &in, PyCallArgs &a) {
                    if (a.args.size() != 1)
                        pyRaise("TypeError", "extend() takes exactly one argument");
                    PyList items = in.iterate(a.args[0]);
                    in.countElements(int64_t(items.size()));
                    l->insert(l->end(), items.begin(), items.end());
                    return PyValue::none();
                });
        }
        if (v.kind == PyValue::Kind::Str) {
            auto s = v.s;
            if (name == "startswith" || name == "endswith")
                return method([s, name](PyInterpreter &, PyCallArgs &a) {
                    if (a.args.size() != 1 || a.args[0].kind != PyValue::Kind::Str)
                        pyRaise("TypeError", name + "() takes one str argument here");
                    const std::string &x = a.args[0].str();
                    bool r = name == "startswith"
                        ? s->rfind(x, 0) == 0
                        : s->size() >= x.size() && s->compare(s->size() - x.size(), x.size(), x) == 0;
                    return PyValue::ofBool(r);
                });
            if (name == "format")
                return method([s](PyInterpreter &, PyCallArgs &a) {
                    std::string out;
                    size_t next = 0;
                    for (size_t i = 0; i < s->size(); ++i) {
                        if ((*s)[i] == '{' && i + 1 < s->size() && (*s)[i + 1] == '}') {
                            out += next < a.args.size() ? pyStr(a.args[next++]) : std::string();
                            ++i;
                        } else {
                            out += (*s)[i];
                        }
                    }
                    return PyValue::ofStr(out);
                });
        }
    }
    if (found) {
        *found = false;
        return PyValue::none();
    }
    pyRaise("AttributeError", "'" + pyTypeName(v) + "' object has no attribute '" + name + "'");
}

PyValue PyInterpreter::getItem(const PyValue &v, const PyValue &index)
{
    if (v.isSequence() || v.kind == PyValue::Kind::Str) {
        const size_t size = v.kind == PyValue::Kind::Str ? v.s->size() : v.list->size();
        if (index.kind == PyValue::Kind::Object && index.obj->typeName() == "slice") {
            PyList parts;
            index.obj->iterate(*this, parts);
            int64_t step = parts[2].isNone() ? 1 : parts[2].i;
            if (step == 0)
                pyRaise("ValueError", "slice step cannot be zero");
            PyList out;
            std::string sout;
            const int64_t n = int64_t(size);
            if (step > 0) {
                int64_t lo = parts[0].isNone() ? 0 : normIndex(parts[0].i, size, true);
                int64_t hi = parts[1].isNone() ? n : normIndex(parts[1].i, size, true);
                for (int64_t i = lo; i < hi; i += step)
                    v.kind == PyValue::Kind::Str ? void(sout += (*v.s)[size_t(i)])
                                                 : out.push_back((*v.list)[size_t(i)]);
            } else {
                int64_t lo = parts[0].isNone() ? n - 1 : std::min(normIndex(parts[0].i, size), n - 1);
                int64_t hi = parts[1].isNone() ? -1 : std::max<int64_t>(normIndex(parts[1].i, size), -1);
                for (int64_t i = lo; i > hi; i += step)
                    v.kind == PyValue::Kind::Str ? void(sout += (*v.s)[size_t(i)])
                                                 : out.push_back((*v.list)[size_t(i)]);
            }
            if (v.kind == PyValue::Kind::Str)
                return PyValue::ofStr(sout);
            return v.kind == PyValue::Kind::List ? PyValue::ofList(std::move(out)) : PyValue::ofTuple(std::move(out));
        }
        if (!index.isIntLike())
            pyRaise("TypeError", pyTypeName(v) + " indices must be integers or slices, not " + pyTypeName(index));
        int64_t i = normIndex(index.i, size);
        if (i < 0 || i >= int64_t(size))
            pyRaise("IndexError",
                pyTypeName(v) + " index " + std::to_string(index.i) + " out of range (length " + std::to_string(size)
                    + ")");
        if (v.kind == PyValue::Kind::Str)
            return PyValue::ofStr(std::string(1, (*v.s)[size_t(i)]));
        return (*v.list)[size_t(i)];
    }
    if (v.kind == PyValue::Kind::Dict) {
        for (const auto &kv : v.dict->items)
            if (pyEquals(kv.first, index))
                return kv.second;
        pyRaise("KeyError", pyRepr(index));
    }
    if (v.kind == PyValue::Kind::Object) {
        PyValue out;
        if (v.obj->getItem(*this, index, out))
            return out;
    }
    pyRaise("TypeError", "'" + pyTypeName(v) + "' object is not subscriptable");
}

namespace {

class PySlice : public PyObject {
public:
    PySlice(PyValue a, PyValue b, PyValue c) : m_parts{std::move(a), std::move(b), std::move(c)} { }
    std::string typeName() const override { return "slice"; }
    std::string repr() const override
    {
        return "slice(" + pyRepr(m_parts[0]) + ", " + pyRepr(m_parts[1]) + ", " + pyRepr(m_parts[2]) + ")";
    }
    bool iterate(PyInterpreter &, PyList &out) override
    {
        out = m_parts;
        return true;
    }

private:
    PyList m_parts;
};

} // namespace

PyValue PyInterpreter::eval(ExprId id)
{
    countStep();
    const Expr &e = m_tree[id];
    try {
        switch (e.kind) {
        case ExprKind::Name: return lookup(id);
        case ExprKind::Number: {
            std::string text;
            for (char c : e.text)
                if (c != '_')
                    text += c;
            if (text.find_first_of("jJ") != std::string::npos)
                fail(id, "SubsetError", "complex numbers are outside the subset");
            bool isFloat = text.find_first_of(".eE") != std::string::npos
                && !(text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'));
            if (isFloat)
                return PyValue::ofFloat(std::strtod(text.c_str(), nullptr));
            int base = 10;
            size_t skip = 0;
            if (text.size() > 1 && text[0] == '0' && std::isalpha(static_cast<unsigned char>(text[1]))) {
                char b = char(std::tolower(text[1]));
                base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
                skip = 2;
            }
            errno = 0;
            long long v = std::strtoll(text.c_str() + skip, nullptr, base);
            if (errno == ERANGE)
                fail(id, "SubsetError", "integers beyond 64 bits are outside the subset");
            return PyValue::ofInt(v);
        }
        case ExprKind::String:
            countElements(int64_t(m_tree.stringValue(id).size() / 8));
            return PyValue::ofStr(m_tree.stringValue(id));
        case ExprKind::FormattedString: {
            std::string out;
            for (size_t i = 0; i < e.childCount; ++i)
                out += pyStr(eval(m_tree.child(id, i)));
            countElements(int64_t(out.size() / 8));
            return PyValue::ofStr(std::move(out));
        }
        case ExprKind::FormattedValue: {
            PyValue v = eval(m_tree.child(id, 0));
            if (e.text == "r" || e.text == "a")
                v = PyValue::ofStr(pyRepr(v));
            else if (e.text == "s")
                v = PyValue::ofStr(pyStr(v));
            const std::string spec = e.childCount > 1 ? pyStr(eval(m_tree.child(id, 1))) : std::string();
            return PyValue::ofStr(pyFormat(v, spec));
        }
        case ExprKind::Constant:
            if (e.text == "None")
                return PyValue::none();
            return PyValue::ofBool(e.text == "True");
        case ExprKind::Ellipsis: return makeOpaque("Ellipsis", true);
        case ExprKind::Attribute: {
            PyValue base = eval(m_tree.child(id, 0));
            return getAttr(base, std::string(e.text));
        }
        case ExprKind::Call: return evalCall(id);
        case ExprKind::Subscript: {
            PyValue base = eval(m_tree.child(id, 0));
            PyValue index = eval(m_tree.child(id, 1));
            return getItem(base, index);
        }
        case ExprKind::Slice: {
            auto part = [&](size_t i) {
                ExprId c = m_tree.child(id, i);
                if (c == kNoExpr)
                    return PyValue::none();
                PyValue v = eval(c);
                if (!v.isIntLike() && !v.isNone())
                    fail(c, "TypeError", "slice indices must be integers or None");
                return v;
            };
            PyValue a = part(0), b = part(1), c = part(2);
            return PyValue::ofObject(std::make_shared<PySlice>(a, b, c));
        }
        case ExprKind::Tuple:
        case ExprKind::List:
        case ExprKind::Set: {
            if (e.kind == ExprKind::Set)
                fail(id, "SubsetError", "set displays are outside the subset; use a list or tuple");
            PyList items;
            for (size_t i = 0; i < e.childCount; ++i) {
                ExprId c = m_tree.child(id, i);
                if (m_tree[c].kind == ExprKind::Starred) {
                    PyList more = iterate(eval(m_tree.child(c, 0)));
                    countElements(int64_t(more.size()));
                    items.insert(items.end(), more.begin(), more.end());
                } else {
                    countElements(1);
                    items.push_back(eval(c));
                }
            }
            return e.kind == ExprKind::List ? PyValue::ofList(std::move(items)) : PyValue::ofTuple(std::move(items));
        }
        case ExprKind::Dict: {
            PyValue d = PyValue::ofDict({});
            for (size_t i = 0; i + 1 < e.childCount; i += 2) {
                ExprId k = m_tree.child(id, i);
                PyValue v = eval(m_tree.child(id, i + 1));
                if (k == kNoExpr) {
                    if (v.kind != PyValue::Kind::Dict)
                        fail(m_tree.child(id, i + 1), "TypeError", "'**' needs a dict");
                    for (const auto &kv : v.dict->items)
                        setItem(d, kv.first, kv.second);
                } else {
                    setItem(d, eval(k), v);
                }
            }
            return d;
        }
        case ExprKind::UnaryOp: {
            ExprId c = m_tree.child(id, 0);
            PyValue v = eval(c);
            if (e.text == "not") {
                capture(c, v);
                return PyValue::ofBool(!pyTruthy(v));
            }
            if (v.kind == PyValue::Kind::Object) {
                PyValue out;
                if (v.obj->unaryOp(*this, std::string(e.text), out))
                    return out;
            }
            if (!v.isNumber())
                fail(
                    id, "TypeError", "bad operand type for unary " + std::string(e.text) + ": '" + pyTypeName(v) + "'");
            if (e.text == "-")
                return v.kind == PyValue::Kind::Float ? PyValue::ofFloat(-v.f) : PyValue::ofInt(-v.i);
            if (e.text == "+")
                return v.kind == PyValue::Kind::Float ? v : PyValue::ofInt(v.i);
            if (v.kind == PyValue::Kind::Float)
                fail(id, "TypeError", "bad operand type for unary ~: 'float'");
            return PyValue::ofInt(~v.i);
        }
        case ExprKind::BinOp: {
            PyValue a = eval(m_tree.child(id, 0));
            PyValue b = eval(m_tree.child(id, 1));
            return evalBinary(std::string(e.text), a, b);
        }
        case ExprKind::BoolOp: {
            ExprId l = m_tree.child(id, 0);
            PyValue a = eval(l);
            if (m_tree[l].kind != ExprKind::Compare && m_tree[l].kind != ExprKind::BoolOp
                && m_tree[l].kind != ExprKind::UnaryOp)
                capture(l, a);
            bool t = pyTruthy(a);
            if ((e.text == "and" && !t) || (e.text == "or" && t))
                return a;
            ExprId r = m_tree.child(id, 1);
            PyValue b = eval(r);
            if (m_tree[r].kind != ExprKind::Compare && m_tree[r].kind != ExprKind::BoolOp
                && m_tree[r].kind != ExprKind::UnaryOp)
                capture(r, b);
            return b;
        }
        case ExprKind::Compare: return evalCompare(id);
        case ExprKind::IfExp: {
            PyValue test = eval(m_tree.child(id, 1));
            return eval(m_tree.child(id, pyTruthy(test) ? 0 : 2));
        }
        case ExprKind::ListComp:
        case ExprKind::DictComp:
        case ExprKind::GeneratorExp:
        case ExprKind::SetComp: return evalComprehension(id);
        case ExprKind::Keyword:
        case ExprKind::Starred:
        case ExprKind::DoubleStarred:
        case ExprKind::CompFor: fail(id, "SyntaxError", "'" + source(id) + "' is not allowed here");
        }
    } catch (PyException &ex) {
        if (ex.line == 0) {
            ex.line = e.line;
            ex.column = e.column;
        }
        throw;
    }
    fail(id, "SubsetError", "unsupported expression");
}

void PyInterpreter::compFor(ExprId id, size_t clause, const std::function<void()> &emit)
{
    const size_t n = m_tree.childCount(id);
    if (clause >= n) {
        emit();
        return;
    }
    ExprId cf = m_tree.child(id, clause);
    PyList items = iterate(eval(m_tree.child(cf, 1)));
    for (const PyValue &item : items) {
        countStep();
        assign(m_tree.child(cf, 0), item);
        bool keep = true;
        for (size_t i = 2; i < m_tree.childCount(cf) && keep; ++i)
            keep = pyTruthy(eval(m_tree.child(cf, i)));
        if (keep)
            compFor(id, clause + 1, emit);
    }
}

PyValue PyInterpreter::evalComprehension(ExprId id)
{
    const ExprKind kind = m_tree[id].kind;
    if (kind == ExprKind::SetComp)
        fail(id, "SubsetError", "set comprehensions are outside the subset; use a list comprehension");
    // Comprehension variables live in their own scope, as in Python 3.
    Frame &outer = m_frames.back();
    auto scope = std::make_shared<std::map<std::string, PyValue>>();
    auto closure = std::make_shared<std::map<std::string, PyValue>>();
    if (outer.closure)
        *closure = *outer.closure;
    for (const auto &kv : *outer.locals)
        (*closure)[kv.first] = kv.second;
    if (outer.locals == m_globals)
        closure.reset();
    m_frames.push_back(Frame{scope, closure, {}});
    PyList out;
    PyValue dict = PyValue::ofDict({});
    const size_t first = kind == ExprKind::DictComp ? 2 : 1;
    try {
        compFor(id, first, [&] {
            countElements(1);
            if (kind == ExprKind::DictComp)
                setItem(dict, eval(m_tree.child(id, 0)), eval(m_tree.child(id, 1)));
            else
                out.push_back(eval(m_tree.child(id, 0)));
        });
    } catch (...) {
        m_frames.pop_back();
        throw;
    }
    m_frames.pop_back();
    if (kind == ExprKind::DictComp)
        return dict;
    return kind == ExprKind::ListComp ? PyValue::ofList(std::move(out)) : PyValue::ofTuple(std::move(out));
}

PyValue PyInterpreter::evalCall(ExprId id)
{
    const size_t n = m_tree.childCount(id);
    PyValue fn = eval(m_tree.child(id, 0));
    PyCallArgs args;
    for (size_t i = 1; i < n; ++i) {
        ExprId a = m_tree.child(id, i);
        const Expr &ae = m_tree[a];
        if (ae.kind == ExprKind::Keyword) {
            args.kwargs.push_back({std::string(ae.text), eval(m_tree.child(a, 0))});
        } else if (ae.kind == ExprKind::Starred) {
            PyList more = iterate(eval(m_tree.child(a, 0)));
            args.args.insert(args.args.end(), more.begin(), more.end());
        } else if (ae.kind == ExprKind::DoubleStarred) {
            PyValue d = eval(m_tree.child(a, 0));
            if (d.kind != PyValue::Kind::Dict)
                fail(a, "TypeError", "argument after ** must be a dict, not " + pyTypeName(d));
            for (const auto &kv : d.dict->items) {
                if (kv.first.kind != PyValue::Kind::Str)
                    fail(a, "TypeError", "keywords must be strings");
                args.kwargs.push_back({kv.first.str(), kv.second});
            }
        } else {
            args.args.push_back(eval(a));
        }
    }
    PyValue result = call(fn, args);
    return result;
}

bool PyInterpreter::compareOne(const std::string &op, const PyValue &a, const PyValue &b)
{
    if (op == "==")
        return pyEquals(a, b);
    if (op == "!=")
        return !pyEquals(a, b);
    if (op == "is" || op == "is not") {
        bool same;
        if (a.kind != b.kind)
            same = false;
        else if (a.kind == PyValue::Kind::None)
            same = true;
        else if (a.kind == PyValue::Kind::Bool || a.kind == PyValue::Kind::Int)
            same = a.i == b.i;
        else if (a.kind == PyValue::Kind::Object)
            same = a.obj == b.obj || a.obj->equals(*b.obj);
        else if (a.isSequence())
            same = a.list == b.list;
        else if (a.kind == PyValue::Kind::Dict)
            same = a.dict == b.dict;
        else
            same = pyEquals(a, b);
        return op == "is" ? same : !same;
    }
    if (op == "in" || op == "not in") {
        bool found = false;
        if (b.kind == PyValue::Kind::Str) {
            if (a.kind != PyValue::Kind::Str)
                pyRaise("TypeError", "'in <string>' requires string as left operand");
            found = b.s->find(*a.s) != std::string::npos;
        } else if (b.kind == PyValue::Kind::Object && b.obj->contains(*this, a, found)) {
        } else {
            for (const PyValue &item : iterate(b))
                if (pyEquals(item, a)) {
                    found = true;
                    break;
                }
        }
        return op == "in" ? found : !found;
    }
    int c = 0;
    if (a.isNumber() && b.isNumber()) {
        double x = a.number(), y = b.number();
        if (a.kind != PyValue::Kind::Float && b.kind != PyValue::Kind::Float)
            c = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
        else {
            if (std::isnan(x) || std::isnan(y))
                return false;
            c = x < y ? -1 : x > y ? 1 : 0;
        }
    } else if (a.kind == PyValue::Kind::Str && b.kind == PyValue::Kind::Str) {
        c = a.s->compare(*b.s);
    } else if (a.isSequence() && a.kind == b.kind) {
        size_t i = 0;
        for (; i < a.list->size() && i < b.list->size(); ++i)
            if (!pyEquals((*a.list)[i], (*b.list)[i]))
                return compareOne(op, (*a.list)[i], (*b.list)[i]);
        c = a.list->size() < b.list->size() ? -1 : a.list->size() > b.list->size() ? 1 : 0;
    } else {
        pyRaise("TypeError",
            "'" + op + "' not supported between instances of '" + pyTypeName(a) + "' and '" + pyTypeName(b) + "'");
    }
    if (op == "<")
        return c < 0;
    if (op == "<=")
        return c <= 0;
    if (op == ">")
        return c > 0;
    return c >= 0;
}

PyValue PyInterpreter::evalCompare(ExprId id)
{
    const size_t n = m_tree.childCount(id);
    ExprId leftId = m_tree.child(id, 0);
    PyValue left = eval(leftId);
    capture(leftId, left);
    for (size_t i = 1; i < n; ++i) {
        ExprId rightId = m_tree.child(id, i);
        PyValue right = eval(rightId);
        capture(rightId, right);
        std::string op(m_tree.compareOperator(id, i - 1));
        std::string norm;
        for (char c : op) // "not  in" / "is  not" written with extra spaces
            if (c != ' ' || (!norm.empty() && norm.back() != ' '))
                norm += c;
        if (!compareOne(norm, left, right))
            return PyValue::ofBool(false);
        left = right;
    }
    return PyValue::ofBool(true);
}

PyValue PyInterpreter::evalBinary(const std::string &op, const PyValue &a, const PyValue &b)
{
    PyValue out;
    if (a.kind == PyValue::Kind::Object && a.obj->binaryOp(*this, op, b, false, out))
        return out;
    if (b.kind == PyValue::Kind::Object && b.obj->binaryOp(*this, op, a, true, out))
        return out;
    if (a.isNumber() && b.isNumber()) {
        const bool isFloat = a.kind == PyValue::Kind::Float || b.kind == PyValue::Kind::Float;
        if (op == "+" || op == "-" || op == "*") {
            if (isFloat) {
                double x = a.number(), y = b.number();
                return PyValue::ofFloat(op == "+" ? x + y : op == "-" ? x - y : x * y);
            }
            int64_t r;
            bool overflow = op == "+" ? __builtin_add_overflow(a.i, b.i, &r)
                : op == "-"           ? __builtin_sub_overflow(a.i, b.i, &r)
                                      : __builtin_mul_overflow(a.i, b.i, &r);
            if (overflow)
                pyRaise("OverflowError", "integer result beyond 64 bits (outside the subset)");
            return PyValue::ofInt(r);
        }
        if (op == "/") {
            if (b.number() == 0)
                pyRaise("ZeroDivisionError", "division by zero");
            return PyValue::ofFloat(a.number() / b.number());
        }
        if (op == "//" || op == "%") {
            if (b.number() == 0)
                pyRaise("ZeroDivisionError", op == "%" ? "modulo by zero" : "integer division or modulo by zero");
            if (isFloat) {
                double q = std::floor(a.number() / b.number());
                return PyValue::ofFloat(op == "//" ? q : a.number() - q * b.number());
            }
            return PyValue::ofInt(op == "//" ? floorDiv(a.i, b.i) : floorMod(a.i, b.i));
        }
        if (op == "**") {
            if (!isFloat && b.i >= 0) {
                int64_t r = 1;
                for (int64_t k = 0; k < b.i; ++k)
                    if (__builtin_mul_overflow(r, a.i, &r))
                        pyRaise("OverflowError", "integer result beyond 64 bits (outside the subset)");
                return PyValue::ofInt(r);
            }
            return PyValue::ofFloat(std::pow(a.number(), b.number()));
        }
        if (!isFloat && (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>")) {
            if (op == "&")
                return a.kind == PyValue::Kind::Bool && b.kind == PyValue::Kind::Bool ? PyValue::ofBool(a.i & b.i)
                                                                                      : PyValue::ofInt(a.i & b.i);
            if (op == "|")
                return a.kind == PyValue::Kind::Bool && b.kind == PyValue::Kind::Bool ? PyValue::ofBool(a.i | b.i)
                                                                                      : PyValue::ofInt(a.i | b.i);
            if (op == "^")
                return PyValue::ofInt(a.i ^ b.i);
            if (b.i < 0 || b.i > 62)
                pyRaise("ValueError", "shift count outside the subset's 64-bit integers");
            return PyValue::ofInt(op == "<<" ? a.i << b.i : a.i >> b.i);
        }
    }
    if (op == "+" && a.kind == b.kind && (a.isSequence() || a.kind == PyValue::Kind::Str)) {
        if (a.kind == PyValue::Kind::Str) {
            countElements(int64_t((a.s->size() + b.s->size()) / 8));
            return PyValue::ofStr(*a.s + *b.s);
        }
        countElements(int64_t(a.list->size() + b.list->size()));
        PyList r = *a.list;
        r.insert(r.end(), b.list->begin(), b.list->end());
        return a.kind == PyValue::Kind::List ? PyValue::ofList(std::move(r)) : PyValue::ofTuple(std::move(r));
    }
    if (op == "*"
        && (((a.isSequence() || a.kind == PyValue::Kind::Str) && b.isIntLike())
            || ((b.isSequence() || b.kind == PyValue::Kind::Str) && a.isIntLike()))) {
        const PyValue &seq = a.isIntLike() ? b : a;
        int64_t times = std::max<int64_t>(0, a.isIntLike() ? a.i : b.i);
        size_t unit = seq.kind == PyValue::Kind::Str ? seq.s->size() : seq.list->size();
        if (unit && times > m_limits.maxElements / int64_t(unit))
            pyRaise("SandboxLimit",
                "a sequence of " + std::to_string(times) + " × " + std::to_string(unit)
                    + " elements is beyond the sandbox's " + std::to_string(m_limits.maxElements)
                    + "-element memory bound");
        countElements(int64_t(unit) * times / (seq.kind == PyValue::Kind::Str ? 8 : 1));
        if (seq.kind == PyValue::Kind::Str) {
            std::string r;
            for (int64_t k = 0; k < times; ++k)
                r += *seq.s;
            return PyValue::ofStr(r);
        }
        PyList r;
        for (int64_t k = 0; k < times; ++k)
            r.insert(r.end(), seq.list->begin(), seq.list->end());
        return seq.kind == PyValue::Kind::List ? PyValue::ofList(std::move(r)) : PyValue::ofTuple(std::move(r));
    }
    if (op == "%" && a.kind == PyValue::Kind::Str) {
        PyList vals = b.kind == PyValue::Kind::Tuple ? *b.list : PyList{b};
        std::string msg = *a.s;
        size_t next = 0;
        for (size_t pos = 0; (pos = msg.find('%', pos)) != std::string::npos && pos + 1 < msg.size();) {
            if (msg[pos + 1] == '%') {
                msg.erase(pos, 1);
                ++pos;
                continue;
            }
            std::string v = next < vals.size() ? (msg[pos + 1] == 'r' ? pyRepr(vals[next]) : pyStr(vals[next])) : "";
            ++next;
            msg.replace(pos, 2, v);
            pos += v.size();
        }
        return PyValue::ofStr(msg);
    }
    pyRaise(
        "TypeError", "unsupported operand type(s) for " + op + ": '" + pyTypeName(a) + "' and '" + pyTypeName(b) + "'");
}

} // namespace fxs
