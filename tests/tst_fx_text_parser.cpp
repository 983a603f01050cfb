// Tests for the print(gm.graph) text parser and writer, over the shared corpus and synthetic inputs.

#include "io/fx_text_parser.h"
#include "io/fx_text_writer.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace fxs;

namespace {

QString corpusPath(const QString &name)
{
    return QStringLiteral(FXSCOPE_CORPUS_DIR "/fx_text/") + name;
}

std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), size_t(bytes.size()));
}

QStringList corpusFiles()
{
    return QDir(QStringLiteral(FXSCOPE_CORPUS_DIR "/fx_text")).entryList({"*.txt"}, QDir::Files, QDir::Name);
}

// Independent node count, made with regular expressions rather than the parser: for each graph, the
// `%name :` definition lines, plus one output node, plus (fragments only) one implicit placeholder per
// distinct `%name` referenced in the fragment but never defined in it.
QList<int> countNodesByRegex(const QString &text)
{
    static const QRegularExpression def(QStringLiteral("^\\s*(?:#\\s+)?%(\\w+) :"));
    static const QRegularExpression ret(QStringLiteral("^\\s*(?:#\\s+)?return\\b"));
    static const QRegularExpression ref(QStringLiteral("%(\\w+)"));
    static const QRegularExpression fragmentBody(QStringLiteral("^\\s*#\\s+(%|return\\b)"));
    QList<int> counts;
    const QStringList lines = text.split('\n');
    bool inGraph = false, inFragment = false;
    QSet<QString> defined, referenced;
    int defs = 0;
    auto finish = [&]() {
        int implicit = 0;
        if (inFragment)
            for (const QString &r : referenced)
                implicit += defined.contains(r) ? 0 : 1;
        counts.append(defs + implicit + 1);
        inGraph = inFragment = false;
        defined.clear();
        referenced.clear();
        defs = 0;
    };
    for (const QString &line : lines) {
        if (inFragment && !fragmentBody.match(line).hasMatch())
            finish();
        if (line.trimmed().startsWith(QLatin1String("# Graph fragment:"))) {
            inFragment = true;
            continue;
        }
        if (!inGraph && !inFragment && line.trimmed().endsWith(QLatin1String("graph():"))) {
            inGraph = true;
            continue;
        }
        if (!inGraph && !inFragment)
            continue;
        auto m = def.match(line);
        if (m.hasMatch()) {
            ++defs;
            defined.insert(m.captured(1));
            QString rest = line.mid(m.capturedEnd());
            auto it = ref.globalMatch(rest);
            while (it.hasNext())
                referenced.insert(it.next().captured(1));
            continue;
        }
        if (ret.match(line).hasMatch()) {
            auto it = ref.globalMatch(line);
            while (it.hasNext())
                referenced.insert(it.next().captured(1));
            finish();
        }
    }
    if (inFragment)
        finish();
    return counts;
}

const Node *findNode(const GraphFile &file, int graph, const char *name)
{
    if (graph >= int(file.graphs.size()))
        return nullptr;
    return file.graphs[size_t(graph)].graph->find(name);
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

QString argKinds(const Node &n)
{
    QStringList parts;
    for (const auto &a : n.args())
        parts << kindName(a.kind());
    for (const auto &kv : n.kwargs())
        parts << QString::fromStdString(kv.first) + "=" + kindName(kv.second.kind());
    return parts.join(',');
}

// A one-node graph whose call takes `args` as its args tuple.
std::string graphWithArgs(const std::string &args)
{
    return "graph():\n    %x : [num_users=1] = placeholder[target=x]\n"
           "    %y : [num_users=1] = call_function[target=f](args = "
        + args + ", kwargs = {})\n    return (y,)\n";
}

} // namespace

class TestFxTextParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void corpusFile_data();
    void corpusFile();
    void roundTrip_data();
    void roundTrip();
    void nodeDetails_data();
    void nodeDetails();
    void argumentSyntax_data();
    void argumentSyntax();
    void malformed_data();
    void malformed();
    void headerForms_data();
    void headerForms();
    void usersMismatchWarns();
    void fragmentPlaceholderSharesName();
    void fragmentOddPlaceholders();
    void fragmentWithoutReturn();
    void fragmentErrorIsSkippedWhenOthersLoad();
    void writerQuotesAmbiguousStrings();
    void largeChain();
    void deepNestingIsAnError();
};

