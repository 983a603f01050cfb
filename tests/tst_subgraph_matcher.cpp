// torch.fx's SubgraphMatcher in C++: every rejection reason with its exact text, the options' effects, match
// filters after overlap removal, a 1500-node chain pattern on a 100k-node graph (PyTorch recurses there), and the
// `fxscope-cli match --subgraph` JSON contract.

#include "io/fx_text_parser.h"
#include "io/readable_parser.h"
#include "match/subgraph_matcher.h"
#include "util/json.h"

#include <QProcess>
#include <QtTest>

using namespace fxs;

namespace {

std::shared_ptr<Graph> code(const std::string &body, const std::string &params = "x")
{
    std::string text = "class GraphModule(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body;
    auto file = parseReadable(text, "test");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::shared_ptr<Graph>(std::move(file->graphs.front().graph));
}

// relu(x) -> neg; returns neg.
const char *kChain = "        relu = torch.ops.aten.relu.default(x)\n"
                     "        neg = torch.ops.aten.neg.default(relu)\n"
                     "        return neg\n";

struct Case {
    std::string pattern, patternParams, graph, graphParams;
    SubgraphMatcherOptions options;
};

SubgraphMatchResult run(const Graph &pattern, const Graph &graph, SubgraphMatcherOptions options = {},
    const std::vector<MatchFilter> &filters = {})
{
    auto matcher = SubgraphMatcher::create(pattern, options);
    if (!matcher)
        qFatal("%s", matcher.error().toString().c_str());
    auto result = matcher.value()->match(graph, filters);
    if (!result)
        qFatal("%s", result.error().toString().c_str());
    return std::move(result.value());
}

std::string joined(const std::vector<std::string> &v)
{
    std::string out;
    for (const auto &s : v)
        out += (out.empty() ? "" : "\n") + s;
    return out;
}

} // namespace

Q_DECLARE_METATYPE(SubgraphMatcherOptions)

class TestSubgraphMatcher : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void verdicts_data();
    void verdicts();
    void filterReasonAndOverlapBeforeFilters();
    void removeOverlappingOff();
    void bindingsAndInternalMatch();
    void constructorChecks();
    void targetSpellings();
    void longChainOn100kGraph();
    void cliSubgraphJson();
};

