// The LibTorch executor and profiler through the runtime module's Qt-free wrapper (runtime/runtime_library.h): a
// hand-built graph against values computed here, the captured tiny block against what eager PyTorch produced, the
// reference torch_npu kernels against their unfused decompositions, the unsupported-op error, and `profile` JSON.

#include "io/loader.h"
#include "ir/graph.h"
#include "runtime/runtime_library.h"
#include "util/json.h"
#include "util/progress.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

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
        // Liveness: add's 24 bytes stay alive through its view (an output), then max.dim's values (8) and indices
        // (16) join them; getitem is a view of values. Inputs are not intermediates.
        QCOMPARE(report->json["unfused"]["peak_intermediate_bytes"].toInt(), int64_t(48));
    }

    // Later iterations write outputs into buffers freed earlier in the run (out= variants) and hold Python
    // numbers in the other operand's dtype. Neither may change a value: a graph output that is a view of an
    // intermediate keeps that buffer out of reuse, and numbers of another kind still promote (int * 0.5 is float).
    void buffersAndNumbersAcrossIterations()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[2, 3][3, 1]cpu\"):\n"
                            "        a: \"f32[2, 3]\" = torch.ops.aten.mul.Tensor(x, 0.1)\n"
                            "        b: \"f32[2, 3]\" = torch.ops.aten.add.Tensor(a, x)\n"
                            "        v: \"f32[6]\" = torch.ops.aten.view.default(b, [6])\n"
                            "        c: \"f32[2, 3]\" = torch.ops.aten.mul.Tensor(b, 3)\n"
                            "        d: \"f32[2, 3]\" = torch.ops.aten.sub.Tensor(c, a)\n"
                            "        e: \"f32[2, 3]\" = torch.ops.aten.neg.default(d)\n"
                            "        i: \"i32[2, 3]\" = torch.ops.aten._to_copy.default(x, dtype = torch.int32)\n"
                            "        j: \"i32[2, 3]\" = torch.ops.aten.add.Tensor(i, 1)\n"
                            "        k: \"f32[2, 3]\" = torch.ops.aten.mul.Tensor(i, 0.5)\n"
                            "        return (v, e, j, k)\n");
        QVERIFY(g);
        std::vector<float> xs = {1.5f, -2.25f, 3, 7.75f, -5, 0.3f};
        QString inputs = m_dir.filePath(QStringLiteral("reuse.safetensors"));
        writeSafetensors(inputs, {{"x", xs}}, {{2, 3}});
        ProfileOptions options;
        options.iters = 3;
        options.warmup = 1;
        options.inputsPath = inputs.toStdString();
        options.returnOutputs = true;
        auto report = runtimeProfile(*g, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        const auto &out = report->unfused.outputs;
        QCOMPARE(out.size(), size_t(4));
        QCOMPARE(out[2].dtype, std::string("Int"));
        QCOMPARE(out[3].dtype, std::string("Float"));
        for (size_t n = 0; n < xs.size(); ++n) {
            const float a = xs[n] * float(0.1), b = a + xs[n], e = -(b * 3.0f - a);
            QCOMPARE(out[0].values[n], double(b));
            QCOMPARE(out[1].values[n], double(e));
            QCOMPARE(out[2].values[n], double(int32_t(xs[n]) + 1));
            QCOMPARE(out[3].values[n], double(int32_t(xs[n])) * 0.5);
        }
    }

    // The progress callback sees the job advance every few hundred nodes and to its end; returning false stops
    // the run within those nodes and the profile fails as canceled, not as an error of the graph.
    void progressAndCancel()
    {
        std::string code = "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[4][1]cpu\"):\n";
        std::string previous = "x";
        for (int k = 0; k < 2000; ++k) {
            code += "        v" + std::to_string(k) + ": \"f32[4]\" = torch.ops.aten."
                + (k % 2 ? "neg.default(" : "relu.default(") + previous + ")\n";
            previous = "v" + std::to_string(k);
        }
        code += "        return (" + previous + ",)\n";
        auto g = parseGraph(code);
        QVERIFY(g);
        std::vector<double> seen;
        ProfileOptions options;
        options.iters = 2;
        options.warmup = 1;
        options.progress = [&](double fraction) {
            seen.push_back(fraction);
            return true;
        };
        auto report = runtimeProfile(*g, g.get(), options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        QVERIFY(seen.size() >= 2 * 3 * 7); // two graphs, three runs, a report every 256 of 2,002 nodes
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
        QVERIFY(seen.front() >= 0);

        seen.clear();
        options.progress = [&](double fraction) {
            seen.push_back(fraction);
            return fraction < 0.3;
        };
        report = runtimeProfile(*g, g.get(), options);
        QVERIFY(!report);
        QVERIFY2(isCanceled(report.error()), report.error().toString().c_str());
        QVERIFY(seen.back() >= 0.3 && seen.back() < 0.4); // stopped at the first report past 0.3
    }

    // prims.iota (GPT-2's post-grad position ids) runs as arange, with the graph's device replaced by the run's.
    void primsIota()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"i64[2, 5][5, 1]cpu\"):\n"
                            "        iota: \"i64[5]\" = torch.ops.prims.iota.default(5, start = 3, step = 2, dtype = "
                            "torch.int64, device = device(type='cpu'), requires_grad = False)\n"
                            "        u: \"i64[1, 5]\" = torch.ops.aten.unsqueeze.default(iota, 0)\n"
                            "        y: \"i64[2, 5]\" = torch.ops.aten.mul.Tensor(x, u)\n"
                            "        return (u, y)\n");
        QVERIFY(g);
        ProfileOptions options;
        options.iters = 1;
        options.returnOutputs = true;
        auto report = runtimeProfile(*g, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        QCOMPARE(report->unfused.outputs[0].values, std::vector<double>({3, 5, 7, 9, 11}));
        QCOMPARE(report->unfused.outputs[0].dtype, std::string("Long"));
    }

    // A Dynamo-level graph: tensor methods (call_method) and torch.* functions run as the aten overload their
    // arguments fit (x.view(4, 4) packs Python's *sizes; add with a float picks add.Scalar), size() as a list.
    void methodsAndTorchFunctions()
    {
        Graph g;
        Node *x = g.append(OpKind::Placeholder, "x", "x");
        Node *v
            = g.append(OpKind::CallMethod, "v", "view", {Argument::ofNode(x), Argument::ofInt(4), Argument::ofInt(4)});
        Node *t = g.append(
            OpKind::CallMethod, "t", "transpose", {Argument::ofNode(v), Argument::ofInt(0), Argument::ofInt(1)});
        Node *m = g.append(OpKind::CallFunction, "m", "torch.matmul", {Argument::ofNode(v), Argument::ofNode(t)});
        Node *size = g.append(OpKind::CallMethod, "s", "size", {Argument::ofNode(m)});
        Node *rows
            = g.append(OpKind::CallFunction, "rows", "operator.getitem", {Argument::ofNode(size), Argument::ofInt(0)});
        Node *a = g.append(OpKind::CallMethod, "a", "add", {Argument::ofNode(m), Argument::ofFloat(-100.0)});
        Node *r = g.append(OpKind::CallFunction, "r", "torch.nn.functional.relu", {Argument::ofNode(a)});
        Node *flat = g.append(OpKind::CallMethod, "flat", "reshape",
            {Argument::ofNode(r), Argument::list({Argument::ofNode(rows), Argument::ofInt(-1)})});
        g.append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(flat)})});

        std::vector<float> xs(16);
        for (size_t i = 0; i < xs.size(); ++i)
            xs[i] = float(i);
        QString inputs = m_dir.filePath(QStringLiteral("methods.safetensors"));
        writeSafetensors(inputs, {{"x", xs}}, {{2, 8}});
        ProfileOptions options;
        options.iters = 2;
        options.inputsPath = inputs.toStdString();
        options.returnOutputs = true;
        auto report = runtimeProfile(g, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        const OutputValue &out = report->unfused.outputs.at(0);
        QCOMPARE(out.shape, std::vector<int64_t>({4, 4}));
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                double dot = 0;
                for (int k = 0; k < 4; ++k)
                    dot += xs[size_t(4 * i + k)] * xs[size_t(4 * j + k)];
                QCOMPARE(out.values[size_t(4 * i + j)], std::max(dot - 100.0, 0.0));
            }
    }

    // A node that fails at run time: the error names it, and the nodes that ran before it keep their times.
    void failureKeepsWhatRan()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[4, 8][8, 1]cpu\", w: \"f32[4, 8][8, 1]cpu\"):\n"
                            "        a: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.relu.default(x)\n"
                            "        b: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.mul.Tensor(a, 2.0)\n"
                            "        m: \"f32[4, 4][4, 1]cpu\" = torch.ops.aten.mm.default(b, w)\n"
                            "        return (m,)\n");
        QVERIFY(g);
        ProfileReport partial;
        auto report = runtimeProfile(*g, nullptr, ProfileOptions(), &partial);
        QVERIFY(!report);
        QVERIFY2(report.error().message.find("node 'm'") != std::string::npos, report.error().message.c_str());
        QCOMPARE(partial.unfused.failedNode, std::string("m"));
        QVERIFY(partial.unfused.error.find("node 'm'") != std::string::npos);
        const auto &ran = partial.unfused.nodes;
        QCOMPARE(ran.size(), size_t(2));
        QCOMPARE(ran[0].name, std::string("a"));
        QCOMPARE(ran[1].name, std::string("b"));
        QVERIFY(ran[1].medianUs > 0);
        QCOMPARE(partial.json["unfused"]["failed_node"].toString(), std::string("m"));
    }

    // profile --trace and --csv on an RMSNorm graph fused by the built-in pattern: a Chrome trace with both graphs
    // and the fused region, CSV rows per node and per region, and the region's speedup from provenance.
    void traceCsvAndRegions()
    {
        QString graph = m_dir.filePath(QStringLiteral("rms.py"));
        QFile f(graph);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("class GraphModule(torch.nn.Module):\n"
                "    def forward(self, x: \"f16[2, 4, 64][256, 64, 1]cpu\", w: \"f16[64][1]cpu\"):\n"
                "        c: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.prims.convert_element_type.default(x, "
                "torch.float32)\n"
                "        p: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.pow.Tensor_Scalar(c, 2)\n"
                "        m: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.mean.dim(p, [-1], True)\n"
                "        a: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.add.Tensor(m, 1e-06)\n"
                "        r: \"f32[2, 4, 1][4, 1, 1]cpu\" = torch.ops.aten.rsqrt.default(a)\n"
                "        n: \"f32[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(c, r)\n"
                "        d: \"f16[2, 4, 64][256, 64, 1]cpu\" = torch.ops.prims.convert_element_type.default(n, "
                "torch.float16)\n"
                "        y: \"f16[2, 4, 64][256, 64, 1]cpu\" = torch.ops.aten.mul.Tensor(w, d)\n"
                "        return (y,)\n");
        f.close();
        QString trace = m_dir.filePath(QStringLiteral("trace.json")), csv = m_dir.filePath(QStringLiteral("p.csv"));
        QProcess cli;
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {QStringLiteral("profile"), graph, QStringLiteral("--patterns"), QStringLiteral("builtin"),
                QStringLiteral("--iters"), QStringLiteral("3"), QStringLiteral("--trace"), trace,
                QStringLiteral("--csv"), csv, QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted(30000));
        QVERIFY(cli.waitForFinished(300000));
        QByteArray err = cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, err.constData());
        QJsonObject root = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QVERIFY(root.value(QStringLiteral("outputs_match")).toBool());
        QVERIFY(root.contains(QStringLiteral("max_rel_diff")));
        QJsonArray regions = root.value(QStringLiteral("regions")).toArray();
        QCOMPARE(regions.size(), 1);
        QJsonObject region = regions[0].toObject();
        QVERIFY(region.value(QStringLiteral("complete")).toBool());
        QVERIFY(region.value(QStringLiteral("speedup")).toDouble() > 0);
        QStringList replaced;
        for (const auto &r : region.value(QStringLiteral("replaced")).toArray())
            replaced << r.toString();
        QVERIFY2(replaced.contains(QStringLiteral("r")) && replaced.contains(QStringLiteral("y")),
            qPrintable(replaced.join(QLatin1Char(','))));
        // The region's unfused time is the sum of the replaced nodes' medians.
        double sum = 0;
        for (const auto &n : root.value(QStringLiteral("unfused")).toObject().value(QStringLiteral("nodes")).toArray())
            if (replaced.contains(n.toObject().value(QStringLiteral("name")).toString()))
                sum += n.toObject().value(QStringLiteral("median_us")).toDouble();
        QVERIFY(qAbs(sum - region.value(QStringLiteral("unfused_us")).toDouble()) < 1e-6 * qMax(1.0, sum));

        QFile traceFile(trace);
        QVERIFY(traceFile.open(QIODevice::ReadOnly));
        QJsonArray events
            = QJsonDocument::fromJson(traceFile.readAll()).object().value(QStringLiteral("traceEvents")).toArray();
        int unfusedSlices = 0, fusedSlices = 0, regionSlices = 0;
        for (const auto &e : events) {
            QJsonObject o = e.toObject();
            if (o.value(QStringLiteral("ph")).toString() != QStringLiteral("X"))
                continue;
            QVERIFY(o.value(QStringLiteral("dur")).toDouble() >= 0);
            int pid = o.value(QStringLiteral("pid")).toInt(), tid = o.value(QStringLiteral("tid")).toInt();
            unfusedSlices += pid == 1;
            fusedSlices += pid == 2 && tid == 1;
            regionSlices += pid == 2 && tid == 2;
        }
        QCOMPARE(unfusedSlices, 8);
        QCOMPARE(fusedSlices, 2); // npu_rms_norm and its getitem
        QCOMPARE(regionSlices, 1);

        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(csvFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0), QStringLiteral("graph,node,target,median_us,min_us,max_us"));
        QVERIFY(lines.contains(QStringLiteral("region,pattern,anchor,unfused_us,fused_us,speedup")));
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^unfused,"))).size(), 8);
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^region,rms_norm"))).size(), 1);
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

    // cond runs the branch its predicate picks, with the operands as the branch's placeholders.
    void condRunsTakenBranch()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[4]\"):\n"
                            "        sum_1: \"f32[]\" = torch.ops.aten.sum.default(x)\n"
                            "        gt: \"b8[]\" = torch.ops.aten.gt.Scalar(sum_1, 0)\n"
                            "        true_graph_0 = self.true_graph_0\n"
                            "        false_graph_0 = self.false_graph_0\n"
                            "        cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, (x,))\n"
                            "        getitem: \"f32[4]\" = cond[0]\n"
                            "        return (getitem,)\n"
                            "\n"
                            "    class true_graph_0(torch.nn.Module):\n"
                            "        def forward(self, x: \"f32[4]\"):\n"
                            "            mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(x, 2)\n"
                            "            return (mul,)\n"
                            "\n"
                            "    class false_graph_0(torch.nn.Module):\n"
                            "        def forward(self, x: \"f32[4]\"):\n"
                            "            neg: \"f32[4]\" = torch.ops.aten.neg.default(x)\n"
                            "            return (neg,)\n");
        QVERIFY(g);
        QCOMPARE(g->subgraphs().size(), size_t(2));
        for (float sign : {1.0f, -1.0f}) {
            QString inputs = m_dir.filePath(QStringLiteral("cond.safetensors"));
            writeSafetensors(inputs, {{"x", {sign * 1, sign * 2, sign * 3, sign * 4}}}, {{4}});
            ProfileOptions options;
            options.iters = 1;
            options.warmup = 0;
            options.inputsPath = inputs.toStdString();
            options.returnOutputs = true;
            auto report = runtimeProfile(*g, nullptr, options);
            QVERIFY2(report, report ? "" : report.error().toString().c_str());
            const OutputValue &out = report->unfused.outputs.at(0);
            // true branch: 2x = 2, 4, 6, 8; false branch: -x = 1, 2, 3, 4.
            for (int i = 0; i < 4; ++i)
                QCOMPARE(out.values.at(size_t(i)), sign > 0 ? 2.0 * (i + 1) : double(i + 1));
        }
    }

    // A real torch.export dump: cond whose branches return constant ints, runtime asserts on the result, select
    // of the row it picked.
    void corpusCondSelectsRow()
    {
        auto file = loadGraphFile(FXSCOPE_CORPUS_DIR
            "/readable/pytorch_test_export__cond_branches_return_constant_int__print_readable_normalized.py");
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs.front().graph;
        for (float sign : {1.0f, -1.0f}) {
            QString inputs = m_dir.filePath(QStringLiteral("cond_rows.safetensors"));
            writeSafetensors(inputs, {{"x", {1, 1, 1, 2, 2, 2, 3, 3, 3}}}, {{3, 3}});
            if (sign < 0)
                writeSafetensors(inputs, {{"x", {-1, -1, -1, -2, -2, -2, -3, -3, -3}}}, {{3, 3}});
            ProfileOptions options;
            options.iters = 1;
            options.warmup = 0;
            options.inputsPath = inputs.toStdString();
            options.returnOutputs = true;
            auto report = runtimeProfile(g, nullptr, options);
            QVERIFY2(report, report ? "" : report.error().toString().c_str());
            // sum > 3 takes the true branch (row 0), else row 1.
            QCOMPARE(report->unfused.outputs.at(0).values,
                sign > 0 ? std::vector<double>({1, 1, 1}) : std::vector<double>({-2, -2, -2}));
        }
    }

    // wrap, wrap_with_set_grad_enabled (Dynamo-level bodies: Python operators on tensors, relu(inplace=False)) and
    // call_module of a nested class run their graphs.
    void wrapAndCallModuleRunNestedGraphs()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, L_x_: \"f32[2, 3]\"):\n"
            "        l_x_ = L_x_\n"
            "        wrap_body_0 = self.wrap_body_0\n"
            "        wrap = torch.ops.higher_order.wrap(wrap_body_0, l_x_)\n"
            "        getitem: \"f32[2, 3]\" = wrap[0]\n"
            "        wrap_body_1 = self.wrap_body_1\n"
            "        wrap_1 = torch.ops.higher_order.wrap_with_set_grad_enabled(False, wrap_body_1, getitem, 3)\n"
            "        getitem_1: \"f32[2, 3]\" = wrap_1[0]\n"
            "        submod_0 = self.submod_0(getitem_1)\n"
            "        return (submod_0,)\n"
            "\n"
            "    class wrap_body_0(torch.nn.Module):\n"
            "        def forward(self, l_x_: \"f32[2, 3]\"):\n"
            "            add = l_x_ + 1\n"
            "            relu = torch.nn.functional.relu(add, inplace = False)\n"
            "            return (relu,)\n"
            "\n"
            "    class wrap_body_1(torch.nn.Module):\n"
            "        def forward(self, y: \"f32[2, 3]\", k):\n"
            "            mul = k * y\n"
            "            sub = 1 - mul\n"
            "            return (sub,)\n"
            "\n"
            "    class submod_0(torch.nn.Module):\n"
            "        def forward(self, z: \"f32[2, 3]\"):\n"
            "            neg = torch.neg(z)\n"
            "            return neg\n");
        QVERIFY(g);
        std::vector<float> xs = {0, 1, 2, 3, 4, 5};
        QString inputs = m_dir.filePath(QStringLiteral("wrap.safetensors"));
        writeSafetensors(inputs, {{"l_x_", xs}}, {{2, 3}}); // the parser folds `l_x_ = L_x_` into the placeholder
        ProfileOptions options;
        options.iters = 1;
        options.warmup = 0;
        options.inputsPath = inputs.toStdString();
        options.returnOutputs = true;
        auto report = runtimeProfile(*g, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        const OutputValue &out = report->unfused.outputs.at(0);
        QCOMPARE(out.shape, std::vector<int64_t>({2, 3}));
        for (size_t i = 0; i < xs.size(); ++i)
            QCOMPARE(out.values.at(i), 3.0 * (xs[i] + 1) - 1); // -(1 - 3 * (x + 1))
    }

    // A call_module whose module the dump does not carry stays a clear error naming the node.
    void callModuleWithoutGraphIsClearError()
    {
        Graph g;
        Node *x = g.append(OpKind::Placeholder, "x", "x");
        x->meta().val = ValueMeta::ofTensor(TensorMeta{"torch.float32", {{4, {}}}, {}, false, "cpu"});
        Node *m = g.append(OpKind::CallModule, "linear_1", "linear", {Argument::ofNode(x)});
        g.append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(m)})});
        auto report = runtimeProfile(g, nullptr, ProfileOptions());
        QVERIFY(!report);
        QString text = QString::fromStdString(report.error().toString());
        QVERIFY2(text.contains(QStringLiteral("linear_1")) && text.contains(QStringLiteral("call_module")),
            qPrintable(text));
    }

    // Symbolic dims: inputs generated with the user's symbol values, a SymInt placeholder, sym_size and sym
    // arithmetic evaluated; a missing symbol is an error naming it.
    void symbolicDims()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, s0: \"Sym(s0)\", x: \"f32[s0, 2*s0]\"):\n"
                            "        sym_size_int: \"Sym(2*s0)\" = torch.ops.aten.sym_size.int(x, 1)\n"
                            "        add: \"Sym(3*s0)\" = s0 + sym_size_int\n"
                            "        view: \"f32[2*s0, s0]\" = torch.ops.aten.view.default(x, [sym_size_int, s0])\n"
                            "        mul: \"f32[2*s0, s0]\" = torch.ops.aten.mul.Tensor(view, add)\n"
                            "        return (mul,)\n");
        QVERIFY(g);
        ProfileOptions options;
        options.iters = 1;
        options.warmup = 0;
        options.returnOutputs = true;
        auto missing = runtimeProfile(*g, nullptr, options);
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.find("symbol s0 has no value") != std::string::npos,
            missing.error().message.c_str());
        QVERIFY(parseSymbolAssignments("s0=3", options.symbols));
        auto report = runtimeProfile(*g, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        const OutputValue &out = report->unfused.outputs.at(0);
        QCOMPARE(out.shape, std::vector<int64_t>({6, 3}));

        // The expressions sympy prints, and the errors of bad input.
        SymbolValues values{{"s0", 7}, {"s1", 2}};
        QCOMPARE(evaluateSymbolic("2*s0 + 1", values).value(), int64_t(15));
        QCOMPARE(evaluateSymbolic("(s0 + s1)//2", values).value(), int64_t(4));
        QCOMPARE(evaluateSymbolic("FloorDiv(s0, s1) - Max(s1, 5) + Min(s0, 1)", values).value(), int64_t(-1));
        QCOMPARE(evaluateSymbolic("-s0 % 3", values).value(), int64_t(2));
        QVERIFY(!evaluateSymbolic("s0 +", values));
        QVERIFY(evaluateSymbolic("s2", values).error().message.find("s2") != std::string::npos);
        QVERIFY(!parseSymbolAssignments("s0", values));
        QVERIFY(!parseSymbolAssignments("s0=-1", values));
        QVERIFY(parseSymbolAssignments("a=1,b=2", values));
        QCOMPARE(values.at("b"), int64_t(2));
    }

    // profile --sym on the command line; without it the error names the symbol.
    void profileCliSym()
    {
        QString path = m_dir.filePath(QStringLiteral("sym.py"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("class GraphModule(torch.nn.Module):\n"
                "    def forward(self, x: \"f32[s0, 4]\"):\n"
                "        relu: \"f32[s0, 4]\" = torch.ops.aten.relu.default(x)\n"
                "        return (relu,)\n");
        f.close();
        for (bool given : {true, false}) {
            QProcess cli;
            QStringList args = {QStringLiteral("profile"), path, QStringLiteral("--iters"), QStringLiteral("1"),
                QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json")};
            if (given)
                args << QStringLiteral("--sym") << QStringLiteral("s0=5");
            cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), args);
            QVERIFY(cli.waitForFinished(120000));
            QByteArray err = cli.readAllStandardError();
            if (given) {
                QVERIFY2(cli.exitCode() == 0, err.constData());
            } else {
                QVERIFY(cli.exitCode() != 0);
                QVERIFY2(err.contains("symbol s0 has no value"), err.constData());
            }
        }
    }

    // Generated integer inputs stay inside what they index: token-type ids through slice and expand into a 2-row
    // embedding (BERT's), an index_select over 3 rows, an index over a 3-wide dim; with ids in [0, 8) each fails.
    void generatedIndicesStayInRange()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, w: \"f32[2, 4]\", ids: \"i64[1, 64]\", table: \"f32[3, 4]\", rows: \"i64[32]\", "
            "grid: \"f32[5, 3]\", cols: \"i64[32]\"):\n"
            "        slice_1: \"i64[1, 64]\" = torch.ops.aten.slice.Tensor(ids, 0, 0, 9223372036854775807)\n"
            "        expand: \"i64[1, 64]\" = torch.ops.aten.expand.default(slice_1, [1, 64])\n"
            "        embedding: \"f32[1, 64, 4]\" = torch.ops.aten.embedding.default(w, expand)\n"
            "        index_select: \"f32[32, 4]\" = torch.ops.aten.index_select.default(table, 0, rows)\n"
            "        index: \"f32[5, 32]\" = torch.ops.aten.index.Tensor(grid, [None, cols])\n"
            "        return (embedding, index_select, index)\n");
        QVERIFY(g);
        ProfileOptions options;
        options.iters = 1;
        options.warmup = 0;
        auto report = runtimeProfile(*g, nullptr, options);
        QVERIFY2(report, report ? "" : report.error().toString().c_str());
        QCOMPARE(report->unfused.outputs.size(), size_t(3));
    }

    // A runtime error points at the dump: FILE:LINE:COL of the node (its name on its line), both for an op LibTorch
    // lacks (found before running) and for a node whose kernel fails while running.
    void profileCliErrorPointsAtDump_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unsupported op") << QByteArray("torch.ops.aten.frobnicate.default(a)")
                                        << QStringLiteral(":4:9: unfused graph: node 'frob' "
                                                          "(torch.ops.aten.frobnicate.default): unsupported op");
        QTest::newRow("failing kernel") << QByteArray("torch.ops.aten.mm.default(a, w)")
                                        << QStringLiteral(":4:9: unfused graph: node 'frob' "
                                                          "(torch.ops.aten.mm.default): mat1 and mat2 shapes");
    }

    void profileCliErrorPointsAtDump()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, expected);
        QString path = m_dir.filePath(QStringLiteral("located.py"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("class GraphModule(torch.nn.Module):\n"
                "    def forward(self, x: \"f32[4, 8][8, 1]cpu\", w: \"f32[4, 8][8, 1]cpu\"):\n"
                "        a: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.relu.default(x)\n"
                "        frob: \"f32[4, 8][8, 1]cpu\" = "
            + line
            + "\n"
              "        return (frob,)\n");
        f.close();
        QProcess cli;
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {QStringLiteral("profile"), path, QStringLiteral("--iters"), QStringLiteral("1"),
                QStringLiteral("--warmup"), QStringLiteral("0")});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 3);
        QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.startsWith(path + expected), qPrintable(err));
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

    // Without a plugin there is no NPU backend: a clear error and exit code 3, not a dispatcher dump.
    void npuWithoutPluginIsClearError()
    {
        QProcess cli;
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {QStringLiteral("profile"), QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"),
                QStringLiteral("--device"), QStringLiteral("npu"), QStringLiteral("--iters"), QStringLiteral("1")});
        QVERIFY(cli.waitForStarted(30000));
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 3);
        QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("--device-plugin")), qPrintable(err));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestExecutor)
#include "tst_executor.moc"
