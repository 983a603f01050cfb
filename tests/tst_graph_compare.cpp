// The structural graph diff (optimizer/compare) and `fxscope-cli diff` on real pairs: a graph against renamed
// copies of itself (HRNet's 23k nodes included), the sample against its own fused revision with provenance
// removed, the graphs a TORCH_TRACE log holds before and after Inductor's passes, hand-made changes, a 120k-node
// chain, and bad input.
#include "compare/graph_comparison.h"
#include "compare/graph_variants.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "patterns/builtin_patterns.h"
#include "rewrite/session.h"
#include "test_graphs.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <set>

using namespace fxs;

namespace {

const std::string kSample = FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py";
const std::string kCorpus = FXSCOPE_CORPUS_DIR "/";
const std::string kHrnet = kCorpus + "readable/learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py";
const std::string kSimpleTrace = kCorpus + "torch_trace/tlparse__simple.log";
const std::string kBertJoint
    = kCorpus + "readable/learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_joint_graph.py";

GraphFile load(const std::string &path)
{
    auto file = loadGraphFile(path);
    if (!file)
        qFatal("cannot load %s: %s", path.c_str(), file.error().toString().c_str());
    return std::move(file).value();
}

std::set<std::string> names(const ComparedSide &side, const std::vector<uint32_t> &nodes)
{
    std::set<std::string> out;
    for (uint32_t n : nodes)
        out.insert(side.names[n]);
    return out;
}

std::set<std::string> asSet(const std::vector<std::string> &list) { return {list.begin(), list.end()}; }

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run cli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError()};
}

// A straight chain x -> relu -> relu -> ... -> output of `length` ops.
std::unique_ptr<Graph> chain(size_t length)
{
    auto g = std::make_unique<Graph>();
    Node *last = g->append(OpKind::Placeholder, "x", "x");
    for (size_t i = 0; i < length; ++i)
        last = g->append(
            OpKind::CallFunction, "relu_" + std::to_string(i), "torch.ops.aten.relu.default", {Argument::ofNode(last)});
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(last)})});
    return g;
}

} // namespace

class TestGraphCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Names say nothing here (all new, or each taken by another node of the same op): structure alone must pair
    // every node with the node it was copied from.
    void renamedCopyPairsCompletely_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("renaming");
        const std::vector<std::pair<const char *, std::string>> files
            = {{"sample", kSample}, {"hrnet", kHrnet}, {"bert-joint", kBertJoint}};
        for (const auto &[label, path] : files)
            for (Renaming r : {Renaming::Fresh, Renaming::RotatedWithinOp})
                QTest::addRow("%s-%s", label, r == Renaming::Fresh ? "fresh" : "rotated")
                    << QString::fromStdString(path) << int(r);
    }
    void renamedCopyPairsCompletely()
    {
        QFETCH(QString, path);
        QFETCH(int, renaming);
        GraphFile file = load(path.toStdString());
        const Graph &graph = *file.graphs.front().graph;
        std::unique_ptr<Graph> copy = renamedCopy(graph, Renaming(renaming));
        const GraphComparison c = compareGraphs(graph, *copy);
        const QString counts
            = QString("paired %1 of %2, %3 changed").arg(c.pairedCount()).arg(graph.size()).arg(c.changes.size());
        QVERIFY2(c.equal(), qPrintable(counts));
        QCOMPARE(c.pairedCount(), graph.size());
        QVERIFY(c.regions.empty());
        size_t wrong = 0;
        for (size_t i = 0; i < graph.size(); ++i)
            wrong += c.pairing.partnerOfA[i] != int32_t(i);
        QCOMPARE(wrong, size_t(0));
        if (Renaming(renaming) == Renaming::Fresh)
            QCOMPARE(c.pairedBy(PairedBy::Structure), graph.size());
    }

    // The built-in fusions' steps are the truth: each is one region, its removed nodes on A's side and its added
    // nodes on B's, and nothing else differs. With provenance kept, it is the provenance that keeps the new nodes
    // apart.
    void fusedSampleFindsExactlyTheFusionRegions_data()
    {
        QTest::addColumn<bool>("keepProvenance");
        QTest::newRow("provenance stripped") << false;
        QTest::newRow("provenance kept") << true;
    }
    void fusedSampleFindsExactlyTheFusionRegions()
    {
        QFETCH(bool, keepProvenance);
        GraphFile file = load(kSample);
        auto registry = std::make_shared<PatternRegistry>();
        QVERIFY(registerBuiltinPatterns(*registry).ok());
        Session session(file.graphs.front().graph->clone(), registry);
        auto steps = session.runToEnd();
        QVERIFY(steps.ok());
        QCOMPARE(steps.value(), size_t(3));
        std::unique_ptr<Graph> fused = session.graph().clone();
        if (!keepProvenance)
            stripProvenance(*fused);
        const GraphComparison c = compareGraphs(*file.graphs.front().graph, *fused);
        QVERIFY(!c.equal());
        QVERIFY(c.changes.empty());
        QCOMPARE(c.regions.size(), session.history().size());
        std::set<std::set<std::string>> expectedA, expectedB, foundA, foundB;
        size_t removed = 0, added = 0;
        for (const SessionStep &step : session.history()) {
            expectedA.insert(asSet(step.removed));
            expectedB.insert(asSet(step.added));
            removed += step.removed.size();
            added += step.added.size();
        }
        for (const CompareRegion &r : c.regions) {
            QCOMPARE(r.kind, RegionKind::Replaced);
            foundA.insert(names(c.a, r.a));
            foundB.insert(names(c.b, r.b));
        }
        QCOMPARE(foundA, expectedA);
        QCOMPARE(foundB, expectedB);
        QCOMPARE(c.onlyInA(), removed);
        QCOMPARE(c.onlyInB(), added);
        QCOMPARE(c.pairedBy(PairedBy::Provenance), size_t(0)); // the unfused graph has no provenance to agree with
    }

    // Inductor's passes between the AOT graph and the post-grad graph of real logs.
    void traceGraphsBeforeAndAfterInductor()
    {
        GraphFile file = load(kSimpleTrace);
        const GraphComparison c = compareGraphs(*file.graphs[1].graph, *file.graphs[2].graph);
        QCOMPARE(file.graphs[1].kind, std::string("aot_inference_graph"));
        QCOMPARE(file.graphs[2].kind, std::string("inductor_post_grad_graph"));
        QCOMPARE(c.regions.size(), size_t(1));
        const CompareRegion &r = c.regions.front();
        QCOMPARE(r.kind, RegionKind::Replaced);
        QCOMPARE(names(c.a, r.a), (std::set<std::string>{"rand", "convert_element_type"}));
        const std::set<std::string> random{
            "inductor_seeds_default", "inductor_lookup_seed_default", "inductor_random_default"};
        QCOMPARE(names(c.b, r.b), random);
        QCOMPARE(names(c.a, r.users), std::set<std::string>{"clone"});
        QCOMPARE(r.description, std::string("A's rand → convert_element_type became B's inductor_seeds_default → "
                                            "inductor_lookup_seed_default → inductor_random_default"));
        QVERIFY(c.changes.empty()); // clone reads the new random tensor: part of the region, not a change of clone
        for (size_t i = 0; i < c.a.names.size(); ++i)
            if (const int32_t j = c.pairing.partnerOfA[i]; j >= 0)
                QCOMPARE(c.b.names[size_t(j)], c.a.names[i]); // Inductor kept every other name

        // Dynamo's torch-level graph against the aten graph AOT made of it: only the inputs and the output pair.
        GraphFile provenance = load(kCorpus + "torch_trace/tlparse__inductor_provenance_jit_log.txt");
        const GraphComparison d = compareGraphs(*provenance.graphs[0].graph, *provenance.graphs[3].graph);
        QCOMPARE(d.pairedCount(), size_t(7)); // 6 placeholders and the output
        QCOMPARE(d.regions.size(), size_t(2)); // the linear-relu-sigmoid branch and the mul-addmm-gelu branch
        QCOMPARE(names(d.a, d.regions[0].a), (std::set<std::string>{"x", "x_1", "x_2"}));
        QCOMPARE(names(d.b, d.regions[0].b), (std::set<std::string>{"permute", "addmm", "relu", "sigmoid"}));
        QCOMPARE(d.regions[1].b.size(), size_t(7));
    }

    void changedFieldsHaveBothValues()
    {
        auto build = [](const char *xMeta, int64_t literal, const char *target) {
            auto g = std::make_unique<Graph>();
            Node *x = g->append(OpKind::Placeholder, "x", "x");
            x->meta().val = test::meta(xMeta);
            const std::vector<Argument> args{Argument::ofNode(x), Argument::ofInt(literal)};
            Node *add = g->append(OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor", args);
            add->meta().val = test::meta(xMeta);
            Node *act = g->append(OpKind::CallFunction, "act", target, {Argument::ofNode(add)});
            g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(act)})});
            return g;
        };
        auto a = build("f32[4, 8][8, 1]cpu", 1, "torch.ops.aten.relu.default");
        auto b = build("f16[4, 16][16, 1]cuda:0", 2, "torch.ops.aten.gelu.default");
        const GraphComparison c = compareGraphs(*a, *b);
        QCOMPARE(c.pairedCount(), size_t(4));
        QCOMPARE(c.changes.size(), size_t(3));
        std::map<std::string, std::pair<std::string, std::string>> fields;
        for (const NodeChange &change : c.changes)
            for (const FieldChange &f : change.fields)
                fields[c.a.names[change.a] + "." + f.field] = {f.a, f.b};
        using P = std::pair<std::string, std::string>;
        QCOMPARE(fields["x.shape"], P("[4, 8]", "[4, 16]"));
        QCOMPARE(fields["x.dtype"], P("torch.float32", "torch.float16"));
        QCOMPARE(fields["x.stride"], P("[8, 1]", "[16, 1]"));
        QCOMPARE(fields["x.device"], P("cpu", "cuda:0"));
        QCOMPARE(fields["add.args"], P("(%x, 1)", "(%x, 2)"));
        QCOMPARE(fields["act.target"], P("aten.relu.default", "aten.gelu.default"));
        QCOMPARE(c.regions.size(), size_t(1)); // x, add and act are connected
        QCOMPARE(c.regions.front().kind, RegionKind::Changed);
    }

    // 120k nodes in one chain: nothing may recurse along it.
    void longChainComparesWithoutRecursion()
    {
        auto a = chain(120000);
        auto b = renamedCopy(*a, Renaming::Fresh);
        const GraphComparison c = compareGraphs(*a, *b);
        QVERIFY(c.equal());
        QCOMPARE(c.pairedCount(), a->size());
    }

    void cliJsonContract()
    {
        const QString trace = QString::fromStdString(kSimpleTrace);
        Run r = cli({"diff", trace, trace, "--graph-a", "1", "--graph-b", "[0/0] inductor_post_grad_graph", "--json"});
        QCOMPARE(r.exitCode, 5);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject s = o["summary"].toObject();
        QCOMPARE(s["equal"].toBool(true), false);
        QCOMPARE(s["nodes_a"].toInt(), 14);
        QCOMPARE(s["nodes_b"].toInt(), 15);
        QCOMPARE(s["paired"].toInt(), 12);
        QCOMPARE(s["changed"].toInt(), 0);
        QCOMPARE(s["only_a"].toInt(), 2);
        QCOMPARE(s["only_b"].toInt(), 3);
        QCOMPARE(s["regions"].toInt(), 1);
        QCOMPARE(s["paired_by"].toObject()["name"].toInt() + s["paired_by"].toObject()["structure"].toInt(), 12);
        QCOMPARE(o["a"].toObject()["graph"].toString(), QString("[0/0] aot_inference_graph"));
        QCOMPARE(o["b"].toObject()["nodes"].toInt(), 15);
        const QJsonObject region = o["regions"].toArray()[0].toObject();
        QCOMPARE(region["kind"].toString(), QString("replaced"));
        QCOMPARE(region["a"].toArray(), QJsonArray({"rand", "convert_element_type"}));
        QCOMPARE(region["users"].toArray(), QJsonArray({"clone"}));
        bool sawRand = false;
        for (const auto &op : o["ops"].toArray())
            if (op.toObject()["op"].toString() == "aten.rand.default") {
                sawRand = true;
                QCOMPARE(op.toObject()["a"].toInt(), 1);
                QCOMPARE(op.toObject()["b"].toInt(), 0);
                QCOMPARE(op.toObject()["delta"].toInt(), -1);
            }
        QVERIFY(sawRand);
        QVERIFY(o["changes"].toArray().isEmpty());

        // The text form: the summary line, then the region with its nodes.
        Run text = cli({"diff", trace, trace, "--graph-a", "1", "--graph-b", "2"});
        QCOMPARE(text.exitCode, 5);
        QVERIFY(text.out.contains("only in A 2, only in B 3, 1 region"));
        QVERIFY(text.out.contains("region 1 (replaced): A's rand"));
    }

    void cliRenamedCopyIsEqual()
    {
        QTemporaryDir dir;
        GraphFile file = load(kSample);
        GraphFile renamed;
        renamed.graphs.push_back({"renamed", "", renamedCopy(*file.graphs.front().graph, Renaming::Fresh), 0});
        const QString path = dir.filePath("renamed.json");
        QVERIFY(writeFileAtomically(path.toStdString(), writeFxscopeJson(renamed)).ok());
        Run r = cli({"diff", QString::fromStdString(kSample), path, "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["summary"].toObject()["equal"].toBool(), true);
        QCOMPARE(o["summary"].toObject()["paired"].toInt(), 107);
        QCOMPARE(o["renamed"].toArray().size(), 107);
        QCOMPARE(o["renamed"].toArray()[0].toObject()["b"].toString(), QString("t0"));
    }

    void cliBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message"); // a regular expression the error must match
        const QString sample = QString::fromStdString(kSample);
        const QString trace = QString::fromStdString(kSimpleTrace);
        QTest::newRow("one file") << QStringList{"diff", sample} << 1 << "usage: fxscope-cli diff A B";
        QTest::newRow("unknown option") << QStringList{"diff", sample, sample, "--graph"} << 1 << "usage";
        QTest::newRow("missing file") << QStringList{"diff", sample, "/nonexistent/b.py"} << 2 << "/nonexistent/b.py";
        QTest::newRow("no such graph") << QStringList{"diff", trace, sample, "--graph-a", "9"} << 1
                                       << "no graph '9' in .*tlparse__simple.log";
        QTest::newRow("several graphs, none chosen") << QStringList{"diff", trace, sample} << 1 << "holds 3 graphs";
        QTest::newRow("parse error") << QStringList{"diff", sample, "BROKEN"} << 2 << "broken.json:3:\\d+: ";
    }
    void cliBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString broken = dir.filePath("broken.json");
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"fxscope\",\n \"graphs\": [\n  {\"name\": \"g\", \"nodes\": [ }\n");
        f.close();
        args.replaceInStrings("BROKEN", broken);
        Run r = cli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(r.err).contains(QRegularExpression(message)), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestGraphCompare)
#include "tst_graph_compare.moc"
