#include "subgraph_matcher.h"

#include "pattern_matcher.h"
#include "util/progress.h"

#include <algorithm>
#include <unordered_map>

namespace fxs {

namespace {

Argument text(std::string s)
{
    return Argument::ofText(Argument::Kind::Verbatim, std::move(s));
}

std::vector<std::string> kwargKeys(const Node &n)
{
    std::vector<std::string> keys;
    for (const auto &kv : n.kwargs())
        keys.push_back(kv.first);
    return keys;
}

bool sameKwargKeys(const Node &a, const Node &b)
{
    if (a.kwargs().size() != b.kwargs().size())
        return false;
    for (size_t i = 0; i < a.kwargs().size(); ++i)
        if (a.kwargs()[i].first != b.kwargs()[i].first)
            return false;
    return true;
}

std::string argsShape(const Node &n)
{
    std::string s = std::to_string(n.args().size()) + " positional";
    auto keys = kwargKeys(n);
    if (!keys.empty()) {
        s += ", kwargs";
        for (const auto &k : keys)
            s += " " + k;
    }
    return s;
}

} // namespace

// One match() call: the binding state of InternalMatch (pattern index -> binding, graph index -> pattern index),
// an undo log for backtracking, and explicit stacks in place of PyTorch's recursion.
class SubgraphMatchRun {
public:
    SubgraphMatchRun(const SubgraphMatcher &m, const Graph &graph) : M(m), G(graph)
    {
        const size_t n = graph.size();
        m_owner.assign(n, -1);
        m_bound.assign(m.m_pattern.size(), 0);
        m_bind.resize(m.m_pattern.size());
        // Graph targets are resolved to pattern target ids lazily (-2: not yet): only the nodes the candidate scan
        // and the node matching look at pay for it, so a match() call does no per-node hashing or string work.
        m_graphTarget.assign(n, -2);
    }

    Result<SubgraphMatchResult> run(const std::vector<MatchFilter> &filters);

private:
    struct Item {
        const Argument *p = nullptr;
        const Argument *g = nullptr;
        int top = 0; // argument slot of the frame's nodes
        int sub = -1; // index inside a first-level list
        bool length = false; // a sequence-length mismatch: p and g are the two sequences
    };
    struct Frame {
        const Node *pn = nullptr;
        const Node *gn = nullptr;
        std::vector<Item> items;
        size_t next = 0;
        const OpSchema *schema = nullptr; // set when the arguments were schema-normalised
        std::vector<const Argument *> pAll, gAll; // schema-normalised slots (get_all_arguments), when used
    };
    enum class Enter { Fail, Done, Pushed };

    bool equalNodes(const Node &pn, const Node &gn, StructuralMismatch *mm) const;
    bool sameNode(const Node &pn, const Node &gn) const;
    Enter enter(const Node *pn, const Node *gn);
    bool buildItems(Frame &f);
    bool matchLiteral(const Frame &f, const Item &it);
    bool matchNodes(const Node *pn, const Node *gn);
    void bindNode(const Node *pn, const Node *gn);
    void undoTo(size_t mark);
    std::string slotText(const Frame &f, const Item &it) const;
    void fail(StructuralMismatch::Kind kind, const Node *pn, const Node *gn);
    void failAt(StructuralMismatch::Kind kind, const Frame &f, const Item &it);
    std::string boundText(int patternIndex) const;
    int graphTarget(const Node &gn) const;
    bool isCompute(const Node *pn) const { return pn->op() != OpKind::Placeholder && pn->op() != OpKind::Output; }
    void checkContained(SubgraphVerdict &v) const;
    bool checkAcyclic(SubgraphVerdict &v);
    InternalMatch snapshot(const std::vector<const Node *> &anchors) const;