void TestSubgraphMatcher::verdicts_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("patternParams");
    QTest::addColumn<QString>("graph");
    QTest::addColumn<QString>("graphParams");
    QTest::addColumn<SubgraphMatcherOptions>("options");
    QTest::addColumn<QString>("anchor");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("reasons");

    SubgraphMatcherOptions none;
    SubgraphMatcherOptions ignore;
    ignore.ignoreLiterals = true;
    SubgraphMatcherOptions placeholders;
    placeholders.matchPlaceholder = true;
    SubgraphMatcherOptions output;
    output.matchOutput = true;

    QTest::newRow("accepted") << kChain << "x"
                              << "        relu = torch.ops.aten.relu.default(a)\n"
                                 "        neg = torch.ops.aten.neg.default(relu)\n"
                                 "        return neg\n"
                              << "a" << none << "neg"
                              << "accepted"
                              << "match 0: 2 nodes, contained, acyclic, no overlap, every filter passed";
    QTest::newRow("target differs")
        << kChain << "x"
        << "        sigmoid = torch.ops.aten.sigmoid.default(a)\n"
           "        neg = torch.ops.aten.neg.default(sigmoid)\n"
           "        return neg\n"
        << "a" << none << "neg"
        << "structure"
        << "structure: pattern node relu calls aten.relu.default, graph node sigmoid calls aten.sigmoid.default\n"
           "path: neg → sigmoid";
    QTest::newRow("op differs")
        << kChain << "x"
        << "        neg = torch.ops.aten.neg.default(a)\n"
           "        return neg\n"
        << "a" << none << "neg"
        << "structure"
        << "structure: pattern node relu is call_function, graph node a is placeholder\npath: neg → a";
    QTest::newRow("not fully contained")
        << kChain << "x"
        << "        relu = torch.ops.aten.relu.default(a)\n"
           "        neg = torch.ops.aten.neg.default(relu)\n"
           "        add = torch.ops.aten.add.Tensor(neg, relu)\n"
           "        return add\n"
        << "a" << none << "neg"
        << "contained"
        << "not fully contained: relu is used by add outside the match (only placeholders and returned nodes may "
           "have users outside)";
    // relu is returned, so its user sigmoid may lie outside; but sigmoid feeds add, inside the match.
    QTest::newRow("would form a cycle") << "        relu = torch.ops.aten.relu.default(x)\n"
                                           "        add = torch.ops.aten.add.Tensor(relu, y)\n"
                                           "        return (relu, add)\n"
                                        << "x, y"
                                        << "        relu = torch.ops.aten.relu.default(a)\n"
                                           "        sigmoid = torch.ops.aten.sigmoid.default(relu)\n"
                                           "        add = torch.ops.aten.add.Tensor(relu, sigmoid)\n"
                                           "        return (add,)\n"
                                        << "a" << none << "add"
                                        << "cycle"
                                        << "would form a cycle if fused: relu → sigmoid (outside) → add";
    QTest::newRow("overlapped by match 0") << "        relu = torch.ops.aten.relu.default(x)\n"
                                              "        neg = torch.ops.aten.neg.default(relu)\n"
                                              "        return (relu, neg)\n"
                                           << "x"
                                           << "        relu = torch.ops.aten.relu.default(a)\n"
                                              "        neg = torch.ops.aten.neg.default(relu)\n"
                                              "        neg_1 = torch.ops.aten.neg.default(relu)\n"
                                              "        return (neg, neg_1)\n"
                                           << "a" << none << "neg_1"
                                           << "overlap"
                                           << "overlapped by match 0 (anchor neg): relu is already in it";
    QTest::newRow("literal differs") << "        add = torch.ops.aten.add.Tensor(x, 1.0)\n        return add\n"
                                     << "x"
                                     << "        add = torch.ops.aten.add.Tensor(a, 2.0)\n        return add\n"
                                     << "a" << none << "add"
                                     << "structure"
                                     << "structure: literal add.args[1] = 1.0 (float), graph add.args[1] = 2.0 (float)";
    QTest::newRow("literals are type-strict")
        << "        add = torch.ops.aten.add.Tensor(x, 1)\n        return add\n"
        << "x"
        << "        add = torch.ops.aten.add.Tensor(a, 1.0)\n        return add\n"
        << "a" << none << "add"
        << "structure"
        << "structure: literal add.args[1] = 1 (int), graph add.args[1] = 1.0 (float)";
    QTest::newRow("ignore_literals") << "        add = torch.ops.aten.add.Tensor(x, 1.0)\n        return add\n"
                                     << "x"
                                     << "        add = torch.ops.aten.add.Tensor(a, 2.0)\n        return add\n"
                                     << "a" << ignore << "add"
                                     << "accepted"
                                     << "match 0: 1 nodes, contained, acyclic, no overlap, every filter passed";
    QTest::newRow("literal vs node") << "        add = torch.ops.aten.add.Tensor(x, 1.0)\n        return add\n"
                                     << "x"
                                     << "        add = torch.ops.aten.add.Tensor(a, b)\n        return add\n"
                                     << "a, b" << none << "add"
                                     << "structure"
                                     << "structure: add.args[1] is the literal 1.0 (float), add.args[1] is the node b";
    QTest::newRow("sequence length")
        << "        mean = torch.ops.aten.mean.dim(x, [-1], True)\n        return mean\n"
        << "x"
        << "        mean = torch.ops.aten.mean.dim(a, [-1, -2], True)\n        return mean\n"
        << "a" << none << "mean"
        << "structure"
        << "structure: mean.args[1] is a sequence of 1 items, mean.args[1] has 2";
    QTest::newRow("schema-normalised kwargs")
        << "        mean = torch.ops.aten.mean.dim(x, [-1], True)\n        return mean\n"
        << "x"
        << "        mean = torch.ops.aten.mean.dim(a, [-1], keepdim = False)\n        return mean\n"
        << "a" << none << "mean"
        << "structure"
        << "structure: literal mean.keepdim = True (bool), graph mean.keepdim = False (bool)";
    QTest::newRow("graph node already matched (injective)")
        << "        add = torch.ops.aten.add.Tensor(x, y)\n        return add\n"
        << "x, y"
        << "        add = torch.ops.aten.add.Tensor(a, a)\n        return add\n"
        << "a" << none << "add"
        << "structure"
        << "structure: graph node a is already matched to pattern node x, so it cannot also match y\npath: add → a";
    QTest::newRow("pattern node already matched")
        << "        mul = torch.ops.aten.mul.Tensor(x, x)\n        return mul\n"
        << "x"
        << "        mul = torch.ops.aten.mul.Tensor(a, b)\n        return mul\n"
        << "a, b" << none << "mul"
        << "structure"
        << "structure: pattern node x is already matched to a, here it meets b\npath: mul → b";
    QTest::newRow("placeholder is a wildcard")
        << "        relu = torch.ops.aten.relu.default(x)\n        return relu\n"
        << "x"
        << "        neg = torch.ops.aten.neg.default(a)\n        relu = torch.ops.aten.relu.default(neg)\n"
           "        return relu\n"
        << "a" << none << "relu"
        << "accepted"
        << "match 0: 1 nodes, contained, acyclic, no overlap, every filter passed";
    QTest::newRow("match_placeholder")
        << "        relu = torch.ops.aten.relu.default(x)\n        return relu\n"
        << "x"
        << "        neg = torch.ops.aten.neg.default(a)\n        relu = torch.ops.aten.relu.default(neg)\n"
           "        return relu\n"
        << "a" << placeholders << "relu"
        << "structure"
        << "structure: pattern node x is placeholder, graph node neg is call_function\npath: relu → neg";
    QTest::newRow("match_output") << "        relu = torch.ops.aten.relu.default(x)\n"
                                     "        neg = torch.ops.aten.neg.default(relu)\n"
                                     "        return (neg,)\n"
                                  << "x"
                                  << "        relu = torch.ops.aten.relu.default(a)\n"
                                     "        neg = torch.ops.aten.neg.default(relu)\n"
                                     "        return (neg, a)\n"
                                  << "a" << output << "output"
                                  << "structure"
                                  << "structure: output.args[0] is a sequence of 1 items, output.args[0] has 2";
    QTest::newRow("match_output accepted") << "        relu = torch.ops.aten.relu.default(x)\n"
                                              "        neg = torch.ops.aten.neg.default(relu)\n"
                                              "        return (neg,)\n"
                                           << "x"
                                           << "        relu = torch.ops.aten.relu.default(a)\n"
                                              "        neg = torch.ops.aten.neg.default(relu)\n"
                                              "        return (neg,)\n"
                                           << "a" << output << "output"
                                           << "accepted"
                                           << "match 0: 2 nodes, contained, acyclic, no overlap, every filter passed";
}

