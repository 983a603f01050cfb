// The LibTorch executor and profiler through the runtime module's Qt-free wrapper (runtime/runtime_library.h): a
// hand-built graph against values computed here, the captured tiny block against what eager PyTorch produced, the
// reference torch_npu kernels against their unfused decompositions, the unsupported-op error, and `profile` JSON.

#include "io/loader.h"
#include "ir/graph.h"
#include "runtime/runtime_library.h"
#include "util/json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace fxs;

namespace {

// A float32 safetensors file: 8-byte little-endian header length, JSON header, raw bytes.
void writeSafetensors(const QString &path, const std::vector<std::pair<std::string, std::vector<float>>> &tensors,
    const std::vector<std::vector<int64_t>> &shapes)
{
    Json header = Json::object();
    std::string data;
    for (size_t i = 0; i < tensors.size(); ++i) {
        Json shape = Json::array();
        for (auto d : shapes[i])
            shape.push(d);
        size_t begin = data.size();
        data.append(reinterpret_cast<const char *>(tensors[i].second.data()), tensors[i].second.size() * sizeof(float));
        header.set(tensors[i].first,
            Json::object({{"dtype", "F32"}, {"shape", std::move(shape)},
                {"data_offsets", Json::array({Json(begin), Json(data.size())})}}));
    }
    std::string text = header.dump();
    std::string bytes(8, '\0');
    uint64_t n = text.size();
    for (int i = 0; i < 8; ++i)
        bytes[size_t(i)] = char((n >> (8 * i)) & 0xff);
    bytes += text + data;
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), qint64(bytes.size()));
}

std::unique_ptr<Graph> parseGraph(const std::string &code)
{
    auto file = loadGraphBytes(code, "test.py");
    if (!file || file->graphs.empty()) {
        qWarning("%s", file ? "no graph" : file.error().toString().c_str());
        return nullptr;
    }
    return std::move(file.value().graphs.front().graph);
}

} // namespace

