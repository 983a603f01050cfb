// Tests for the TorchAir graph_dump .py parser over the shared corpus and synthetic dumps.

#include "io/torchair_parser.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

using namespace fxs;

namespace {

std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), size_t(bytes.size()));
}

QString corpusPath(const QString &name)
{
    return QStringLiteral(FXSCOPE_CORPUS_DIR "/torchair_py/") + name;
}

// Independent count: one placeholder per `= ge.Data(` line, one node per `## FX Code:` line, one output.
int countNodesByRegex(const QString &text)
{
    static const QRegularExpression data(
        QStringLiteral("^\\s*\\w+ = ge\\.Data\\("), QRegularExpression::MultilineOption);
    static const QRegularExpression fx(QStringLiteral("^\\s*## FX Code:"), QRegularExpression::MultilineOption);
    int count = 1;
    for (auto it = data.globalMatch(text); it.hasNext(); it.next())
        ++count;
    for (auto it = fx.globalMatch(text); it.hasNext(); it.next())
        ++count;
    return count;
}

QString argsText(const Node &n)
{
    QStringList parts;
    for (const auto &a : n.args())
        parts << QString::fromStdString(a.toFxText());
    for (const auto &kv : n.kwargs())
        parts << QString::fromStdString(kv.first + "=" + kv.second.toFxText());
    return parts.join(QStringLiteral(", "));
}

QStringList geOps(const Node &n)
{
    QStringList out;
    for (const Json &op : n.meta().extra["ge_ops"].items())
        out << QString::fromStdString(op.toString());
    return out;
}

const char *kHeader = "# -*- coding: utf-8 -*-\nfrom torch import tensor\n"
                      "from torchair._ge_concrete_graph import ge_apis as ge\n"
                      "from torchair.ge._ge_graph import get_default_ge_graph\n\n";

} // namespace

class TestTorchAirParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void corpusFile_data();
    void corpusFile();
    void nodeDetails_data();
    void nodeDetails();
    void dataInputs_data();
    void dataInputs();
    void implicitInputsAndKwargs();
    void explicitOutputAndOddNames();
    void outputFallback_data();
    void outputFallback();
    void malformed_data();
    void malformed();
    void largeChain();
};

void TestTorchAirParser::corpusFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("nodes"); // ge.Data lines + FX Code lines + output
    QTest::addColumn<QString>("output"); // the derived return value

    QTest::newRow("select_scatter") << "torchair_docs__graph_dump_md__select_scatter_example.py" << 5 << "(%mul,)";
    QTest::newRow("static") << "torchair_docs__presentation_md__dynamic_false_static_ge_graph.py" << 9 << "(%mul,)";
    QTest::newRow("dynamic") << "torchair_docs__presentation_md__dynamic_true_dynamic_ge_graph.py" << 11 << "(%mul_4,)";
    QTest::newRow("mark_static") << "torchair_docs__presentation_md__dynamic_true_mark_static_ge_graph.py" << 10
                                 << "(%mul,)";
}

void TestTorchAirParser::corpusFile()
{
    QFETCH(QString, file);
    QFETCH(int, nodes);
    QFETCH(QString, output);
    std::string text = readFile(corpusPath(file));
    QVERIFY(!text.empty());
    auto result = parseTorchAirPy(text, file.toStdString());
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    QCOMPARE(QString::fromStdString(result->format), QStringLiteral("torchair_py"));
    QCOMPARE(int(result->graphs.size()), 1);
    QVERIFY(result->warnings.empty());
    const Graph &g = *result->graphs[0].graph;
    QCOMPARE(countNodesByRegex(QString::fromStdString(text)), nodes);
    QCOMPARE(int(g.size()), nodes);
    auto problems = lint(g);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].c_str());
    QCOMPARE(QString::fromStdString(g.outputNode()->args()[0].toFxText()), output);
    // Every GE op line of the file is kept on exactly one node.
    int geLines = 0;
    for (const QString &line : QString::fromStdString(text).split('\n'))
        geLines += line.contains(QLatin1String(" = ge.")) ? 1 : 0;
    int kept = 0;
    for (const auto &n : g.nodes()) {
        kept += int(n->meta().extra["ge_ops"].size());
        QVERIFY(n->meta().dumpLine > 0);
    }
    QCOMPARE(kept, geLines);
}