void TestFxTextParser::corpusFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QList<int>>("nodes"); // per graph, from SOURCES.md's `%name :` + `return` line counts
    QTest::addColumn<QStringList>("names");

    auto row = [](const char *file, QList<int> nodes, QStringList names) {
        QTest::newRow(file) << QString::fromLatin1(file) << nodes << names;
    };
    row("apachecn_pytorch_doc_zh__fx_profiling_tutorial__resnet18_symbolic_trace_old_users_form.txt", {71}, {"graph"});
    row("pytorch_test_export__parametrizations_run_decompositions__ep_graph.txt", {19}, {"graph"});
    row("pytorch_test_export__subclass_nested_attr_access__ep_graph.txt", {12}, {"graph"});
    row("pytorch_test_export__subclass_nested_attr_access_const_metadata__ep_graph.txt", {10}, {"graph"});
    row("pytorch_test_export__vmap_nonstrict__ep_graph.txt", {14}, {"graph"});
    // 1 node line + 13 referenced inputs (arg0_1 .. arg10_1, sdpa_score0, sdpa_mask0) + output.
    row("tlparse__cache_hit_miss__1-0__inductor_output_code_graph_fragments.txt", {15}, {"fragment 1"});
    // 20 + getitem, wait_tensor + output; 3 + buf10 + output; 5 + wait_tensor_1, wait_tensor_2 + output.
    row("tlparse__multi_rank_runtime_r0__0-1__inductor_output_code_graph_fragments.txt", {23, 5, 8},
        {"fragment 1", "fragment 2", "fragment 3"});
    row("torchair_docs__graph_dump_md__select_scatter_fx_graph.txt", {5}, {"graph"});
    row("torchair_docs__presentation_md__dynamic_false_fx_graph.txt", {9}, {"graph"});
    row("torchair_docs__presentation_md__dynamic_true_fx_graph.txt", {12}, {"graph"});
    row("torchair_docs__presentation_md__mark_static_fx_graph.txt", {10}, {"graph"});
    row("unknown_repo_test_subgraphs__resnet18_feature_extractor_typed_placeholder_dict_return.txt", {52}, {"graph"});
    row("unknown_repo_test_subgraphs__resnet18_subnetwork_layer2_to_layer3.txt", {27}, {"graph"});
}

void TestFxTextParser::corpusFile()
{
    QFETCH(QString, file);
    QFETCH(QList<int>, nodes);
    QFETCH(QStringList, names);
    QVERIFY2(corpusFiles().contains(file), qPrintable(file + " is not in the corpus"));
    std::string text = readFile(corpusPath(file));
    QVERIFY(!text.empty());
    auto result = parseFxText(text, file.toStdString());
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const GraphFile &gf = result.value();
    QCOMPARE(QString::fromStdString(gf.format), QStringLiteral("fx_text"));
    QVERIFY2(gf.warnings.empty(), gf.warnings.empty() ? "" : gf.warnings[0].toString().c_str());
    QCOMPARE(countNodesByRegex(QString::fromStdString(text)), nodes);
    QCOMPARE(int(gf.graphs.size()), nodes.size());
    for (size_t g = 0; g < gf.graphs.size(); ++g) {
        const Graph &graph = *gf.graphs[g].graph;
        QCOMPARE(QString::fromStdString(gf.graphs[g].name), names[int(g)]);
        QCOMPARE(int(graph.size()), nodes[int(g)]);
        auto problems = lint(graph);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].c_str());
        for (const auto &n : graph.nodes())
            QVERIFY2(n->meta().dumpLine > 0, n->name().c_str());
        QVERIFY(graph.outputNode() == graph.nodes().back().get());
    }
}

void TestFxTextParser::roundTrip_data()
{
    QTest::addColumn<QString>("file");
    for (const QString &f : corpusFiles())
        QTest::newRow(qPrintable(f)) << f;
}

void TestFxTextParser::roundTrip()
{
    QFETCH(QString, file);
    std::string text = readFile(corpusPath(file));
    auto first = parseFxText(text, file.toStdString());
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().toString().c_str());
    std::string rewritten;
    for (const auto &g : first->graphs) {
        std::string written = writeFxText(*g.graph);
        auto second = parseFxText(written, "rewritten");
        QVERIFY2(second.ok(), second.ok() ? "" : second.error().toString().c_str());
        QCOMPARE(int(second->graphs.size()), 1);
        QVERIFY(second->warnings.empty());
        QCOMPARE(QString::fromStdString(printCanonical(*second->graphs[0].graph)),
            QString::fromStdString(printCanonical(*g.graph)));
        QCOMPARE(QString::fromStdString(writeFxText(*second->graphs[0].graph)), QString::fromStdString(written));
        rewritten += written;
    }
    // Full graphs printed by PyTorch >= 2.1 come back byte for byte.
    bool modern = text.find("[num_users=") != std::string::npos && text.find("# Graph fragment:") == std::string::npos;
    if (modern)
        QCOMPARE(QString::fromStdString(rewritten), QString::fromStdString(text));
}

