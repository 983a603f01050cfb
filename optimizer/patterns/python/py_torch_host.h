#pragma once
// The torch side of the sandbox: fake tensors (example inputs and node.meta["val"]), traced tensors that record
// aten/npu calls into an fxs::Graph the way make_fx + fwd_only would, functools.partial, and the registration
// entry points (torchair.register_replacement, torch._inductor.pattern_matcher.register_replacement,
// <pass manager>.register_pattern), which are handed to a callback.

#include "ir/graph.h"
#include "py_interpreter.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

// A tensor known by its metadata only: an example input, or a graph node's meta["val"].
class PyFakeTensor : public PyObject {
public:
    explicit PyFakeTensor(TensorMeta meta) : m_meta(std::move(meta)) { }
    std::string typeName() const override { return "FakeTensor"; }
    std::string repr() const override;
    bool getAttr(PyInterpreter &interp, const std::string &name, PyValue &out) override;
    bool isInstanceOf(const std::string &cls) const override;
    const TensorMeta &meta() const { return m_meta; }

private:
    TensorMeta m_meta;
};

// One graph being traced: the graph, and the warnings tracing produced.
struct PyTraceGraph {
    std::shared_ptr<Graph> graph = std::make_shared<Graph>();
    std::vector<std::string> warnings;
};

// A tensor inside a traced search_fn/replace_fn: a node of the graph being built.
class PyTracedTensor : public PyObject {
public:
    PyTracedTensor(PyTraceGraph *trace, Node *node) : m_trace(trace), m_node(node) { }
    std::string typeName() const override { return "Tensor"; }
    std::string repr() const override { return "Proxy(" + m_node->name() + ")"; }
    bool getAttr(PyInterpreter &interp, const std::string &name, PyValue &out) override;
    bool binaryOp(
        PyInterpreter &interp, const std::string &op, const PyValue &other, bool reflected, PyValue &out) override;
    bool unaryOp(PyInterpreter &interp, const std::string &op, PyValue &out) override;
    bool getItem(PyInterpreter &interp, const PyValue &index, PyValue &out) override;
    bool isInstanceOf(const std::string &cls) const override { return cls == "torch.Tensor"; }
    bool truthy() const override;
    Node *node() const { return m_node; }
    PyTraceGraph *trace() const { return m_trace; }

private:
    PyTraceGraph *m_trace;
    Node *m_node;
};

class PyTorchHost : public PyHost {
public:
    // kind: "torchair", "inductor" or "pass_manager"; the call's arguments as written.
    using RegisterFn = std::function<void(PyInterpreter &, const std::string &kind, PyCallArgs &)>;
    explicit PyTorchHost(RegisterFn onRegister) : m_onRegister(std::move(onRegister)) { }

    bool call(PyInterpreter &interp, const std::string &path, PyCallArgs &args, PyValue &out) override;
    bool attribute(PyInterpreter &interp, const std::string &path, PyValue &out) override;

    // How a symbolic size read in the traced function (x.size(-1) of a [s0, s1] input) enters the graph.
    enum class SymbolicSizes {
        AsExpressions, // the SymExpr itself: search_fn's re-trace, where check_fn passes the SymInts in as inputs
        ReadFromInputs, // an aten.sym_size.int node on the input that has it: replace_fn's trace in the replacement
    };

    // Traces fn with one placeholder per tensor example (scalars are passed as constants, as make_fx does).
    // No-op nodes and unused nodes are dropped as fwd_only's remove_noop_ops and dead code elimination do.
    static std::shared_ptr<Graph> traceFunction(PyInterpreter &interp, const PyValue &fn, const PyList &examples,
        std::vector<std::string> &warnings, SymbolicSizes sizes = SymbolicSizes::AsExpressions);

    // Records one aten/npu call: resolves the overload by schema, normalises the arguments as the dispatcher
    // records them, decomposes it as Inductor's table does (PyDecompositions), infers its meta (PyOpMeta), and
    // returns a traced tensor or a tuple of getitems. scalarSelf: a number may stand for the first Tensor argument
    // (decompositions record sub.Tensor(1, x)).
    static PyValue emitOp(PyInterpreter &interp, PyTraceGraph &trace, const std::string &target, PyCallArgs &args,
        const std::string &spelledAs, bool scalarSelf = false);

private:
    RegisterFn m_onRegister;
};

} // namespace fxs
