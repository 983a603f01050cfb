// bench_diff [--out FILE.json] [--repeat N]: the structural diff (optimizer/compare) against a naive name-only diff
// on pairs whose truth is known, and its growth with graph size. Prints a table; writes JSON with --out.
//   quality: HRNet-w18's joint graph (23,444 nodes) and BERT's against copies renamed two ways (fresh names; each
//   node taking the next same-op node's name), where the truth is "node i is node i"; the sample against its fused
//   revision with provenance removed, where the truth is the fusion steps' removed/added nodes.
//   growth: synthetic residual-block graphs of 1k..100k nodes against a fresh-named copy.
// Times are medians of --repeat runs (default 5), graphs already loaded. No PyTorch side: PyTorch has no graph diff.

#include "compare/graph_comparison.h"
#include "compare/graph_variants.h"
#include "io/loader.h"
#include "patterns/builtin_patterns.h"
#include "rewrite/session.h"
#include "util/json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace fxs;
using Clock = std::chrono::steady_clock;

double medianMs(int repeat, const std::function<void()> &run)
{
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        const auto start = Clock::now();
        run();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// The baseline: nodes are the same node when they have the same name (what a text diff of dumps amounts to).
std::vector<int32_t> nameDiff(const Graph &a, const Graph &b)
{
    std::vector<int32_t> partner(a.size(), -1);
    for (const auto &n : a.nodes())
        if (const Node *m = b.find(n->name()); m && m->op() == n->op())
            partner[n->index()] = int32_t(m->index());
    return partner;
}

struct Quality {
    size_t correct = 0, wrong = 0, missed = 0;
};

Quality score(const std::vector<int32_t> &partner, const std::vector<int32_t> &truth)
{
    Quality q;
    for (size_t i = 0; i < partner.size(); ++i) {
        if (partner[i] < 0)
            q.missed += truth[i] >= 0;
        else if (partner[i] == truth[i])
            ++q.correct;
        else
            ++q.wrong;
    }
    return q;
}

// n nodes of residual blocks: x -> conv-like mm -> add(residual) -> relu -> view, with a weight per block.
std::unique_ptr<Graph> residualGraph(size_t nodes)
{
    auto g = std::make_unique<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    for (size_t block = 0; g->size() + 6 < nodes; ++block) {
        const std::string k = std::to_string(block);
        Node *w = g->append(OpKind::Placeholder, "w" + k, "w" + k);
        Node *mm = g->append(OpKind::CallFunction, "mm_" + k, "torch.ops.aten.mm.default",
            {Argument::ofNode(x), Argument::ofNode(w)});
        Node *add = g->append(OpKind::CallFunction, "add_" + k, "torch.ops.aten.add.Tensor",
            {Argument::ofNode(mm), Argument::ofNode(x)});
        Node *relu = g->append(OpKind::CallFunction, "relu_" + k, "torch.ops.aten.relu.default", {Argument::ofNode(add)});
        x = g->append(OpKind::CallFunction, "view_" + k, "torch.ops.aten.view.default",
            {Argument::ofNode(relu), Argument::list({Argument::ofInt(-1), Argument::ofInt(64)})});
    }
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(x)})});
    return g;
}

std::unique_ptr<Graph> loadFirst(const std::string &path)
{
    auto file = loadGraphFile(path);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().toString().c_str());
        std::exit(2);
    }
    return std::move(file->graphs.front().graph);
}

} // namespace