void TestFxTextParser::nodeDetails_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("graph");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("kinds");
    QTest::addColumn<QString>("meta"); // "val=..", "type=..", "implicit" or ""

    const QString vmap = "pytorch_test_export__vmap_nonstrict__ep_graph.txt";
    QTest::newRow("unquoted string arg") << vmap << 0 << "_vmap_increment_nesting"
                                         << "call_function"
                                         << "torch._functorch.predispatch._vmap_increment_nesting"
                                         << "%sym_size_int_3, error"
                                         << "node,str"
                                         << "";
    QTest::newRow("empty args") << vmap << 0 << "lazy_load_decompositions"
                                << "call_function"
                                << "torch._functorch.predispatch.lazy_load_decompositions"
                                << ""
                                << ""
                                << "";
    QTest::newRow("int list arg") << vmap << 0 << "sum_1"
                                  << "call_function"
                                  << "torch.ops.aten.sum.dim_IntList"
                                  << "%add, [0]"
                                  << "node,list"
                                  << "";
    QTest::newRow("tuple return") << vmap << 0 << "output"
                                  << "output"
                                  << "output"
                                  << "(%sum_2,)"
                                  << "tuple"
                                  << "";
    QTest::newRow("string arg a") << "pytorch_test_export__subclass_nested_attr_access__ep_graph.txt" << 0
                                  << "access_subclass_inner_tensor_default_64"
                                  << "call_function"
                                  << "torch.ops.export.access_subclass_inner_tensor.default"
                                  << "%sum_1, a"
                                  << "node,str"
                                  << "";
    const QString dict = "unknown_repo_test_subgraphs__resnet18_feature_extractor_typed_placeholder_dict_return.txt";
    QTest::newRow("typed placeholder") << dict << 0 << "x"
                                       << "placeholder"
                                       << "x"
                                       << ""
                                       << ""
                                       << "type=torch.Tensor";
    QTest::newRow("dict return") << dict << 0 << "output"
                                 << "output"
                                 << "output"
                                 << "{feat1: %layer1_1_relu_1, feat2: %layer3_1_relu_1}"
                                 << "dict"
                                 << "";
    QTest::newRow("call_module") << dict << 0 << "layer1_0_conv1"
                                 << "call_module"
                                 << "layer1.0.conv1"
                                 << "%maxpool"
                                 << "node"
                                 << "";
    QTest::newRow("operator target") << dict << 0 << "add"
                                     << "call_function"
                                     << "operator.add"
                                     << "%layer1_0_bn2, %maxpool"
                                     << "node,node"
                                     << "";
    const QString old = "apachecn_pytorch_doc_zh__fx_profiling_tutorial__resnet18_symbolic_trace_old_users_form.txt";
    QTest::newRow("old users form placeholder") << old << 0 << "x"
                                                << "placeholder"
                                                << "x"
                                                << ""
                                                << ""
                                                << "type=torch.Tensor";
    QTest::newRow("bare return") << old << 0 << "output"
                                 << "output"
                                 << "output"
                                 << "%fc"
                                 << "node"
                                 << "";
    QTest::newRow("return with Nones") << "torchair_docs__presentation_md__dynamic_true_fx_graph.txt" << 0 << "output"
                                       << "output"
                                       << "output"
                                       << "(%t_3, %view, None, None, None, None)"
                                       << "tuple"
                                       << "";
    QTest::newRow("bool arg") << "torchair_docs__presentation_md__dynamic_true_fx_graph.txt" << 0 << "sum_1"
                              << "call_function"
                              << "torch.ops.aten.sum.dim_IntList"
                              << "%mul_7, [0], True"
                              << "node,list,bool"
                              << "";
    const QString frag = "tlparse__multi_rank_runtime_r0__0-1__inductor_output_code_graph_fragments.txt";
    QTest::newRow("fragment PlaceHolder") << frag << 0 << "mm"
                                          << "placeholder"
                                          << "mm"
                                          << ""
                                          << ""
                                          << "val=f16[1024, 1024][1024, 1]cuda:0";
    QTest::newRow("fragment dtype arg") << frag << 0 << "convert_element_type_2"
                                        << "call_function"
                                        << "torch.ops.prims.convert_element_type.default"
                                        << "%mm, torch.float32"
                                        << "node,dtype"
                                        << "val=f32[1024, 1024][1024, 1]cuda:0";
    QTest::newRow("fragment unquoted kwargs") << frag << 0 << "var_mean"
                                              << "call_function"
                                              << "torch.ops.aten.var_mean.correction"
                                              << "%mul_2, [1], correction=0, keepdim=True"
                                              << "node,list,correction=int,keepdim=bool"
                                              << "";
    QTest::newRow("fragment float arg") << frag << 0 << "add_1"
                                        << "call_function"
                                        << "torch.ops.aten.add.Tensor"
                                        << "%getitem, 1e-05"
                                        << "node,float"
                                        << "val=f32[1024, 1][1, 1]cuda:0";
    QTest::newRow("fragment string arg") << frag << 0 << "all_reduce"
                                         << "call_function"
                                         << "torch.ops._c10d_functional.all_reduce_.default"
                                         << "%convert_element_type_5, sum, 0"
                                         << "node,str,int"
                                         << "val=f16[1024, 1024][1024, 1]cuda:0";
    QTest::newRow("fragment implicit input") << frag << 0 << "getitem"
                                             << "placeholder"
                                             << "getitem"
                                             << ""
                                             << ""
                                             << "implicit";
    QTest::newRow("fragment return list") << frag << 0 << "output"
                                          << "output"
                                          << "output"
                                          << "(%getitem_1, %buf2, %wait_tensor)"
                                          << "tuple"
                                          << "";
    QTest::newRow("fragment empty annotation") << frag << 2 << "buf14"
                                               << "placeholder"
                                               << "buf14"
                                               << ""
                                               << ""
                                               << "type=Tensor";
    QTest::newRow("fragment single return") << frag << 1 << "output"
                                            << "output"
                                            << "output"
                                            << "%buf10"
                                            << "node"
                                            << "";
    const QString hop = "tlparse__cache_hit_miss__1-0__inductor_output_code_graph_fragments.txt";
    QTest::newRow("HOP with unquoted dict keys")
        << hop << 0 << "flex_attention"
        << "call_function"
        << "torch.ops.higher_order.flex_attention"
        << "%arg0_1, %arg1_1, %arg2_1, %sdpa_score0, (%arg3_1, %arg4_1, %arg5_1, %arg6_1, %arg7_1, %arg8_1, %arg9_1, "
           "%arg10_1, 128, 128, %sdpa_mask0), 0.125, {PRESCALE_QK: False, ROWS_GUARANTEED_SAFE: False, "
           "BLOCKS_ARE_CONTIGUOUS: False, OUTPUT_LOGSUMEXP: True}, (), ()"
        << "node,node,node,node,tuple,float,dict,tuple,tuple"
        << "";
    QTest::newRow("fragment implicit output") << hop << 0 << "output"
                                              << "output"
                                              << "output"
                                              << "(%flex_attention,)"
                                              << "tuple"
                                              << "implicit";
}