void TestSubgraphMatcher::verdicts()
{
    QFETCH(QString, pattern);
    QFETCH(QString, patternParams);
    QFETCH(QString, graph);
    QFETCH(QString, graphParams);
    QFETCH(SubgraphMatcherOptions, options);
    QFETCH(QString, anchor);
    QFETCH(QString, stage);
    QFETCH(QString, reasons);
    auto p = code(pattern.toStdString(), patternParams.toStdString());
    auto g = code(graph.toStdString(), graphParams.toStdString());
    SubgraphMatchResult r = run(*p, *g, options);
    const SubgraphVerdict *v = nullptr;
    for (const auto &c : r.report.candidates)
        if (c.anchorText() == anchor.toStdString())
            v = &c;
    QVERIFY2(v, qPrintable("no candidate at " + anchor));
    QCOMPARE(QString::fromStdString(subgraphStageName(v->stage)), stage);
    QCOMPARE(QString::fromStdString(joined(v->reasons())), reasons);
    QCOMPARE(v->accepted, stage == "accepted");
    QCOMPARE(r.matches.size(), r.report.acceptedCount());
    // The JSON contract of `match`.
    Json j = v->toJson();
    for (const char *key : {"anchor", "nodes", "bindings", "accepted", "stage", "reasons"})
        QVERIFY2(j.find(key), key);
}

void TestSubgraphMatcher::filterReasonAndOverlapBeforeFilters()
{
    auto p = code("        relu = torch.ops.aten.relu.default(x)\n"
                  "        neg = torch.ops.aten.neg.default(relu)\n"
                  "        return (relu, neg)\n");
    auto g = code("        relu = torch.ops.aten.relu.default(a)\n"
                  "        neg = torch.ops.aten.neg.default(relu)\n"
                  "        neg_1 = torch.ops.aten.neg.default(relu)\n"
                  "        return (neg, neg_1)\n",
        "a");
    MatchFilter notFirst{"not_neg", [](const InternalMatch &m, const Graph &, const Graph &) {
                             const Node *anchor = m.anchors.front();
                             return FilterVerdict{anchor->name() != "neg", "the anchor is " + anchor->name()};
                         }};
    SubgraphMatchResult r = run(*p, *g, {}, {notFirst});
    QCOMPARE(r.matches.size(), size_t(0));
    QCOMPARE(r.report.candidates.size(), size_t(2));
    QCOMPARE(joined(r.report.candidates[0].reasons()), std::string("filter not_neg returned false: the anchor is neg"));
    // neg_1 would pass the filter, but PyTorch removed it as overlapping before the filters ran.
    QCOMPARE(joined(r.report.candidates[1].reasons()),
        std::string("overlapped by match 0 (anchor neg): relu is already in it\n"
                    "note: match 0 was then rejected by a filter; replace_pattern_with_filters removes overlaps "
                    "before it filters, so this candidate is lost anyway"));
}