void TestTorchAirParser::nodeDetails_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("val");
    QTest::addColumn<QString>("source"); // file:line function | code
    QTest::addColumn<QStringList>("geOps");

    const QString stat = "torchair_docs__presentation_md__dynamic_false_static_ge_graph.py";
    QTest::newRow("annotated t") << stat << "t"
                                 << "call_function"
                                 << "torch.ops.aten.t.default"
                                 << "%primals_1"
                                 << "f32[128, 64]npu:0"
                                 << "/npu/pytorch/test/test.py:24 forward | x = self.linear1(x)" << QStringList();
    QTest::newRow("block owner addmm")
        << stat << "addmm"
        << "call_function"
        << "torch.ops.aten.addmm.default"
        << "%primals_2, %primals_3, %t"
        << "f32[100, 64]npu:0"
        << "/npu/pytorch/test/test.py:24 forward | x = self.linear1(x)"
        << QStringList{"Transpose_0 = ge.Transpose(primals_1_0, [1, 0], node_name=\"Transpose\")",
               "MatMulV2_0 = ge.MatMulV2(primals_3_0, Transpose_0, None, None, node_name=\"MatMulV2\")",
               "Mul_0 = ge.Mul(MatMulV2_0, ge.Const(1, dtype=0), node_name=\"Mul\")",
               "Add_0 = ge.Add(Mul_0, primals_2_0, node_name=\"Add\")"};
    QTest::newRow("literal arg") << stat << "mul"
                                 << "call_function"
                                 << "torch.ops.aten.mul.Tensor"
                                 << "%sub, 100"
                                 << "f32[100, 64]npu:0"
                                 << "/npu/pytorch/test/test.py:26 forward | x = x * scale_factor"
                                 << QStringList{"Mul_1_0 = ge.Mul(Sub_0, ge.Const(100, dtype=0), node_name=\"Mul_1\")",
                                        "Cast_0 = ge.Cast(Mul_1_0, dst_type=0, node_name=\"Cast\")"};
    QTest::newRow("data input")
        << stat << "primals_3"
        << "placeholder"
        << "primals_3"
        << ""
        << "f32[100, 128]npu:0"
        << ""
        << QStringList{
               "primals_3_0 = ge.Data(index=2, dtype=0, shape=[100, 128], placement=\"NPU\", node_name=\"primals_3\")"};
    QTest::newRow("output") << stat << "output"
                            << "output"
                            << "output"
                            << "(%mul,)"
                            << ""
                            << "" << QStringList{"_ = ge.NetOutput([Cast_0], dependencies=[])"};

    const QString dyn = "torchair_docs__presentation_md__dynamic_true_dynamic_ge_graph.py";
    QTest::newRow("sym input")
        << dyn << "primals_6"
        << "placeholder"
        << "primals_6"
        << ""
        << "Sym(s2)"
        << ""
        << QStringList{"primals_6_0 = ge.Data(index=5, dtype=9, shape=[], placement=\"CPU\", node_name=\"primals_6\")"};
    QTest::newRow("dynamic input refined by FX")
        << dyn << "primals_4"
        << "placeholder"
        << "primals_4"
        << ""
        << "f32[s0, 128]npu:0"
        << ""
        << QStringList{
               "primals_4_0 = ge.Data(index=3, dtype=0, shape=[-1, 128], placement=\"NPU\", node_name=\"primals_4\")",
               "Shape_0 = ge.Shape(primals_4_0, dtype=9, node_name=\"Shape\")",
               "Gather_0 = ge.Gather(Shape_0, 0, node_name=\"Gather\")"};
    QTest::newRow("cpu scalar input")
        << dyn << "primals_3"
        << "placeholder"
        << "primals_3"
        << ""
        << "i64[]cpu"
        << ""
        << QStringList{"primals_3_0 = ge.Data(index=2, dtype=9, shape=[], placement=\"CPU\", node_name=\"primals_3\")"};
    QTest::newRow("sym arg") << dyn << "mul_4"
                             << "call_function"
                             << "torch.ops.aten.mul.Tensor"
                             << "%sub_1, %primals_6"
                             << "f32[s0, 64]npu:0"
                             << "/npu/pytorch/test/test.py:26 forward | x = x * scale_factor"
                             << QStringList{"Cast_0 = ge.Cast(primals_6_0, dst_type=0, node_name=\"Cast\")",
                                    "Mul_1_0 = ge.Mul(Sub_0, Cast_0, node_name=\"Mul_1\")",
                                    "Cast_1_0 = ge.Cast(Mul_1_0, dst_type=0, node_name=\"Cast_1\")"};

    const QString sel = "torchair_docs__graph_dump_md__select_scatter_example.py";
    QTest::newRow("unannotated form")
        << sel << "select_scatter"
        << "call_function"
        << "torch.ops.aten.select_scatter.default"
        << "%arg0_1, %arg1_1, 0, 1"
        << ""
        << "/home/torchair_example/tests/examples/example_select_scatter.py:23 forward | output = "
           "torch.ops.aten.select_scatter(x, y, 0,1)"
        << QStringList{"Shape_0 = ge.Shape(arg0_1_0, node_name=\"Shape\")",
               "BroadcastTo_0 = ge.BroadcastTo(1, Shape_0, node_name=\"BroadcastTo\")",
               "ExpandDims_0 = ge.ExpandDims(arg1_1_0, 0, node_name=\"ExpandDims\")",
               "BroadcastTo_1_0 = ge.BroadcastTo(ExpandDims_0, Shape_0, node_name=\"BroadcastTo_1\")",
               "ScatterElements_0 = ge.ScatterElements(arg0_1_0, BroadcastTo_0, BroadcastTo_1_0, axis=0, "
               "node_name=\"ScatterElements\")"};
    QTest::newRow("data without FX annotation")
        << sel << "arg0_1"
        << "placeholder"
        << "arg0_1"
        << ""
        << "f32[2, 2, 2]npu"
        << ""
        << QStringList{
               "arg0_1_0 = ge.Data(index=0, dtype=0, shape=[2, 2, 2], placement=\"NPU\", node_name=\"arg0_1\")"};
}