void TestFxTextParser::nodeDetails()
{
    QFETCH(QString, file);
    QFETCH(int, graph);
    QFETCH(QString, node);
    QFETCH(QString, op);
    QFETCH(QString, target);
    QFETCH(QString, args);
    QFETCH(QString, kinds);
    QFETCH(QString, meta);
    auto result = parseFxText(readFile(corpusPath(file)), file.toStdString());
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Node *n = findNode(result.value(), graph, node.toUtf8().constData());
    QVERIFY2(n, qPrintable(node));
    QCOMPARE(QString::fromLatin1(opKindName(n->op())), op);
    QCOMPARE(QString::fromStdString(n->target()), target);
    QCOMPARE(argsText(*n), args);
    QCOMPARE(argKinds(*n), kinds);
    const NodeMeta &m = n->meta();
    if (meta.startsWith("val=")) {
        QVERIFY(m.val.has_value());
        QCOMPARE(QString::fromStdString(m.val->toAnnotation()), meta.mid(4));
    } else if (meta.startsWith("type=")) {
        QCOMPARE(QString::fromStdString(m.typeAnnotation), meta.mid(5));
        QVERIFY(!m.val);
    } else if (meta == "implicit") {
        QVERIFY(m.extra["implicit"].toBool());
    } else {
        QVERIFY(m.typeAnnotation.empty());
        QVERIFY(!m.extra["implicit"].toBool());
    }
}

void TestFxTextParser::argumentSyntax_data()
{
    QTest::addColumn<QString>("args"); // the args tuple as printed
    QTest::addColumn<QString>("kinds"); // kindName of each item
    QTest::addColumn<QString>("text"); // Argument::toFxText of the tuple

    QTest::newRow("floats") << "(inf, -inf, nan, 1e-05, -3.4028234663852886e+38, 0.5)"
                            << "float,float,float,float,float,float"
                            << "(inf, -inf, nan, 1e-05, -3.4028234663852886e+38, 0.5)";
    QTest::newRow("ints") << "(0, -1, 9223372036854775807, 123456789012345678901234567890)"
                          << "int,int,int,repr"
                          << "(0, -1, 9223372036854775807, 123456789012345678901234567890)";
    QTest::newRow("keywords") << "(True, False, None, Ellipsis)"
                              << "bool,bool,none,ellipsis"
                              << "(True, False, None, Ellipsis)";
    QTest::newRow("torch objects")
        << "(torch.float32, torch.bfloat16, torch.strided, torch.contiguous_format, torch.channels_last)"
        << "dtype,dtype,layout,memory_format,memory_format"
        << "(torch.float32, torch.bfloat16, torch.strided, torch.contiguous_format, torch.channels_last)";
    QTest::newRow("devices") << "(cpu, cuda:0, npu:1, meta)"
                             << "device,device,device,device"
                             << "(cpu, cuda:0, npu:1, meta)";
    QTest::newRow("device repr") << "(device(type='cuda', index=0), device(type='ipu'), device(type='a b'))"
                                 << "device,device,repr"
                                 << "(cuda:0, ipu, device(type='a b'))";
    QTest::newRow("slice") << "(%x, [slice(None, 512, None), Ellipsis])"
                           << "node,list"
                           << "(%x, [slice(None, 512, None), Ellipsis])";
    QTest::newRow("symbols") << "(s0, u1, 2*s0, s0 + 1, ((-u1)//3) + 5, -s2)"
                             << "sym,sym,sym,sym,sym,sym"
                             << "(s0, u1, 2*s0, s0 + 1, ((-u1)//3) + 5, -s2)";
    QTest::newRow("symbol list") << "([s0, 4], (s1, 2*s1))"
                                 << "list,tuple"
                                 << "([s0, 4], (s1, 2*s1))";
    QTest::newRow("unquoted strings") << "(error, sum, avg, elem)"
                                      << "str,str,str,str"
                                      << "(error, sum, avg, elem)";
    QTest::newRow("quoted string") << "('a b', \"it's\")"
                                   << "str,str"
                                   << "(a b, it's)";
    QTest::newRow("nested") << "(%x, [%x, [1, (2, 3)]], {k: %x, memory_format: torch.contiguous_format})"
                            << "node,list,dict"
                            << "(%x, [%x, [1, (2, 3)]], {k: %x, memory_format: torch.contiguous_format})";
    QTest::newRow("empty containers") << "((), [], {})"
                                      << "tuple,list,dict"
                                      << "((), [], {})";
    QTest::newRow("one tuple") << "((%x,),)"
                               << "tuple"
                               << "((%x,),)";
    QTest::newRow("opaque reprs") << "(<built-in function add>, torch.Size([2, 3]), operator.getitem)"
                                  << "repr,repr,repr"
                                  << "(<built-in function add>, torch.Size([2, 3]), operator.getitem)";
}

