// The torch host: pattern sources run in the user's torch, and torch decides each candidate's second stage.
// Every verdict here is compared with Inductor's own PatternMatcherPass (--check-with-torch) on the same graph.

#include "cli_test_support.h"
#include "io/loader.h"
#include "match/matcher.h"
#include "patterns/host/torch_host_engine.h"
#include "rewrite/graph_editor.h"
#include "rewrite/session.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace fxs;

namespace {

const QString kHostData = QStringLiteral(FXSCOPE_TEST_DATA_DIR "/host");

QProcessEnvironment hostEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("FXSCOPE_ENGINE", "host");
    env.insert("PYTHONPATH", kHostData); // the class-based pass package
    return env;
}

TorchHostSettings settings(std::chrono::seconds timeout = std::chrono::seconds(300))
{
    TorchHostSettings s;
    s.python = FXSCOPE_TORCH_PYTHON;
    s.packageDir = FXSCOPE_SOURCE_DIR "/python";
    s.timeout = timeout;
    return s;
}

std::unique_ptr<Graph> loadGraph(const QString &path)
{
    auto file = loadGraphFile(path.toStdString());
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::move(file.value().graphs.front().graph);
}

const Verdict *verdictAt(const MatchReport &report, const std::string &pattern, const std::string &anchor)
{
    for (const auto &p : report.patterns)
        if (p.name == pattern)
            for (const auto &v : p.candidates)
                if (v.anchor == anchor)
                    return &v;
    return nullptr;
}

} // namespace