class TestExecutor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FXSCOPE_RUNTIME_LIBRARY", FXSCOPE_BIN_DIR "/libfxscope_runtime.so");
        QVERIFY(m_dir.isValid());
    }

    // x + 2*y, then operator.mul on ints feeding a view, and getitem of a multi-output op (max.dim).
    void handBuiltGraph()
    {
        Graph g;
        Node *x = g.append(OpKind::Placeholder, "x", "x");
        Node *y = g.append(OpKind::Placeholder, "y", "y");
        Node *add = g.append(OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor",
            {Argument::ofNode(x), Argument::ofNode(y)}, {{"alpha", Argument::ofInt(2)}});
        Node *n = g.append(OpKind::CallFunction, "n", "operator.mul", {Argument::ofInt(3), Argument::ofInt(2)});
        Node *view = g.append(OpKind::CallFunction, "view", "torch.ops.aten.view.default",
            {Argument::ofNode(add), Argument::list({Argument::ofNode(n)})});
        Node *mx = g.append(
            OpKind::CallFunction, "max_1", "torch.ops.aten.max.dim", {Argument::ofNode(add), Argument::ofInt(1)});
        Node *values
            = g.append(OpKind::CallFunction, "getitem", "operator.getitem", {Argument::ofNode(mx), Argument::ofInt(0)});
        g.append(
            OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(view), Argument::ofNode(values)})});

        std::vector<float> xs = {1, 2, 3, 4, 5, 6}, ys = {0.5f, -1, 2, 0, 1, -3};
        QString inputs = m_dir.filePath(QStringLiteral("hand.safetensors"));
        writeSafetensors(inputs, {{"x", xs}, {"y", ys}}, {{2, 3}, {2, 3}});
        ProfileOptions options;
        options.iters = 2;
        options.warmup = 1;
        options.inputsPath = inputs.toStdString();
        options.returnOutputs = true;
        auto report = runtimeProfile(g, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        QCOMPARE(report->device, std::string("cpu"));
        QCOMPARE(report->unfused.outputs.size(), size_t(2));
        const OutputValue &flat = report->unfused.outputs[0];
        QCOMPARE(flat.shape, std::vector<int64_t>({6}));
        for (size_t i = 0; i < 6; ++i)
            QCOMPARE(flat.values[i], double(xs[i] + 2 * ys[i]));
        // Row maxima of x + 2y: [2, 0, 7] -> 7 and [4, 7, 0] -> 7.
        QCOMPARE(report->unfused.outputs[1].values, std::vector<double>({7, 7}));
        QVERIFY(report->unfused.medianMs > 0);
        QCOMPARE(report->unfused.nodes.size(), size_t(5)); // call_function nodes only
        QCOMPARE(report->unfused.nodes[0].target, std::string("torch.ops.aten.add.Tensor"));
    }

    // Issue 8's last check: the captured block, run with its captured inputs and weights, gives eager's outputs.
    void tinyBlockMatchesCapture()
    {
        QString python = QStringLiteral("/usr/bin/python3");
        if (!QFile::exists(python))
            QSKIP("no /usr/bin/python3");
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral(FXSCOPE_SOURCE_DIR "/python"));
        process.setProcessEnvironment(env);
        process.start(python, {QStringLiteral("-m"), QStringLiteral("fxscope_capture.demo"), m_dir.path()});
        QVERIFY(process.waitForStarted(30000));
        QVERIFY2(process.waitForFinished(300000), "the capture did not finish in 5 minutes");
        QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, err.constData());

        auto file = loadGraphFile(m_dir.filePath(QStringLiteral("tiny_block.json")).toStdString());
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        ProfileOptions options;
        options.iters = 1;
        options.warmup = 0;
        options.inputsPath = m_dir.filePath(QStringLiteral("tiny_block.safetensors")).toStdString();
        options.expectedOutputsPath = m_dir.filePath(QStringLiteral("tiny_block.outputs.safetensors")).toStdString();
        auto report = runtimeProfile(*file->graphs.front().graph, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        QVERIFY(report->expectedMatch.has_value());
        QVERIFY2(*report->expectedMatch, qPrintable(QString::number(report->expectedMaxAbsDiff)));
        QVERIFY(report->expectedMaxAbsDiff < 1e-4);
        QCOMPARE(report->unfused.outputs.front().shape, std::vector<int64_t>({2, 8, 32}));
    }

    void npuKernelMatchesDecomposition_data()
    {
        QTest::addColumn<QString>("unfused");
        QTest::addColumn<QString>("fused");
        const char *head = "class GraphModule(torch.nn.Module):\n    def forward(self, ";
        QString rmsArgs = QStringLiteral("x: \"%1[2, 4, 64][256, 64, 1]cpu\", w: \"%1[64][1]cpu\"):\n");
        QString rmsBody = QStringLiteral(
            "        c: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.prims.convert_element_type.default(x, "
            "torch.float32)\n"
            "        p: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.pow.Tensor_Scalar(c, 2)\n"
            "        m: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.mean.dim(p, [-1], True)\n"
            "        a: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.add.Tensor(m, 1e-06)\n"
            "        r: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.rsqrt.default(a)\n"
            "        n: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(c, r)\n"
            "        d: \"%1[2, 4, 64][256, 64, 1]cpu\" = torch.ops.prims.convert_element_type.default(n, %2)\n"
            "        y: \"%1[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(w, d)\n"
            "        return (y,)\n");
        QString rmsFused = QStringLiteral("        f = torch.ops.npu.npu_rms_norm.default(x, w, 1e-06)\n"
                                          "        y: \"%1[2, 4, 64][256, 64, 1]cpu\" = f[0]\n"
                                          "        return (y,)\n");
        for (auto [abbr, dtype] : {std::pair{"f32", "torch.float32"}, std::pair{"f16", "torch.float16"}})
            QTest::addRow("npu_rms_norm %s", abbr)
                << head + rmsArgs.arg(abbr) + rmsBody.arg(abbr, dtype) << head + rmsArgs.arg(abbr) + rmsFused.arg(abbr);

        QString addArgs = QStringLiteral("x1: \"f32[2, 4, 64][256, 64, 1]cpu\", x2: \"f32[2, 4, 64][256, 64, 1]cpu\", "
                                         "w: \"f32[64][1]cpu\"):\n");
        QString addBody
            = QStringLiteral("        s: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.add.Tensor(x1, x2)\n"
                             "        p: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.pow.Tensor_Scalar(s, 2)\n"
                             "        m: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.mean.dim(p, [-1], True)\n"
                             "        a: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.add.Tensor(m, 1e-06)\n"
                             "        r: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.rsqrt.default(a)\n"
                             "        n: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(s, r)\n"
                             "        y: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(w, n)\n"
                             "        return (y, s)\n");
        QString addFused = QStringLiteral("        f = torch.ops.npu.npu_add_rms_norm.default(x1, x2, w, 1e-06)\n"
                                          "        y: \"f32[2, 4, 64][256, 64, 1]cpu\" = f[0]\n"
                                          "        s: \"f32[2, 4, 64][256, 64, 1]cpu\" = f[2]\n"
                                          "        return (y, s)\n");
        QTest::addRow("npu_add_rms_norm") << head + addArgs + addBody << head + addArgs + addFused;

        QString gluArgs = QStringLiteral("x: \"f32[2, 4, 64][256, 64, 1]cpu\"):\n");
        QString gluBody = QStringLiteral(
            "        g: \"f32[2, 4, 32][256, 64, 1]cpu\" = torch.ops.aten.slice.Tensor(x, -1, 0, 32)\n"
            "        u: \"f32[2, 4, 32][256, 64, 1]cpu\" = torch.ops.aten.slice.Tensor(x, -1, 32, 64)\n"
            "        s: \"f32[2, 4, 32][128, 32, 1]cpu\" = torch.ops.aten.silu.default(g)\n"
            "        y: \"f32[2, 4, 32][128, 32, 1]cpu\" = torch.ops.aten.mul.Tensor(s, u)\n"
            "        return (y,)\n");
        QString gluFused
            = QStringLiteral("        y: \"f32[2, 4, 32][128, 32, 1]cpu\" = torch.ops.npu.npu_swiglu.default(x, -1)\n"
                             "        return (y,)\n");
        QTest::addRow("npu_swiglu") << head + gluArgs + gluBody << head + gluArgs + gluFused;

        QString ropeArgs = QStringLiteral("x: \"f32[2, 4, 64][256, 64, 1]cpu\", r1: \"f32[2, 4, 64][256, 64, 1]cpu\", "
                                          "r2: \"f32[2, 4, 64][256, 64, 1]cpu\"):\n");
        QString ropeBody
            = QStringLiteral("        a: \"f32[2, 4, 32][256, 64, 1]cpu\" = torch.ops.aten.slice.Tensor(x, 2, 0, 32)\n"
                             "        b: \"f32[2, 4, 32][256, 64, 1]cpu\" = torch.ops.aten.slice.Tensor(x, 2, 32, 64)\n"
                             "        nb: \"f32[2, 4, 32][128, 32, 1]cpu\" = torch.ops.aten.neg.default(b)\n"
                             "        c: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.cat.default([nb, a], -1)\n"
                             "        m1: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(x, r1)\n"
                             "        m2: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(c, r2)\n"
                             "        y: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.add.Tensor(m1, m2)\n"
                             "        return (y,)\n");
        QString ropeFused = QStringLiteral(
            "        y: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.npu.npu_rotary_mul.default(x, r1, r2)\n"
            "        return (y,)\n");
        QTest::addRow("npu_rotary_mul") << head + ropeArgs + ropeBody << head + ropeArgs + ropeFused;
    }

    // Inputs generated from meta with one seed, so both graphs see the same values.
    void npuKernelMatchesDecomposition()
    {
        QFETCH(QString, unfused);
        QFETCH(QString, fused);
        auto a = parseGraph(unfused.toStdString());
        auto b = parseGraph(fused.toStdString());
        QVERIFY(a && b);
        ProfileOptions options;
        options.iters = 1;
        options.warmup = 0;
        options.returnOutputs = true;
        auto report = runtimeProfile(*a, b.get(), options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        QVERIFY(report->fused.has_value());
        QVERIFY2(report->outputsMatch, qPrintable(QString::number(report->maxAbsDiff)));
        QVERIFY(report->maxAbsDiff < 1e-5);
        // Not trivially equal: the outputs carry real values.
        double norm = 0;
        for (double v : report->fused->outputs.front().values)
            norm += v * v;
        QVERIFY(norm > 0);
    }

    void unsupportedOpNamesNodeAndOp()
    {
        Graph g;
        Node *x = g.append(OpKind::Placeholder, "x", "x");
        x->meta().val = ValueMeta::ofTensor(TensorMeta{"torch.float32", {{4, {}}}, {}, false, "cpu"});
        Node *bad = g.append(
            OpKind::CallFunction, "frobnicate_1", "torch.ops.aten.frobnicate.default", {Argument::ofNode(x)});
        g.append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(bad)})});
        auto report = runtimeProfile(g, nullptr, ProfileOptions());
        QVERIFY(!report);
        QString text = QString::fromStdString(report.error().toString());
        QVERIFY2(text.contains(QStringLiteral("frobnicate_1")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("aten::frobnicate")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("unsupported op")), qPrintable(text));
    }

    // DESIGN.md's `profile` contract on the LLaMA block sample with the built-in patterns (float16 on CPU).
    void profileCliJson()
    {
        QProcess cli;
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {QStringLiteral("profile"), QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"),
                QStringLiteral("--patterns"), QStringLiteral("builtin"), QStringLiteral("--iters"), QStringLiteral("1"),
                QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted(30000));
        QVERIFY2(cli.waitForFinished(600000), "profile did not finish in 10 minutes");
        QByteArray err = cli.readAllStandardError();
        QCOMPARE(cli.exitCode(), 0);
        QJsonParseError parseError;
        QJsonObject root = QJsonDocument::fromJson(cli.readAllStandardOutput(), &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, err.constData());
        for (const char *key : {"device", "unfused", "fused", "speedup", "outputs_match", "max_abs_diff"})
            QVERIFY2(root.contains(QLatin1String(key)), key);
        QCOMPARE(root.value(QStringLiteral("device")).toString(), QStringLiteral("cpu"));
        QVERIFY2(root.value(QStringLiteral("outputs_match")).toBool(),
            qPrintable(QString::number(root.value(QStringLiteral("max_abs_diff")).toDouble())));
        QVERIFY(root.value(QStringLiteral("speedup")).toDouble() > 0);
        bool sawFusedOp = false;
        for (const char *side : {"unfused", "fused"}) {
            QJsonObject g = root.value(QLatin1String(side)).toObject();
            QVERIFY(g.value(QStringLiteral("median_ms")).toDouble() > 0);
            QJsonArray nodes = g.value(QStringLiteral("nodes")).toArray();
            QVERIFY(!nodes.isEmpty());
            for (const auto &n : nodes) {
                QJsonObject o = n.toObject();
                QVERIFY(o.contains(QStringLiteral("name")) && o.contains(QStringLiteral("target"))
                    && o.contains(QStringLiteral("median_us")));
                sawFusedOp = sawFusedOp
                    || o.value(QStringLiteral("target")).toString().contains(QStringLiteral("npu_rms_norm"));
            }
        }
        QVERIFY(sawFusedOp);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestExecutor)
#include "tst_executor.moc"