void TestFxTextParser::argumentSyntax()
{
    QFETCH(QString, args);
    QFETCH(QString, kinds);
    QFETCH(QString, text);
    auto result = parseFxText(graphWithArgs(args.toStdString()), "syntax.txt");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Node *y = findNode(result.value(), 0, "y");
    QVERIFY(y);
    QCOMPARE(argKinds(*y), kinds);
    QCOMPARE(QString::fromStdString(Argument::tuple(y->args()).toFxText()), text);
    // And the writer reads back to the same graph.
    std::string written = writeFxText(*result->graphs[0].graph);
    auto again = parseFxText(written, "rewritten");
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().toString().c_str());
    QCOMPARE(QString::fromStdString(printCanonical(*again->graphs[0].graph)),
        QString::fromStdString(printCanonical(*result->graphs[0].graph)));
}

void TestFxTextParser::malformed_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    const QString head = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n";
    QTest::newRow("truncated line") << head + "    %y : [num_users=1] = call_function[target=f](args = (%x," << 3 << 61
                                    << "expected a value, found end of line";
    QTest::newRow("truncated after op") << head + "    %y : [num_users=1] = call_function" << 3 << 39
                                        << "expected '[target=' after the op kind, found end of line";
    QTest::newRow("unbalanced parens") << head
            + "    %y : [num_users=1] = call_function[target=f](args = (%x, kwargs = {})\n    return y\n"
                                       << 3 << 69 << "expected ',' or ')', found '='";
    QTest::newRow("unclosed list") << head
            + "    %y : [num_users=1] = call_function[target=f](args = ([%x, 1), kwargs = {})\n"
                                   << 3 << 64 << "expected ',' or ']', found ')'";
    QTest::newRow("unknown op kind")
        << head + "    %y : [num_users=1] = call_fn[target=f](args = (%x,), kwargs = {})\n"
        << 3 << 26
        << "expected an op kind (placeholder, get_attr, call_function, call_method or call_module), found 'call_fn'";
    QTest::newRow("duplicate name") << head + "    %x : [num_users=0] = placeholder[target=x]\n"
                                    << 3 << 6 << "expected a new node name, found '%x', already defined on line 2";
    QTest::newRow("undefined node") << head
            + "    %y : [num_users=1] = call_function[target=f](args = (%x, %z), kwargs = {})\n"
                                    << 3 << 62 << "expected a node defined on an earlier line, found undefined '%z'";
    QTest::newRow("use before definition")
        << "graph():\n    %y : [num_users=1] = call_function[target=f](args = (%x,), kwargs = {})\n    %x : "
           "[num_users=1] = placeholder[target=x]\n"
        << 2 << 58 << "expected a node defined on an earlier line, found undefined '%x'";
    QTest::newRow("self reference")
        << head + "    %y : [num_users=1] = call_function[target=f](args = (%y,), kwargs = {})\n"
        << 3 << 58 << "expected a node defined on an earlier line, found '%y', which this line defines";
    QTest::newRow("fragment self reference")
        << "# Graph fragment:\n#   %y : Tensor \"= placeholder[target=\"[num_users=1] = call_function[target=f](args = "
           "(%y,), kwargs = {})\n"
        << 2 << 88 << "expected a node defined on an earlier line, found '%y', which this line defines";
    QTest::newRow("undefined in return") << head + "    return (x, nope)\n"
                                         << 3 << 16
                                         << "expected a node defined on an earlier line, found undefined 'nope'";
    QTest::newRow("missing return")
        << head << 2 << 47 << "expected a 'return ...' line ending the graph that starts on line 1, found end of file";
    QTest::newRow("no graph") << "hello\n"
                              << 1 << 1
                              << "expected a 'graph():' header or a '# Graph fragment:' comment, found 'hello'";
    QTest::newRow("bad user count") << "graph():\n    %x : [num_users=many] = placeholder[target=x]\n"
                                    << 2 << 21 << "expected the number of users, found 'many'";
    QTest::newRow("trailing text") << head
            + "    %y : [num_users=1] = call_function[target=f](args = (%x,), kwargs = {}) extra\n"
                                   << 3 << 77 << "expected end of line, found 'extra'";
    QTest::newRow("stray line") << head + "    print(x)\n"
                                << 3 << 5 << "expected a node line ('%name : ...') or 'return ...', found 'print'";
    QTest::newRow("unterminated string") << head
            + "    %y : [num_users=1] = call_function[target=f](args = (%x, 'abc), kwargs = {})\n"
                                         << 3 << 62 << "expected a closing ' for the string starting here";
    QTest::newRow("missing kwargs") << head + "    %y : [num_users=1] = call_function[target=f](args = (%x,))\n"
                                    << 3 << 62 << "expected ', kwargs = ', found ')'";
    QTest::newRow("slice arity") << head
            + "    %y : [num_users=1] = call_function[target=f](args = (slice(1, 2),), kwargs = {})\n"
                                 << 3 << 58 << "expected slice(start, stop, step) with 3 items, found 2";
}

