// The LibTorch executor and profiler through the runtime module's Qt-free wrapper (runtime/runtime_library.h): a
// hand-built graph against values computed here, the captured tiny block against what eager PyTorch produced, the
// reference torch_npu kernels against their unfused decompositions, the unsupported-op error, and `profile` JSON.

#include "io/loader.h"
#include "io/readable_writer.h"
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
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

using namespace fxs;

// A Result that must hold a value; on failure the test prints the error.
#define VERIFY_OK(result) QVERIFY2(result, result ? "" : result.error().toString().c_str())

namespace {

// A file the test reads back, or hands to the CLI.
bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

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
    QVERIFY(writeFile(path, QByteArray::fromStdString(bytes)));
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

// A reference script run with the capture package importable; what went wrong, or empty when it exited 0.
QString runTorchPython(const QStringList &args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral(FXSCOPE_SOURCE_DIR "/python"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(FXSCOPE_TORCH_PYTHON), args); // the torch the runtime links
    if (!process.waitForStarted(30000) || !process.waitForFinished(300000))
        return QStringLiteral("%1 did not finish in 5 minutes").arg(args.join(QLatin1Char(' ')));
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return QStringLiteral("exit code %1: %2")
            .arg(process.exitCode())
            .arg(QString::fromUtf8(process.readAllStandardError()));
    return QString();
}

// fxscope-cli with these arguments, run to its end within msecs.
bool runCli(QProcess &cli, const QStringList &args, int msecs = 120000)
{
    cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), args);
    return cli.waitForStarted(30000) && cli.waitForFinished(msecs);
}

// One timed run, no warmup, the output values copied back: what a test checking a graph's values needs.
ProfileOptions singleRun(const QString &inputsPath = QString())
{
    ProfileOptions options;
    options.iters = 1;
    options.warmup = 0;
    options.returnOutputs = true;
    options.inputsPath = inputsPath.toStdString();
    return options;
}

// The unfused graph alone, run once on the given inputs (generated from its meta when none).
Result<ProfileReport> profileOnce(const Graph &graph, const QString &inputsPath = QString())
{
    return runtimeProfile(graph, nullptr, singleRun(inputsPath));
}

// The error a profile of the graph fails with, as the user reads it; empty when it ran.
QString profileError(const Graph &graph)
{
    auto report = runtimeProfile(graph, nullptr, ProfileOptions());
    return report ? QString() : QString::fromStdString(report.error().toString());
}