void TestSubgraphMatcher::removeOverlappingOff()
{
    auto p = code("        relu = torch.ops.aten.relu.default(x)\n"
                  "        neg = torch.ops.aten.neg.default(relu)\n"
                  "        return (relu, neg)\n");
    auto g = code("        relu = torch.ops.aten.relu.default(a)\n"
                  "        neg = torch.ops.aten.neg.default(relu)\n"
                  "        neg_1 = torch.ops.aten.neg.default(relu)\n"
                  "        return (neg, neg_1)\n",
        "a");
    SubgraphMatcherOptions keep;
    keep.removeOverlappingMatches = false;
    QCOMPARE(run(*p, *g).matches.size(), size_t(1));
    QCOMPARE(run(*p, *g, keep).matches.size(), size_t(2));
}

void TestSubgraphMatcher::bindingsAndInternalMatch()
{
    auto p = code("        add = torch.ops.aten.add.Tensor(x, y)\n        return add\n", "x, y");
    auto g = code("        neg = torch.ops.aten.neg.default(a)\n        add = torch.ops.aten.add.Tensor(neg, 2.5)\n"
                  "        return add\n",
        "a");
    SubgraphMatchResult r = run(*p, *g);
    QCOMPARE(r.matches.size(), size_t(1));
    const InternalMatch &m = r.matches[0];
    QCOMPARE(m.anchors.front()->name(), std::string("add"));
    QCOMPARE(m.placeholderNodes.size(), size_t(2));
    QCOMPARE(m.placeholderNodes[0].node->name(), std::string("neg"));
    QVERIFY(m.placeholderNodes[1].isLiteral());
    QCOMPARE(m.placeholderNodes[1].literal.toDouble(), 2.5);
    QCOMPARE(m.returningNodes.front()->name(), std::string("add"));
    Json j = r.report.candidates[0].toJson();
    QCOMPARE(j["bindings"]["x"].toString(), std::string("neg"));
    QCOMPARE(j["bindings"]["y"].toString(), std::string("2.5"));
    QCOMPARE(j["nodes"].size(), size_t(1));
}

void TestSubgraphMatcher::constructorChecks()
{
    Graph empty;
    QVERIFY(!SubgraphMatcher::create(empty));
    auto dead = code("        relu = torch.ops.aten.relu.default(x)\n        neg = torch.ops.aten.neg.default(x)\n"
                     "        return neg\n");
    auto m = SubgraphMatcher::create(*dead);
    QVERIFY(!m);
    QVERIFY(m.error().message.find("dead code: relu has no users") != std::string::npos);
    // A returned node used inside the pattern is no anchor.
    auto two = code("        relu = torch.ops.aten.relu.default(x)\n        neg = torch.ops.aten.neg.default(relu)\n"
                    "        return (relu, neg)\n");
    auto ok = SubgraphMatcher::create(*two);
    QVERIFY(ok);
    QCOMPARE(ok.value()->patternAnchors().size(), size_t(1));
    QCOMPARE(ok.value()->patternAnchors().front()->name(), std::string("neg"));
}

