#include "py_fx_proxies.h"

#include "patterns/op_schema.h"
#include "py_interpreter.h"
#include "py_torch_host.h"
#include "runtime/symbol_values.h"

namespace fxs {

namespace {

// A symbolic size as an extra_check sees it: Inductor's SymInt compares and computes with its hint (guarding on
// it), so the dump's hint stands in where the graph has one; the expression stays where it has none.
SymInt hinted(const SymInt &d, const Graph *graph)
{
    if (d.isConcrete() || !graph || graph->symbolHints().empty())
        return d;
    auto v = evaluateSymbolic(d.expr, graph->symbolHints());
    return v ? SymInt{v.value(), {}} : d;
}

TensorMeta hinted(TensorMeta t, const Graph *graph)
{
    for (SymInt &d : t.shape)
        d = hinted(d, graph);
    for (SymInt &d : t.stride)
        d = hinted(d, graph);
    return t;
}

PyValue symValue(const std::string &expr, const Graph *graph)
{
    SymInt d = hinted(SymInt::parse(expr), graph);
    return d.isConcrete() ? PyValue::ofInt(d.value) : PyValue::ofStr(expr);
}

class PyNodeProxy : public PyObject {
public:
    explicit PyNodeProxy(Node *node) : m_node(node) { }
    std::string typeName() const override { return "Node"; }
    std::string repr() const override { return m_node->name(); }
    bool equals(const PyObject &other) const override
    {
        auto *o = dynamic_cast<const PyNodeProxy *>(&other);
        return o && o->m_node == m_node;
    }
    bool isInstanceOf(const std::string &cls) const override
    {
        return cls == "torch.fx.Node" || cls == "torch.fx.node.Node";
    }
    bool getAttr(PyInterpreter &interp, const std::string &name, PyValue &out) override
    {
        if (name == "name")
            out = PyValue::ofStr(m_node->name());
        else if (name == "op")
            out = PyValue::ofStr(opKindName(m_node->op()));
        else if (name == "target") {
            const std::string &t = m_node->target();
            if (m_node->op() != OpKind::CallFunction)
                out = PyValue::ofStr(t);
            else if (canonicalTarget(t) == "operator.getitem")
                out = interp.makeOpaque("operator.getitem");
            else
                out = interp.makeOpaque("torch.ops." + canonicalTarget(t));
        } else if (name == "args") {
            PyList items;
            for (const Argument &a : m_node->args())
                items.push_back(pyArgumentValue(a));
            out = PyValue::ofTuple(std::move(items));
        } else if (name == "kwargs") {
            std::vector<std::pair<PyValue, PyValue>> items;
            for (const auto &kv : m_node->kwargs())
                items.push_back({PyValue::ofStr(kv.first), pyArgumentValue(kv.second)});
            out = PyValue::ofDict(std::move(items));
        } else if (name == "users") {
            // A dict in FX (node -> None); iteration and len() are what checks use.
            std::vector<std::pair<PyValue, PyValue>> items;
            for (Node *u : m_node->users())
                items.push_back({pyNodeProxy(u), PyValue::none()});
            out = PyValue::ofDict(std::move(items));
        } else if (name == "all_input_nodes") {
            PyList items;
            for (Node *n : m_node->inputNodes())
                items.push_back(pyNodeProxy(n));
            out = PyValue::ofList(std::move(items));
        } else if (name == "meta") {
            std::vector<std::pair<PyValue, PyValue>> items;
            const NodeMeta &m = m_node->meta();
            if (m.val) {
                PyValue v;
                const Graph *graph = m_node->graph();
                if (m.val->kind == ValueMeta::Kind::Tensor)
                    v = PyValue::ofObject(std::make_shared<PyFakeTensor>(hinted(m.val->tensor, graph)));
                else if (m.val->kind == ValueMeta::Kind::Tuple) {
                    PyList parts;
                    for (const ValueMeta &x : m.val->items)
                        parts.push_back(x.kind == ValueMeta::Kind::Tensor
                                ? PyValue::ofObject(std::make_shared<PyFakeTensor>(hinted(x.tensor, graph)))
                                : symValue(x.expr, graph));
                    v = PyValue::ofTuple(std::move(parts));
                } else {
                    v = symValue(m.val->expr, graph);
                }
                items.push_back({PyValue::ofStr("val"), v});
                if (m.val->kind == ValueMeta::Kind::Tensor)
                    items.push_back({PyValue::ofStr("tensor_meta"), v});
            }
            for (const auto &kv : m.extra.members()) {
                PyValue v;
                if (kv.second.isString())
                    v = PyValue::ofStr(kv.second.toString());
                else if (kv.second.isInt())
                    v = PyValue::ofInt(kv.second.toInt());
                else
                    v = PyValue::ofStr(kv.second.dump());
                items.push_back({PyValue::ofStr(kv.first), v});
            }
            if (!m.stackTrace.empty())
                items.push_back({PyValue::ofStr("stack_trace"), PyValue::ofStr(m.stackTrace)});
            out = PyValue::ofDict(std::move(items));
        } else {
            return false;
        }
        return true;
    }

private:
    Node *m_node;
};

class PyMatchProxy : public PyObject {
public:
    PyMatchProxy(PyValue kwargs, PyValue args, PyValue nodes, PyList outputs)
        : m_kwargs(std::move(kwargs)), m_args(std::move(args)), m_nodes(std::move(nodes)), m_outputs(std::move(outputs))
    {
    }
    std::string typeName() const override { return "Match"; }
    std::string repr() const override { return "Match(...)"; }
    bool isInstanceOf(const std::string &cls) const override { return cls == "torch._inductor.pattern_matcher.Match"; }
    bool getAttr(PyInterpreter &, const std::string &name, PyValue &out) override
    {
        if (name == "kwargs")
            out = m_kwargs;
        else if (name == "args")
            out = m_args;
        else if (name == "nodes")
            out = m_nodes;
        else if (name == "output_nodes") {
            PyList outs = m_outputs;
            out = PyValue::ofObject(std::make_shared<PyBuiltin>(
                name, [outs](PyInterpreter &, PyCallArgs &) { return PyValue::ofList(outs); }));
        } else if (name == "output_node") {
            PyList outs = m_outputs;
            out = PyValue::ofObject(std::make_shared<PyBuiltin>(name, [outs](PyInterpreter &, PyCallArgs &) {
                for (const PyValue &v : outs)
                    if (!v.isNone())
                        return v;
                pyRaise("AssertionError", "the match has no output node");
            }));
        } else {
            return false;
        }
        return true;
    }

private:
    PyValue m_kwargs, m_args, m_nodes;
    PyList m_outputs;
};

} // namespace

PyValue pyNodeProxy(Node *node)
{
    return PyValue::ofObject(std::make_shared<PyNodeProxy>(node));
}

PyValue pyArgumentValue(const Argument &a, const std::function<PyValue(Node *)> &node)
{
    switch (a.kind()) {
    case Argument::Kind::None: return PyValue::none();
    case Argument::Kind::Bool: return PyValue::ofBool(a.toBool());
    case Argument::Kind::Int: return PyValue::ofInt(a.toInt());
    case Argument::Kind::Float: return PyValue::ofFloat(a.toDouble());
    case Argument::Kind::String: return PyValue::ofStr(a.text());
    case Argument::Kind::NodeRef: return node(a.node());
    case Argument::Kind::List:
    case Argument::Kind::Tuple: {
        PyList items;
        for (const Argument &x : a.items())
            items.push_back(pyArgumentValue(x, node));
        return a.kind() == Argument::Kind::List ? PyValue::ofList(std::move(items))
                                                : PyValue::ofTuple(std::move(items));
    }
    case Argument::Kind::Dtype: return PyValue::ofObject(std::make_shared<PyOpaque>(a.text()));
    default: return PyValue::ofStr(a.toPython());
    }
}

PyValue pyMatchProxy(const Match &match)
{
    std::vector<std::pair<PyValue, PyValue>> kwargs;
    for (const auto &kv : match.kwargs)
        kwargs.push_back({PyValue::ofStr(kv.first), pyArgumentValue(kv.second)});
    PyList args;
    for (const Argument &a : match.args)
        args.push_back(pyArgumentValue(a));
    PyList nodes;
    for (Node *n : match.nodes)
        nodes.push_back(pyNodeProxy(n));
    PyList outputs;
    for (Node *n : match.outputs)
        outputs.push_back(n ? pyNodeProxy(n) : PyValue::none());
    return PyValue::ofObject(std::make_shared<PyMatchProxy>(PyValue::ofDict(std::move(kwargs)),
        PyValue::ofList(std::move(args)), PyValue::ofList(std::move(nodes)), std::move(outputs)));
}

} // namespace fxs