void TestFxTextParser::malformed()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    auto result = parseFxText(text.toStdString(), "bad.txt");
    QVERIFY(!result.ok());
    const Error &e = result.error();
    QCOMPARE(QString::fromStdString(e.file), QStringLiteral("bad.txt"));
    QVERIFY2(QString::fromStdString(e.message).startsWith(message), e.message.c_str());
    QCOMPARE(e.line, line);
    QCOMPARE(e.column, column);
    QVERIFY(QString::fromStdString(e.toString()).startsWith(QStringLiteral("bad.txt:%1:%2: ").arg(line).arg(column)));
}

void TestFxTextParser::headerForms_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");

    QTest::newRow("log prefix") << "[INFO] TORCHAIR(123,python):2025-01-01 [npu_fx_compiler.py:1] graph: graph():\n"
                                   "    %a : [num_users=1] = placeholder[target=a]\n    return (a,)\n"
                                << "%a = placeholder[a]() users=1\n%output = output[output]((%a,)) users=0\n";
    QTest::newRow("markdown indent")
        << "    graph():\n        %a : [num_users=1] = placeholder[target=a]\n        return a\n"
        << "%a = placeholder[a]() users=1\n%output = output[output](%a) users=0\n";
    QTest::newRow("old header params")
        << "graph(x, y : torch.Tensor = 2):\n    %add : [#users=1] = call_function[target=operator.add](args = (%x, "
           "%y), kwargs = {})\n    return add\n"
        << "%x = placeholder[x]() users=1\n%y = placeholder[y](2) users=1 type=torch.Tensor\n"
           "%add = call_function[operator.add](%x, %y) users=1\n%output = output[output](%add) users=0\n";
    QTest::newRow("old header annotation")
        << "graph(x : Tensor \"f32[2]\"):\n    return x\n"
        << "%x = placeholder[x]() users=1 val=f32[2]\n%output = output[output](%x) users=0\n";
    QTest::newRow("old get_attr") << "graph():\n    %w : [#users=1] = self.linear.weight\n    return w\n"
                                  << "%w = get_attr[linear.weight]() users=1\n%output = output[output](%w) users=0\n";
    QTest::newRow("placeholder default") << "graph():\n    %a : [num_users=0] = placeholder[target=a](default='x y')\n "
                                            "   %b : [num_users=0] = placeholder[target=*args]\n    return None\n"
                                         << "%a = placeholder[a](x y) users=0\n%b = placeholder[*args]() users=0\n"
                                            "%output = output[output](None) users=0\n";
    QTest::newRow("return list")
        << "graph():\n    %a : [num_users=1] = placeholder[target=a]\n    return [a, None, 1.5, 's']\n"
        << "%a = placeholder[a]() users=1\n%output = output[output]([%a, None, 1.5, s]) users=0\n";
    QTest::newRow("sym node in return")
        << "graph():\n    %s0 : [num_users=1] = placeholder[target=s0]\n    return (s0,)\n"
        << "%s0 = placeholder[s0]() users=1\n%output = output[output]((%s0,)) users=0\n";
    QTest::newRow("node named output")
        << "graph():\n    %output : [num_users=1] = placeholder[target=output]\n    return (output,)\n"
        << "%output = placeholder[output]() users=1\n%output_1 = output[output]((%output,)) users=0\n";
    QTest::newRow("quoted type before annotation")
        << "graph():\n    %x : List[\"a b\"] Tensor \"f32[4][1]cpu\"[num_users=0] = placeholder[target=x]\n    return "
           "None\n"
        << "%x = placeholder[x]() users=0 val=f32[4][1]cpu type=List[\"a b\"]\n%output = output[output](None) "
           "users=0\n";
    QTest::newRow("annotation after a quoted word")
        << "graph():\n    %x : x \"a\" \"f32[4]\"[num_users=0] = placeholder[target=x]\n    return None\n"
        << "%x = placeholder[x]() users=0 type=x \"a\" \"f32[4]\"\n%output = output[output](None) users=0\n";
    QTest::newRow("two graphs") << "graph():\n    %a : [num_users=1] = placeholder[target=a]\n    return (a,)\nsome "
                                   "log line\ngraph():\n    return ()\n"
                                << "%a = placeholder[a]() users=1\n%output = output[output]((%a,)) users=0\n";
}