class TestTorchHost : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("PYTHONPATH", kHostData.toUtf8()); }

    // Class-based pass code (patterns built from a config object, torch.library ops, a pass manager) through
    // module:callable: every verdict equals Inductor's, and the extra_check is explained from its real run.
    void classBasedPassPackage()
    {
        Run r = cli({"match", kHostData + "/mlp_block.json", "--patterns", "fxscope_test_passes.debug:register",
                        "--check-with-torch", "--json"},
            hostEnvironment(), 300000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject root = json(r);
        QCOMPARE(root["engine"].toObject()["name"].toString(), QString("torch"));
        QVERIFY(root["torch"].toObject()["agrees"].toBool());
        QStringList accepted, traces;
        for (const auto &p : root["patterns"].toArray())
            for (const auto &c : p.toObject()["candidates"].toArray()) {
                const QJsonObject cand = c.toObject();
                if (cand["accepted"].toBool())
                    accepted << p.toObject()["name"].toString() + "@" + cand["anchor"].toString();
                for (const auto &reason : cand["reasons"].toArray())
                    traces << reason.toString();
            }
        QCOMPARE(accepted,
            QStringList({"RMSNormPattern.register.pattern@mul_1", "SiluMulPattern.pattern@mul_2"}));
        // The 48-wide norm: the check's own line with the value torch computed.
        QVERIFY(traces.contains(
            "extra_check: return hidden % multiple == 0 → False because hidden % multiple is 16"));
        QVERIFY(traces.contains("extra_check: hidden = match.kwargs[\"x\"].meta[\"val\"].shape[-1] → hidden = 48"));
    }

    // Pattern files written as public pass code writes them, each of which fxscope's sandbox cannot read or reads
    // differently from torch (math, F.normalize, matmul attention, Tensor.t() with matmul, round/clamp
    // quantization into a torch.library op): with the host, every verdict is Inductor's and the pattern fires.
    void inductorStyleFiles_data()
    {
        QTest::addColumn<QString>("patterns");
        QTest::addColumn<QString>("graph");
        QTest::newRow("math.sqrt gelu") << "gelu_math.py" << "gelu_mlp.json";
        QTest::newRow("F.normalize") << "l2_normalize.py" << "l2_head.json";
        QTest::newRow("matmul attention") << "sdpa_matmul.py" << "attention.json";
        QTest::newRow("w.t() linear") << "linear_t.py" << "linear_t.json";
        QTest::newRow("round/clamp int8") << "quant_int8.py" << "quant_act.json";
    }
    void inductorStyleFiles()
    {
        QFETCH(QString, patterns);
        QFETCH(QString, graph);
        Run r = cli({"match", kHostData + "/" + graph, "--patterns", kHostData + "/patterns/" + patterns,
                        "--check-with-torch", "--json"},
            hostEnvironment(), 300000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject root = json(r);
        QVERIFY(root["torch"].toObject()["agrees"].toBool());
        int accepted = 0;
        for (const auto &p : root["patterns"].toArray())
            for (const auto &c : p.toObject()["candidates"].toArray())
                accepted += c.toObject()["accepted"].toBool();
        QCOMPARE(accepted, 1);
    }

    // Inductor's own pattern set, loaded into a fresh pass: its 117 replacement patterns, each candidate as torch
    // decides it.
    void inductorFuseAttention()
    {
        Run r = cli({"match", kHostData + "/attention.json", "--patterns", "inductor:fuse_attention",
                        "--check-with-torch", "--json"},
            hostEnvironment(), 300000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject root = json(r);
        QVERIFY(root["torch"].toObject()["agrees"].toBool());
        const QJsonArray patterns = root["patterns"].toArray();
        QCOMPARE(patterns.size(), 117); // as many as _sfdp_init registers into Inductor's joint-graph pass
        int accepted = 0;
        for (const auto &p : patterns)
            for (const auto &c : p.toObject()["candidates"].toArray())
                accepted += c.toObject()["accepted"].toBool();
        QCOMPARE(accepted, 1);
    }

    // apply splices the replacement torch traced for the match: the custom ops of the pass package.
    void applySplicesTorchsReplacement()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("fused.json");
        Run r = cli({"apply", kHostData + "/mlp_block.json", "--patterns", "fxscope_test_passes.debug:register",
                        "--all", "-o", out, "--json"},
            hostEnvironment(), 300000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto fused = loadGraph(out);
        int rmsNorm = 0, siluMul = 0;
        for (const auto &n : fused->nodes()) {
            rmsNorm += n->target().find("fxscope_test.fused_rms_norm") != std::string::npos;
            siluMul += n->target().find("fxscope_test.silu_and_mul") != std::string::npos;
        }
        QCOMPARE(rmsNorm, 1);
        QCOMPARE(siluMul, 1);
    }

    // The mirror follows the graph by diffs: after a step, torch decides on the stepped graph without the whole
    // graph being sent again, and undo brings the first verdicts back.
    void mirrorFollowsStepsAndUndo()
    {
        auto engine = TorchHostEngine::create(settings());
        auto registry = std::make_shared<PatternRegistry>();
        QVERIFY(engine->load({"fxscope_test_passes.debug:register"}, *registry));
        Session session(loadGraph(kHostData + "/mlp_block.json"), registry);
        auto first = session.report();
        QVERIFY(first);
        QVERIFY(verdictAt(*first.value(), "RMSNormPattern.register.pattern", "mul_1")->accepted);
        auto stepped = session.step();
        QVERIFY2(stepped, stepped ? "" : stepped.error().toString().c_str());
        QCOMPARE(session.revision(), size_t(1));
        session.startNewSweep();
        auto second = session.report();
        QVERIFY(second);
        // Anchors are visited last to first: the first step fused SiLU * up at mul_2, which is no anchor now.
        QVERIFY(!verdictAt(*second.value(), "SiluMulPattern.pattern", "mul_2"));
        QVERIFY(verdictAt(*second.value(), "RMSNormPattern.register.pattern", "mul_1")->accepted);
        QVERIFY(session.undo());
        session.startNewSweep();
        auto third = session.report();
        QVERIFY(third);
        QVERIFY(verdictAt(*third.value(), "SiluMulPattern.pattern", "mul_2")->accepted);
        const auto stats = engine->stats();
        QCOMPARE(stats.mirrors, 1); // sent once; every later graph went as a diff
        QVERIFY(stats.edits >= 2);
    }

    // Followed by diffs (a replacement's edits, a changed target and meta, nodes moved, then all of it undone), the
    // mirror is node for node, strides included, what a mirror of the same graph rebuilt whole is.
    void mirrorFollowedByDiffsIsTheGraphRebuilt()
    {
        auto follower = TorchHostEngine::create(settings());
        auto graph = loadGraph(kHostData + "/mlp_block.json");
        QVERIFY(follower->follow(*graph));
        auto mirrorText = [&](TorchHostEngine &engine) {
            auto r = engine.host().request("mirror_text");
            return r ? r.value()["text"].toString() : "error: " + r.error().message;
        };
        auto sameAsRebuilt = [&] {
            auto rebuilt = TorchHostEngine::create(settings());
            if (auto st = rebuilt->follow(*graph); !st)
                return std::string("rebuilt: ") + st.error().message;
            const std::string followed = mirrorText(*follower), whole = mirrorText(*rebuilt);
            return followed == whole ? std::string() : "followed:\n" + followed + "\nrebuilt:\n" + whole;
        };
        GraphEditor editor(*graph);
        // exp + 1 replaced as a pattern's replacement is: a new node, the old one's users moved to it, the old erased.
        Node *old = graph->find("add_1");
        Node *added = editor.insertBefore(old, OpKind::CallFunction, "add_9", "torch.ops.aten.add.Tensor",
            {Argument::ofNode(graph->find("exp")), Argument::ofInt(2)});
        editor.setMeta(added, old->meta());
        editor.replaceUses(old, Argument::ofNode(added));
        QVERIFY(editor.erase(old));
        QVERIFY(follower->follow(*graph));
        editor.setTarget(graph->find("neg"), "torch.ops.aten.abs.default");
        NodeMeta meta = graph->find("mean")->meta();
        meta.stackTrace = "File \"model.py\", line 3, in forward";
        editor.setMeta(graph->find("mean"), meta);
        QVERIFY(graph->reorderRun({graph->find("view_2"), graph->find("convert_element_type_5")}));
        QVERIFY(follower->follow(*graph));
        std::string differs = sameAsRebuilt();
        QVERIFY2(differs.empty(), differs.c_str());
        QVERIFY(editor.record().undo(*graph));
        QVERIFY(follower->follow(*graph));
        differs = sameAsRebuilt();
        QVERIFY2(differs.empty(), differs.c_str());
        const auto stats = follower->stats();
        QCOMPARE(stats.mirrors, 1);
        QCOMPARE(stats.edits, 3);
    }

    // A host that dies is reported with what it printed, and the next request starts a new one that loads the
    // same sources again: nothing of the session is lost.
    void killedHostIsReportedAndRestarted()
    {
        auto engine = TorchHostEngine::create(settings());
        PatternRegistry registry;
        QVERIFY(engine->load({"fxscope_test_passes.debug:register"}, registry));
        auto graph = loadGraph(kHostData + "/mlp_block.json");
        const pid_t pid = pid_t(engine->host().hello()["pid"].toInt());
        QVERIFY(pid > 0);
        ::kill(pid, SIGKILL);
        auto broken = Matcher(registry).run(*graph);
        QVERIFY(broken);
        QVERIFY2(broken->stoppedBy.find("torch host") != std::string::npos
                && broken->stoppedBy.find("died") != std::string::npos,
            broken->stoppedBy.c_str());
        auto again = Matcher(registry).run(*graph);
        QVERIFY(again);
        QVERIFY2(again->stoppedBy.empty(), again->stoppedBy.c_str());
        QVERIFY(verdictAt(again.value(), "RMSNormPattern.register.pattern", "mul_1")->accepted);
        QCOMPARE(engine->host().starts(), 2);
    }

    // A check that hangs: the host is stopped after the timeout, the pass stops with that reason, and the next
    // request works again.
    void hungHostIsStopped()
    {
        QTemporaryDir dir;
        const QString flag = dir.filePath("hang");
        QFile file(dir.filePath("hanging_check.py"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"(import os, time
import torch
from torch._inductor.pattern_matcher import fwd_only, register_replacement, PatternMatcherPass

def pattern(x, w):
    return torch.nn.functional.silu(x) * w

def replacement(x, w):
    return torch.ops.fxscope_test.silu_and_mul.default(x, w)

def check(match):
    while os.path.exists(%1):
        time.sleep(0.2)
    return True

import fxscope_test_passes.ops
register_replacement(pattern, replacement, [torch.empty(4, 32, dtype=torch.float16) for _ in range(2)], fwd_only,
                     PatternMatcherPass(), extra_check=check)
)")
                       .arg("'" + flag + "'")
                       .toUtf8());
        file.close();
        auto engine = TorchHostEngine::create(settings(std::chrono::seconds(20)));
        PatternRegistry registry;
        QVERIFY(engine->load({file.fileName().toStdString()}, registry));
        auto graph = loadGraph(kHostData + "/mlp_block.json");
        QFile(flag).open(QIODevice::WriteOnly);
        auto hung = Matcher(registry).run(*graph);
        QVERIFY(hung);
        QVERIFY2(hung->stoppedBy.find("did not answer") != std::string::npos, hung->stoppedBy.c_str());
        QFile::remove(flag);
        auto again = Matcher(registry).run(*graph);
        QVERIFY(again);
        QVERIFY2(again->stoppedBy.empty(), again->stoppedBy.c_str());
        QVERIFY(verdictAt(again.value(), "hanging_check.pattern", "mul_2")->accepted);
    }

    // An exception in the user's check stops the pass with the file and line torch reports, as torch.compile
    // stops.
    void raisingCheckStopsThePass()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath("raising_check.py"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"(import torch
from torch._inductor.pattern_matcher import fwd_only, register_replacement, PatternMatcherPass

def pattern(x, w):
    return torch.nn.functional.silu(x) * w

def replacement(x, w):
    return torch.ops.fxscope_test.silu_and_mul.default(x, w)

def check(match):
    return match.kwargs["x"].meta["val"].shape[7] == 1

import fxscope_test_passes.ops
register_replacement(pattern, replacement, [torch.empty(4, 32, dtype=torch.float16) for _ in range(2)], fwd_only,
                     PatternMatcherPass(), extra_check=check)
)");
        file.close();
        Run r = cli({"match", kHostData + "/mlp_block.json", "--patterns", file.fileName()}, hostEnvironment(),
            300000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("raising_check.py:11: IndexError"), r.err.constData());
    }

    // --sandbox (or no torch) runs fxscope's Python subset, and the report says which engine ran.
    // match --compare-engines: where fxscope's sandbox reads the same file differently from torch (its linear
    // pattern traces w.t() @ x as aten.matmul, torch's make_fx as aten.mm), the one candidate that differs is listed
    // and the exit status is 4; on a graph where both reject every candidate, they agree (exit 0); a source only
    // torch loads is said once.
    void compareEngines()
    {
        Run r = cli({"match", kHostData + "/linear_t.json", "--patterns", kHostData + "/patterns/linear_t.py",
                        "--compare-engines", "--json"},
            hostEnvironment(), 300000);
        QCOMPARE(r.exitCode, 4);
        QJsonObject comparison = json(r)["compare_engines"].toObject();
        QCOMPARE(comparison["agree"].toBool(true), false);
        const QJsonArray differences = comparison["differences"].toArray();
        QCOMPARE(differences.size(), 1);
        const QJsonObject d = differences[0].toObject();
        QCOMPARE(d["pattern"].toString(), QString("linear_t.linear"));
        QCOMPARE(d["anchor"].toString(), QString("add"));
        QVERIFY2(d["torch"].toString().startsWith("ACCEPTED"), qPrintable(d["torch"].toString()));
        QVERIFY2(d["sandbox"].toString().contains("aten.matmul"), qPrintable(d["sandbox"].toString()));

        r = cli({"match", kHostData + "/mlp_block.json", "--patterns", kHostData + "/patterns/linear_t.py",
                    "--compare-engines"},
            hostEnvironment(), 300000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("fxscope's sandbox gives torch's verdict on every candidate"), r.out.constData());

        r = cli({"match", kHostData + "/mlp_block.json", "--patterns", "fxscope_test_passes.debug:register",
                    "--compare-engines", "--json"},
            hostEnvironment(), 300000);
        QCOMPARE(r.exitCode, 4);
        QVERIFY(json(r)["compare_engines"].toObject()["error"].toString().contains("only torch loads"));
    }

    void sandboxIsNamed()
    {
        Run r = cli({"match", FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py", "--patterns",
                        FXSCOPE_SOURCE_DIR "/resources/patterns/rms_norm.py", "--sandbox", "--json"},
            hostEnvironment());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(json(r)["engine"].toObject()["name"].toString(), QString("sandbox"));
        QProcessEnvironment noTorch = hostEnvironment();
        noTorch.insert("FXSCOPE_PYTHON", "/nonexistent/python3");
        r = cli({"match", FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py", "--patterns",
                    FXSCOPE_SOURCE_DIR "/resources/patterns/rms_norm.py", "--json"},
            noTorch);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(json(r)["engine"].toObject()["name"].toString(), QString("sandbox"));
        QVERIFY2(r.err.contains("the torch host did not start"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestTorchHost)
#include "tst_torch_host.moc"
