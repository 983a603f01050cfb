#include "io/fxscope_json.h"
#include "io/readable_writer.h"
#include "ir/canonical_printer.h"
#include "ir/graph.h"
#include "ir/lint.h"
#include "ir/topological_sort.h"

#include <QtTest>

#include <cmath>

using namespace fxs;

namespace {

// x, y -> add -> mul(add, 2) -> output
std::unique_ptr<Graph> smallGraph()
{
    auto g = std::make_unique<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    Node *y = g->append(OpKind::Placeholder, "y", "y");
    x->meta().val = ValueMeta::parseAnnotation("f32[4, s0][s0, 1]cpu").value();
    Node *add = g->append(OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor",
        {Argument::ofNode(x), Argument::ofNode(y)}, {{"alpha", Argument::ofInt(2)}});
    Node *mul = g->append(
        OpKind::CallFunction, "mul", "torch.ops.aten.mul.Tensor", {Argument::ofNode(add), Argument::ofFloat(0.5)});
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(mul), Argument::ofNode(add)})});
    return g;
}

std::unique_ptr<Graph> chain(size_t length)
{
    auto g = std::make_unique<Graph>();
    Node *prev = g->append(OpKind::Placeholder, "x", "x");
    for (size_t i = 0; i < length; ++i)
        prev = g->append(
            OpKind::CallFunction, "relu_" + std::to_string(i), "torch.ops.aten.relu.default", {Argument::ofNode(prev)});
    g->append(OpKind::Output, "output", "output", {Argument::ofNode(prev)});
    return g;
}

} // namespace