void TestFxTextParser::headerForms()
{
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    auto result = parseFxText(text.toStdString(), "forms.txt");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    QVERIFY(!result->graphs.empty());
    const Graph &g = *result->graphs[0].graph;
    QCOMPARE(QString::fromStdString(printCanonical(g)), canonical);
    QVERIFY(lint(g).empty());
    auto again = parseFxText(writeFxText(g), "rewritten");
    QVERIFY(again.ok());
    QCOMPARE(QString::fromStdString(printCanonical(*again->graphs[0].graph)), canonical);
    if (result->graphs.size() > 1) {
        QCOMPARE(QString::fromStdString(result->graphs[0].name), QStringLiteral("graph 1"));
        QCOMPARE(QString::fromStdString(result->graphs[1].name), QStringLiteral("graph 2"));
        QCOMPARE(int(result->graphs[1].graph->size()), 1);
        QCOMPARE(result->graphs[1].line, 5);
    }
}

void TestFxTextParser::usersMismatchWarns()
{
    std::string text = "graph():\n    %x : [num_users=2] = placeholder[target=x]\n"
                       "    %y : [num_users=1] = call_function[target=f](args = (%x,), kwargs = {})\n    return (y,)\n";
    auto result = parseFxText(text, "users.txt");
    QVERIFY(result.ok());
    QCOMPARE(int(result->warnings.size()), 1);
    const Error &w = result->warnings[0];
    QCOMPARE(w.line, 2);
    QCOMPARE(w.column, 10);
    QCOMPARE(QString::fromStdString(w.message), QStringLiteral("node '%x' declares num_users=2 but 1 node use it"));
    QCOMPARE(int(result->graphs[0].graph->find("x")->users().size()), 1);
}

void TestFxTextParser::fragmentPlaceholderSharesName()
{
    // Inductor lists a buffer the kernel reads as a PlaceHolder and may compute the node of that name later.
    std::string text = "# Graph fragment:\n"
                       "#   %rsqrt : Tensor \"f32[4][1]cuda:0\" = PlaceHolder[target=rsqrt]\n"
                       "#   %add : Tensor \"f32[4][1]cuda:0\"[num_users=1] = "
                       "call_function[target=torch.ops.aten.add.Tensor](args = (%rsqrt, 1), kwargs = {})\n"
                       "#   %rsqrt : Tensor \"f32[4][1]cuda:0\"[num_users=1] = "
                       "call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})\n"
                       "#   return %rsqrt\n"
                       "triton_kernel = async_compile.triton('...')\n";
    auto result = parseFxText(text, "frag.py");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Graph &g = *result->graphs[0].graph;
    QVERIFY(lint(g).empty());
    const Node *buffer = g.find("rsqrt_buf");
    QVERIFY(buffer);
    QCOMPARE(QString::fromStdString(buffer->target()), QStringLiteral("rsqrt"));
    QCOMPARE(g.find("add")->args()[0].node(), buffer);
    QCOMPARE(g.outputNode()->args()[0].node(), g.find("rsqrt"));
    QCOMPARE(g.find("rsqrt")->op(), OpKind::CallFunction);
    auto again = parseFxText(writeFxText(g), "rewritten");
    QVERIFY(again.ok());
    QCOMPARE(printCanonical(*again->graphs[0].graph), printCanonical(g));

    std::string useBeforeDef = "# Graph fragment:\n"
                               "#   %a : [num_users=1] = call_function[target=f](args = (%b,), kwargs = {})\n"
                               "#   %b : [num_users=1] = call_function[target=f](args = (%c,), kwargs = {})\n";
    auto bad = parseFxText(useBeforeDef, "frag.py");
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().line, 2);
    QCOMPARE(bad.error().column, 58);
    QCOMPARE(QString::fromStdString(bad.error().message),
        QStringLiteral("expected a node defined on an earlier line, found '%b', defined on line 3"));
}

void TestFxTextParser::fragmentOddPlaceholders()
{
    // Quotes and `[num_users=` inside a type or target must not confuse the look-ahead for renames.
    std::string text = "# Graph fragment:\n"
                       "#   %a : Tensor  = PlaceHolder[target=\"a]\n"
                       "#   %b : x \"[num_users=4\" = PlaceHolder[target=b]\n"
                       "#   return %a,%b\n";
    auto result = parseFxText(text, "frag.py");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    const Graph &g = *result->graphs[0].graph;
    QCOMPARE(int(g.size()), 3);
    QCOMPARE(QString::fromStdString(g.find("a")->target()), QStringLiteral("\"a"));
    QCOMPARE(QString::fromStdString(g.find("b")->meta().typeAnnotation), QStringLiteral("x \"[num_users=4\""));
    auto again = parseFxText(writeFxText(g), "rewritten");
    QVERIFY(again.ok());
    QCOMPARE(printCanonical(*again->graphs[0].graph), printCanonical(g));
}