    const SubgraphMatcher &M;
    const Graph &G;
    std::vector<int> m_owner; // graph index -> pattern index bound to it (Python: gn in nodes_map.values())
    std::vector<char> m_bound; // pattern index -> bound?
    std::vector<SubgraphBinding> m_bind;
    std::vector<int> m_log; // pattern indices in bind order, for undo
    std::vector<Frame> m_frames;
    std::vector<std::pair<const Argument *, const Argument *>> m_tops; // buildItems' scratch buffers
    std::vector<Item> m_itemStack;
    size_t m_depth = 0;
    StructuralMismatch *m_mismatch = nullptr; // the current candidate's verdict.mismatch
    mutable std::vector<int> m_graphTarget; // graph index -> pattern target id, -1 none, -2 not resolved yet
    std::vector<unsigned> m_visited; // cycle DFS, stamped per check
    unsigned m_stamp = 0;
    std::vector<int> m_parent;
};

// The pattern target id a graph node's target spells (canonicalTarget's spellings compared as text: a few
// length checks per node), computed on first use.
int SubgraphMatchRun::graphTarget(const Node &gn) const
{
    int &id = m_graphTarget[gn.index()];
    if (id == -2) {
        id = -1;
        if (gn.op() != OpKind::Placeholder && gn.op() != OpKind::Output)
            for (size_t t = 0; t < M.m_targetSpellings.size() && id < 0; ++t)
                for (const std::string &spelling : M.m_targetSpellings[t])
                    if (spelling == gn.target()) {
                        id = int(t);
                        break;
                    }
    }
    return id;
}

void SubgraphMatchRun::bindNode(const Node *pn, const Node *gn)
{
    m_bound[pn->index()] = 1;
    SubgraphBinding &b = m_bind[pn->index()];
    b.node = gn;
    if (!b.literal.isNone()) // Argument is large: reset only what a literal binding left
        b.literal = Argument();
    m_owner[gn->index()] = int(pn->index());
    m_log.push_back(int(pn->index()));
}

void SubgraphMatchRun::undoTo(size_t mark)
{
    while (m_log.size() > mark) {
        int pi = m_log.back();
        m_log.pop_back();
        SubgraphBinding &b = m_bind[pi];
        if (b.node)
            m_owner[b.node->index()] = -1;
        b.node = nullptr;
        if (!b.literal.isNone())
            b.literal = Argument();
        m_bound[pi] = 0;
    }
}

std::string SubgraphMatchRun::boundText(int pi) const
{
    const SubgraphBinding &b = m_bind[pi];
    return b.node ? b.node->name() : "the literal " + b.literal.toPython();
}

// _nodes_are_equal without explaining: the candidate scan calls it for every graph node, so a call node's target is
// compared as text against the anchor's own spellings only.
bool SubgraphMatchRun::sameNode(const Node &pn, const Node &gn) const
{
    if (!M.m_options.matchPlaceholder && pn.op() == OpKind::Placeholder)
        return true;
    if (pn.op() != gn.op())
        return false;
    if (pn.op() == OpKind::CallFunction || pn.op() == OpKind::CallMethod || pn.op() == OpKind::CallModule) {
        const int id = M.m_targetIds[pn.index()];
        for (const std::string &spelling : M.m_targetSpellings[size_t(id)])
            if (spelling == gn.target()) {
                m_graphTarget[gn.index()] = id;
                return true;
            }
        return false;
    }
    return equalNodes(pn, gn, nullptr);
}

// _nodes_are_equal; the mismatch is described in *mm only when asked (the common, failing call pays for no text).
bool SubgraphMatchRun::equalNodes(const Node &pn, const Node &gn, StructuralMismatch *mm) const
{
    if (!M.m_options.matchPlaceholder && pn.op() == OpKind::Placeholder)
        return true;
    if (pn.op() != gn.op()) {
        if (mm) {
            mm->kind = StructuralMismatch::Kind::OpDiffers;
            mm->expected = text(opKindName(pn.op()));
            mm->actual = text(opKindName(gn.op()));
        }
        return false;
    }
    if (pn.op() == OpKind::Placeholder || pn.op() == OpKind::Output)
        return true;
    if (pn.op() == OpKind::GetAttr) {
        // _match_attributes: same Python type; any tensor matches any tensor. Unknown values are not compared.
        const auto &a = pn.meta().val, &b = gn.meta().val;
        if (a && b && a->kind != b->kind) {
            if (mm) {
                mm->kind = StructuralMismatch::Kind::AttributeDiffers;
                mm->expected = text(a->kind == ValueMeta::Kind::Tensor ? "a tensor" : "a non-tensor value");
                mm->actual = text(b->kind == ValueMeta::Kind::Tensor ? "a tensor" : "a non-tensor value");
            }
            return false;
        }
        return true;
    }
    if (M.m_targetIds[pn.index()] != graphTarget(gn)) {
        if (mm) {
            mm->kind = StructuralMismatch::Kind::TargetDiffers;
            mm->expected = text(M.m_targets[pn.index()]);
            mm->actual = text(canonicalTarget(gn.target()));
        }
        return false;
    }
    return true;
}

void SubgraphMatchRun::fail(StructuralMismatch::Kind kind, const Node *pn, const Node *gn)
{
    m_mismatch->kind = kind;
    m_mismatch->patternNode = pn->name();
    m_mismatch->graphNode = gn->name();
    m_mismatch->slot.clear();
    m_mismatch->path.clear();
    m_mismatch->path.reserve(m_depth + 1);
    for (size_t i = 0; i < m_depth; ++i)
        m_mismatch->path.push_back(m_frames[i].gn->name());
    m_mismatch->path.push_back(gn->name());
}

void SubgraphMatchRun::failAt(StructuralMismatch::Kind kind, const Frame &f, const Item &it)
{
    fail(kind, f.pn, f.gn);
    m_mismatch->path.pop_back(); // the frame's node is already the last one on the stack
    m_mismatch->slot = slotText(f, it);
}

std::string SubgraphMatchRun::slotText(const Frame &f, const Item &it) const
{
    std::string s;
    if (f.schema)
        s = f.schema->arguments[size_t(it.top)].name;
    else if (size_t(it.top) < f.pn->args().size())
        s = "args[" + std::to_string(it.top) + "]";
    else
        s = "kwargs['" + f.pn->kwargs()[size_t(it.top) - f.pn->args().size()].first + "']";
    if (it.sub >= 0)
        s += "[" + std::to_string(it.sub) + "]";
    return s;
}

// The argument pairs of _match_nodes in the order _match_args visits them: top-level slots left to right, lists
// expanded in place (an explicit stack, not recursion), a length mismatch as one failing item at its position.
bool SubgraphMatchRun::buildItems(Frame &f)
{
    const Node &pn = *f.pn, &gn = *f.gn;
    f.items.clear();
    f.next = 0;
    f.schema = nullptr;
    f.pAll.clear();
    f.gAll.clear();
    auto &tops = m_tops;
    tops.clear();
    const bool sameShape = pn.args().size() == gn.args().size() && sameKwargKeys(pn, gn);
    const OpSchema *schema
        = !sameShape && pn.op() == OpKind::CallFunction ? M.m_schemas.find(M.m_targets[pn.index()]) : nullptr;
    if (schema) {
        // get_all_arguments on both sides: kwargs[name] | args[i] (not kwarg-only) | the schema default.
        static const Argument kNone;
        auto all = [&](const Node &n, std::vector<const Argument *> &out) {
            for (size_t i = 0; i < schema->arguments.size(); ++i) {
                const SchemaArgument &a = schema->arguments[i];
                if (const Argument *k = n.kwarg(a.name))
                    out.push_back(k);
                else if (!a.kwargOnly && i < n.args().size())
                    out.push_back(&n.args()[i]);
                else
                    out.push_back(a.defaultValue ? &*a.defaultValue : &kNone);
            }
        };
        all(pn, f.pAll);
        all(gn, f.gAll);
        f.schema = schema;
        for (size_t i = 0; i < f.pAll.size(); ++i)
            tops.push_back({f.pAll[i], f.gAll[i]});
    } else if (sameShape) {
        for (size_t i = 0; i < pn.args().size(); ++i)
            tops.push_back({&pn.args()[i], &gn.args()[i]});
        for (size_t i = 0; i < pn.kwargs().size(); ++i)
            tops.push_back({&pn.kwargs()[i].second, &gn.kwargs()[i].second});
    } else {
        return false;
    }
    auto &stack = m_itemStack;
    stack.clear();
    for (size_t t = 0; t < tops.size(); ++t) {
        stack.push_back(Item{tops[t].first, tops[t].second, int(t), -1, false});
        while (!stack.empty()) {
            Item it = stack.back();
            stack.pop_back();
            if (it.p->isSequence() && it.g->isSequence()) {
                if (it.p->items().size() != it.g->items().size()) {
                    it.length = true;
                    f.items.push_back(it);
                    continue;
                }
                for (size_t k = it.p->items().size(); k-- > 0;)
                    stack.push_back(
                        Item{&it.p->items()[k], &it.g->items()[k], it.top, it.sub >= 0 ? it.sub : int(k), false});
            } else {
                f.items.push_back(it);
            }
        }
    }
    return true;
}

// _match_literals: a pattern placeholder binds a literal (consistently), a pattern compute node never matches a
// literal, a literal never matches a node, two literals compare type-strictly.
bool SubgraphMatchRun::matchLiteral(const Frame &f, const Item &it)
{
    const Argument &p = *it.p, &g = *it.g;
    using K = StructuralMismatch::Kind;
    if (p.isNode()) {
        const Node *pn = p.node();
        if (pn->op() != OpKind::Placeholder) {
            failAt(K::NodeVsLiteral, f, it);
            m_mismatch->expected = text(pn->name());
            m_mismatch->actual = g;
            return false;
        }
        const int pi = int(pn->index());
        if (m_bound[pi]) {
            const SubgraphBinding &b = m_bind[pi];
            if (!b.node && pythonEquals(b.literal, g))
                return true;
            failAt(K::PlaceholderRebound, f, it);
            m_mismatch->other = pn->name();
            m_mismatch->expected = b.node ? text(b.node->name()) : b.literal;
            m_mismatch->actual = g;
            return false;
        }
        m_bound[pi] = 1;
        m_bind[pi] = SubgraphBinding{nullptr, g};
        m_log.push_back(pi);
        return true;
    }
    if (g.isNode()) {
        failAt(K::LiteralVsNode, f, it);
        m_mismatch->expected = p;
        m_mismatch->actual = text(g.node()->name());
        return false;
    }
    // type(gn) == type(pn) and gn == pn
    if (p.kind() == g.kind() && pythonEquals(p, g))
        return true;
    failAt(K::LiteralDiffers, f, it);
    m_mismatch->expected = p;
    m_mismatch->actual = g;
    return false;
}

SubgraphMatchRun::Enter SubgraphMatchRun::enter(const Node *pn, const Node *gn)
{
    using K = StructuralMismatch::Kind;
    const int pi = int(pn->index());
    if (m_bound[pi]) {
        if (m_bind[pi].node == gn)
            return Enter::Done;
        std::string other = boundText(pi);
        fail(K::PatternNodeRebound, pn, gn);
        m_mismatch->other = std::move(other);
        return Enter::Fail;
    }
    if (int owner = m_owner[gn->index()]; owner >= 0) {
        fail(K::GraphNodeTaken, pn, gn);
        m_mismatch->other = M.m_pattern.nodes()[size_t(owner)]->name();
        return Enter::Fail;
    }
    if (!equalNodes(*pn, *gn, nullptr)) {
        StructuralMismatch mm;
        equalNodes(*pn, *gn, &mm);
        fail(mm.kind, pn, gn);
        m_mismatch->expected = std::move(mm.expected);
        m_mismatch->actual = std::move(mm.actual);
        return Enter::Fail;
    }
    bindNode(pn, gn);
    if (pn->op() == OpKind::Placeholder)
        return Enter::Done;
    if (m_frames.size() <= m_depth)
        m_frames.emplace_back();
    Frame &f = m_frames[m_depth];
    f.pn = pn;
    f.gn = gn;
    if (!buildItems(f)) {
        fail(K::ArgumentsDiffer, pn, gn);
        m_mismatch->expected = text(argsShape(*pn));
        m_mismatch->actual = text(argsShape(*gn));
        return Enter::Fail;
    }
    ++m_depth;
    return Enter::Pushed;
}

// _match_nodes(pn, gn) with an explicit stack of frames; the first failure aborts the whole candidate (PyTorch's
// local rollback is ineffective, the anchor-level restore is what counts), recorded in m_mismatch->
bool SubgraphMatchRun::matchNodes(const Node *pn, const Node *gn)
{
    m_depth = 0;
    Enter e = enter(pn, gn);
    if (e != Enter::Pushed)
        return e == Enter::Done;
    while (m_depth > 0) {
        Frame &f = m_frames[m_depth - 1];
        if (f.next == f.items.size()) {
            --m_depth;
            continue;
        }
        const Item it = f.items[f.next++];
        if (it.length) {
            failAt(StructuralMismatch::Kind::SequenceLength, f, it);
            m_mismatch->expected = text(std::to_string(it.p->items().size()));
            m_mismatch->actual = text(std::to_string(it.g->items().size()));
            return false;
        }
        if (it.p->isNode() && it.g->isNode()) {
            if (enter(it.p->node(), it.g->node()) == Enter::Fail)
                return false;
            continue;
        }
        if (!matchLiteral(f, it) && !M.m_options.ignoreLiterals)
            return false;
    }
    return true;
}

InternalMatch SubgraphMatchRun::snapshot(const std::vector<const Node *> &anchors) const
{
    InternalMatch m;
    m.anchors = anchors;
    for (const auto &pn : M.m_pattern.nodes())
        if (m_bound[pn->index()])
            m.nodesMap.push_back({pn.get(), m_bind[pn->index()]});
    for (const Node *p : M.m_placeholders)
        m.placeholderNodes.push_back(m_bind[p->index()]);
    for (const Node *r : M.m_returning)
        m.returningNodes.push_back(m_bind[r->index()].node);
    return m;
}

// _is_contained: every matched compute node that the pattern does not return has all its users inside the match
// (placeholder-bound nodes count as inside). All leaks are listed, not only the first.
void SubgraphMatchRun::checkContained(SubgraphVerdict &v) const
{
    for (const auto &pnPtr : M.m_pattern.nodes()) {
        const Node *pn = pnPtr.get();
        if (!m_bound[pn->index()] || pn->op() == OpKind::Placeholder)
            continue;
        if (std::find(M.m_returning.begin(), M.m_returning.end(), pn) != M.m_returning.end())
            continue;
        const Node *gn = m_bind[pn->index()].node;
        if (!gn)
            continue;
        for (const Node *u : gn->users())
            if (m_owner[u->index()] < 0)
                v.leaks.push_back({gn->name(), u->name()});
    }
    if (!v.leaks.empty())
        v.stage = SubgraphStage::Contained;
}

// validate_partition: a DFS over users from the partition's external users must not come back into the partition.
// Users always come later in a topological order, so nodes after the partition's last node cannot lead back and
// are not visited: the same answer as PyTorch's whole-graph DFS at a cost bounded by the match's span.
bool SubgraphMatchRun::checkAcyclic(SubgraphVerdict &v)
{
    auto inPartition = [&](const Node *n) {
        int o = m_owner[n->index()];
        return o >= 0 && isCompute(M.m_pattern.nodes()[size_t(o)].get());
    };
    size_t last = 0;
    std::vector<const Node *> partition;
    for (const auto &pn : M.m_pattern.nodes())
        if (m_bound[pn->index()] && isCompute(pn.get()) && m_bind[pn->index()].node) {
            partition.push_back(m_bind[pn->index()].node);
            last = std::max(last, m_bind[pn->index()].node->index());
        }
    if (m_visited.empty()) { // only runs that reach a complete match need the DFS state
        m_visited.assign(G.size(), 0);
        m_parent.assign(G.size(), -1);
    }
    if (++m_stamp == 0) {
        std::fill(m_visited.begin(), m_visited.end(), 0);
        m_stamp = 1;
    }
    std::vector<const Node *> stack;
    for (const Node *p : partition)
        for (const Node *u : p->users())
            if (!inPartition(u) && u->index() < last && m_visited[u->index()] != m_stamp) {
                m_visited[u->index()] = m_stamp;
                m_parent[u->index()] = int(p->index());
                stack.push_back(u);
            }
    while (!stack.empty()) {
        const Node *n = stack.back();
        stack.pop_back();
        for (const Node *u : n->users()) {
            if (inPartition(u)) {
                // Path: partition node → outside … → u.
                std::vector<std::string> path{u->name()};
                for (int i = int(n->index());; i = m_parent[size_t(i)]) {
                    const Node *x = G.nodes()[size_t(i)].get();
                    path.push_back(x->name() + (inPartition(x) ? "" : " (outside)"));
                    if (inPartition(x))
                        break;
                }
                std::reverse(path.begin(), path.end());
                v.cyclePath = std::move(path);
                v.stage = SubgraphStage::Cycle;
                return false;
            }
            if (u->index() < last && m_visited[u->index()] != m_stamp) {
                m_visited[u->index()] = m_stamp;
                m_parent[u->index()] = int(n->index());
                stack.push_back(u);
            }
        }
    }
    return true;
}

Result<SubgraphMatchResult> SubgraphMatchRun::run(const std::vector<MatchFilter> &filters)
{
    SubgraphMatchResult result;
    SubgraphReport &report = result.report;
    for (const Node *a : M.m_anchors)
        report.patternAnchors.push_back(a->name());

    // Candidates per anchor, in graph order.
    const size_t K = M.m_anchors.size();
    std::vector<std::vector<const Node *>> candidates(K);
    for (size_t k = 0; k < K; ++k)
        for (const auto &n : G.nodes())
            if (sameNode(*M.m_anchors[k], *n))
                candidates[k].push_back(n.get());
    for (const auto &c : candidates)
        if (c.empty())
            return result; // some anchor has no candidate: no match can be complete

    struct Found {
        size_t verdict;
        InternalMatch match;
    };
    report.candidates.reserve(candidates[0].size());
    std::vector<Found> found; // passed structure, containment and the cycle check, in discovery order
    std::vector<size_t> pos(K, 0), mark(K, 0);
    std::vector<const Node *> tried(K, nullptr);
    size_t k = 0;
    mark[0] = m_log.size();
    for (;;) {
        if (pos[k] == candidates[k].size()) {
            if (k == 0)
                break;
            --k;
            ++pos[k];
            continue;
        }
        if (k == 0 && !reportProgress(pos[0], candidates[0].size()))
            return canceledError("");
        undoTo(mark[k]); // saved_match
        tried[k] = candidates[k][pos[k]];
        // The candidate's verdict is made first, so a mismatch is written straight into it.
        m_mismatch = &report.candidates.emplace_back().mismatch;
        if (!matchNodes(M.m_anchors[k], tried[k])) {
            SubgraphVerdict &v = report.candidates.back();
            v.anchors.reserve(k + 1);
            for (size_t i = 0; i <= k; ++i)
                v.anchors.push_back(tried[i]->name());
            v.stage = SubgraphStage::Structure;
            ++pos[k];
            continue;
        }
        if (k + 1 < K) {
            report.candidates.pop_back(); // not a candidate yet: the next anchor decides
            ++k;
            pos[k] = 0;
            mark[k] = m_log.size();
            continue;
        }
        // A complete match: the per-match filters run now, while the bindings are live.
        SubgraphVerdict &v = report.candidates.back();
        if (M.m_options.ignoreLiterals)
            v.mismatch = {}; // literal differences that ignore_literals let pass are no verdict
        v.anchors.reserve(K);
        for (const Node *t : tried)
            v.anchors.push_back(t->name());
        v.nodes.reserve(M.m_pattern.size());
        for (const auto &pn : M.m_pattern.nodes())
            if (m_bound[pn->index()] && isCompute(pn.get()) && m_bind[pn->index()].node)
                v.nodes.push_back(m_bind[pn->index()].node->name());
        v.bindings.reserve(M.m_placeholders.size());
        for (const Node *p : M.m_placeholders)
            if (m_bound[p->index()])
                v.bindings.push_back({p->name(),
                    m_bind[p->index()].node ? text(m_bind[p->index()].node->name()) : m_bind[p->index()].literal});
        checkContained(v);
        if (v.stage != SubgraphStage::Contained && checkAcyclic(v))
            found.push_back({report.candidates.size() - 1, snapshot(tried)});
        ++pos[k];
    }
    undoTo(0);

    // _remove_overlapping_matches: greedy in discovery order over compute nodes.
    std::vector<int> ownerMatch(G.size(), -1);
    std::vector<Found> kept;
    for (auto &f : found) {
        SubgraphVerdict &v = report.candidates[f.verdict];
        int owner = -1;
        if (M.m_options.removeOverlappingMatches)
            for (const Node *gn : f.match.computeNodes())
                if (int o = ownerMatch[gn->index()]; o >= 0) {
                    owner = owner < 0 ? o : owner;
                    if (o == owner)
                        v.overlapNodes.push_back(gn->name());
                }
        if (owner >= 0) {
            v.stage = SubgraphStage::Overlap;
            v.overlapMatch = owner;
            v.overlapAnchor = report.candidates[kept[size_t(owner)].verdict].anchorText();
            continue;
        }
        for (const Node *gn : f.match.computeNodes())
            ownerMatch[gn->index()] = int(kept.size());
        kept.push_back(std::move(f));
    }

    // replace_pattern_with_filters: every filter must return true, after the matcher removed overlaps.
    std::vector<char> filteredOut(kept.size(), 0);
    for (size_t i = 0; i < kept.size(); ++i) {
        SubgraphVerdict &v = report.candidates[kept[i].verdict];
        for (const auto &filter : filters) {
            FilterVerdict fv = filter.fn(kept[i].match, G, M.m_pattern);
            if (!fv.ok) {
                v.stage = SubgraphStage::Filter;
                v.filterName = filter.name;
                v.filterReason = std::move(fv.reason);
                filteredOut[i] = 1;
                break;
            }
        }
        if (filteredOut[i])
            continue;
        v.accepted = true;
        v.stage = SubgraphStage::Accepted;
        v.matchIndex = int(result.matches.size());
        result.matches.push_back(std::move(kept[i].match));
    }
    for (auto &v : report.candidates)
        if (v.stage == SubgraphStage::Overlap && filteredOut[size_t(v.overlapMatch)])
            v.overlapOwnerFiltered = true;
    return result;
}

SubgraphMatcher::SubgraphMatcher(const Graph &pattern, SubgraphMatcherOptions options, const OpSchemaTable &schemas)
    : m_pattern(pattern), m_options(options), m_schemas(schemas)
{
}

Result<std::unique_ptr<SubgraphMatcher>> SubgraphMatcher::create(
    const Graph &pattern, SubgraphMatcherOptions options, const OpSchemaTable &schemas)
{
    if (pattern.size() == 0)
        return Error{"", 0, 0, "SubgraphMatcher cannot be initialized with an empty pattern"};
    const Node *output = pattern.nodes().back().get();
    if (output->op() != OpKind::Output)
        return Error{"", 0, 0, "the pattern's last node must be its output, found " + output->name()};
    for (const auto &n : pattern.nodes())
        if (n->op() != OpKind::Output && n->users().empty())
            return Error{"", 0, 0,
                "SubgraphMatcher cannot be initialized with an pattern with dead code: " + n->name() + " has no users"};
    std::unique_ptr<SubgraphMatcher> m(new SubgraphMatcher(pattern, options, schemas));
    for (const auto &n : pattern.nodes()) {
        const bool call
            = n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod || n->op() == OpKind::CallModule;
        m->m_targets.push_back(call || n->op() == OpKind::GetAttr ? canonicalTarget(n->target()) : std::string());
        m->m_targetIds.push_back(call ? m->targetId(m->m_targets.back()) : -1);
        if (n->op() == OpKind::Placeholder)
            m->m_placeholders.push_back(n.get());
    }
    for (Node *r : output->inputNodes())
        m->m_returning.push_back(r);
    if (options.matchOutput)
        m->m_anchors = {output};
    else
        for (const Node *r : m->m_returning)
            if (r->users().size() == 1)
                m->m_anchors.push_back(r);
    return m;
}

// The id of a canonical pattern target, with every raw spelling canonicalTarget maps to it (torch.ops.-prefixed,
// getitem's aliases), so graph targets are compared as text without canonicalising each one.
int SubgraphMatcher::targetId(const std::string &canonical)
{
    for (size_t i = 0; i < m_targetKeys.size(); ++i)
        if (m_targetKeys[i] == canonical)
            return int(i);
    std::vector<std::string> bases{canonical};
    if (canonical == "operator.getitem")
        bases.insert(bases.end(), {"<built-in function getitem>", "_operator.getitem", "getitem"});
    std::vector<std::string> spellings;
    for (const std::string &base : bases)
        for (const std::string &raw : {base, "torch.ops." + base})
            if (canonicalTarget(raw) == canonical)
                spellings.push_back(raw);
    m_targetKeys.push_back(canonical);
    m_targetSpellings.push_back(std::move(spellings));
    return int(m_targetKeys.size() - 1);
}

Result<SubgraphMatchResult> SubgraphMatcher::match(const Graph &graph, const std::vector<MatchFilter> &filters) const
{
    SubgraphMatchRun run(*this, graph);
    return run.run(filters);
}

} // namespace fxs