void TestTorchAirParser::nodeDetails()
{
    QFETCH(QString, file);
    QFETCH(QString, node);
    QFETCH(QString, op);
    QFETCH(QString, target);
    QFETCH(QString, args);
    QFETCH(QString, val);
    QFETCH(QString, source);
    QFETCH(QStringList, geOps);
    auto result = parseTorchAirPy(readFile(corpusPath(file)), file.toStdString());
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Node *n = result->graphs[0].graph->find(node.toStdString());
    QVERIFY2(n, qPrintable(node));
    QCOMPARE(QString::fromLatin1(opKindName(n->op())), op);
    QCOMPARE(QString::fromStdString(n->target()), target);
    QCOMPARE(argsText(*n), args);
    QCOMPARE(n->meta().val ? QString::fromStdString(n->meta().val->toAnnotation()) : QString(), val);
    QString src;
    if (const auto &s = n->meta().source)
        src = QString::fromStdString(s->file + ":" + std::to_string(s->line) + " " + s->function + " | " + s->code);
    QCOMPARE(src, source);
    QCOMPARE(::geOps(*n), geOps);
    QVERIFY(n->meta().extra["ge_ops"].isArray());
}

void TestTorchAirParser::dataInputs_data()
{
    QTest::addColumn<QString>("data"); // the ge.Data(...) arguments
    QTest::addColumn<QString>("val");

    auto row = [](const char *name, const char *data, const char *val) { QTest::newRow(name) << data << val; };
    row("float32", "index=0, dtype=0, shape=[2, 3], placement=\"NPU\", node_name=\"in0\"", "f32[2, 3]npu");
    row("float16", "index=0, dtype=1, shape=[4], placement=\"NPU\", node_name=\"in0\"", "f16[4]npu");
    row("int32", "index=0, dtype=3, shape=[4], placement=\"NPU\", node_name=\"in0\"", "i32[4]npu");
    row("int64 cpu scalar", "index=0, dtype=9, shape=[], placement=\"CPU\", node_name=\"in0\"", "i64[]cpu");
    row("bool", "index=0, dtype=12, shape=[1], placement=\"NPU\", node_name=\"in0\"", "b8[1]npu");
    row("bfloat16", "index=0, dtype=27, shape=[8, 8], placement=\"NPU\", node_name=\"in0\"", "bf16[8, 8]npu");
    row("dynamic dims", "index=0, dtype=0, shape=[-1, 128, -1], placement=\"NPU\", node_name=\"in0\"",
        "f32[?, 128, ?]npu");
    row("unknown rank", "index=0, dtype=0, shape=[-2], placement=\"NPU\", node_name=\"in0\"", "");
    row("unknown dtype", "index=0, dtype=99, shape=[2], placement=\"NPU\", node_name=\"in0\"", "");
}

