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
    // Position in the graph's node order (0 .. size-1). Edits leave the positions after them stale, and the first
    // call after an edit renumbers that tail once, so a step's edits cost O(step) and its readers O(graph) once.
    size_t index() const
    {
        // Positions below m_indexedBelow are exact; the acquire pairs with the renumbering's release.
        if (m_indexedBelow) {
            size_t below = m_indexedBelow->load(std::memory_order_acquire);
            size_t i = m_index.load(std::memory_order_relaxed);
            return i < below ? i : refreshNodeIndex(*this);
        }
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
    // A node's m_index is exact when below *m_indexedBelow (its graph's), and otherwise at least that.
    std::atomic<size_t> m_index{0};
    const std::atomic<size_t> *m_indexedBelow = nullptr;
    uint64_t m_order = 0; // increasing along the graph's order, with gaps for insertions
    friend size_t refreshNodeIndex(const Node &node);
};

} // namespace fxs
