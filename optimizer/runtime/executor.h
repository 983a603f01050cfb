#pragma once
// Runs an fxs::Graph through LibTorch's dispatcher: every call_function node is a boxed call by schema, with
// its FX arguments normalised against that schema. Internal to the runtime module (torch types inside).

#include "autocast_scope.h"
#include "ir/graph.h"
#include "output_buffer_pool.h"
#include "util/result.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>
#include <c10/util/SmallVector.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fxs {

class Executor {
public:
    // Resolves every node's operator once; an unsupported op is an error naming the node and op.
    static Result<Executor> create(const Graph &graph, c10::Device device);

    // What one run measured besides node times; filled also when the run fails part-way.
    struct RunStats {
        size_t completed = 0; // nodes run, in graph order (on failure: the failing node's index)
        int64_t peakIntermediateBytes = 0; // most bytes held at once by values computed in the graph
    };

    // Runs the graph once. inputs are placeholder/get_attr values by node name. When nodeMicros is given it
    // receives each node's wall time (µs), in graph order; stats, what else was measured.
    Result<std::vector<at::Tensor>> run(const std::unordered_map<std::string, at::Tensor> &inputs,
        std::vector<double> *nodeMicros = nullptr, RunStats *stats = nullptr) const;

    // Called every kCheckpointNodes nodes of a run with the number of nodes run so far; false stops the run
    // with canceledError (util/progress.h).
    static constexpr size_t kCheckpointNodes = 256;
    void setCheckpoint(std::function<bool(size_t)> checkpoint) { m_checkpoint = std::move(checkpoint); }
    // Receives the index of each top-level node as it starts (a rank's slot, runtime/rank_slot.h), so a launcher
    // can name the node a rank crashed or hung in; -1 after the run.
    void setNodeSlot(std::atomic<int64_t> *slot) { m_nodeSlot = slot; }

    const Graph &graph() const { return *m_graph; }
    c10::Device device() const { return m_device; }

private:
    enum class Step {
        Input,
        Call,
        Resolve,
        Sizes,
        TensorFact, // aten.sym_size / sym_numel / sym_stride / sym_storage_offset
        AssertScalar, // aten._assert_scalar: a runtime assertion on sizes (torch.export)
        Convert,
        Iota,
        GetItem,
        SetItem, // operator.setitem: x[idx] = v, in place
        ScalarOp,
        Cond, // torch.ops.higher_order.cond: one of two nested graphs
        Nested, // higher_order.wrap (wrap_with_set_grad_enabled, wrap_with_autocast), flex_attention, call_module
        Output,
        Skip // also get_attr of a nested graph: it has no value of its own
    };
    // A schema argument's value: a constant converted once (literals, defaults), or read per run from `arg`.
    struct Binding {
        static constexpr size_t kNoValue = size_t(-1);
        const Argument *arg = nullptr;
        c10::TypePtr type; // set when arg refers to nodes
        c10::IValue constant;
        // arg is one node: the index of its value, so a run reads it without touching the node (a cache miss
        // per argument on large graphs); tensorParam: the schema takes a Tensor there.
        size_t value = kNoValue;
        bool tensorParam = false;
        // A Python number passed where the schema takes a Tensor (a wrapped number), as first converted; on the
        // CPU `constant` then holds it in the dtype of the other operands (convertWrappedNumbers).
        c10::IValue wrappedNumber;
    };
    struct Plan {
        Step step = Step::Skip;
        c10::optional<c10::OperatorHandle> op; // Resolve: chosen from candidates on the first run
        std::vector<c10::OperatorHandle> candidates; // Resolve (and ScalarOp on tensors): aten overloads to choose from
        std::vector<Argument> args; // Resolve: the node's positional arguments as the schema takes them
        std::string scalarOp; // operator.add, ...
        // Inline, not on the heap: a run walks the plans in order, so what a node needs lies in one stream of
        // memory (on 10k+ node graphs the separate heap blocks of these lists cost cache misses per node).
        c10::SmallVector<size_t, 2> freeAfter; // node indices whose last use is this node
        c10::SmallVector<Binding, 3> bindings; // Call and Resolve: the op's arguments in schema order
        std::vector<const Executor *> branches; // Cond: true, false; Nested: the body
        bool intInput = false; // Input: a SymInt placeholder, given as a 0-dim tensor and passed on as an int
        size_t firstOperand = 0; // Cond, Nested: where the nested graph's arguments begin in the node's args
        // Call: the op's out= variant, and the output's shape and dtype from the first run, which had no buffer
        // to write into (set only when that output was dense and owned by nobody else).
        c10::optional<c10::OperatorHandle> outOp;
        c10::SmallVector<int64_t, 4> outSizes;
        c10::optional<c10::ScalarType> outDtype;
        bool hasWrappedNumbers = false; // some binding has a wrappedNumber
        c10::optional<c10::ScalarType> wrappedNumbersAs; // the dtype they are held in now
    };
    Executor(const Graph &graph, c10::Device device) : m_graph(&graph), m_device(device) { }

    Status bind(const Node &node, Plan &plan) const;
    Result<c10::IValue> call(const Node &node, const Plan &plan, std::vector<c10::IValue> &values) const;
    void convertWrappedNumbers(Plan &plan, const std::vector<c10::IValue> &values) const;
    Result<c10::IValue> invoke(const Node &node, const Plan &plan, torch::jit::Stack &stack) const;
    // Resolve steps (and Python operators on tensors): picks the overload on the first run, then calls it.
    Result<c10::IValue> resolveAndCall(const Node &node, std::vector<c10::IValue> &values) const;
    Status planNested(const Node &node, Plan &plan, const std::vector<std::string> &graphs, size_t firstOperand);
    // Runs the graph: placeholders take `positional` in order when given (a nested graph), else `named` by name
    // (get_attr nodes always do). Returns the output node's value: a tuple when it returns several.
    Result<c10::IValue> execute(const std::vector<c10::IValue> *positional,
        const std::unordered_map<std::string, at::Tensor> &named, std::vector<double> *nodeMicros,
        RunStats *stats) const;
    Result<c10::IValue> runNested(const Node &node, const Plan &plan, const std::vector<c10::IValue> &values,
        const std::unordered_map<std::string, at::Tensor> &named) const;
    // higher_order.flex_attention: branches are score_mod and mask_mod (runtime/flex_attention.h).
    Result<c10::IValue> runFlexAttention(const Node &node, const Plan &plan, const std::vector<c10::IValue> &values,
        const std::unordered_map<std::string, at::Tensor> &named) const;

    const Graph *m_graph;
    c10::Device m_device;
    std::vector<std::shared_ptr<Executor>> m_nested; // executors of the nested graphs this graph runs
    std::unordered_set<size_t> m_flexAttention; // flex_attention nodes by index (planned as Nested)
    std::unordered_map<size_t, AutocastSpec> m_autocast; // wrap_with_autocast nodes by index: their body's state
    mutable torch::jit::Stack m_stack; // call's argument stack, reused
    std::function<bool(size_t)> m_checkpoint;
    std::atomic<int64_t> *m_nodeSlot = nullptr;
    mutable std::vector<c10::IValue> m_values; // a run's values by node index
    mutable OutputBufferPool m_buffers; // intermediates freed during a run, for out= variants to write into
    mutable std::vector<Plan> m_plans; // mutable: Resolve steps keep the overload their first run chose
    // Nodes found to need the float32 fallback, so later iterations skip the failing first attempt.
    mutable std::vector<char> m_upcast;
};

} // namespace fxs