void TestTorchAirParser::dataInputs()
{
    QFETCH(QString, data);
    QFETCH(QString, val);
    std::string text = std::string(kHeader) + "in0_0 = ge.Data(" + data.toStdString()
        + ")\n\n"
          "_ = ge.NetOutput([in0_0], dependencies=[])\n";
    auto result = parseTorchAirPy(text, "data.py");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Graph &g = *result->graphs[0].graph;
    QCOMPARE(int(g.size()), 2);
    const Node *in = g.find("in0");
    QVERIFY(in);
    QCOMPARE(in->meta().val ? QString::fromStdString(in->meta().val->toAnnotation()) : QString(), val);
    QCOMPARE(QString::fromStdString(g.outputNode()->args()[0].toFxText()), QStringLiteral("(%in0,)"));
    QVERIFY(lint(g).empty());
}

void TestTorchAirParser::implicitInputsAndKwargs()
{
    std::string text = std::string(kHeader)
        + "x_0 = ge.Data(index=0, dtype=0, shape=[4, 8], placement=\"NPU\", node_name=\"x\")\n\n"
          "# File \"/m.py\", line 3, in forward    y = x.sum(0, keepdim=True) * w\n"
          "## FX Code: sum_1: torch.float32[1, 8]npu:0 = torch.ops.aten.sum.dim_IntList(x: torch.float32[4, 8]npu:0, "
          "[0], keepdim=True)\n"
          "## FX Code: mul: torch.float32[1, 8]npu:0 = torch.ops.aten.mul.Tensor(sum_1: torch.float32[1, 8]npu:0, "
          "_tensor_constant0: torch.float32[8]npu:0)\n"
          "ReduceSum_0 = ge.ReduceSum(x_0, [0], keep_dims=True, node_name=\"ReduceSum\")\n"
          "Mul_0 = ge.Mul(ReduceSum_0, Const_0, node_name=\"Mul\")\n"
          "## FX Code: split = torch.ops.aten.split.Tensor(mul, 4, dim)\n"
          "[Split_0, Split_1] = ge.SplitV(Mul_0, [4, 4], 1, num_split=2, node_name=\"Split\")\n"
          "## FX Code: getitem = operator.getitem(split, 0)\n"
          "Identity_0 = ge.Identity(Split_0, node_name=\"Identity\")\n\n"
          "_ = ge.NetOutput([Identity_0, Split_1], dependencies=[])\n";
    auto result = parseTorchAirPy(text, "implicit.py");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Graph &g = *result->graphs[0].graph;
    QVERIFY(lint(g).empty());
    QCOMPARE(int(g.size()), 7);
    const Node *constant = g.find("_tensor_constant0");
    QVERIFY(constant);
    QCOMPARE(constant->op(), OpKind::Placeholder);
    QVERIFY(constant->meta().extra["implicit"].toBool());
    QCOMPARE(QString::fromStdString(constant->meta().val->toAnnotation()), QStringLiteral("f32[8]npu:0"));
    QVERIFY(constant->index() < g.find("mul")->index());
    const Node *sum = g.find("sum_1");
    QCOMPARE(argsText(*sum), QStringLiteral("%x, [0], keepdim=True"));
    QCOMPARE(sum->kwargs()[0].second.kind(), Argument::Kind::Bool);
    QCOMPARE(QString::fromStdString(sum->meta().source->code), QStringLiteral("y = x.sum(0, keepdim=True) * w"));
    QCOMPARE(::geOps(*sum), QStringList());
    QCOMPARE(::geOps(*g.find("mul")).size(), 2);
    // Old TorchAir printed kwargs as their names only: an unknown bare word stays a string.
    QCOMPARE(argsText(*g.find("split")), QStringLiteral("%mul, 4, dim"));
    QCOMPARE(g.find("split")->args()[2].kind(), Argument::Kind::String);
    QCOMPARE(g.find("getitem")->target(), std::string("operator.getitem"));
    // No '# File' comment before `getitem`: TorchAir prints each location once, so it takes the latest.
    QCOMPARE(g.find("getitem")->meta().source->line, 3);
    // Split_1 is produced by `split`'s block, Identity_0 by `getitem`'s.
    QCOMPARE(QString::fromStdString(g.outputNode()->args()[0].toFxText()), QStringLiteral("(%getitem, %split)"));
}

