#pragma once
// Runs an fxs::Graph through LibTorch's dispatcher: every call_function node is a boxed call by schema, with
// its FX arguments normalised against that schema. Internal to the runtime module (torch types inside).

#include "ir/graph.h"
#include "util/result.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace fxs {

class Executor {
public:
    // Resolves every node's operator once; an unsupported op is an error naming the node and op.
    static Result<Executor> create(const Graph &graph, c10::Device device);

    // Runs the graph once. inputs are placeholder/get_attr values by node name. When nodeMicros is given it
    // receives each node's wall time (µs), in graph order.
    Result<std::vector<at::Tensor>> run(
        const std::unordered_map<std::string, at::Tensor> &inputs, std::vector<double> *nodeMicros = nullptr) const;

    const Graph &graph() const { return *m_graph; }
    c10::Device device() const { return m_device; }

private:
    enum class Step { Input, Call, Convert, GetItem, ScalarOp, Output, Skip };
    struct Plan {
        Step step = Step::Skip;
        c10::optional<c10::OperatorHandle> op;
        std::string scalarOp; // operator.add, ...
        std::vector<size_t> freeAfter; // node indices whose last use is this node
    };
    Executor(const Graph &graph, c10::Device device) : m_graph(&graph), m_device(device) { }

    Result<c10::IValue> call(const Node &node, const Plan &plan, std::vector<c10::IValue> &values) const;

    const Graph *m_graph;
    c10::Device m_device;
    std::vector<Plan> m_plans;
    // Nodes found to need the float32 fallback, so later iterations skip the failing first attempt.
    mutable std::vector<char> m_upcast;
};

} // namespace fxs