int main(int argc, char **argv)
{
    std::string out;
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: bench_diff [--out FILE.json] [--repeat N]\n");
            return 1;
        }
    }
    const std::string corpus = FXSCOPE_CORPUS_DIR "/readable/";
    Json quality = Json::array();
    std::printf("%-34s %7s %10s %10s %9s %9s %9s %9s\n", "pair (truth known)", "nodes", "diff ms", "name ms", "correct",
        "wrong", "name ok", "name bad");
    const std::vector<std::pair<std::string, std::string>> graphs = {
        {"hrnet", corpus + "learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py"},
        {"bert-joint", corpus + "learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_joint_graph.py"}};
    for (const auto &[label, path] : graphs) {
        const std::unique_ptr<Graph> a = loadFirst(path);
        std::vector<int32_t> truth(a->size());
        for (size_t i = 0; i < truth.size(); ++i)
            truth[i] = int32_t(i);
        for (Renaming renaming : {Renaming::Fresh, Renaming::RotatedWithinOp}) {
            const std::unique_ptr<Graph> b = renamedCopy(*a, renaming);
            GraphComparison c;
            const double ms = medianMs(repeat, [&] { c = compareGraphs(*a, *b); });
            std::vector<int32_t> naive;
            const double nameMs = medianMs(repeat, [&] { naive = nameDiff(*a, *b); });
            const Quality q = score(c.pairing.partnerOfA, truth), n = score(naive, truth);
            const std::string name = label + (renaming == Renaming::Fresh ? " vs fresh names" : " vs rotated names");
            std::printf("%-34s %7zu %10.1f %10.1f %9zu %9zu %9zu %9zu\n", name.c_str(), a->size(), ms, nameMs, q.correct,
                q.wrong, n.correct, n.wrong);
            quality.push(Json::object({{"pair", name}, {"nodes", a->size()}, {"diff_ms", ms}, {"name_diff_ms", nameMs},
                {"correct", q.correct}, {"wrong", q.wrong}, {"missed", q.missed}, {"equal", c.equal()},
                {"name_correct", n.correct}, {"name_wrong", n.wrong}, {"name_missed", n.missed}}));
        }
    }

    // The sample against its fused revision, provenance removed: the truth is the steps' removed and added nodes.
    {
        const std::unique_ptr<Graph> a = loadFirst(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
        auto registry = std::make_shared<PatternRegistry>();
        registerBuiltinPatterns(*registry);
        Session session(a->clone(), registry);
        session.runToEnd();
        std::unique_ptr<Graph> b = session.graph().clone();
        stripProvenance(*b);
        std::set<std::string> removed, added;
        for (const SessionStep &s : session.history()) {
            removed.insert(s.removed.begin(), s.removed.end());
            added.insert(s.added.begin(), s.added.end());
        }
        GraphComparison c;
        const double ms = medianMs(repeat, [&] { c = compareGraphs(*a, *b); });
        std::set<std::string> onlyA, onlyB;
        for (size_t i = 0; i < c.a.names.size(); ++i)
            if (c.pairing.partnerOfA[i] < 0)
                onlyA.insert(c.a.names[i]);
        for (size_t j = 0; j < c.b.names.size(); ++j)
            if (c.pairing.partnerOfB[j] < 0)
                onlyB.insert(c.b.names[j]);
        const std::vector<int32_t> naive = nameDiff(*a, *b);
        size_t nameOnlyA = size_t(std::count(naive.begin(), naive.end(), -1));
        const bool exact = onlyA == removed && onlyB == added && c.regions.size() == session.history().size();
        std::printf("%-34s %7zu %10.2f %10s %9s %9s   regions %zu (steps %zu), only in A %zu / %zu removed, only in "
                    "B %zu / %zu added: %s; name diff: %zu only in A\n",
            "sample vs fused, no provenance", a->size(), ms, "", "", "", c.regions.size(), session.history().size(),
            onlyA.size(), removed.size(), onlyB.size(), added.size(), exact ? "exact" : "NOT exact", nameOnlyA);
        quality.push(Json::object({{"pair", "sample vs fused, provenance stripped"}, {"nodes", a->size()},
            {"diff_ms", ms}, {"regions", c.regions.size()}, {"steps", session.history().size()},
            {"only_a", onlyA.size()}, {"removed", removed.size()}, {"only_b", onlyB.size()}, {"added", added.size()},
            {"exact", exact}, {"name_diff_only_a", nameOnlyA}}));
    }

    std::printf("\n%-10s %10s %10s %12s\n", "nodes", "diff ms", "name ms", "diff us/node");
    Json growth = Json::array();
    for (size_t n : {1000, 3000, 10000, 30000, 100000}) {
        const std::unique_ptr<Graph> a = residualGraph(n);
        const std::unique_ptr<Graph> b = renamedCopy(*a, Renaming::Fresh);
        GraphComparison c;
        const double ms = medianMs(repeat, [&] { c = compareGraphs(*a, *b); });
        const double nameMs = medianMs(repeat, [&] { nameDiff(*a, *b); });
        std::printf("%-10zu %10.1f %10.1f %12.2f%s\n", a->size(), ms, nameMs, 1000 * ms / double(a->size()),
            c.equal() ? "" : "  (NOT equal)");
        growth.push(Json::object(
            {{"nodes", a->size()}, {"diff_ms", ms}, {"name_diff_ms", nameMs}, {"equal", c.equal()}}));
    }
    if (!out.empty()) {
        const Json root = Json::object({{"repeat", repeat}, {"quality", std::move(quality)}, {"growth", std::move(growth)}});
        if (auto st = writeFileAtomically(out, root.dump(2) + "\n"); !st) {
            std::fprintf(stderr, "%s\n", st.error().toString().c_str());
            return 2;
        }
    }
    return 0;
}
