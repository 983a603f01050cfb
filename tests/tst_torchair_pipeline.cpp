// TorchAir's pipeline around its pattern pass (torchair/npu_fx_compiler.py _optimize_fx): each graph pass on the
// graphs it exists for, and a session over a TorchAir pattern file running them as steps of their own. The oracle
// (tests/oracle) checks the same against the real torch passes on whole models.

#include "io/loader.h"
#include "ir/lint.h"
#include "match/matcher.h"
#include "patterns/pattern_file.h"
#include "patterns/torchair_builtins.h"
#include "rewrite/passes/remove_noop_ops.h"
#include "rewrite/passes/torchair_pipeline.h"
#include "rewrite/session.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace fxs;

namespace {

std::unique_ptr<Graph> code(const std::string &body, const std::string &params)
{
    auto file = loadGraphBytes("def forward(self, " + params + "):\n" + body, "test.py");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::move(file->graphs.front().graph);
}

std::vector<std::string> targets(const Graph &g)
{
    std::vector<std::string> out;
    for (const auto &n : g.nodes())
        if (n->op() == OpKind::CallFunction)
            out.push_back(n->target());
    return out;
}

template <typename Pass> bool run(Graph &g, Pass pass)
{
    GraphEditor editor(g);
    auto changed = pass(editor);
    if (!changed)
        qFatal("%s", changed.error().toString().c_str());
    return changed.value();
}

const char *kMulAdd = "x: \"f32[4, 4]\", y: \"f32[4, 4]\", z: \"f32[4, 4]\"";
const char *kSliceBetween = "    mul: \"f32[4, 4]\" = torch.ops.aten.mul.Tensor(x, y)\n"
                            "    slice_1: \"f32[4, 4]\" = torch.ops.aten.slice.Tensor(mul, 0, 0, 9223372036854775807)\n"
                            "    add: \"f32[4, 4]\" = torch.ops.aten.add.Tensor(slice_1, z)\n"
                            "    view: \"f32[16]\" = torch.ops.aten.view.default(add, [16])\n"
                            "    return (view,)\n";

} // namespace

class TestTorchairPipeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Without strides in the dump a full slice (a view of the same sizes) is still a no-op; a contiguous clone of
    // a tensor whose strides are unknown is not known to be one.
    void removeNoopOpsOnADumpWithoutStrides()
    {
        auto g = code(kSliceBetween, kMulAdd);
        QVERIFY(hasNoopOps(*g) && TorchairPipeline::changesBefore(*g)); // what the matcher asks before copying
        QVERIFY(run(*g, removeNoopOps));
        QVERIFY(!hasNoopOps(*g) && !TorchairPipeline::changesBefore(*g));
        QVERIFY(!g->find("slice_1"));
        QCOMPARE(g->find("add")->args()[0].node()->name(), std::string("mul"));
        QVERIFY(!run(*g, removeNoopOps)); // idempotent

        auto clone = code("    t: \"f32[4, 4]\" = torch.ops.aten.t.default(x)\n"
                          "    clone: \"f32[4, 4]\" = "
                          "torch.ops.aten.clone.default(t, memory_format = torch.contiguous_format)\n"
                          "    return (clone,)\n",
            "x: \"f32[4, 4]\"");
        QVERIFY(!run(*clone, removeNoopOps));
    }

    void recoverViewInplace()
    {
        auto scatter = [](const std::string &output) {
            return code("    view: \"f32[2, 4, 8]\" = torch.ops.aten.view.default(cache, [2, 4, 8])\n"
                        "    scatter_update: \"f32[2, 4, 8]\" = "
                        "torch.ops.npu.scatter_update.default(view, idx, upd, 1)\n"
                        "    view_1: \"f32[8, 8]\" = torch.ops.aten.view.default(scatter_update, [8, 8])\n"
                        "    copy_: \"f32[8, 8]\" = torch.ops.aten.copy_.default(cache, view_1)\n"
                        "    mul: \"f32[8, 8]\" = torch.ops.aten.mul.Tensor(view_1, 2)\n"
                        "    return (" + output + ",)\n",
                "cache: \"f32[8, 8]\", idx: \"i64[2]\", upd: \"f32[2, 2, 8]\"");
        };
        // A copy_ whose result is used stays; the scatter is made in place all the same.
        auto used = scatter("copy_");
        QVERIFY(run(*used, &TorchairPipeline::recoverViewInplace));
        QVERIFY(used->find("copy_") && used->find("scatter_update_inplace") && !used->find("scatter_update"));
        auto g = scatter("mul");
        QVERIFY(run(*g, &TorchairPipeline::recoverViewInplace));
        QVERIFY(!g->find("copy_") && !g->find("scatter_update"));
        const Node *inplace = g->find("scatter_update_inplace");
        QVERIFY(inplace);
        QCOMPARE(inplace->target(), std::string("npu.scatter_update_.default"));
        QCOMPARE(g->find("view_1")->args()[0].node(), inplace);
        QVERIFY(lint(*g).empty());
    }

    // A SymInt input's uses read it from the first tensor input with that size; view_to_reshape keeps the spelling.
    void optimizeSymInputAndViewToReshape()
    {
        auto g = code("    view: \"f32[s0, 4]\" = torch.ops.aten.view.default(x, [s0, 4])\n    return (view,)\n",
            "s0: \"Sym(s0)\", x: \"f32[s0, 4]\"");
        QVERIFY(run(*g, &TorchairPipeline::optimizeSymInput));
        const Node *size = g->find("view")->args()[1].items()[0].node();
        QVERIFY(size);
        QCOMPARE(size->target(), std::string("aten.sym_size"));
        QCOMPARE(size->args()[0].node()->name(), std::string("x"));
        QVERIFY(g->find("s0")->users().empty());
        QVERIFY(run(*g, &TorchairPipeline::viewToReshape));
        QCOMPARE(g->find("view")->target(), std::string("torch.ops.aten.reshape.default"));
    }

    // A TorchAir pattern file: the report matches on the graph after the passes before, and a session takes them
    // as steps: remove_noop_ops, the pattern, then view_to_reshape once the sweep is done; undo goes back through.
    void sessionRunsThePipelineAsSteps()
    {
        auto registry = std::make_shared<PatternRegistry>();
        QVERIFY(loadPatternFile(std::string(FXSCOPE_SOURCE_DIR) + "/tests/oracle/patterns/mul_add.py", *registry));
        auto report = Matcher(*registry).run(*code(kSliceBetween, kMulAdd));
        QVERIFY(report);
        QCOMPARE(report->pipeline, std::string("torchair"));
        QCOMPARE(report->pipelinePasses.front().removed, std::vector<std::string>{"slice_1"});
        QVERIFY(report->patterns.front().candidates.front().accepted);

        Session s(code(kSliceBetween, kMulAdd), registry);
        QCOMPARE(s.runToEnd().value(), size_t(3));
        std::vector<std::string> steps;
        for (const SessionStep &step : s.history())
            steps.push_back(step.kind + ":" + step.name);
        QCOMPARE(steps,
            (std::vector<std::string>{"pass:remove_noop_ops", "pattern:mul_add", "pass:view_to_reshape"}));
        QCOMPARE(targets(s.graph()),
            (std::vector<std::string>{"aten.addcmul.default", "torch.ops.aten.reshape.default"}));
        QVERIFY(!s.step().value());
        QVERIFY(s.goTo(0));
        QVERIFY(s.graph().find("slice_1"));
        QCOMPARE(s.runToEnd().value(), size_t(3));

        // Stepping over the pattern, or applying its candidate by hand, runs the passes before it first.
        QVERIFY(s.goTo(0));
        QCOMPARE(s.stepOver("mul_add").value(), size_t(1));
        QCOMPARE(s.revision(), size_t(2));
        QCOMPARE(s.history()[0].name, std::string("remove_noop_ops"));
        QVERIFY(s.goTo(0));
        QVERIFY(s.applyCandidate("mul_add", "add"));
        QCOMPARE(s.revision(), size_t(2));
        QVERIFY(s.graph().find("addcmul"));
    }

    // TorchAir's own built-ins (a folder named by FXSCOPE_TORCHAIR_PATTERNS; here test data in their style under
    // one of their file names) follow a TorchAir file's patterns, stay last when a file is added after them, and are
    // not added for an Inductor file.
    void torchairBuiltinsFollowTheUsersPatterns()
    {
        QTemporaryDir folder;
        QVERIFY(QFile::copy(QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/patterns/torchair_style_patterns.py"),
            folder.filePath(QStringLiteral("add_rms_norm_cast.py"))));
        qputenv("FXSCOPE_TORCHAIR_PATTERNS", folder.path().toUtf8());
        const std::string patterns = std::string(FXSCOPE_SOURCE_DIR) + "/tests/oracle/patterns/";
        PatternRegistry user;
        QVERIFY(loadPatternFile(patterns + "mul_add.py", user));
        auto arranged = TorchairBuiltins::arrange(user);
        QVERIFY(arranged);
        const auto &entries = arranged.value()->entries();
        QVERIFY(entries.size() > 1);
        QCOMPARE(entries.front()->name, std::string("mul_add"));
        QVERIFY(std::all_of(entries.begin() + 1, entries.end(), [](const auto &e) { return e->torchairBuiltin; }));
        QCOMPARE(arranged.value()->torchairBuiltinsFrom(), folder.path().toStdString());

        PatternRegistry more = *arranged.value(); // another file loaded after them
        QVERIFY(loadPatternFile(patterns + "sin_cos_chain.py", more));
        auto again = TorchairBuiltins::arrange(more);
        QVERIFY(again);
        QCOMPARE(again.value()->entries().size(), more.entries().size());
        QVERIFY(again.value()->entries().back()->torchairBuiltin);
        QVERIFY(!again.value()->entries()[1]->torchairBuiltin); // sin_cos, before the built-ins

        auto report = Matcher(*again.value()).run(*code(kSliceBetween, kMulAdd));
        QVERIFY(report);
        QVERIFY2(report->pipelineWhy.find("built-in patterns from " + folder.path().toStdString()) != std::string::npos,
            report->pipelineWhy.c_str());

        PatternRegistry inductor;
        QVERIFY(loadPatternFile(patterns + "mul_add_inductor.py", inductor));
        QCOMPARE(TorchairBuiltins::arrange(inductor).value()->entries().size(), size_t(1));
        qunsetenv("FXSCOPE_TORCHAIR_PATTERNS");
    }

    // The same pattern registered through Inductor: one PatternMatcherPass.apply, no graph passes, the slice stays
    // between mul and add and the pattern does not match.
    void inductorFileHasNoPipeline()
    {
        auto registry = std::make_shared<PatternRegistry>();
        QVERIFY(loadPatternFile(
            std::string(FXSCOPE_SOURCE_DIR) + "/tests/oracle/patterns/mul_add_inductor.py", *registry));
        Session s(code(kSliceBetween, kMulAdd), registry);
        QCOMPARE(s.report().value()->pipeline, std::string("inductor"));
        QCOMPARE(s.runToEnd().value(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTorchairPipeline)
#include "tst_torchair_pipeline.moc"