// PyTorch recurses once per pattern node in _match_nodes (2.13 still does) and, up to 1.13, once per graph node in
// validate_partition: a 1500-node chain pattern raises RecursionError there. Here both are iterative.
// Targets are compared as text against every spelling canonicalTarget accepts: a pattern written as readable code
// (torch.ops.aten..., x[0]) matches a graph printed by an older print(gm.graph) (<built-in function getitem>), and
// a target that only shares a prefix does not.
void TestSubgraphMatcher::targetSpellings()
{
    auto p = code("        var_mean = torch.ops.aten.var_mean.correction(x, [2], correction = 0, keepdim = True)\n"
                  "        getitem = var_mean[0]\n"
                  "        getitem_1 = var_mean[1]\n"
                  "        add = torch.ops.aten.add.Tensor(getitem, getitem_1)\n"
                  "        return add\n");
    auto g = parseFxText(R"(graph():
    %a : [#users=2] = placeholder[target=a]
    %var_mean : [#users=2] = call_function[target=aten.var_mean.correction](args = (%a, [2]), kwargs = {correction: 0, keepdim: True})
    %getitem : [#users=1] = call_function[target=<built-in function getitem>](args = (%var_mean, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=_operator.getitem](args = (%var_mean, 1), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, %getitem_1), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor_foo](args = (%add, %a), kwargs = {})
    return add_1
)",
        "spellings.txt");
    QVERIFY2(g, g ? "" : g.error().toString().c_str());
    auto m = SubgraphMatcher::create(*p);
    QVERIFY(m);
    auto r = m.value()->match(*g->graphs.front().graph);
    QVERIFY(r);
    QCOMPARE(r->matches.size(), size_t(1)); // add_1's target is not aten.add.Tensor: one candidate, accepted
    QCOMPARE(r->report.candidates.size(), size_t(1));
    QCOMPARE(joined(r->report.candidates[0].nodes), std::string("var_mean\ngetitem\ngetitem_1\nadd"));
}

void TestSubgraphMatcher::longChainOn100kGraph()
{
    const int chain = 1500, total = 100000;
    Graph pattern;
    Node *prev = pattern.append(OpKind::Placeholder, "x", "x");
    for (int i = 0; i < chain - 1; ++i)
        prev = pattern.append(
            OpKind::CallFunction, pattern.uniqueName("neg"), "torch.ops.aten.neg.default", {Argument::ofNode(prev)});
    prev = pattern.append(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default", {Argument::ofNode(prev)});
    pattern.append(OpKind::Output, "output", "output", {Argument::ofNode(prev)});

    // Blocks of (chain-1) negs then a relu; every fifth block is one neg short (a near miss at its top).
    Graph graph;
    Node *cur = graph.append(OpKind::Placeholder, "a", "a");
    int blocks = 0, nearMisses = 0;
    while (int(graph.size()) + chain + 1 < total) {
        const bool shortBlock = blocks % 5 == 4;
        for (int i = 0; i < chain - 1 - (shortBlock ? 1 : 0); ++i)
            cur = graph.append(
                OpKind::CallFunction, graph.uniqueName("neg"), "torch.ops.aten.neg.default", {Argument::ofNode(cur)});
        cur = graph.append(
            OpKind::CallFunction, graph.uniqueName("relu"), "torch.ops.aten.relu.default", {Argument::ofNode(cur)});
        ++blocks;
        nearMisses += shortBlock;
    }
    while (int(graph.size()) + 1 < total)
        cur = graph.append(
            OpKind::CallFunction, graph.uniqueName("neg"), "torch.ops.aten.neg.default", {Argument::ofNode(cur)});
    graph.append(OpKind::Output, "output", "output", {Argument::ofNode(cur)});
    QCOMPARE(int(graph.size()), total);

    SubgraphMatchResult r = run(pattern, graph);
    QCOMPARE(int(r.report.candidates.size()), blocks);
    // A short block's chain reaches through the previous block's relu, which is not a neg.
    QCOMPARE(int(r.matches.size()), blocks - nearMisses);
    int structural = 0;
    for (const auto &c : r.report.candidates)
        if (c.stage == SubgraphStage::Structure) {
            ++structural;
            QCOMPARE(c.mismatch.graphNode.rfind("relu", 0), size_t(0));
            QCOMPARE(int(c.mismatch.path.size()), chain);
        }
    QCOMPARE(structural, nearMisses);
}

void TestSubgraphMatcher::cliSubgraphJson()
{
    const QString cli = QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli");
    if (!QFile::exists(cli))
        QSKIP("fxscope-cli is not built");
    QProcess p;
    p.start(cli,
        {"match", FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py", "--patterns", "builtin", "--subgraph",
            "--json"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    auto json = Json::parse(p.readAllStandardOutput().toStdString());
    QVERIFY(json);
    QCOMPARE(json.value()["matcher"].toString(), std::string("subgraph"));
    std::map<std::string, size_t> accepted;
    for (const Json &pattern : json.value()["patterns"].items()) {
        for (const Json &c : pattern["candidates"].items()) {
            for (const char *key : {"anchor", "nodes", "bindings", "accepted", "stage", "reasons"})
                QVERIFY2(c.find(key), key);
            QVERIFY(c["reasons"].size() > 0);
            accepted[pattern["name"].toString()] += c["accepted"].toBool() ? 1 : 0;
        }
    }
    // The LLaMA block has two casted RMSNorms and one SwiGLU (the Inductor-style matcher finds the same three).
    QCOMPARE(accepted["rms_norm_cast"], size_t(2));
    QCOMPARE(accepted["swiglu"], size_t(1));
    QCOMPARE(accepted["rms_norm"], size_t(0));
}

QTEST_GUILESS_MAIN(TestSubgraphMatcher)
#include "tst_subgraph_matcher.moc"