void TestFxTextParser::fragmentWithoutReturn()
{
    // PyTorch 2.6 fragments have no return line: the output is what is used outside the fragment.
    std::string text = "# Graph fragment:\n"
                       "#   %a : [num_users=2] = call_function[target=f](args = (%in,), kwargs = {})\n"
                       "#   %b : [num_users=1] = call_function[target=g](args = (%a,), kwargs = {})\n"
                       "#   %c : [num_users=0] = call_function[target=h](args = (%b,), kwargs = {})\n";
    auto result = parseFxText(text, "frag.py");
    QVERIFY(result.ok());
    const Graph &g = *result->graphs[0].graph;
    QVERIFY(lint(g).empty());
    QCOMPARE(QString::fromStdString(g.outputNode()->args()[0].toFxText()), QStringLiteral("(%a,)"));
    QVERIFY(g.outputNode()->meta().extra["implicit"].toBool());
    QVERIFY(g.find("in")->meta().extra["implicit"].toBool());
    std::string written = writeFxText(g);
    QVERIFY(written.find("return") == std::string::npos);
    auto again = parseFxText(written, "rewritten");
    QVERIFY(again.ok());
    QCOMPARE(printCanonical(*again->graphs[0].graph), printCanonical(g));
}

void TestFxTextParser::fragmentErrorIsSkippedWhenOthersLoad()
{
    std::string text
        = "# Graph fragment:\n#   %a : [num_users=1] = call_function[target=f](args = (%in,), kwargs = {})\n"
          "#   return %a\n\n"
          "# Graph fragment:\n#   %b : [num_users=1] = call_function[target=f](args = (%in, kwargs = {})\n";
    auto result = parseFxText(text, "frags.py");
    QVERIFY(result.ok());
    QCOMPARE(int(result->graphs.size()), 1);
    QCOMPARE(int(result->warnings.size()), 1);
    QCOMPARE(result->warnings[0].line, 6);
    QVERIFY(
        QString::fromStdString(result->warnings[0].message).startsWith("graph fragment skipped: expected ',' or ')'"));
}

void TestFxTextParser::writerQuotesAmbiguousStrings()
{
    Graph g;
    Node *x = g.append(OpKind::Placeholder, "x", "x");
    g.append(OpKind::CallFunction, "y", "f",
        {Argument::ofNode(x), Argument::ofString("cpu"), Argument::ofString("None"), Argument::ofString("a b"),
            Argument::ofString("plain"), Argument::ofString("s0")},
        {{"key with: colon", Argument::dict({{"k:1", Argument::ofInt(1)}})}});
    g.append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(g.find("y"))})});
    std::string written = writeFxText(g);
    QVERIFY2(written.find("(args = (%x, 'cpu', 'None', 'a b', plain, 's0'), kwargs = {'key with: colon': {'k:1': 1}})")
            != std::string::npos,
        written.c_str());
    auto again = parseFxText(written, "rewritten");
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().toString().c_str());
    QCOMPARE(printCanonical(*again->graphs[0].graph), printCanonical(g));
}

void TestFxTextParser::largeChain()
{
    // 100k nodes in one chain: parsing must be iterative and about linear.
    const int n = 100000;
    std::string text = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n";
    std::string prev = "x";
    for (int i = 0; i < n; ++i) {
        std::string name = "relu_" + std::to_string(i);
        text += "    %" + name + " : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%" + prev
            + ",), kwargs = {})\n";
        prev = name;
    }
    text += "    return (" + prev + ",)\n";
    auto result = parseFxText(text, "chain.txt");
    QVERIFY(result.ok());
    const Graph &g = *result->graphs[0].graph;
    QCOMPARE(int(g.size()), n + 2);
    QVERIFY(result->warnings.empty());
    QVERIFY(lint(g).empty());
    QCOMPARE(writeFxText(g), text);
}

void TestFxTextParser::deepNestingIsAnError()
{
    for (int depth : {300, 100000}) {
        std::string nested(size_t(depth), '[');
        nested += std::string(size_t(depth), ']');
        auto result = parseFxText(graphWithArgs("(" + nested + ",)"), "deep.txt");
        QVERIFY(!result.ok());
        QCOMPARE(result.error().line, 3);
        QCOMPARE(result.error().column, 57 + 256); // the '[' opening level 257
        QCOMPARE(QString::fromStdString(result.error().message),
            QStringLiteral("expected at most 256 levels of nesting, found more"));
    }
    // Parentheses that might be a symbolic expression are bounded the same way.
    std::string parens(100000, '(');
    auto result = parseFxText(graphWithArgs("(" + parens + "s0,)"), "deep.txt");
    QVERIFY(!result.ok());
    QCOMPARE(QString::fromStdString(result.error().message),
        QStringLiteral("expected at most 256 levels of nesting, found more"));
}

QTEST_GUILESS_MAIN(TestFxTextParser)
#include "tst_fx_text_parser.moc"