class TestIr : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void usersAreDerived()
    {
        auto g = smallGraph();
        QVERIFY(lint(*g).empty());
        Node *add = g->find("add");
        QCOMPARE(add->users().size(), size_t(2));
        QCOMPARE(add->users()[0]->name(), std::string("mul"));
        QCOMPARE(add->users()[1]->name(), std::string("output"));
        QCOMPARE(g->find("x")->users().size(), size_t(1));
        QCOMPARE(add->inputNodes().size(), size_t(2));
    }

    void eraseRefusesNodesInUse()
    {
        auto g = smallGraph();
        QVERIFY(!g->erase(g->find("add")));
        Node *out = g->outputNode();
        g->setArgs(out, {Argument::ofNode(g->find("mul"))});
        QCOMPARE(g->find("add")->users().size(), size_t(1));
        QVERIFY(lint(*g).empty());
    }

    void replaceAllUsesRewires()
    {
        auto g = smallGraph();
        Node *add = g->find("add");
        Node *x = g->find("x");
        g->replaceAllUses(add, x);
        QVERIFY(add->users().empty());
        QVERIFY(g->erase(add));
        QVERIFY(!g->find("add"));
        QCOMPARE(x->users().size(), size_t(2));
        QVERIFY2(lint(*g).empty(), lint(*g).empty() ? "" : lint(*g).front().c_str());
    }

    void lintFindsBrokenInvariants()
    {
        auto g = smallGraph();
        // A second node with an existing name hides the first from lookup.
        g->insertBefore(g->outputNode(), OpKind::CallFunction, "add", "torch.ops.aten.neg.default",
            {Argument::ofNode(g->find("x"))});
        auto problems = lint(*g);
        auto mentions = [](const std::vector<std::string> &list, const std::string &text) {
            return std::any_of(
                list.begin(), list.end(), [&](const std::string &p) { return p.find(text) != std::string::npos; });
        };
        QVERIFY(mentions(problems, "duplicate node name 'add'"));

        auto h = smallGraph();
        h->reorder({h->find("mul"), h->find("x"), h->find("y"), h->find("add"), h->outputNode()});
        problems = lint(*h);
        QVERIFY(mentions(problems, "uses 'add' before it is defined"));

        auto noOutput = std::make_unique<Graph>();
        noOutput->append(OpKind::Placeholder, "x", "x");
        QCOMPARE(lint(*noOutput).size(), size_t(1));
    }

    void stableTopologicalSortKeepsValidOrder()
    {
        auto g = smallGraph();
        std::string before = printCanonical(*g);
        QVERIFY(stableTopologicalSort(*g));
        QCOMPARE(printCanonical(*g), before);

        // Move mul to the front: the sort must move it back behind add, and only it.
        g->reorder({g->find("mul"), g->find("x"), g->find("y"), g->find("add"), g->outputNode()});
        QVERIFY(stableTopologicalSort(*g));
        QVERIFY(lint(*g).empty());
        QStringList order;
        for (const auto &n : g->nodes())
            order << QString::fromStdString(n->name());
        QCOMPARE(order, QStringList({"x", "y", "add", "mul", "output"}));
    }

    void uniqueNamesFollowFx()
    {
        auto g = smallGraph();
        QCOMPARE(g->uniqueName("add"), std::string("add_1"));
        g->append(OpKind::CallFunction, "add_1", "t");
        QCOMPARE(g->uniqueName("add"), std::string("add_2"));
        QCOMPARE(g->uniqueName("conv.weight"), std::string("conv_weight"));
        QCOMPARE(g->uniqueName("0"), std::string("_0"));
    }

    void annotationsRoundTrip_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("plain") << "f32[8, 16]";
        QTest::newRow("stride device") << "f16[1, 4, 512, 64][131072, 32768, 64, 1]cuda:0";
        QTest::newRow("scalar") << "f32[][]cuda:0";
        QTest::newRow("symbolic") << "f32[2*s0, (((-u1)//3)) + 5][s1, 1]cpu";
        QTest::newRow("sym") << "Sym(s52)";
        QTest::newRow("bool") << "b8[4]";
    }
    void annotationsRoundTrip()
    {
        QFETCH(QString, text);
        auto v = ValueMeta::parseAnnotation(text.toStdString());
        QVERIFY2(v.ok(), v.ok() ? "" : v.error().message.c_str());
        QCOMPARE(QString::fromStdString(v->toAnnotation()), text);
    }
    void annotationDetails()
    {
        auto v = ValueMeta::parseAnnotation("torch.float32[s0, 64]npu:0").value();
        QCOMPARE(v.tensor.dtype, std::string("torch.float32"));
        QCOMPARE(v.tensor.device, std::string("npu:0"));
        QVERIFY(!v.tensor.shape[0].isConcrete());
        QCOMPARE(v.tensor.shape[1].value, int64_t(64));
        QVERIFY(!ValueMeta::parseAnnotation("zz[4]").ok());
        QVERIFY(!ValueMeta::parseAnnotation("f32[4").ok());
    }

    void fxscopeJsonRoundTripIsLossless()
    {
        auto g = smallGraph();
        Node *mul = g->find("mul");
        std::vector<Argument> args = mul->args();
        args.push_back(Argument::list({Argument::ofFloat(HUGE_VAL), Argument::ofFloat(-HUGE_VAL),
            Argument::ofFloat(std::nan("")), Argument::ofFloat(1e-05), Argument::ofFloat(3.0), Argument::ofInt(3)}));
        args.push_back(Argument::dict(
            {{"memory_format", Argument::ofText(Argument::Kind::MemoryFormat, "torch.contiguous_format")},
                {"k", Argument::ofString("sum")}}));
        args.push_back(Argument::slice(Argument::none(), Argument::ofInt(512), Argument::none()));
        args.push_back(Argument::tuple({Argument::ellipsis(), Argument::ofText(Argument::Kind::SymExpr, "2*s0"),
            Argument::ofText(Argument::Kind::Dtype, "torch.bfloat16"),
            Argument::ofText(Argument::Kind::Device, "cuda:0"),
            Argument::ofText(Argument::Kind::Layout, "torch.strided"),
            Argument::ofText(Argument::Kind::Verbatim, "Point(x=1, y=2)"), Argument::ofBool(true)}));
        g->setArgs(mul, args);
        mul->meta().source = SourceLocation{"model.py", 12, "forward", "x * 0.5"};
        mul->meta().nnModuleStack = {{"L__self___mlp", "mlp", "torch.nn.modules.linear.Linear"}};
        mul->meta().stackTrace = "File \"model.py\", line 12, in forward\n    x * 0.5";
        mul->meta().extra.set("seq_nr", Json(7));
        ValueMeta tuple;
        tuple.kind = ValueMeta::Kind::Tuple;
        tuple.items
            = {ValueMeta::parseAnnotation("f32[4]").value(), ValueMeta::parseAnnotation("Sym(u0 >= 0)").value()};
        g->find("add")->meta().val = tuple;
        auto sub = std::make_unique<Graph>();
        Node *a = sub->append(OpKind::Placeholder, "a", "a");
        sub->append(OpKind::Output, "output", "output", {Argument::ofNode(a)});
        g->addSubgraph("true_graph_0", std::move(sub));
        g->setSymbolHints({{"s0", 8}, {"u1", -3}});

        GraphFile file;
        file.graphs.push_back({"forward", "aot_forward_graph", std::move(g), 1});
        std::string json = writeFxscopeJson(file);
        auto back = parseFxscopeJson(json, "rt.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->graphs.size(), size_t(1));
        QCOMPARE(back->graphs[0].kind, std::string("aot_forward_graph"));
        QCOMPARE(printCanonical(*back->graphs[0].graph), printCanonical(*file.graphs[0].graph));
        QCOMPARE(writeFxscopeJson(back.value()), json);
        const Node *rmul = back->graphs[0].graph->find("mul");
        QVERIFY(rmul->meta() == file.graphs[0].graph->find("mul")->meta());
        QVERIFY(rmul->args().size() == 6);
        QVERIFY(std::isnan(rmul->args()[2].items()[2].toDouble()));
        QCOMPARE(rmul->args()[2].items()[4].kind(), Argument::Kind::Float);
        QCOMPARE(rmul->args()[2].items()[5].kind(), Argument::Kind::Int);
        // Symbol hints are the graph's: kept by the JSON form, the canonical text and clones.
        const std::map<std::string, int64_t> hints{{"s0", 8}, {"u1", -3}};
        QCOMPARE(back->graphs[0].graph->symbolHints(), hints);
        QVERIFY(printCanonical(*back->graphs[0].graph).find("symbol_hints s0=8 u1=-3\n") == 0);
        QCOMPARE(back->graphs[0].graph->clone()->symbolHints(), hints);
        QVERIFY(back->graphs[0].graph->subgraph("true_graph_0")->symbolHints().empty());
    }

    void fxscopeJsonErrorsPointAtTheValue_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown node")
            << "{\"fxscope\": 1, \"graphs\": [{\"name\": \"g\", \"graph\": {\"nodes\": [\n"
               "  {\"name\": \"a\", \"op\": \"call_function\", \"target\": \"t\", \"args\": [{\"node\": \"zz\"}]}]}}]}"
            << "e.json:2:73: expected a reference to an earlier node, found unknown node \"zz\"";
        QTest::newRow("bad op") << "{\"fxscope\": 1, \"graphs\": [{\"graph\": {\"nodes\": [{\"name\": \"a\", \"op\": "
                                   "\"call\", \"target\": \"t\"}]}}]}"
                                << "e.json:1:68: expected op to be placeholder, get_attr, call_function, call_method, "
                                   "call_module or output, found \"call\"";
        QTest::newRow("duplicate") << "{\"fxscope\": 1, \"graphs\": [{\"graph\": {\"nodes\": [{\"name\": \"a\", "
                                      "\"op\": \"placeholder\", \"target\": \"a\"},"
                                      "{\"name\": \"a\", \"op\": \"placeholder\", \"target\": \"a\"}]}}]}"
                                   << "e.json:1:107: expected a unique node name, found 'a' again";
        QTest::newRow("symbol hints") << "{\"fxscope\": 1, \"graphs\": [{\"graph\": {\"nodes\": [], \"symbol_hints\": "
                                         "{\"s0\": \"8\"}}}]}"
                                      << "e.json:1:74: expected the hint of \"s0\" to be an integer, found a string";
        QTest::newRow("newer version") << "{\"fxscope\": 9, \"graphs\": []}"
                                       << "e.json:1:13: expected fxscope JSON version 1 or older, found version 9";
    }
    void fxscopeJsonErrorsPointAtTheValue()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto r = parseFxscopeJson(text.toStdString(), "e.json");
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().toString()), expected);
    }

    void hundredThousandNodeChain()
    {
        // Every algorithm must be iterative: a 100k-long chain must not overflow the stack.
        auto g = chain(100000);
        QCOMPARE(g->size(), size_t(100002));
        QVERIFY(lint(*g).empty());
        QVERIFY(stableTopologicalSort(*g));
        auto copy = g->clone();
        QCOMPARE(copy->size(), g->size());
        GraphFile file;
        file.graphs.push_back({"chain", "", std::move(copy), 0});
        auto back = parseFxscopeJson(writeFxscopeJson(file), "chain.json");
        QVERIFY(back.ok());
        QCOMPARE(back->graphs[0].graph->size(), size_t(100002));
        QCOMPARE(printCanonical(*back->graphs[0].graph), printCanonical(*g));
        QVERIFY(!writeReadable(*g).empty());
    }

    void readableWriterUsesPythonSyntax()
    {
        auto g = smallGraph();
        std::string code = writeReadable(*g);
        QVERIFY(code.find("class GraphModule(torch.nn.Module):") == 0);
        QVERIFY(code.find("def forward(self, x: \"f32[4, s0][s0, 1]cpu\", y):") != std::string::npos);
        QVERIFY(code.find("add = torch.ops.aten.add.Tensor(x, y, alpha = 2)") != std::string::npos);
        QVERIFY(code.find("return (mul, add)") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestIr)
#include "tst_ir.moc"
