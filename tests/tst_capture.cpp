// Captures the tiny transformer block with the Python capture package at test time (python -m fxscope_capture.demo
// --compile, with the torch of the environment fxscope builds against), loads the capture with fxs::loadGraphFile
// and checks it against what torch itself reported in the demo's summary: node and op counts, call targets, shapes of
// the input, the weights and the output. The torch.compile captures (Dynamo and AOT graphs, static and dynamic=True)
// are run by fxscope's executor on their saved inputs and must give what the block gives eagerly.

#include "io/fxscope_json.h"
#include "io/loader.h"
#include "ir/lint.h"
#include "runtime/runtime_library.h"
#include "util/json.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace fxs;

namespace {

// Readable failure messages for the containers compared below.
QString describe(const std::map<std::string, int64_t> &counts)
{
    QStringList parts;
    for (const auto &kv : counts)
        parts << QString::fromStdString(kv.first) + QLatin1Char('=') + QString::number(kv.second);
    return parts.join(QStringLiteral(", "));
}

QString describe(const std::vector<int64_t> &dims)
{
    QStringList parts;
    for (auto d : dims)
        parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

std::vector<int64_t> concreteDims(const std::vector<SymInt> &dims)
{
    std::vector<int64_t> out;
    for (const auto &d : dims)
        out.push_back(d.isConcrete() ? d.value : -1);
    return out;
}

std::vector<int64_t> jsonDims(const Json &a)
{
    std::vector<int64_t> out;
    for (const Json &d : a.items())
        out.push_back(d.toInt(-1));
    return out;
}

// The safetensors header: 8-byte little-endian length, then that much JSON. Parsed here independently of Python.
struct SafetensorsHeader {
    Json header;
    uint64_t headerBytes = 0;
    uint64_t dataBytes = 0;
};

Result<SafetensorsHeader> readSafetensorsHeader(const std::string &path)
{
    auto bytes = readFileBytes(path);
    if (!bytes)
        return bytes.error();
    const std::string &b = bytes.value();
    if (b.size() < 8)
        return Error{path, 0, 0, "expected an 8-byte header length"};
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | uint8_t(b[size_t(i)]);
    if (n > b.size() - 8)
        return Error{path, 0, 0, "expected the header to fit in the file"};
    auto json = Json::parse(std::string_view(b).substr(8, n), path);
    if (!json)
        return json.error();
    return SafetensorsHeader{std::move(json.value()), n, b.size() - 8 - n};
}

} // namespace

class TestCapture : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    Json m_summary;
    GraphFile m_file;
    const Graph *m_graph = nullptr;

    std::string path(const char *name) const
    {
        return (m_dir.path() + QLatin1Char('/') + QLatin1String(name)).toStdString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString python = qEnvironmentVariable("FXSCOPE_PYTHON", QStringLiteral(FXSCOPE_TORCH_PYTHON));
        QVERIFY2(!python.isEmpty(),
            "no Python interpreter with torch: configure with scripts/python-env.sh (BUILD_DIR/fxscope-python), or set "
            "FXSCOPE_PYTHON");
        QVERIFY(m_dir.isValid());
        qputenv("FXSCOPE_RUNTIME_LIBRARY", FXSCOPE_BIN_DIR "/libfxscope_runtime.so");

        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QString pythonPath = QStringLiteral(FXSCOPE_SOURCE_DIR "/python");
        if (env.contains(QStringLiteral("PYTHONPATH")))
            pythonPath += QLatin1Char(':') + env.value(QStringLiteral("PYTHONPATH"));
        env.insert(QStringLiteral("PYTHONPATH"), pythonPath);
        process.setProcessEnvironment(env);
        process.start(python,
            {QStringLiteral("-m"), QStringLiteral("fxscope_capture.demo"), m_dir.path(), QStringLiteral("--compile")});
        QVERIFY2(process.waitForStarted(30000), qPrintable(python + QStringLiteral(": ") + process.errorString()));
        QVERIFY2(process.waitForFinished(300000), "the capture did not finish in 5 minutes");
        QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, err.constData());