void TestTorchAirParser::explicitOutputAndOddNames()
{
    // An FX Code line for the output node itself, followed by another input; and a GE-only input whose
    // node_name is not a Python identifier.
    std::string text = std::string(kHeader)
        + "a_0 = ge.Data(index=0, dtype=0, shape=[2], placement=\"NPU\", node_name=\"a\")\n"
          "## FX Code: neg: torch.float32[2]npu:0 = torch.ops.aten.neg.default(a: torch.float32[2]npu:0)\n"
          "Neg_0 = ge.Neg(a_0, node_name=\"Neg\")\n"
          "## FX Code: output = output((neg,))\n"
          "offsets_0 = ge.Data(index=1, dtype=9, shape=[1], placement=\"CPU\", node_name=\"offset list\")\n"
          "_ = ge.NetOutput([Neg_0], dependencies=[])\n";
    auto result = parseTorchAirPy(text, "explicit.py");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Graph &g = *result->graphs[0].graph;
    QVERIFY(lint(g).empty());
    QCOMPARE(int(g.size()), 4);
    QCOMPARE(QString::fromStdString(g.outputNode()->name()), QStringLiteral("output"));
    QCOMPARE(QString::fromStdString(g.outputNode()->args()[0].toFxText()), QStringLiteral("(%neg,)"));
    const Node *offsets = g.find("offset_list");
    QVERIFY(offsets);
    QCOMPARE(QString::fromStdString(offsets->target()), QStringLiteral("offset list"));
    QCOMPARE(QString::fromStdString(offsets->meta().val->toAnnotation()), QStringLiteral("i64[1]cpu"));
}

void TestTorchAirParser::outputFallback_data()
{
    QTest::addColumn<QString>("netOutput");
    QTest::addColumn<QString>("output");

    QTest::newRow("traced") << "_ = ge.NetOutput([Neg_0], dependencies=[])\n"
                            << "(%neg,)";
    QTest::newRow("untraceable variable") << "_ = ge.NetOutput([Unknown_0], dependencies=[])\n"
                                          << "(%neg, %relu)";
    QTest::newRow("inline const") << "_ = ge.NetOutput([ge.Const(1, dtype=0)], dependencies=[])\n"
                                  << "(%neg, %relu)";
    QTest::newRow("missing") << ""
                             << "(%neg, %relu)";
}

void TestTorchAirParser::outputFallback()
{
    QFETCH(QString, netOutput);
    QFETCH(QString, output);
    std::string text = std::string(kHeader)
        + "a_0 = ge.Data(index=0, dtype=0, shape=[2], placement=\"NPU\", node_name=\"a\")\n"
          "b_0 = ge.Data(index=1, dtype=0, shape=[2], placement=\"NPU\", node_name=\"b\")\n"
          "## FX Code: neg: torch.float32[2]npu:0 = torch.ops.aten.neg.default(a: torch.float32[2]npu:0)\n"
          "Neg_0 = ge.Neg(a_0, node_name=\"Neg\")\n"
          "## FX Code: relu: torch.float32[2]npu:0 = torch.ops.aten.relu.default(a: torch.float32[2]npu:0)\n"
          "Relu_0 = ge.Relu(a_0, node_name=\"Relu\")\n"
        + netOutput.toStdString();
    auto result = parseTorchAirPy(text, "out.py");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Graph &g = *result->graphs[0].graph;
    QVERIFY(lint(g).empty());
    QCOMPARE(QString::fromStdString(g.outputNode()->args()[0].toFxText()), output);
}

