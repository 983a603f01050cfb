#include "pattern_correspondence.h"

#include "ir/graph.h"
#include "match/verdict.h"
#include "patterns/op_schema.h"

#include <set>
#include <utility>

namespace fxs {

const PatternPair *PatternCorrespondence::find(const std::string &patternNode) const
{
    for (const PatternPair &p : pairs)
        if (p.patternNode == patternNode)
            return &p;
    return nullptr;
}

namespace {

// The node a pattern returns: the output's first value (a multi-output pattern's anchor is its first output).
const Node *returnedNode(const Graph &search)
{
    const Node *output = search.outputNode();
    if (!output || output->args().empty())
        return nullptr;
    const Node *found = nullptr;
    output->args().front().forEachNode([&](Node *n) {
        if (!found)
            found = n;
    });
    return found;
}

} // namespace

PatternCorrespondence correspondPattern(const Graph &search, const Graph *graph, const Verdict &verdict)
{
    PatternCorrespondence out;
    std::set<std::string> paired;
    // The inputs from the bindings: they are what the matcher captured, literals included, and some (a scalar
    // the pattern bakes in) have no placeholder in the search graph at all.
    std::vector<PatternPair> inputs;
    for (const auto &[name, value] : verdict.bindings) {
        const bool literal = !graph || !graph->find(value);
        inputs.push_back({name, value, literal, true});
    }

    const Node *root = returnedNode(search);
    const Node *anchor = graph ? graph->find(verdict.anchor) : nullptr;
    if (root && graph) {
        // Breadth-first over (pattern node, graph node), iteratively; each pattern node is paired once.
        std::vector<std::pair<const Node *, const Node *>> queue{{root, anchor}};
        for (size_t head = 0; head < queue.size(); ++head) {
            const auto [p, g] = queue[head];
            if (!g || !paired.insert(p->name()).second)
                continue;
            if (p->op() == OpKind::Placeholder) {
                bool bound = false;
                for (const PatternPair &in : inputs)
                    bound |= in.patternNode == p->name();
                if (!bound)
                    out.pairs.push_back({p->name(), g->name(), false, true});
                continue;
            }
            // Targets compare in canonical form: a pattern file's search graph spells them as traced
            // ("aten.add.Tensor").
            const bool same = p->op() == g->op() && canonicalTarget(p->target()) == canonicalTarget(g->target());
            out.pairs.push_back({p->name(), g->name(), false, same});
            if (!same)
                continue; // below a node of another kind the arguments mean something else
            // Arguments pair by position (lists element by element) and keyword arguments by key.
            std::vector<std::pair<const Argument *, const Argument *>> args;
            for (size_t i = 0; i < p->args().size() && i < g->args().size(); ++i)
                args.emplace_back(&p->args()[i], &g->args()[i]);
            for (const auto &[key, value] : p->kwargs())
                if (const Argument *ga = g->kwarg(key))
                    args.emplace_back(&value, ga);
            for (size_t i = 0; i < args.size(); ++i) {
                const auto [pa, ga] = args[i];
                if (pa->isNode() && ga->isNode())
                    queue.emplace_back(pa->node(), ga->node());
                else if (pa->isSequence() && ga->isSequence())
                    for (size_t k = 0; k < pa->items().size() && k < ga->items().size(); ++k)
                        args.emplace_back(&pa->items()[k], &ga->items()[k]);
            }
        }
    } else if (root) {
        out.pairs.push_back({root->name(), verdict.anchor, false, true});
    }
    for (PatternPair &in : inputs)
        out.pairs.push_back(std::move(in));

    if (verdict.failure && !verdict.failure->graphNode.empty())
        for (const PatternPair &p : out.pairs)
            if (!p.isLiteral && p.graphNode == verdict.failure->graphNode) {
                out.disagreeing = p.patternNode;
                break;
            }
    if (out.disagreeing.empty())
        for (const PatternPair &p : out.pairs)
            if (!p.sameTarget) {
                out.disagreeing = p.patternNode;
                break;
            }
    return out;
}

} // namespace fxs