        auto summaryText = readFileBytes(path("tiny_block.summary.json"));
        QVERIFY2(summaryText.ok(), summaryText.ok() ? "" : summaryText.error().toString().c_str());
        auto summary = Json::parse(summaryText.value(), "tiny_block.summary.json");
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.error().toString().c_str());
        m_summary = std::move(summary.value());

        auto loaded = loadGraphFile(path("tiny_block.json"));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        m_file = std::move(loaded.value());
        QCOMPARE(m_file.graphs.size(), size_t(1));
        m_graph = m_file.graphs[0].graph.get();
    }

    void loadsAsAValidGraph()
    {
        QCOMPARE(QString::fromStdString(m_file.format), QStringLiteral("fxscope_json"));
        QCOMPARE(QString::fromStdString(m_file.graphs[0].name), QStringLiteral("tiny_block"));
        QCOMPARE(QString::fromStdString(m_file.graphs[0].kind), QStringLiteral("make_fx"));
        QVERIFY(m_file.warnings.empty());
        auto problems = lint(*m_graph);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    }

    void nodeAndOpCountsMatchTorch()
    {
        QCOMPARE(int64_t(m_graph->size()), m_summary["nodes"].toInt(-1));
        std::map<std::string, int64_t> ops;
        for (const auto &n : m_graph->nodes())
            ++ops[opKindName(n->op())];
        std::map<std::string, int64_t> expected;
        for (const auto &kv : m_summary["ops"].members())
            expected[kv.first] = kv.second.toInt();
        QCOMPARE(describe(ops), describe(expected));
    }

    void callTargetsMatchTorch()
    {
        std::map<std::string, int64_t> targets;
        for (const auto &n : m_graph->nodes())
            if (n->op() == OpKind::CallFunction)
                ++targets[n->target()];
        std::map<std::string, int64_t> expected;
        for (const auto &kv : m_summary["call_function_targets"].members())
            expected[kv.first] = kv.second.toInt();
        QCOMPARE(describe(targets), describe(expected));
        QVERIFY(targets.count("torch.ops.aten.mm.default"));
    }

    void metaMatchesTorch()
    {
        const Node *out = m_graph->outputNode();
        QVERIFY(out && out->meta().val);
        QCOMPARE(describe(concreteDims(out->meta().val->tensor.shape)), describe(jsonDims(m_summary["output_shape"])));
        QCOMPARE(out->meta().val->tensor.dtype, m_summary["output_dtype"].toString());

        auto inputs = m_graph->placeholders();
        QCOMPARE(inputs.size(), size_t(1));
        QCOMPARE(QString::fromStdString(inputs[0]->name()), QStringLiteral("x"));
        QCOMPARE(
            describe(concreteDims(inputs[0]->meta().val->tensor.shape)), describe(jsonDims(m_summary["input_shape"])));

        int weights = 0;
        bool sawNestedModule = false;
        for (const auto &n : m_graph->nodes()) {
            if (n->op() == OpKind::GetAttr) {
                ++weights;
                const Json *shape = m_summary["parameters"].find(n->target());
                QVERIFY2(shape, n->target().c_str());
                QVERIFY(n->meta().val);
                QCOMPARE(describe(concreteDims(n->meta().val->tensor.shape)), describe(jsonDims(*shape)));
            }
            if (n->op() != OpKind::CallFunction)
                continue;
            const NodeMeta &m = n->meta();
            QVERIFY2(m.val && m.val->kind == ValueMeta::Kind::Tensor, n->name().c_str());
            QVERIFY(m.val->tensor.hasStride);
            QCOMPARE(m.val->tensor.device, std::string("cpu"));
            QVERIFY2(m.stackTrace.find("tiny_block.py") != std::string::npos, n->name().c_str());
            QVERIFY(m.source && m.source->line > 0 && !m.source->code.empty());
            // Only the block's own residual adds run outside a submodule: their stack has the root forward alone.
            bool inRootForward = m.stackTrace.find("File ") == m.stackTrace.rfind("File ");
            QVERIFY2(!m.nnModuleStack.empty() || inRootForward, n->name().c_str());
            for (const auto &e : m.nnModuleStack)
                if (e.path == "attn.wq" && e.type == "torch.nn.modules.linear.Linear")
                    sawNestedModule = true;
        }
        QCOMPARE(int64_t(weights), int64_t(m_summary["parameters"].size()));
        QVERIFY(sawNestedModule);
    }

    void tensorsFileHoldsEveryInputAndWeight()
    {
        auto st = readSafetensorsHeader(path("tiny_block.safetensors"));
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
        const Json &header = st.value().header;
        QCOMPARE(st.value().headerBytes % 8, uint64_t(0));
        size_t named = 0;
        uint64_t end = 0;
        for (const auto &n : m_graph->nodes()) {
            if (n->op() != OpKind::Placeholder && n->op() != OpKind::GetAttr)
                continue;
            ++named;
            const Json *entry = header.find(n->name());
            QVERIFY2(entry, n->name().c_str());
            QCOMPARE((*entry)["dtype"].toString(), std::string("F32"));
            QCOMPARE(describe(jsonDims((*entry)["shape"])), describe(concreteDims(n->meta().val->tensor.shape)));
            int64_t elements = 1;
            for (auto d : jsonDims((*entry)["shape"]))
                elements *= d;
            const auto &offsets = (*entry)["data_offsets"].items();
            QCOMPARE(offsets.size(), size_t(2));
            QCOMPARE(offsets[1].toInt() - offsets[0].toInt(), elements * 4);
            end = std::max(end, uint64_t(offsets[1].toInt()));
        }
        QCOMPARE(header.size(), named + 1); // + __metadata__
        QCOMPARE(end, st.value().dataBytes);
    }

    void outputsFileHoldsTheReferenceOutput()
    {
        auto st = readSafetensorsHeader(path("tiny_block.outputs.safetensors"));
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
        const Json *out = st.value().header.find("output_0");
        QVERIFY(out);
        QCOMPARE(describe(jsonDims((*out)["shape"])), describe(jsonDims(m_summary["output_shape"])));
        QCOMPARE(st.value().header["__metadata__"]["graph_matches_eager"].toString(), std::string("true"));
    }

    void compiledGraphsLoad_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("static") << QStringLiteral("compile/static/tiny_0.json");
        QTest::addRow("dynamic") << QStringLiteral("compile/dynamic/tiny_0.json");
    }

    void compiledGraphsLoad()
    {
        QFETCH(QString, file);
        auto loaded = loadGraphFile(path(file.toUtf8().constData()));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QCOMPARE(QString::fromStdString(loaded->format), QStringLiteral("fxscope_json"));
        QStringList names;
        for (const auto &g : loaded->graphs) {
            names << QString::fromStdString(g.name + " " + g.kind);
            auto problems = lint(*g.graph);
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        }
        QCOMPARE(names, QStringList({"dynamo dynamo_output_graph", "inference aot_inference_graph"}));
    }

    // fxscope's executor on each graph and its saved inputs gives the block's eager output (compared by the runtime
    // within the float32 tolerance it uses for fused graphs).
    void executorGivesTheEagerResult_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("inputs");
        QTest::addColumn<QString>("expected");
        QTest::addRow("make_fx") << "tiny_block.json" << "tiny_block" << "tiny_block.safetensors"
                                 << "tiny_block.outputs.safetensors";
        for (const char *kind : {"static", "dynamic"})
            for (const char *graph : {"inference", "dynamo"})
                QTest::addRow("%s %s", kind, graph)
                    << QStringLiteral("compile/%1/tiny_0.json").arg(QLatin1String(kind)) << QString::fromLatin1(graph)
                    << QStringLiteral("compile/%1/tiny_0.%2.safetensors").arg(QLatin1String(kind), QLatin1String(graph))
                    << QStringLiteral("compile/eager.safetensors");
    }

    void executorGivesTheEagerResult()
    {
        QFETCH(QString, file);
        QFETCH(QString, graph);
        QFETCH(QString, inputs);
        QFETCH(QString, expected);
        auto loaded = loadGraphFile(path(file.toUtf8().constData()));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        const NamedGraph *named = nullptr;
        for (const auto &g : loaded->graphs)
            if (g.name == graph.toStdString())
                named = &g;
        QVERIFY2(named, qPrintable(file + QStringLiteral(" holds no graph ") + graph));
        ProfileOptions options;
        options.iters = 1;
        options.warmup = 0;
        options.returnOutputs = true;
        options.inputsPath = path(inputs.toUtf8().constData());
        options.expectedOutputsPath = path(expected.toUtf8().constData());
        auto report = runtimeProfile(*named->graph, nullptr, options);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().toString().c_str());
        QCOMPARE(report->unfused.outputs.size(), size_t(1));
        QCOMPARE(describe(report->unfused.outputs.front().shape), describe(jsonDims(m_summary["output_shape"])));
        QVERIFY(report->expectedMatch.has_value());
        QVERIFY2(*report->expectedMatch, qPrintable(QStringLiteral("max abs diff against eager: %1")
                                                        .arg(report->expectedMaxAbsDiff)));
        QVERIFY2(report->expectedMaxAbsDiff < 1e-4, qPrintable(QString::number(report->expectedMaxAbsDiff)));
    }

    // dynamic=True: the graph's sizes are symbols; the JSON's symbol_hints give the traced sizes, so the executor runs
    // it with inputs it generates from meta, without being told the symbols' values.
    void dynamicGraphRunsFromItsHints()
    {
        auto loaded = loadGraphFile(path("compile/dynamic/tiny_0.json"));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        for (const auto &g : loaded->graphs) {
            std::vector<int64_t> hints;
            for (const auto &kv : g.graph->symbolHints())
                hints.push_back(kv.second);
            std::sort(hints.begin(), hints.end());
            QCOMPARE(describe(hints), describe(std::vector<int64_t>({2, 8})));
            const Node *x = nullptr;
            for (const Node *p : g.graph->placeholders())
                if (p->meta().val && p->meta().val->kind == ValueMeta::Kind::Tensor
                    && p->meta().val->tensor.shape.size() == 3)
                    x = p;
            QVERIFY2(x, g.name.c_str());
            QVERIFY2(!x->meta().val->tensor.shape[0].isConcrete(), "the batch size is a symbol");
        }
        const NamedGraph &aot = loaded->graphs.back();
        ProfileOptions options;
        options.iters = 1;
        options.warmup = 0;
        auto report = runtimeProfile(*aot.graph, nullptr, options);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().toString().c_str());
        QCOMPARE(describe(report->unfused.outputs.front().shape), describe(std::vector<int64_t>({2, 8, 32})));
    }

    void survivesTheCanonicalWriter()
    {
        auto again = parseFxscopeJson(writeFxscopeJson(m_file), "rewritten.json");
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().toString().c_str());
        const Graph &g = *again.value().graphs[0].graph;
        QCOMPARE(g.size(), m_graph->size());
        for (size_t i = 0; i < g.size(); ++i) {
            QCOMPARE(g.nodes()[i]->name(), m_graph->nodes()[i]->name());
            QVERIFY2(g.nodes()[i]->meta() == m_graph->nodes()[i]->meta(), g.nodes()[i]->name().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCapture)
#include "tst_capture.moc"
