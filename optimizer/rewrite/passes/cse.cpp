#include "cse.h"

#include "rewrite/dead_code.h"

#include <array>
#include <unordered_map>

namespace fxs {

namespace {

// The seeds' rand_ops: equal calls give different values.
bool isRandom(const std::string &canonical)
{
    static const std::array<const char *, 16> randomOps
        = {"aten.dropout", "aten._fused_dropout", "aten._standard_gamma", "aten.bernoulli", "aten.multinomial",
            "aten.native_dropout", "aten.normal", "aten.poisson", "aten.binomial", "aten.rrelu", "aten.rand_like",
            "aten.rand", "aten.randint", "aten.randn", "aten.randn_like", "aten.randperm"};
    for (const char *op : randomOps) {
        size_t n = std::char_traits<char>::length(op);
        if (canonical.compare(0, n, op) == 0 && (canonical.size() == n || canonical[n] == '.'))
            return true;
    }
    return false;
}

} // namespace

bool isCseCandidate(const Node &node, const OpSchemaTable &schemas)
{
    if (node.op() != OpKind::CallFunction && node.op() != OpKind::CallMethod)
        return false;
    if (isImpure(node))
        return false;
    std::string canonical = canonicalTarget(node.target());
    if (isRandom(canonical))
        return false;
    if (node.op() == OpKind::CallFunction)
        if (const OpSchema *schema = schemas.find(node.target()); schema && schema->isMutable())
            return false;
    return true;
}

Result<bool> eliminateCommonSubexpressions(GraphEditor &editor, const OpSchemaTable &schemas)
{
    Graph &graph = editor.graph();
    std::unordered_map<std::string, Node *> seen;
    std::vector<Node *> duplicates;
    // Inputs are rewired as we go, so a later node's key already names the surviving nodes.
    for (size_t i = 0; i < graph.size(); ++i) {
        Node *n = graph.nodes()[i].get();
        if (!isCseCandidate(*n, schemas))
            continue;
        std::string key = std::string(opKindName(n->op())) + ' ' + canonicalTarget(n->target()) + '(';
        for (const auto &a : n->args())
            key += a.toFxText() + ", ";
        for (const auto &kv : n->kwargs())
            key += kv.first + '=' + kv.second.toFxText() + ", ";
        auto [it, inserted] = seen.emplace(std::move(key), n);
        if (inserted)
            continue;
        editor.replaceUses(n, Argument::ofNode(it->second));
        duplicates.push_back(n);
    }
    for (auto it = duplicates.rbegin(); it != duplicates.rend(); ++it)
        if (!editor.erase(*it))
            return Error{"", 0, 0, "cse: '" + (*it)->name() + "' still has users after its uses were replaced"};
    return !duplicates.empty();
}

} // namespace fxs