// BASE.py run once on BASE.inputs.safetensors with its outputs checked against BASE.outputs.safetensors (PyTorch's).
Result<ProfileReport> profileAgainstExpected(const QString &base)
{
    auto file = loadGraphFile((base + QStringLiteral(".py")).toStdString());
    if (!file)
        return file.error();
    ProfileOptions options = singleRun(base + QStringLiteral(".inputs.safetensors"));
    options.expectedOutputsPath = (base + QStringLiteral(".outputs.safetensors")).toStdString();
    return runtimeProfile(*file->graphs.front().graph, nullptr, options);
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
        VERIFY_OK(report);
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
        VERIFY_OK(report);
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
        VERIFY_OK(report);
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

    // Dropout draws the same mask in every run: the fused graph's outputs (here the same graph) and the reference
    // run's can be compared with those of the unfused graph.
    void randomOpsRepeatAcrossRuns()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[256][1]cpu\"):\n"
                            "        d = torch.ops.aten.native_dropout.default(x, 0.5, True)\n"
                            "        y: \"f32[256]\" = operator.getitem(d, 0)\n"
                            "        return (y,)\n");
        QVERIFY(g);
        ProfileOptions options;
        options.iters = 2;
        options.warmup = 1;
        options.referenceDevice = "cpu";
        auto report = runtimeProfile(*g, g.get(), options);
        VERIFY_OK(report);
        QVERIFY(report->outputsMatch);
        QCOMPARE(report->maxAbsDiff, 0.0);
        QVERIFY(report->referenceMatch && *report->referenceMatch);
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
        auto report = profileOnce(*g);
        VERIFY_OK(report);
        QCOMPARE(report->unfused.outputs[0].values, std::vector<double>({3, 5, 7, 9, 11}));
        QCOMPARE(report->unfused.outputs[0].dtype, std::string("Long"));
    }

    // Ops of post-grad graphs (squeeze.dims, the unsafe index ops) by their LibTorch 2.x schemas, against values
    // worked out by hand: x = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]] as f32[4, 3] (and as f32[1, 4, 1, 3]).
    void opFallbacksMatchHandValues()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, x: \"f32[4, 3][3, 1]cpu\", rows_f: \"f32[3][1]cpu\", cols_f: \"f32[2][1]cpu\", "
            "v: \"f32[3, 3][3, 1]cpu\"):\n"
            "        rows: \"i64[3]\" = torch.ops.prims.convert_element_type.default(rows_f, torch.int64)\n"
            "        cols: \"i64[2]\" = torch.ops.prims.convert_element_type.default(cols_f, torch.int64)\n"
            "        x4: \"f32[1, 4, 1, 3]\" = torch.ops.aten.view.default(x, [1, 4, 1, 3])\n"
            "        sq: \"f32[4, 3]\" = torch.ops.aten.squeeze.dims(x4, [0, -2])\n"
            "        kept: \"f32[1, 4, 1, 3]\" = torch.ops.aten.squeeze.dims(x4, [1, 3])\n"
            "        picked: \"f32[3, 3]\" = torch.ops.aten._unsafe_index.Tensor(x, [rows])\n"
            "        picked_cols: \"f32[4, 2]\" = torch.ops.aten._unsafe_index.Tensor(x, [None, cols])\n"
            "        zeros: \"f32[4, 3]\" = torch.ops.aten.zeros_like.default(x)\n"
            "        summed: \"f32[4, 3]\" = torch.ops.aten._unsafe_index_put.default(zeros, [rows], v, True)\n"
            "        put: \"f32[4, 3]\" = torch.ops.aten._unsafe_index_put.default(x, [rows], v)\n"
            "        return (sq, kept, picked, picked_cols, summed, put)\n");
        QVERIFY(g);
        std::vector<float> xs(12);
        for (size_t i = 0; i < xs.size(); ++i)
            xs[i] = float(i);
        // rows = [3, 0, 3]: a repeated index, so accumulate adds both rows of v into row 3.
        QString inputs = m_dir.filePath(QStringLiteral("fallbacks.safetensors"));
        writeSafetensors(inputs,
            {{"x", xs}, {"rows_f", {3, 0, 3}}, {"cols_f", {2, 0}}, {"v", {1, 2, 3, 4, 5, 6, 7, 8, 9}}},
            {{4, 3}, {3}, {2}, {3, 3}});
        auto report = profileOnce(*g, inputs);
        VERIFY_OK(report);
        const auto &out = report->unfused.outputs;
        QCOMPARE(out.size(), size_t(6));
        std::vector<double> x(xs.begin(), xs.end());
        QCOMPARE(out[0].shape, std::vector<int64_t>({4, 3})); // dims 0 and 2 have size 1
        QCOMPARE(out[0].values, x);
        QCOMPARE(out[1].shape, std::vector<int64_t>({1, 4, 1, 3})); // dims of size 4 and 3 stay
        QCOMPARE(out[2].values, std::vector<double>({9, 10, 11, 0, 1, 2, 9, 10, 11}));
        QCOMPARE(out[3].values, std::vector<double>({2, 0, 5, 3, 8, 6, 11, 9}));
        QCOMPARE(out[4].values, std::vector<double>({4, 5, 6, 0, 0, 0, 0, 0, 0, 1 + 7, 2 + 8, 3 + 9}));
        // Without accumulate, row 0 takes v[1] and rows 1 and 2 stay x's (row 3, written twice, is not asserted).
        QCOMPARE(std::vector<double>(out[5].values.begin() + 3, out[5].values.begin() + 9),
            std::vector<double>({3, 4, 5, 6, 7, 8}));
        QCOMPARE(std::vector<double>(out[5].values.begin(), out[5].values.begin() + 3), std::vector<double>({4, 5, 6}));
    }

    // aten._safe_softmax (torch/_decomp's safe_softmax): softmax, except a row of nothing but -inf gives zeros.
    void safeSoftmaxZeroesFullyMaskedRows()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[3, 2]\"):\n"
                            "        s: \"f32[3, 2]\" = torch.ops.aten._safe_softmax.default(x, -1)\n"
                            "        return (s,)\n");
        QVERIFY(g);
        const float inf = std::numeric_limits<float>::infinity();
        QString inputs = m_dir.filePath(QStringLiteral("safe_softmax.safetensors"));
        writeSafetensors(inputs, {{"x", {0, std::log(3.0f), -inf, -inf, -inf, 1}}}, {{3, 2}});
        auto report = profileOnce(*g, inputs);
        VERIFY_OK(report);
        const std::vector<double> expected = {0.25, 0.75, 0, 0, 0, 1};
        const auto &got = report->unfused.outputs.at(0).values;
        QCOMPARE(got.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(std::abs(got[i] - expected[i]) < 1e-6, qPrintable(QString::number(got[i])));
    }

    // A dim listed twice is the error ATen gives, naming the node; nothing is squeezed silently.
    void squeezeDimsRepeatedDimIsError()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[1, 3][3, 1]cpu\"):\n"
                            "        sq: \"f32[3]\" = torch.ops.aten.squeeze.dims(x, [0, -2])\n"
                            "        return (sq,)\n");
        QVERIFY(g);
        QString text = profileError(*g);
        QVERIFY2(text.contains(QStringLiteral("node 'sq'")) && text.contains(QStringLiteral("appears multiple times")),
            qPrintable(text));
    }

    // Inductor's random prims (a post-grad graph's dropout) as inductor_prims.py runs them eagerly: seeds in
    // [0, 2**63 - 1), the looked-up seed is seeds[1], rand in [0, 1) and randn of the size asked, on the run's device
    // although the graph says cuda:0; an unknown mode is an error naming the node.
    void inductorRandomPrims()
    {
        const char *graph = "class GraphModule(torch.nn.Module):\n"
                            "    def forward(self):\n"
                            "        seeds: \"i64[3]\" = torch.ops.prims.inductor_seeds.default(3, "
                            "device(type='cuda', index=0))\n"
                            "        seed: \"i64[]\" = torch.ops.prims.inductor_lookup_seed.default(seeds, 1)\n"
                            "        r: \"f32[2, 8]\" = torch.ops.prims.inductor_random.default([2, 8], seed, 'rand')\n"
                            "        n: \"f32[2, 8]\" = torch.ops.prims.inductor_random.default([2, 8], seed, '%1')\n"
                            "        return (seeds, seed, r, n)\n";
        auto g = parseGraph(QString::fromLatin1(graph).arg(QStringLiteral("randn")).toStdString());
        QVERIFY(g);
        auto report = profileOnce(*g);
        VERIFY_OK(report);
        const auto &out = report->unfused.outputs;
        QCOMPARE(out.size(), size_t(4));
        QCOMPARE(out[0].dtype, std::string("Long"));
        QCOMPARE(out[0].shape, std::vector<int64_t>({3}));
        for (double s : out[0].values)
            QVERIFY(s >= 0);
        QCOMPARE(out[1].shape, std::vector<int64_t>());
        QCOMPARE(out[1].values.at(0), out[0].values.at(1));
        QCOMPARE(out[2].dtype, std::string("Float"));
        QCOMPARE(out[2].shape, std::vector<int64_t>({2, 8}));
        for (double u : out[2].values)
            QVERIFY(u >= 0 && u < 1);
        QCOMPARE(out[3].shape, std::vector<int64_t>({2, 8}));
        QVERIFY(std::any_of(out[3].values.begin(), out[3].values.end(), [](double z) { return z < 0; }));

        auto bad = parseGraph(QString::fromLatin1(graph).arg(QStringLiteral("uniform")).toStdString());
        QVERIFY(bad);
        QString text = profileError(*bad);
        QVERIFY2(
            text.contains(QStringLiteral("node 'n'")) && text.contains(QStringLiteral("'uniform'")), qPrintable(text));
    }

    // A Dynamo-level graph: tensor methods (call_method) and torch.* functions run as the aten overload their
    // arguments fit (x.view(4, 4) packs Python's *sizes; add with a float picks add.Scalar), size() as a list,
    // torch._C._set_grad_enabled as nothing (the run is in inference mode).
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
        // A torch.no_grad() region as Dynamo writes it: nothing to compute in an inference run.
        g.append(OpKind::CallFunction, "_set_grad_enabled", "torch._C._set_grad_enabled", {Argument::ofBool(false)});
        Node *r = g.append(OpKind::CallFunction, "r", "torch.nn.functional.relu", {Argument::ofNode(a)});
        g.append(OpKind::CallFunction, "_set_grad_enabled_1", "torch._C._set_grad_enabled", {Argument::ofBool(true)});
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
        VERIFY_OK(report);
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
        QVERIFY(writeFile(graph,
            "class GraphModule(torch.nn.Module):\n"
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
            "        return (y,)\n"));
        QString trace = m_dir.filePath(QStringLiteral("trace.json")), csv = m_dir.filePath(QStringLiteral("p.csv"));
        QProcess cli;
        QVERIFY(runCli(cli,
            {QStringLiteral("profile"), graph, QStringLiteral("--patterns"), QStringLiteral("builtin"),
                QStringLiteral("--iters"), QStringLiteral("3"), QStringLiteral("--trace"), trace,
                QStringLiteral("--csv"), csv, QStringLiteral("--json")},
            300000));
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
        // npu_rms_norm ran on fxscope's CPU reference kernel (issue 17): said for the region, the node and the run.
        QVERIFY(region.value(QStringLiteral("reference_kernel")).toBool());
        QCOMPARE(root.value(QStringLiteral("reference_kernel_nodes")).toInt(), 1);
        for (const auto &n : root.value(QStringLiteral("fused")).toObject().value(QStringLiteral("nodes")).toArray())
            QCOMPARE(n.toObject().value(QStringLiteral("reference_kernel")).toBool(),
                n.toObject().value(QStringLiteral("target")).toString().contains(QStringLiteral("npu_rms_norm")));
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
        QCOMPARE(lines.value(0), QStringLiteral("graph,node,target,median_us,min_us,max_us,reference_kernel"));
        QVERIFY(lines.contains(QStringLiteral("region,pattern,anchor,unfused_us,fused_us,speedup,reference_kernel")));
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^unfused,.*,0$"))).size(), 8);
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^fused,.*npu_rms_norm.*,1$"))).size(), 1);
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^region,rms_norm.*,1$"))).size(), 1);
    }

    // Issue 8's last check: the captured block, run with its captured inputs and weights, gives eager's outputs.
    void tinyBlockMatchesCapture()
    {
        QString err = runTorchPython({QStringLiteral("-m"), QStringLiteral("fxscope_capture.demo"), m_dir.path()});
        QVERIFY2(err.isEmpty(), qPrintable(err));

        auto file = loadGraphFile(m_dir.filePath(QStringLiteral("tiny_block.json")).toStdString());
        VERIFY_OK(file);
        ProfileOptions options = singleRun(m_dir.filePath(QStringLiteral("tiny_block.safetensors")));
        options.expectedOutputsPath = m_dir.filePath(QStringLiteral("tiny_block.outputs.safetensors")).toStdString();
        auto report = runtimeProfile(*file->graphs.front().graph, nullptr, options);
        VERIFY_OK(report);
        QVERIFY(report->expectedMatch.has_value());
        QVERIFY2(*report->expectedMatch, qPrintable(QString::number(report->expectedMaxAbsDiff)));
        QVERIFY(report->expectedMaxAbsDiff < 1e-4);
        QCOMPARE(report->unfused.outputs.front().shape, std::vector<int64_t>({2, 8, 32}));

        // The same check from the command line (--expected), and a file of other tensors is called different.
        const QStringList run = {QStringLiteral("profile"), m_dir.filePath(QStringLiteral("tiny_block.json")),
            QStringLiteral("--inputs"), m_dir.filePath(QStringLiteral("tiny_block.safetensors")), QStringLiteral("--iters"),
            QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json"),
            QStringLiteral("--expected")};
        for (const auto &[file, match] : {std::pair{QStringLiteral("tiny_block.outputs.safetensors"), true},
                 std::pair{QStringLiteral("tiny_block.safetensors"), false}}) {
            QProcess cli;
            QVERIFY(runCli(cli, run + QStringList{m_dir.filePath(file)}));
            QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
            const QJsonObject expected = QJsonDocument::fromJson(cli.readAllStandardOutput())
                                             .object()
                                             .value(QStringLiteral("expected"))
                                             .toObject();
            QCOMPARE(expected.value(QStringLiteral("outputs_match")).toBool(), match);
            QCOMPARE(expected.value(QStringLiteral("path")).toString(), m_dir.filePath(file));
        }
    }

    // NaN and inf at the same places are agreement, as torch.testing.assert_close(equal_nan=True) has it (issue 17):
    // sqrt of [4, -1, 9, -4, inf] against outputs that agree, that put a number where a NaN is, and that put -inf
    // where inf is. The report counts the non-finite values and names the first index that differs.
    void nonFiniteOutputsCompareAsTorchDoes()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[5][1]cpu\"):\n"
                            "        sqrt: \"f32[5][1]cpu\" = torch.ops.aten.sqrt.default(x)\n"
                            "        return (sqrt,)\n");
        QVERIFY(g);
        const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
        const QString inputs = m_dir.filePath(QStringLiteral("nonfinite_in.safetensors"));
        writeSafetensors(inputs, {{"x", {4, -1, 9, -4, inf}}}, {{5}});
        struct Case {
            std::vector<float> expected;
            bool match;
            std::string detail;
        };
        const Case cases[] = {{{2, nan, 3, nan, inf}, true, ""},
            {{2, nan, 3, 5, inf}, false, "output 0 differs first at [3]: nan against 5"},
            {{2, nan, 3.00001f, nan, -inf}, false, "output 0 differs first at [4]: inf against -inf"}};
        for (const Case &c : cases) {
            const QString expected = m_dir.filePath(QStringLiteral("nonfinite_out.safetensors"));
            writeSafetensors(expected, {{"output_0", c.expected}}, {{5}});
            ProfileOptions options = singleRun(inputs);
            options.expectedOutputsPath = expected.toStdString();
            auto report = runtimeProfile(*g, nullptr, options);
            VERIFY_OK(report);
            QCOMPARE(*report->expectedMatch, c.match);
            QVERIFY(report->expectedMaxAbsDiff < 2e-5); // over the finite places only (3 against 3.00001 at most)
            const Json &check = report->json["expected"];
            QCOMPARE(check["outputs_detail"].toString(), c.detail);
            QCOMPARE(check["outputs_nonfinite"].toString(),
                std::string(c.match ? "output 0: 2 NaN, 1 inf (at the same places in both)"
                                    : "output 0: 2 NaN, 1 inf against "
                                        + std::string(c.expected[3] == 5 ? "1 NaN, 1 inf" : "2 NaN, 1 inf")));
        }

        // A graph profiled against itself (no fusion applied) always matches, NaN included.
        QString graphFile = m_dir.filePath(QStringLiteral("nonfinite.py"));
        QVERIFY(writeFile(graphFile, QByteArray::fromStdString(writeReadable(*g))));
        QProcess cli;
        QVERIFY(runCli(cli, {QStringLiteral("profile"), graphFile, QStringLiteral("--patterns"), QStringLiteral("builtin"),
            QStringLiteral("--inputs"), inputs, QStringLiteral("--iters"), QStringLiteral("1"), QStringLiteral("--json")}));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const QJsonObject root = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QVERIFY(root.value(QStringLiteral("outputs_match")).toBool());
        QCOMPARE(root.value(QStringLiteral("max_abs_diff")).toDouble(), 0.0);
        QCOMPARE(root.value(QStringLiteral("outputs_nonfinite")).toString(),
            QStringLiteral("output 0: 2 NaN, 1 inf (at the same places in both)"));
    }

    // Generated inputs respect what the graph says a value is (issue 17): a batch norm's running_var and a variance
    // under sqrt(var + eps) are drawn positive, a convolution's weight is scaled by its fan-in, so ResNet-50's
    // generated run gives finite outputs; where random inputs still give NaN, the report says so once.
    void generatedInputsStayFinite()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, x: \"f32[2, 3, 4, 4]\", w: \"f32[3]\", b: \"f32[3]\", mean: \"f32[3]\", "
            "var: \"f32[3]\", v: \"f32[3]\"):\n"
            "        bn = torch.ops.aten._native_batch_norm_legit_no_training.default(x, w, b, mean, var, 0.1, 1e-05)\n"
            "        getitem: \"f32[2, 3, 4, 4]\" = bn[0]\n"
            "        c: \"f32[3]\" = torch.ops.prims.convert_element_type.default(v, torch.float32)\n"
            "        a: \"f32[3]\" = torch.ops.aten.add.Tensor(c, 1e-05)\n"
            "        s: \"f32[3]\" = torch.ops.aten.sqrt.default(a)\n"
            "        return (getitem, s)\n");
        QVERIFY(g);
        for (uint64_t seed = 0; seed < 8; ++seed) { // a normal draw of 3 values is negative somewhere for most seeds
            ProfileOptions options = singleRun();
            options.seed = seed;
            auto report = runtimeProfile(*g, nullptr, options);
            VERIFY_OK(report);
            QVERIFY(report->warnings.empty());
            for (const auto &out : report->unfused.outputs)
                for (double v : out.values)
                    QVERIFY2(std::isfinite(v), qPrintable(QString::number(seed)));
        }

        QProcess cli;
        QVERIFY(runCli(cli, {QStringLiteral("profile"),
            QStringLiteral(FXSCOPE_CORPUS_DIR "/readable/learn_torch_compile__tb_resnet50_inference_cpu__aot_forward_graph.py"),
            QStringLiteral("--iters"), QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0"),
            QStringLiteral("--json")}));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QJsonObject root = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QVERIFY2(!root.contains(QStringLiteral("warnings")), qPrintable(root.value(QStringLiteral("warnings")).toArray().at(0).toString()));

        auto nan = parseGraph("class GraphModule(torch.nn.Module):\n"
                              "    def forward(self, x: \"f32[64]\", y: \"f32[64]\"):\n"
                              "        add: \"f32[64]\" = torch.ops.aten.add.Tensor(x, y)\n"
                              "        sqrt: \"f32[64]\" = torch.ops.aten.sqrt.default(add)\n"
                              "        return (sqrt,)\n");
        QVERIFY(nan);
        auto report = runtimeProfile(*nan, nullptr, singleRun());
        VERIFY_OK(report);
        QCOMPARE(report->warnings.size(), size_t(1));
        QVERIFY2(report->warnings[0].find("2 of 2 inputs generated") != std::string::npos
                && report->warnings[0].find("--inputs") != std::string::npos,
            report->warnings[0].c_str());
    }

    // Dynamo's tensor indexing and in-place item assignment (Hugging Face's shift_labels, issue 17) by Python's
    // rules: x[:, 1:], x[..., None], shift[:, :-1] = ..., shift[..., -1] = -100, against values worked out by hand.
    void tensorIndexingAndSetitem()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, x: \"f32[2, 4][4, 1]cpu\"):\n"
            "        shift: \"f32[2, 4][4, 1]cpu\" = x.new_zeros((2, 4))\n"
            "        getitem: \"f32[2, 3][4, 1]cpu\" = x[(slice(None, None, None), slice(1, None, None))]\n"
            "        clone: \"f32[2, 3][3, 1]cpu\" = getitem.clone();  getitem = None\n"
            "        shift[(slice(None, None, None), slice(None, -1, None))] = clone;  setitem = shift;  clone = None\n"
            "        shift[(Ellipsis, -1)] = -100;  setitem_1 = shift\n"
            "        getitem_1: \"f32[2, 4, 1][4, 1, 1]cpu\" = x[(Ellipsis, None)]\n"
            "        return (shift, getitem_1)\n");
        QVERIFY(g);
        const QString inputs = m_dir.filePath(QStringLiteral("setitem.safetensors"));
        writeSafetensors(inputs, {{"x", {0, 1, 2, 3, 4, 5, 6, 7}}}, {{2, 4}});
        auto report = runtimeProfile(*g, nullptr, singleRun(inputs));
        VERIFY_OK(report);
        const auto &out = report->unfused.outputs;
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(out[0].values, std::vector<double>({1, 2, 3, -100, 5, 6, 7, -100}));
        QCOMPARE(out[1].shape, std::vector<int64_t>({2, 4, 1}));
        QCOMPARE(out[1].values, std::vector<double>({0, 1, 2, 3, 4, 5, 6, 7}));
    }

    // Generated inputs that cannot fit in memory are refused before any allocation, with the figures, the largest
    // inputs and what to do (issue 17; GPT-J 6B's generated weights were killed by the kernel with no message).
    void inputsTooBigAreRefused()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[8, 64]\", w: \"f32[64, 4096]\"):\n"
                            "        mm: \"f32[8, 4096]\" = torch.ops.aten.mm.default(x, w)\n"
                            "        return (mm,)\n");
        QVERIFY(g);
        qputenv("FXSCOPE_MEMORY_LIMIT_BYTES", "100000"); // 100 kB; w alone is 1 MiB
        auto refused = runtimeProfile(*g, nullptr, singleRun());
        qunsetenv("FXSCOPE_MEMORY_LIMIT_BYTES");
        QVERIFY(!refused);
        const std::string message = refused.error().message;
        QVERIFY2(message.find("the inputs to generate need 1.0 MiB and 97.7 KiB of memory is available (largest: "
                              "w 1.0 MiB, x 2.0 KiB)") != std::string::npos && message.find("--inputs") != std::string::npos,
            message.c_str());
        auto ran = runtimeProfile(*g, nullptr, singleRun()); // this machine's real limit: 1 MiB fits
        VERIFY_OK(ran);
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
        auto report = runtimeProfile(*a, b.get(), singleRun());
        VERIFY_OK(report);
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
        QString text = profileError(g);
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
            auto report = profileOnce(*g, inputs);
            VERIFY_OK(report);
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
        VERIFY_OK(file);
        const Graph &g = *file->graphs.front().graph;
        for (float sign : {1.0f, -1.0f}) {
            QString inputs = m_dir.filePath(QStringLiteral("cond_rows.safetensors"));
            writeSafetensors(inputs, {{"x", {1, 1, 1, 2, 2, 2, 3, 3, 3}}}, {{3, 3}});
            if (sign < 0)
                writeSafetensors(inputs, {{"x", {-1, -1, -1, -2, -2, -2, -3, -3, -3}}}, {{3, 3}});
            auto report = profileOnce(g, inputs);
            VERIFY_OK(report);
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
        auto report = profileOnce(*g, inputs);
        VERIFY_OK(report);
        const OutputValue &out = report->unfused.outputs.at(0);
        QCOMPARE(out.shape, std::vector<int64_t>({2, 3}));
        for (size_t i = 0; i < xs.size(); ++i)
            QCOMPARE(out.values.at(i), 3.0 * (xs[i] + 1) - 1); // -(1 - 3 * (x + 1))
    }

    // wrap_with_autocast runs its body under the autocast state its arguments give, on the run's device type (the
    // region says 'cuda', the run is on the CPU), restored after: the body's mm computes in bfloat16, the same mm
    // after the region in float32 again; disabled, or with no dtype (the CPU's default, bfloat16) as PyTorch does.
    void wrapWithAutocastSetsAndRestoresState_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("bodyDtype");
        QTest::newRow("bfloat16") << QStringLiteral("'cuda', torch.bfloat16, True, None") << QStringLiteral("BFloat16");
        QTest::newRow("default dtype") << QStringLiteral("'cpu', None, True, False") << QStringLiteral("BFloat16");
        QTest::newRow("disabled") << QStringLiteral("'cpu', torch.bfloat16, False, None") << QStringLiteral("Float");
    }

    void wrapWithAutocastSetsAndRestoresState()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, bodyDtype);
        auto g = parseGraph(QStringLiteral("class GraphModule(torch.nn.Module):\n"
                                           "    def forward(self, x: \"f32[2, 3]\", w: \"f32[3, 2]\"):\n"
                                           "        wrap_body_0 = self.wrap_body_0\n"
                                           "        wrap_with_autocast = torch.ops.higher_order.wrap_with_autocast(%1, "
                                           "wrap_body_0, x, w)\n"
                                           "        inside = wrap_with_autocast[0]\n"
                                           "        after = torch.ops.aten.mm.default(x, w)\n"
                                           "        return (inside, after)\n"
                                           "\n"
                                           "    class wrap_body_0(torch.nn.Module):\n"
                                           "        def forward(self, x: \"f32[2, 3]\", w: \"f32[3, 2]\"):\n"
                                           "            mm = torch.ops.aten.mm.default(x, w)\n"
                                           "            return (mm,)\n")
                                .arg(arguments)
                                .toStdString());
        QVERIFY(g);
        // Small integers: exact in bfloat16, so both products are exact; x @ w = [[4, 5], [13, 14]].
        QString inputs = m_dir.filePath(QStringLiteral("autocast.safetensors"));
        writeSafetensors(inputs, {{"x", {0, 1, 2, 3, 4, 5}}, {"w", {1, 0, 0, 1, 2, 2}}}, {{2, 3}, {3, 2}});
        ProfileOptions options;
        options.iters = 2; // a second run starts from the state the first one restored
        options.warmup = 0;
        options.inputsPath = inputs.toStdString();
        options.returnOutputs = true;
        auto report = runtimeProfile(*g, nullptr, options);
        VERIFY_OK(report);
        const auto &out = report->unfused.outputs;
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(QString::fromStdString(out[0].dtype), bodyDtype);
        QCOMPARE(out[1].dtype, std::string("Float"));
        QCOMPARE(out[0].values, std::vector<double>({4, 5, 13, 14}));
        QCOMPARE(out[1].values, std::vector<double>({4, 5, 13, 14}));
    }

    // flex_attention as PyTorch's eager math_attention computes it, against the same math written out here:
    // grouped-query heads (2 query heads share 1 key/value head), a Dynamo-level score_mod score + (q - kv) and a
    // mask_mod kv < q, which masks all of row 0 (its output is zeros and its logsumexp -inf, not NaN).
    void flexAttentionMatchesMathReference()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, q: \"f32[1, 2, 3, 2]\", k: \"f32[1, 1, 3, 2]\", v: \"f32[1, 1, 3, 2]\"):\n"
            "        score_mod_0 = self.score_mod_0\n"
            "        mask_fn_0 = self.mask_fn_0\n"
            "        flex_attention = torch.ops.higher_order.flex_attention(q, k, v, score_mod_0, (q, q, 128, 128, "
            "mask_fn_0), 0.5, {'OUTPUT_LOGSUMEXP': True}, (), ())\n"
            "        out: \"f32[1, 2, 3, 2]\" = flex_attention[0]\n"
            "        lse: \"f32[1, 2, 3]\" = flex_attention[1]\n"
            "        return (out, lse)\n"
            "\n"
            "    class score_mod_0(torch.nn.Module):\n"
            "        def forward(self, child: \"f32[]\", child_1: \"i32[]\", child_2: \"i32[]\", child_3: \"i32[]\", "
            "child_4: \"i32[]\"):\n"
            "            sub: \"i32[]\" = child_3 - child_4\n"
            "            add: \"f32[]\" = child + sub\n"
            "            return add\n"
            "\n"
            "    class mask_fn_0(torch.nn.Module):\n"
            "        def forward(self, child: \"i32[]\", child_1: \"i32[]\", child_2: \"i32[]\", child_3: \"i32[]\"):\n"
            "            lt: \"b8[]\" = child_3 < child_2\n"
            "            return lt\n");
        QVERIFY(g);
        const std::vector<float> q = {0.5f, -1, 1, 2, -0.5f, 0.25f, 1.5f, 0, -2, 1, 0.75f, -0.25f};
        const std::vector<float> k = {1, 0.5f, -1, 1, 0.25f, -0.75f};
        const std::vector<float> v = {1, 2, -3, 0.5f, 4, -1};
        QString inputs = m_dir.filePath(QStringLiteral("flex.safetensors"));
        writeSafetensors(inputs, {{"q", q}, {"k", k}, {"v", v}}, {{1, 2, 3, 2}, {1, 1, 3, 2}, {1, 1, 3, 2}});
        auto report = profileOnce(*g, inputs);
        VERIFY_OK(report);
        const auto &out = report->unfused.outputs;
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(out[0].shape, std::vector<int64_t>({1, 2, 3, 2}));
        QCOMPARE(out[1].shape, std::vector<int64_t>({1, 2, 3}));
        for (int h = 0; h < 2; ++h)
            for (int m = 0; m < 3; ++m) {
                std::vector<double> s;
                for (int n = 0; n < m; ++n) // kv < q
                    s.push_back(0.5
                            * (q[size_t(6 * h + 2 * m)] * k[size_t(2 * n)]
                                + q[size_t(6 * h + 2 * m + 1)] * k[size_t(2 * n + 1)])
                        + (m - n));
                double top = s.empty() ? 0 : *std::max_element(s.begin(), s.end()), sum = 0;
                for (double x : s)
                    sum += std::exp(x - top);
                const size_t row = size_t(3 * h + m);
                if (s.empty())
                    QVERIFY2(std::isinf(out[1].values[row]) && out[1].values[row] < 0,
                        qPrintable(QString::number(out[1].values[row])));
                else
                    QVERIFY(std::abs(out[1].values[row] - (top + std::log(sum)) / std::log(2.0)) < 1e-5);
                for (int d = 0; d < 2; ++d) {
                    double expected = 0;
                    for (size_t n = 0; n < s.size(); ++n)
                        expected += std::exp(s[n] - top) / sum * v[2 * n + size_t(d)];
                    QVERIFY2(std::abs(out[0].values[2 * row + size_t(d)] - expected) < 1e-5,
                        qPrintable(QStringLiteral("h %1 m %2 d %3: %4 against %5")
                                       .arg(h)
                                       .arg(m)
                                       .arg(d)
                                       .arg(out[0].values[2 * row + size_t(d)])
                                       .arg(expected)));
                }
            }
    }

    // flex_attention against PyTorch's own eager flex_attention (tests/scripts/flex_attention_reference.py):
    // grouped-query heads, a score_mod indexing a captured buffer by head, a mask_mod kv <= q + 1.
    void flexAttentionMatchesVmapReference()
    {
        QString err = runTorchPython(
            {QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/scripts/flex_attention_reference.py"), m_dir.path()});
        QVERIFY2(err.isEmpty(), qPrintable(err));
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, q: \"f32[2, 4, 5, 3]\", k: \"f32[2, 2, 6, 3]\", v: \"f32[2, 2, 6, 3]\", "
            "slope: \"f32[4]\"):\n"
            "        sdpa_score0 = self.sdpa_score0\n"
            "        sdpa_mask0 = self.sdpa_mask0\n"
            "        flex_attention = torch.ops.higher_order.flex_attention(q, k, v, sdpa_score0, (1, 1, 128, 128, "
            "sdpa_mask0), 0.7, {'OUTPUT_LOGSUMEXP': True}, (slope,), ())\n"
            "        getitem: \"f32[2, 4, 5, 3]\" = flex_attention[0]\n"
            "        getitem_1: \"f32[2, 4, 5]\" = flex_attention[1]\n"
            "        return (getitem, getitem_1)\n"
            "\n"
            "    class sdpa_score0(torch.nn.Module):\n"
            "        def forward(self, arg0_1: \"f32[]\", arg1_1: \"i32[]\", arg2_1: \"i32[]\", arg3_1: \"i32[]\", "
            "arg4_1: \"i32[]\", arg5_1: \"f32[4]\"):\n"
            "            index: \"f32[]\" = torch.ops.aten.index.Tensor(arg5_1, [arg2_1])\n"
            "            sub: \"i32[]\" = torch.ops.aten.sub.Tensor(arg4_1, arg3_1)\n"
            "            mul: \"f32[]\" = torch.ops.aten.mul.Tensor(index, sub)\n"
            "            add: \"f32[]\" = torch.ops.aten.add.Tensor(arg0_1, mul)\n"
            "            return add\n"
            "\n"
            "    class sdpa_mask0(torch.nn.Module):\n"
            "        def forward(self, arg0_1: \"i32[]\", arg1_1: \"i32[]\", arg2_1: \"i32[]\", arg3_1: \"i32[]\"):\n"
            "            add: \"i32[]\" = torch.ops.aten.add.Tensor(arg2_1, 1)\n"
            "            le: \"b8[]\" = torch.ops.aten.le.Tensor(arg3_1, add)\n"
            "            return le\n");
        QVERIFY(g);
        ProfileOptions options = singleRun(m_dir.filePath(QStringLiteral("flex_inputs.safetensors")));
        options.expectedOutputsPath = m_dir.filePath(QStringLiteral("flex_outputs.safetensors")).toStdString();
        auto report = runtimeProfile(*g, nullptr, options);
        VERIFY_OK(report);
        QVERIFY(report->expectedMatch.has_value());
        QVERIFY2(*report->expectedMatch, qPrintable(QString::number(report->expectedMaxAbsDiff)));
        QVERIFY(report->expectedMaxAbsDiff < 1e-5);
    }

    // Graphs torch 2.2 wrote (tests/data/old_torch/make_fixtures.py): its CPU ran _scaled_dot_product_flash_attention,
    // which this torch runs on CUDA only, and its decompositions left prims.rev, which only Python defines. They run
    // through stand-ins, every such node is marked, and the outputs are the ones torch 2.2 computed.
    void graphsDumpedByAnOlderTorchRunOnStandIns_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("standIn");
        QTest::addColumn<int>("nodes");
        QTest::newRow("BERT, flash attention on CPU") << "bert_tiny_sdpa"
                                                      << "torch.ops.aten._scaled_dot_product_flash_attention.default"
                                                      << "aten._scaled_dot_product_flash_attention_for_cpu" << 2;
        QTest::newRow("Longformer, prims.rev") << "longformer_tiny" << "torch.ops.prims.rev.default" << "aten.flip" << 8;
    }

    void graphsDumpedByAnOlderTorchRunOnStandIns()
    {
        QFETCH(QString, name);
        QFETCH(QString, op);
        QFETCH(QString, standIn);
        QFETCH(int, nodes);
        auto report = profileAgainstExpected(QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/old_torch/") + name);
        VERIFY_OK(report);
        QVERIFY(report->expectedMatch.has_value());
        QVERIFY2(*report->expectedMatch, qPrintable(QString::number(report->expectedMaxAbsDiff)));
        QVERIFY(report->expectedMaxAbsDiff < 1e-4);
        QVERIFY2(report->warnings.empty(), report->warnings.empty() ? "" : report->warnings.front().c_str());
        int marked = 0;
        for (const NodeProfile &n : report->unfused.nodes) {
            QCOMPARE(n.standIn.empty(), n.target != op.toStdString()); // marked exactly where the op ran
            if (!n.standIn.empty()) {
                QVERIFY2(QString::fromStdString(n.standIn).startsWith(standIn), n.standIn.c_str());
                ++marked;
            }
        }
        QCOMPARE(marked, nodes);
    }

    // Every stand-in against what PyTorch computes through its public ops (tests/scripts/stand_in_reference.py):
    // flash (causal, a query permuted from length-major whose output permutes back and views), efficient with a
    // bias, cudnn, flash's length-major form over grouped-query heads; prims rev, var, sum, broadcast_in_dim,
    // squeeze, _unsafe_index_put_ (accumulating a repeated index), prepare_softmax_online.
    void standInsGivePyTorchsOutputs()
    {
        QString err = runTorchPython({QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/scripts/stand_in_reference.py"), m_dir.path()});
        QVERIFY2(err.isEmpty(), qPrintable(err));
        auto report = profileAgainstExpected(m_dir.filePath(QStringLiteral("stand_ins")));
        VERIFY_OK(report);
        QVERIFY(report->expectedMatch.has_value());
        QVERIFY2(*report->expectedMatch, qPrintable(QString::number(report->expectedMaxAbsDiff)));
        QVERIFY(report->expectedMaxAbsDiff < 1e-5);
        QVERIFY(report->warnings.empty()); // every input given was used
        std::set<std::string> standIns;
        for (const NodeProfile &n : report->unfused.nodes)
            if (!n.standIn.empty())
                standIns.insert(n.target);
        QCOMPARE(standIns.size(), size_t(11)); // 4 attention ops, 7 prims
    }

    // An op with no kernel on this device stops the run with one line naming the op and where it has kernels,
    // not LibTorch's 15-line dispatcher table.
    void opWithoutKernelStopsWithOneLine()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[1, 3, 8, 8]\", w: \"f32[4, 3, 3, 3]\"):\n"
                            "        c: \"f32[1, 4, 6, 6]\" = torch.ops.aten.cudnn_convolution.default(x, w, [0, 0], "
                            "[1, 1], [1, 1], 1, False, False, True)\n"
                            "        return (c,)\n");
        QVERIFY(g);
        const QString error = profileError(*g);
        QVERIFY2(error.contains(QLatin1String("this LibTorch has no CPU kernel for aten::cudnn_convolution")),
            qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
    }

    // A constant Inductor's folding left behind (no user, no meta) needs no value; generated indices stay inside
    // scatter's, index_add's, take's and one_hot's bounds (3 rows, 6 elements, 4 classes: below the default 8).
    void unusedConstantsAndIndexBounds()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, self_1: \"f32[3, 5]\", i: \"i64[2, 5]\", j: \"i64[4]\", t: \"i64[7]\", "
            "c: \"i64[6]\", src: \"f32[2, 5]\", rows: \"f32[4, 5]\", small: \"f32[2, 3]\"):\n"
            "        _tensor_constant0 = self._tensor_constant0\n"
            "        scatter: \"f32[3, 5]\" = torch.ops.aten.scatter.src(self_1, 0, i, src)\n"
            "        index_add: \"f32[3, 5]\" = torch.ops.aten.index_add.default(self_1, 0, j, rows)\n"
            "        take: \"f32[7]\" = torch.ops.aten.take.default(small, t)\n"
            "        one_hot: \"i64[6, 4]\" = torch.ops.aten.one_hot.default(c, 4)\n"
            "        return (scatter, index_add, take, one_hot)\n");
        QVERIFY(g);
        for (uint64_t seed = 0; seed < 20; ++seed) {
            ProfileOptions options = singleRun();
            options.seed = seed;
            auto report = runtimeProfile(*g, nullptr, options);
            VERIFY_OK(report);
        }
    }

    // aten.scaled_dot_product_attention (PyTorch 2.x, Dynamo-level torch._C._nn.scaled_dot_product_attention) as
    // ATen's math backend computes it, against the math written out here: causal with the default scale 1/sqrt(E),
    // and a boolean mask whose row 0 is all False (that row gives zeros, not NaN); torch.tensor of Python numbers.
    void scaledDotProductAttentionAndTorchTensor()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, q: \"f32[1, 1, 3, 2]\", k: \"f32[1, 1, 3, 2]\", v: \"f32[1, 1, 3, 2]\", "
            "keep_f: \"f32[3, 3]\"):\n"
            "        causal = torch._C._nn.scaled_dot_product_attention(q, k, v, is_causal = True)\n"
            "        keep = keep_f.to(torch.bool)\n"
            "        masked = torch._C._nn.scaled_dot_product_attention(q, k, v, attn_mask = keep, "
            "dropout_p = 0.0, scale = 0.5)\n"
            "        one = torch.tensor(1.0, dtype = torch.float64)\n"
            "        three = torch.tensor(3)\n"
            "        return (causal, masked, one, three)\n");
        QVERIFY(g);
        const std::vector<float> q = {0.5f, -1, 1, 2, -0.5f, 0.25f}, k = {1, 0.5f, -1, 1, 0.25f, -0.75f},
                                 v = {1, 2, -3, 0.5f, 4, -1};
        const std::vector<float> keep = {0, 0, 0, 1, 0, 1, 1, 1, 0}; // row 0 attends to nothing
        QString inputs = m_dir.filePath(QStringLiteral("sdpa.safetensors"));
        writeSafetensors(inputs, {{"q", q}, {"k", k}, {"v", v}, {"keep_f", keep}},
            {{1, 1, 3, 2}, {1, 1, 3, 2}, {1, 1, 3, 2}, {3, 3}});
        auto report = profileOnce(*g, inputs);
        VERIFY_OK(report);
        const auto &out = report->unfused.outputs;
        QCOMPARE(out.size(), size_t(4));
        for (int which = 0; which < 2; ++which)
            for (int m = 0; m < 3; ++m) {
                const double scale = which == 0 ? 1.0 / std::sqrt(2.0) : 0.5;
                std::vector<std::pair<int, double>> s; // (n, score) of the positions attended to
                for (int n = 0; n < 3; ++n)
                    if (which == 0 ? n <= m : keep[size_t(3 * m + n)] != 0)
                        s.push_back({n,
                            scale
                                * (q[size_t(2 * m)] * k[size_t(2 * n)] + q[size_t(2 * m + 1)] * k[size_t(2 * n + 1)])});
                double top = -1e300, sum = 0;
                for (auto &[n, x] : s)
                    top = std::max(top, x);
                for (auto &[n, x] : s)
                    sum += std::exp(x - top);
                for (int d = 0; d < 2; ++d) {
                    double expected = 0;
                    for (auto &[n, x] : s)
                        expected += std::exp(x - top) / sum * v[size_t(2 * n + d)];
                    const double got = out[size_t(which)].values.at(size_t(2 * m + d));
                    QVERIFY2(std::abs(got - expected) < 1e-5,
                        qPrintable(QStringLiteral("sdpa %1 row %2 dim %3: %4 against %5")
                                       .arg(which)
                                       .arg(m)
                                       .arg(d)
                                       .arg(got)
                                       .arg(expected)));
                }
            }
        QCOMPARE(out[2].dtype, std::string("Double"));
        QCOMPARE(out[2].shape, std::vector<int64_t>());
        QCOMPARE(out[2].values, std::vector<double>({1.0}));
        QCOMPARE(out[3].dtype, std::string("Long"));
        QCOMPARE(out[3].values, std::vector<double>({3.0}));
    }

    // Corpus graphs that run since flex_attention runs (issue 7, runtime coverage): a Dynamo-level graph (Python
    // operators in its mods), an AOT one and a TORCH_TRACE log's post-grad graph, all causal (q >= kv), so every
    // output value is finite; generated inputs.
    void corpusFlexAttentionGraphsRun_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("graph");
        QTest::newRow("dynamo") << QStringLiteral(
            "/readable/tlparse__cache_hit_miss__1-0__dynamo_output_graph_flex_attention_hop.py")
                                << 0;
        QTest::newRow("aot") << QStringLiteral(
            "/readable/tlparse__cache_hit_miss__1-0__aot_inference_graph_flex_attention_hop.py")
                             << 0;
        QTest::newRow("trace post-grad") << QStringLiteral("/torch_trace/tlparse__cache_hit_miss.log") << 3;
    }

    void corpusFlexAttentionGraphsRun()
    {
        QFETCH(QString, path);
        QFETCH(int, graph);
        auto file = loadGraphFile((QStringLiteral(FXSCOPE_CORPUS_DIR) + path).toStdString());
        VERIFY_OK(file);
        QVERIFY(size_t(graph) < file->graphs.size());
        auto report = profileOnce(*file->graphs[size_t(graph)].graph);
        VERIFY_OK(report);
        const OutputValue &out = report->unfused.outputs.at(0);
        QCOMPARE(out.shape, std::vector<int64_t>({1, 4, 512, 64}));
        QVERIFY(std::all_of(out.values.begin(), out.values.end(), [](double x) { return std::isfinite(x); }));
        QVERIFY(std::any_of(out.values.begin(), out.values.end(), [](double x) { return x != 0; }));
    }

    // A mod's ops are recognised as elementwise whatever form their targets take (aten.sub.Tensor as printed by
    // print_tabular, torch.ops.aten.sub.Tensor as by print_readable): both forms compute the same attention.
    void flexAttentionModTargetForms()
    {
        const QString code = QStringLiteral(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, q: \"f32[1, 1, 3, 2]\"):\n"
            "        score_mod_0 = self.score_mod_0\n"
            "        mask_fn_0 = self.mask_fn_0\n"
            "        flex_attention = torch.ops.higher_order.flex_attention(q, q, q, score_mod_0, (3, 3, 128, 128, "
            "mask_fn_0), 0.5, {}, (), ())\n"
            "        out: \"f32[1, 1, 3, 2]\" = flex_attention[0]\n"
            "        return (out,)\n"
            "\n"
            "    class score_mod_0(torch.nn.Module):\n"
            "        def forward(self, child: \"f32[]\", child_1: \"i32[]\", child_2: \"i32[]\", child_3: \"i32[]\", "
            "child_4: \"i32[]\"):\n"
            "            sub: \"i32[]\" = %1aten.sub.Tensor(child_3, child_4)\n"
            "            add: \"f32[]\" = %1aten.add.Tensor(child, sub)\n"
            "            return add\n"
            "\n"
            "    class mask_fn_0(torch.nn.Module):\n"
            "        def forward(self, child: \"i32[]\", child_1: \"i32[]\", child_2: \"i32[]\", child_3: \"i32[]\"):\n"
            "            ge: \"b8[]\" = %1aten.ge.Tensor(child_2, child_3)\n"
            "            return ge\n");
        QString inputs = m_dir.filePath(QStringLiteral("flex_forms.safetensors"));
        writeSafetensors(inputs, {{"q", {0.5f, -1, 1, 2, -0.5f, 0.25f}}}, {{1, 1, 3, 2}});
        std::vector<std::vector<double>> outputs;
        for (const QString &prefix : {QStringLiteral("torch.ops."), QString()}) {
            auto g = parseGraph(code.arg(prefix).toStdString());
            QVERIFY(g);
            auto report = profileOnce(*g, inputs);
            VERIFY_OK(report);
            outputs.push_back(report->unfused.outputs.at(0).values);
        }
        QCOMPARE(outputs[1], outputs[0]);
    }

    // A mod that is not elementwise would not compute what vmap computes when broadcast: an error naming its node.
    void flexAttentionNonElementwiseModIsError()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, q: \"f32[1, 1, 2, 2]\"):\n"
            "        score_mod_0 = self.score_mod_0\n"
            "        mask_fn_0 = self.mask_fn_0\n"
            "        flex_attention = torch.ops.higher_order.flex_attention(q, q, q, score_mod_0, (128, 128, "
            "mask_fn_0), 0.5, {}, (), ())\n"
            "        out: \"f32[1, 1, 2, 2]\" = flex_attention[0]\n"
            "        return (out,)\n"
            "\n"
            "    class score_mod_0(torch.nn.Module):\n"
            "        def forward(self, child: \"f32[]\", child_1: \"i32[]\", child_2: \"i32[]\", child_3: \"i32[]\", "
            "child_4: \"i32[]\"):\n"
            "            total: \"f32[]\" = torch.ops.aten.sum.default(child)\n"
            "            return total\n"
            "\n"
            "    class mask_fn_0(torch.nn.Module):\n"
            "        def forward(self, child: \"i32[]\", child_1: \"i32[]\", child_2: \"i32[]\", child_3: \"i32[]\"):\n"
            "            ge: \"b8[]\" = child_2 >= child_3\n"
            "            return ge\n");
        QVERIFY(g);
        QString text = profileError(*g);
        QVERIFY2(text.contains(QStringLiteral("node 'total'")) && text.contains(QStringLiteral("elementwise ops only"))
                && text.contains(QStringLiteral("of node 'flex_attention'")),
            qPrintable(text));
    }

    // Arguments that are not wrap_with_autocast's are an error naming the node, found before anything runs.
    void wrapWithAutocastBadArgumentsIsError()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[2]\"):\n"
                            "        wrap_body_0 = self.wrap_body_0\n"
                            "        ac = torch.ops.higher_order.wrap_with_autocast('cpu', 16, True, None, "
                            "wrap_body_0, x)\n"
                            "        y = ac[0]\n"
                            "        return (y,)\n"
                            "\n"
                            "    class wrap_body_0(torch.nn.Module):\n"
                            "        def forward(self, x: \"f32[2]\"):\n"
                            "            neg = torch.ops.aten.neg.default(x)\n"
                            "            return (neg,)\n");
        QVERIFY(g);
        QString text = profileError(*g);
        QVERIFY2(text.contains(QStringLiteral("node 'ac'")) && text.contains(QStringLiteral("dtype: dtype or None")),
            qPrintable(text));
    }

    // A call_module whose module the dump does not carry stays a clear error naming the node.
    void callModuleWithoutGraphIsClearError()
    {
        Graph g;
        Node *x = g.append(OpKind::Placeholder, "x", "x");
        x->meta().val = ValueMeta::ofTensor(TensorMeta{"torch.float32", {{4, {}}}, {}, false, "cpu"});
        Node *m = g.append(OpKind::CallModule, "linear_1", "linear", {Argument::ofNode(x)});
        g.append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(m)})});
        QString text = profileError(g);
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
        ProfileOptions options = singleRun();
        auto missing = runtimeProfile(*g, nullptr, options);
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.find("symbol s0 has no value") != std::string::npos,
            missing.error().message.c_str());
        QVERIFY(parseSymbolAssignments("s0=3", options.symbols));
        auto report = runtimeProfile(*g, nullptr, options);
        VERIFY_OK(report);
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
        QVERIFY(writeFile(path,
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, x: \"f32[s0, 4]\"):\n"
            "        relu: \"f32[s0, 4]\" = torch.ops.aten.relu.default(x)\n"
            "        return (relu,)\n"));
        for (bool given : {true, false}) {
            QProcess cli;
            QStringList args = {QStringLiteral("profile"), path, QStringLiteral("--iters"), QStringLiteral("1"),
                QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json")};
            if (given)
                args << QStringLiteral("--sym") << QStringLiteral("s0=5") << QStringLiteral("--sym")
                     << QStringLiteral("zz=3");
            QVERIFY(runCli(cli, args));
            QByteArray err = cli.readAllStandardError();
            if (given) {
                QVERIFY2(cli.exitCode() == 0, err.constData());
                QVERIFY2(err.contains("--sym zz: the graph's inputs use no symbol zz (they use s0)"), err.constData());
            } else {
                QVERIFY(cli.exitCode() != 0);
                QVERIFY2(err.contains("symbol s0 has no value"), err.constData());
            }
        }
    }

    // Every symbol without a value is named at once, with the flags that would give them.
    void missingSymbolsNamedTogether()
    {
        auto g = parseGraph("class GraphModule(torch.nn.Module):\n"
                            "    def forward(self, n: \"Sym(s2)\", x: \"f32[s0, 2*s2 + 1]\"):\n"
                            "        relu: \"f32[s0, 2*s2 + 1]\" = torch.ops.aten.relu.default(x)\n"
                            "        return (relu,)\n");
        QVERIFY(g);
        QString text = profileError(*g);
        QVERIFY2(text.contains(QStringLiteral("symbols s0, s2 have no value (give them with --sym s0=N --sym s2=N)")),
            qPrintable(text));
    }

    // A dump that records its symbols' sizes (torch.export's symbolic.pt2: s0 = 8) runs without --sym, on inputs
    // of those sizes; a value given wins.
    void symbolHintsGiveSizes()
    {
        auto file = loadGraphFile(FXSCOPE_SOURCE_DIR "/tests/data/export/symbolic.pt2");
        QVERIFY(file && !file->graphs.empty());
        const Graph &g = *file->graphs.front().graph;
        QCOMPARE(g.symbolHints().at("s0"), int64_t(8));
        ProfileOptions options = singleRun();
        auto hinted = runtimeProfile(g, nullptr, options);
        VERIFY_OK(hinted);
        QCOMPARE(hinted->unfused.outputs.front().shape, std::vector<int64_t>({16, 2}));
        options.symbols["s0"] = 4;
        auto given = runtimeProfile(g, nullptr, options);
        VERIFY_OK(given);
        QCOMPARE(given->unfused.outputs.front().shape, std::vector<int64_t>({8, 2}));
    }

    // Generated integer inputs stay inside what they index: token-type ids through slice and expand into a 2-row
    // embedding (BERT's), an index_select over 3 rows, an index over a 3-wide dim, an index_put into 2 rows (BERT's
    // backward); with ids in [0, 8) each fails.
    void generatedIndicesStayInRange()
    {
        auto g = parseGraph(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, w: \"f32[2, 4]\", ids: \"i64[1, 64]\", table: \"f32[3, 4]\", rows: \"i64[32]\", "
            "grid: \"f32[5, 3]\", cols: \"i64[32]\", acc: \"f32[2, 4]\", tok: \"i64[16]\", grad: \"f32[16, 4]\"):\n"
            "        slice_1: \"i64[1, 64]\" = torch.ops.aten.slice.Tensor(ids, 0, 0, 9223372036854775807)\n"
            "        expand: \"i64[1, 64]\" = torch.ops.aten.expand.default(slice_1, [1, 64])\n"
            "        embedding: \"f32[1, 64, 4]\" = torch.ops.aten.embedding.default(w, expand)\n"
            "        index_select: \"f32[32, 4]\" = torch.ops.aten.index_select.default(table, 0, rows)\n"
            "        index: \"f32[5, 32]\" = torch.ops.aten.index.Tensor(grid, [None, cols])\n"
            "        put: \"f32[2, 4]\" = torch.ops.aten._unsafe_index_put.default(acc, [tok], grad, True)\n"
            "        return (embedding, index_select, index, put)\n");
        QVERIFY(g);
        auto report = profileOnce(*g);
        VERIFY_OK(report);
        QCOMPARE(report->unfused.outputs.size(), size_t(4));
    }

    // A lifted constant without meta (OPT's AOT forward) is generated from the meta of its one copy
    // (lift_fresh_copy); used by anything else, it stays the clear error it was.
    void liftedConstantTakesItsCopysMeta()
    {
        const char *code = "class GraphModule(torch.nn.Module):\n"
                           "    def forward(self, x: \"f32[3]\"):\n"
                           "        _tensor_constant0 = self._tensor_constant0\n"
                           "        lift: \"f32[2, 1]\" = torch.ops.aten.%1.default(_tensor_constant0)\n"
                           "        add: \"f32[2, 3]\" = torch.ops.aten.add.Tensor(x, lift)\n"
                           "        return (add,)\n";
        auto g = parseGraph(QString::fromLatin1(code).arg(QStringLiteral("lift_fresh_copy")).toStdString());
        QVERIFY(g);
        auto report = profileOnce(*g);
        VERIFY_OK(report);
        QCOMPARE(report->unfused.outputs.at(0).shape, std::vector<int64_t>({2, 3}));

        auto other = parseGraph(QString::fromLatin1(code).arg(QStringLiteral("relu")).toStdString());
        QVERIFY(other);
        QString text = profileError(*other);
        QVERIFY2(
            text.contains(QStringLiteral("_tensor_constant0': no value given and no tensor meta")), qPrintable(text));
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
        QVERIFY(writeFile(path,
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, x: \"f32[4, 8][8, 1]cpu\", w: \"f32[4, 8][8, 1]cpu\"):\n"
            "        a: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.relu.default(x)\n"
            "        frob: \"f32[4, 8][8, 1]cpu\" = "
                + line + "\n        return (frob,)\n"));
        QProcess cli;
        QVERIFY(runCli(cli,
            {QStringLiteral("profile"), path, QStringLiteral("--iters"), QStringLiteral("1"),
                QStringLiteral("--warmup"), QStringLiteral("0")}));
        QCOMPARE(cli.exitCode(), 3);
        QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.startsWith(path + expected), qPrintable(err));
    }

    // An error inside a nested graph points at the inner node (FILE:LINE:COL of its name in the nested class) and
    // says which outer node ran the graph, one clause per level: a kernel failing while running, an op LibTorch
    // lacks (found before running), and a wrap inside cond's branch.
    void nestedErrorPointsAtInnerNode_data()
    {
        QTest::addColumn<QByteArray>("dump");
        QTest::addColumn<QString>("expected");
        const QByteArray wrap = "class GraphModule(torch.nn.Module):\n"
                                "    def forward(self, x: \"f32[2, 3]\", w: \"f32[4, 4]\"):\n"
                                "        wrap_body_0 = self.wrap_body_0\n"
                                "        wrap = torch.ops.higher_order.wrap(wrap_body_0, x, w)\n"
                                "        getitem: \"f32[2, 3]\" = wrap[0]\n"
                                "        return (getitem,)\n"
                                "\n"
                                "    class wrap_body_0(torch.nn.Module):\n"
                                "        def forward(self, x: \"f32[2, 3]\", w: \"f32[4, 4]\"):\n"
                                "            relu: \"f32[2, 3]\" = torch.ops.aten.relu.default(x)\n"
                                "            mm: \"f32[2, 3]\" = torch.ops.aten.mm.default(relu, w)\n"
                                "            return (mm,)\n";
        const QString inWrap = QStringLiteral(
            "; in nested graph 'wrap_body_0' of node 'wrap' (torch.ops.higher_order.wrap) at line 4\n");
        QTest::newRow("failing kernel") << wrap
                                        << ":11:13: unfused graph: node 'mm' (torch.ops.aten.mm.default): mat1 and "
                                           "mat2 shapes cannot be multiplied (2x3 and 4x4)"
                + inWrap;
        QTest::newRow("unsupported op")
            << QByteArray(wrap).replace("torch.ops.aten.mm.default(relu, w)", "torch.ops.aten.frobnicate.default(relu)")
            << ":11:13: unfused graph: node 'mm' (torch.ops.aten.frobnicate.default): unsupported op: aten::frobnicate "
               "is not registered in LibTorch's dispatcher"
                + inWrap;
        QTest::newRow("two levels") << QByteArray(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, x: \"f32[2, 3]\", w: \"f32[4, 4]\"):\n"
            "        true_graph_0 = self.true_graph_0\n"
            "        false_graph_0 = self.false_graph_0\n"
            "        cond = torch.ops.higher_order.cond(True, true_graph_0, false_graph_0, (x, w))\n"
            "        getitem: \"f32[2, 3]\" = cond[0]\n"
            "        return (getitem,)\n"
            "\n"
            "    class true_graph_0(torch.nn.Module):\n"
            "        def forward(self, x: \"f32[2, 3]\", w: \"f32[4, 4]\"):\n"
            "            wrap_body_0 = self.wrap_body_0\n"
            "            wrap = torch.ops.higher_order.wrap(wrap_body_0, x, w)\n"
            "            getitem: \"f32[2, 3]\" = wrap[0]\n"
            "            return (getitem,)\n"
            "\n"
            "        class wrap_body_0(torch.nn.Module):\n"
            "            def forward(self, x: \"f32[2, 3]\", w: \"f32[4, 4]\"):\n"
            "                mm: \"f32[2, 3]\" = torch.ops.aten.mm.default(x, w)\n"
            "                return (mm,)\n"
            "\n"
            "    class false_graph_0(torch.nn.Module):\n"
            "        def forward(self, x: \"f32[2, 3]\", w: \"f32[4, 4]\"):\n"
            "            neg: \"f32[2, 3]\" = torch.ops.aten.neg.default(x)\n"
            "            return (neg,)\n")
                                    << QStringLiteral(
                                           ":18:17: unfused graph: node 'mm' (torch.ops.aten.mm.default): mat1 and "
                                           "mat2 shapes cannot be multiplied (2x3 and 4x4); in nested graph "
                                           "'wrap_body_0' of node 'wrap' (torch.ops.higher_order.wrap) at line 12; in "
                                           "nested graph 'true_graph_0' of node 'cond' (torch.ops.higher_order.cond) "
                                           "at line 5\n");
    }

    void nestedErrorPointsAtInnerNode()
    {
        QFETCH(QByteArray, dump);
        QFETCH(QString, expected);
        QString path = m_dir.filePath(QStringLiteral("nested_error.py"));
        QVERIFY(writeFile(path, dump));
        QProcess cli;
        QVERIFY(runCli(cli,
            {QStringLiteral("profile"), path, QStringLiteral("--iters"), QStringLiteral("1"),
                QStringLiteral("--warmup"), QStringLiteral("0")}));
        QCOMPARE(cli.exitCode(), 3);
        QCOMPARE(QString::fromUtf8(cli.readAllStandardError()), path + expected);
    }

    // DESIGN.md's `profile` contract on the LLaMA block sample with the built-in patterns (float16 on CPU).
    void profileCliJson()
    {
        QProcess cli;
        QVERIFY2(
            runCli(cli,
                {QStringLiteral("profile"), QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"),
                    QStringLiteral("--patterns"), QStringLiteral("builtin"), QStringLiteral("--iters"),
                    QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json")},
                600000),
            "profile did not finish in 10 minutes");
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
        QVERIFY(runCli(cli,
            {QStringLiteral("profile"), QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"),
                QStringLiteral("--device"), QStringLiteral("npu"), QStringLiteral("--iters"), QStringLiteral("1")}));
        QCOMPARE(cli.exitCode(), 3);
        QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("--device-plugin")), qPrintable(err));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestExecutor)
#include "tst_executor.moc"