void TestTorchAirParser::malformed_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<int>("line"); // counted from the first body line (the header has 5 lines)
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    const QString data = "x_0 = ge.Data(index=0, dtype=0, shape=[2], placement=\"NPU\", node_name=\"x\")\n";
    QTest::newRow("truncated FX Code") << data
            + "## FX Code: y: torch.float32[2]npu:0 = torch.ops.aten.neg.default(x: torch.float32[2]npu:0"
                                       << 2 << 91 << "expected ',' or ')', found end of line";
    QTest::newRow("unbalanced brackets") << data + "## FX Code: y = torch.ops.aten.cat.default([x, x)\n"
                                         << 2 << 49 << "expected ',' or ']', found ')'";
    QTest::newRow("missing call") << data + "## FX Code: y = torch.ops.aten.neg.default\n"
                                  << 2 << 43 << "expected '(' after the call target, found end of line";
    QTest::newRow("missing name") << data + "## FX Code: = torch.ops.aten.neg.default(x)\n"
                                  << 2 << 13 << "expected the FX node name after '## FX Code:', found '='";
    QTest::newRow("self reference") << data
            + "## FX Code: y: torch.float32[2]npu:0 = torch.ops.aten.neg.default(y: torch.float32[2]npu:0)\n"
                                    << 2 << 67
                                    << "expected a node defined on an earlier line, found 'y', which this line defines";
    QTest::newRow("duplicate name") << data + "## FX Code: x = torch.ops.aten.neg.default(x)\n"
                                    << 2 << 13 << "expected a new node name, found 'x', already defined on line 6";
    QTest::newRow("data without node_name") << "x_0 = ge.Data(index=0, dtype=0, shape=[2], placement=\"NPU\")\n"
                                            << 1 << 14 << "expected node_name=\"...\" in ge.Data(...), found none";
    QTest::newRow("deep nesting") << data + "## FX Code: y = f(" + QString(300, '[') + QString(300, ']') + ")\n"
                                  << 2 << 19 + 256 << "expected at most 256 levels of nesting, found more";
    QTest::newRow("empty dump")
        << "print('hello')\n"
        << -4 << 1 << "expected '## FX Code:' lines or ge.Data(...) inputs in a TorchAir graph dump, found neither";
}

void TestTorchAirParser::malformed()
{
    QFETCH(QString, body);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    auto result = parseTorchAirPy(std::string(kHeader) + body.toStdString(), "bad.py");
    QVERIFY(!result.ok());
    const Error &e = result.error();
    QCOMPARE(QString::fromStdString(e.message), message);
    QCOMPARE(e.line, line + 5);
    QCOMPARE(e.column, column);
    QVERIFY(
        QString::fromStdString(e.toString()).startsWith(QStringLiteral("bad.py:%1:%2: ").arg(line + 5).arg(column)));
}

void TestTorchAirParser::largeChain()
{
    const int n = 100000;
    std::string text
        = std::string(kHeader) + "x_0 = ge.Data(index=0, dtype=0, shape=[8], placement=\"NPU\", node_name=\"x\")\n";
    std::string prev = "x", prevVar = "x_0";
    for (int i = 0; i < n; ++i) {
        std::string name = "relu_" + std::to_string(i), var = "Relu_" + std::to_string(i) + "_0";
        text += "## FX Code: " + name + ": torch.float32[8]npu:0 = torch.ops.aten.relu.default(" + prev
            + ": torch.float32[8]npu:0)\n" + var + " = ge.Relu(" + prevVar + ", node_name=\"Relu_" + std::to_string(i)
            + "\")\n";
        prev = name;
        prevVar = var;
    }
    text += "_ = ge.NetOutput([" + prevVar + "], dependencies=[])\n";
    auto result = parseTorchAirPy(text, "chain.py");
    QVERIFY(result.ok());
    const Graph &g = *result->graphs[0].graph;
    QCOMPARE(int(g.size()), n + 2);
    QVERIFY(lint(g).empty());
    QCOMPARE(QString::fromStdString(g.outputNode()->args()[0].toFxText()), QStringLiteral("(%relu_99999,)"));
}

QTEST_GUILESS_MAIN(TestTorchAirParser)
#include "tst_torchair_parser.moc"
