#pragma once
// One FX node: op kind, target, arguments, derived users and meta. Nodes are created and changed
// through their Graph, which keeps users consistent.

#include "../util/json.h"
#include "argument.h"
#include "tensor_meta.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

class Graph;
class Node;

// Brings the graph's positions up to date after edits and returns the node's (graph.cpp).
size_t refreshNodeIndex(const Node &node);

enum class OpKind { Placeholder, GetAttr, CallFunction, CallMethod, CallModule, Output };
// Every kind, in the order counts and tables list them.
inline constexpr OpKind kAllOpKinds[] = {
    OpKind::Placeholder, OpKind::GetAttr, OpKind::CallFunction, OpKind::CallMethod, OpKind::CallModule, OpKind::Output};

const char *opKindName(OpKind op); // "placeholder", "call_function", ...
std::optional<OpKind> opKindFromName(std::string_view name);

// Where a node came from in the user's program (from stack_trace or a "# File:" comment).
struct SourceLocation {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
    friend bool operator==(const SourceLocation &a, const SourceLocation &b)
    {
        return a.file == b.file && a.line == b.line && a.function == b.function && a.code == b.code;
    }
};

struct ModuleStackEntry {
    std::string key; // e.g. "L__self___layer1"
    std::string path; // e.g. "layer1"
    std::string type; // e.g. "torch.nn.modules.container.Sequential"
    friend bool operator==(const ModuleStackEntry &a, const ModuleStackEntry &b)
    {
        return a.key == b.key && a.path == b.path && a.type == b.type;
    }
};

struct NodeMeta {
    std::optional<ValueMeta> val;
    std::optional<SourceLocation> source;
    std::string stackTrace;
    std::vector<ModuleStackEntry> nnModuleStack;
    std::string typeAnnotation; // node.type, e.g. "torch.Tensor"
    int dumpLine = 0; // line in the file it was read from; 0 when not from a file
    Json extra; // every other meta key, verbatim (an object or null)

    friend bool operator==(const NodeMeta &a, const NodeMeta &b)
    {
        return a.val == b.val && a.source == b.source && a.stackTrace == b.stackTrace
            && a.nnModuleStack == b.nnModuleStack && a.typeAnnotation == b.typeAnnotation && a.extra == b.extra;
    }
};

class Node {
public:
    const std::string &name() const { return m_name; }
    OpKind op() const { return m_op; }
    const std::string &target() const { return m_target; }
    const std::vector<Argument> &args() const { return m_args; }
    const Kwargs &kwargs() const { return m_kwargs; }
    const Argument *kwarg(std::string_view key) const;
    // Nodes that use this one, in graph order of their first use.
    const std::vector<Node *> &users() const { return m_users; }
    // Distinct nodes referenced by args and kwargs, in order of first appearance (FX's all_input_nodes).
    std::vector<Node *> inputNodes() const;

    NodeMeta &meta() { return m_meta; }
    const NodeMeta &meta() const { return m_meta; }
    Graph *graph() const { return m_graph; }
    // Position in the graph's node order (0 .. size-1). After an edit the first call renumbers the graph once
    // (O(n)); Graph::precedes, next and prev compare and walk the order in O(1) at any time.
    size_t index() const
    {
        // The acquire pairs with the release that ends renumbering.
        if (m_ordered && !m_ordered->load(std::memory_order_acquire))
            return refreshNodeIndex(*this);
        return m_index.load(std::memory_order_relaxed);
    }

private:
    friend class Graph;
    Node() = default;

    std::string m_name;
    OpKind m_op = OpKind::CallFunction;
    std::string m_target;
    std::vector<Argument> m_args;
    Kwargs m_kwargs;
    std::vector<Node *> m_users;
    NodeMeta m_meta;
    Graph *m_graph = nullptr;
    // The node's slot in its graph's node vector: its position whenever *m_ordered holds.
    std::atomic<size_t> m_index{0};
    const std::atomic<bool> *m_ordered = nullptr;
    Node *m_prev = nullptr, *m_next = nullptr;
    uint64_t m_order = 0; // increasing along the graph's order, with gaps for insertions
    friend size_t refreshNodeIndex(const Node &node);
};

} // namespace fxs
