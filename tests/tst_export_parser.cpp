// torch.export serialized JSON and .pt2 archives: the fixtures in data/export (built from the schema by
// python/tools/make_export_fixtures.py) and inline programs for argument kinds and errors.
#include "io/export_json_parser.h"
#include "io/format.h"
#include "io/loader.h"
#include "io/pt2_archive.h"
#include "io/sympy_repr.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace fxs;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kDataDir = std::string(FXSCOPE_TEST_DATA_DIR) + "/export/";

std::string fixtureBytes(const std::string &name)
{
    auto bytes = readFileBytes(kDataDir + name);
    return bytes ? bytes.value() : std::string();
}

// Lint problems of a file's graphs, nested graphs included, joined for a readable failure.
std::string lintAll(const GraphFile &file)
{
    std::string problems;
    for (const auto &g : file.graphs)
        for (const auto &p : lint(*g.graph))
            problems += g.name + ": " + p + "\n";
    return problems;
}

// An ExportedProgram with input x (f32[2, 3]) and the given nodes; returns `outputs`.
std::string program(const std::string &nodes, const std::string &outputs = R"([{"as_tensor": {"name": "y"}}])",
    const std::string &tensorValues = "")
{
    return R"({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}], "outputs": )" + outputs
        + R"(, "nodes": [)" + nodes
        + R"(], "tensor_values": {"x": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 3}], "requires_grad": false,
        "device": {"type": "cpu"}, "strides": [{"as_int": 3}, {"as_int": 1}], "storage_offset": {"as_int": 0},
        "layout": 7})"
        + tensorValues + R"(}, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false,
        "custom_obj_values": {}, "sym_float_values": {}},
        "signature": {"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}], "output_specs": []},
        "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 17},
        "verifiers": [], "torch_version": "test", "guards_code": []})";
}

// test.op(x, <arg>) -> y
std::string programWithArgument(const std::string &arg)
{
    return program(R"({"target": "torch.ops.test.op.default", "inputs": [
        {"name": "self", "arg": {"as_tensor": {"name": "x"}}, "kind": 1}, {"name": "a", "arg": )"
        + arg + R"(, "kind": 1}], "outputs": [{"as_tensor": {"name": "y"}}], "metadata": {}})");
}

// A graph whose one node holds a graph, `levels` times over.
std::string nestedGraphs(int levels)
{
    std::string graph = R"({"inputs": [], "outputs": [], "nodes": []})";
    for (int i = 0; i < levels; ++i)
        graph = R"({"inputs": [], "outputs": [], "nodes": [{"target": "torch.ops.higher_order.wrap", "inputs": [)"
                R"({"name": "", "arg": {"as_graph": {"name": "body", "graph": )"
            + graph + R"(}}}], "outputs": [], "metadata": {}}]})";
    return R"({"graph_module": {"graph": )" + graph + R"(, "signature": {"input_specs": [], "output_specs": []}}})";
}

// 1-based line of the first occurrence of needle in text; 0 when absent.
int lineOf(const std::string &text, const std::string &needle)
{
    size_t pos = text.find(needle);
    if (pos == std::string::npos)
        return 0;
    return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(pos), '\n'));
}

const Node *mustFind(const Graph &g, const char *name)
{
    const Node *n = g.find(name);
    if (!n)
        qWarning("node %s not found", name);
    return n;
}

std::string sizes(const TensorMeta &t)
{
    std::string out;
    for (const auto &s : t.shape)
        out += (out.empty() ? "" : ",") + s.toString();
    return out;
}

} // namespace

class TestExportParser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixtures_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("placeholders");
        QTest::addColumn<int>("calls");
        QTest::addColumn<int>("getAttrs");
        QTest::addColumn<int>("subgraphs");
        // Counts are those of the FX graph torch.export's deserializer builds (getitems included).
        QTest::newRow("mlp") << "mlp" << 12 << 6 << 5 << 0 << 0;
        QTest::newRow("var_mean") << "var_mean" << 13 << 1 << 11 << 0 << 0;
        QTest::newRow("cond") << "cond" << 9 << 1 << 5 << 2 << 2;
        QTest::newRow("symbolic") << "symbolic" << 10 << 2 << 7 << 0 << 0;
        QTest::newRow("nonfinite") << "nonfinite" << 9 << 2 << 6 << 0 << 0;
    }

    void fixtures()
    {
        QFETCH(QString, name);
        QFETCH(int, nodes);
        QFETCH(int, placeholders);
        QFETCH(int, calls);
        QFETCH(int, getAttrs);
        QFETCH(int, subgraphs);
        const std::string base = name.toStdString();
        std::string canonical;
        for (const std::string suffix : {".json", ".pt2", ".legacy.pt2"}) {
            auto file = loadGraphFile(kDataDir + base + suffix);
            QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
            QCOMPARE(file->format, std::string(suffix == ".json" ? format::ExportJson : format::Pt2));
            QCOMPARE(file->graphs.size(), size_t(1));
            QVERIFY2(file->warnings.empty(), file->warnings.empty() ? "" : file->warnings[0].toString().c_str());
            QCOMPARE(file->graphs[0].name, std::string(suffix == ".pt2" ? "model" : "forward"));
            const Graph &g = *file->graphs[0].graph;
            QCOMPARE(int(g.size()), nodes);
            int p = 0, c = 0, a = 0;
            for (const auto &n : g.nodes()) {
                p += n->op() == OpKind::Placeholder;
                c += n->op() == OpKind::CallFunction;
                a += n->op() == OpKind::GetAttr;
            }
            QCOMPARE(p, placeholders);
            QCOMPARE(c, calls);
            QCOMPARE(a, getAttrs);
            QCOMPARE(int(g.subgraphs().size()), subgraphs);
            QCOMPARE(g.nodes().back()->op(), OpKind::Output);
            QCOMPARE(lintAll(file.value()), std::string());
            // Both archive layouts hold the same program as the bare JSON.
            std::string text = printCanonical(g);
            if (canonical.empty())
                canonical = text;
            QCOMPARE(text, canonical);
        }
    }

    void mlpParametersAndKeywords()
    {
        const std::string text = fixtureBytes("mlp.json");
        auto file = parseExportJson(text, "mlp.json");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;

        std::vector<std::string> names;
        for (const Node *p : g.placeholders())
            names.push_back(p->name());
        QCOMPARE(names,
            (std::vector<std::string>{
                "p_fc1_weight", "p_fc1_bias", "p_block_0_weight", "p_block_0_bias", "b_scale", "x"}));
        const Node *w = mustFind(g, "p_fc1_weight");
        QVERIFY(w);
        QCOMPARE(w->meta().extra["input_spec"]["kind"].toString(), std::string("parameter"));
        QCOMPARE(w->meta().extra["input_spec"]["target"].toString(), std::string("fc1.weight"));
        const Node *buffer = mustFind(g, "b_scale");
        QVERIFY(buffer);
        QCOMPARE(buffer->meta().extra["input_spec"]["kind"].toString(), std::string("buffer"));
        QCOMPARE(buffer->meta().extra["input_spec"]["target"].toString(), std::string("scale"));
        QCOMPARE(buffer->meta().extra["input_spec"]["persistent"].toBool(), true);
        QCOMPARE(mustFind(g, "x")->meta().extra["input_spec"]["kind"].toString(), std::string("user_input"));
        QCOMPARE(w->meta().val->tensor.dtype, std::string("torch.float32"));
        QCOMPARE(sizes(w->meta().val->tensor), std::string("32,16"));

        const Node *linear = mustFind(g, "linear");
        QVERIFY(linear);
        QCOMPARE(linear->target(), std::string("torch.ops.aten.linear.default"));
        QCOMPARE(linear->args().size(), size_t(3));
        QVERIFY(linear->kwargs().empty());
        QCOMPARE(linear->args()[0].node(), g.find("x"));
        QCOMPARE(linear->args()[2].node(), g.find("p_fc1_bias"));
        QVERIFY(linear->meta().source.has_value());
        QCOMPARE(linear->meta().source->file, std::string("/home/user/models/mlp.py"));
        QCOMPARE(linear->meta().source->line, 14);
        QCOMPARE(linear->meta().source->function, std::string("forward"));
        QCOMPARE(linear->meta().source->code, std::string("x = self.fc1(x)"));
        QVERIFY(linear->meta().stackTrace.find("module.py") != std::string::npos);
        QCOMPARE(linear->meta().nnModuleStack.size(), size_t(1));
        QCOMPARE(linear->meta().nnModuleStack[0].key, std::string("L__self___fc1"));
        QCOMPARE(linear->meta().nnModuleStack[0].path, std::string("L['self'].fc1"));
        QCOMPARE(linear->meta().nnModuleStack[0].type, std::string("torch.nn.modules.linear.Linear"));
        QCOMPARE(linear->meta().extra["source_fn_stack"].toString(), std::string("fc1,torch.nn.modules.linear.Linear"));
        QCOMPARE(linear->meta().extra["torch_fn"].toString(), std::string("linear;builtin_function_or_method.linear"));
        QVERIFY(!linear->meta().extra.find("stack_trace"));
        // The node's line is where its object starts: the line before its "target".
        QCOMPARE(linear->meta().dumpLine, lineOf(text, "\"target\": \"torch.ops.aten.linear.default\"") - 1);

        // A module path with a comma inside parentheses stays one field.
        const auto &stack = mustFind(g, "linear_1")->meta().nnModuleStack;
        QCOMPARE(stack.size(), size_t(2));
        QCOMPARE(stack[0].path, std::string("L['self'].block"));
        QCOMPARE(stack[0].type, std::string("torch.nn.modules.container.Sequential"));
        QCOMPARE(stack[1].key, std::string("L__self___block_0"));
        QCOMPARE(stack[1].path, std::string("getattr(L['self'].block, '0')"));
        QCOMPARE(stack[1].type, std::string("torch.nn.modules.linear.Linear"));

        const Node *copy = mustFind(g, "_to_copy");
        QVERIFY(copy);
        QCOMPARE(copy->args().size(), size_t(1));
        QCOMPARE(copy->kwargs().size(), size_t(4));
        QCOMPARE(copy->kwarg("dtype")->kind(), Argument::Kind::Dtype);
        QCOMPARE(copy->kwarg("dtype")->text(), std::string("torch.float16"));
        QCOMPARE(copy->kwarg("layout")->text(), std::string("torch.strided"));
        QCOMPARE(copy->kwarg("device")->kind(), Argument::Kind::Device);
        QCOMPARE(copy->kwarg("device")->text(), std::string("cpu"));
        QCOMPARE(copy->kwarg("memory_format")->text(), std::string("torch.contiguous_format"));
        const TensorMeta &t = copy->meta().val->tensor;
        QCOMPARE(t.dtype, std::string("torch.float16"));
        QCOMPARE(sizes(t), std::string("8,4"));
        QVERIFY(t.hasStride);
        QCOMPARE(t.stride[0].value, int64_t(4));
        QCOMPARE(t.stride[1].value, int64_t(1));
        QCOMPARE(t.device, std::string("cpu"));
        QCOMPARE(copy->meta().val->toAnnotation(), std::string("f16[8, 4][4, 1]cpu"));

        // The deserializer returns a tuple; program-level data rides on the output node.
        const Node *out = g.outputNode();
        QCOMPARE(out->args().size(), size_t(1));
        QCOMPARE(out->args()[0].kind(), Argument::Kind::Tuple);
        QCOMPARE(out->args()[0].items()[0].node(), copy);
        QVERIFY(out->meta().extra["signature"]["input_specs"].isArray());
        QCOMPARE(out->meta().extra["signature"]["input_specs"].size(), size_t(6));
        QVERIFY(out->meta().extra["range_constraints"].isObject());
        QCOMPARE(out->meta().extra["module_call_graph"].size(), size_t(4));
        QCOMPARE(out->meta().extra["schema_version"]["major"].toInt(), int64_t(8));
        QCOMPARE(out->meta().val->kind, ValueMeta::Kind::Tuple);
    }

    void multiOutputGetitems()
    {
        auto file = loadGraphFile(kDataDir + "var_mean.json");
        QVERIFY(file.ok());
        const Graph &g = *file->graphs[0].graph;
        const Node *vm = mustFind(g, "var_mean_correction");
        QVERIFY(vm);
        QCOMPARE(vm->target(), std::string("torch.ops.aten.var_mean.correction"));
        QCOMPARE(vm->args().size(), size_t(2));
        QCOMPARE(vm->args()[1].toFxText(), std::string("[1]"));
        QCOMPARE(vm->kwargs().size(), size_t(2));
        QCOMPARE(vm->kwarg("correction")->toInt(), int64_t(0));
        QCOMPARE(vm->kwarg("keepdim")->kind(), Argument::Kind::Bool);
        QVERIFY(vm->kwarg("keepdim")->toBool());
        QCOMPARE(vm->meta().val->kind, ValueMeta::Kind::Tuple);
        QCOMPARE(vm->meta().val->items.size(), size_t(2));
        QCOMPARE(vm->users().size(), size_t(2));
        for (int i = 0; i < 2; ++i) {
            const Node *item = vm->users()[size_t(i)];
            QCOMPARE(item->name(), std::string(i == 0 ? "getitem" : "getitem_1"));
            QCOMPARE(item->target(), std::string("operator.getitem"));
            QCOMPARE(item->args()[0].node(), vm);
            QCOMPARE(item->args()[1].toInt(), int64_t(i));
            QCOMPARE(sizes(item->meta().val->tensor), std::string("4,1"));
            // getitems carry the op's stack trace, as in the deserializer.
            QCOMPARE(item->meta().source->line, 7);
        }
        QCOMPARE(mustFind(g, "sub")->args()[1].node(), g.find("getitem_1"));
        QCOMPARE(mustFind(g, "add")->args()[1].kind(), Argument::Kind::Float);
        QCOMPARE(mustFind(g, "add")->args()[1].toDouble(), 1e-05);

        // A Tensor[] return (one as_tensors output) gets getitems too.
        const Node *split = mustFind(g, "split_tensor");
        QVERIFY(split);
        QCOMPARE(split->target(), std::string("torch.ops.aten.split.Tensor"));
        QCOMPARE(split->users().size(), size_t(2));
        QCOMPARE(split->users()[0]->name(), std::string("getitem_2"));
        QCOMPARE(split->users()[1]->name(), std::string("getitem_3"));
        QCOMPARE(mustFind(g, "getitem_3")->meta().val->toAnnotation(), std::string("f32[4, 4][8, 1]cpu"));
        const Node *out = g.outputNode();
        QCOMPARE(out->args()[0].toFxText(), std::string("(%add_1, %getitem_1)"));
    }

    void condSubgraphs()
    {
        auto file = loadGraphFile(kDataDir + "cond.json");
        QVERIFY(file.ok());
        const Graph &g = *file->graphs[0].graph;
        QCOMPARE(g.subgraphs().size(), size_t(2));
        QCOMPARE(g.subgraphs()[0].first, std::string("true_graph_0"));
        QCOMPARE(g.subgraphs()[1].first, std::string("false_graph_0"));
        const Node *cond = mustFind(g, "cond");
        QVERIFY(cond);
        QCOMPARE(cond->target(), std::string("torch.ops.higher_order.cond"));
        QCOMPARE(cond->args().size(), size_t(4));
        QVERIFY(cond->kwargs().empty());
        QCOMPARE(cond->args()[0].node(), g.find("gt"));
        for (int i = 0; i < 2; ++i) {
            const Node *attr = cond->args()[size_t(i + 1)].node();
            QVERIFY(attr);
            QCOMPARE(attr->op(), OpKind::GetAttr);
            QCOMPARE(attr->name(), g.subgraphs()[size_t(i)].first);
            QCOMPARE(attr->target(), attr->name());
            QVERIFY(g.subgraph(attr->target()));
            QCOMPARE(attr->meta().source->line, 11); // the HOP's metadata, as the deserializer lends it
            QVERIFY(attr->index() < cond->index());
        }
        QCOMPARE(cond->args()[3].toFxText(), std::string("[%x]"));
        QCOMPARE(cond->users().size(), size_t(1));
        QCOMPARE(cond->users()[0]->name(), std::string("getitem"));
        const Graph *tg = g.subgraph("true_graph_0");
        QCOMPARE(tg->size(), size_t(3));
        QCOMPARE(tg->nodes()[0]->name(), std::string("arg0_1"));
        QCOMPARE(tg->nodes()[1]->target(), std::string("torch.ops.aten.cos.default"));
        QCOMPARE(tg->outputNode()->args()[0].toFxText(), std::string("(%cos,)"));
        QCOMPARE(g.subgraph("false_graph_0")->nodes()[1]->target(), std::string("torch.ops.aten.sin.default"));
        QCOMPARE(mustFind(*tg, "cos")->meta().val->toAnnotation(), std::string("f32[4, 4][4, 1]cpu"));
    }

    void symbolicShapes()
    {
        auto file = loadGraphFile(kDataDir + "symbolic.json");
        QVERIFY(file.ok());
        const Graph &g = *file->graphs[0].graph;
        const TensorMeta &x = mustFind(g, "x")->meta().val->tensor;
        QVERIFY(!x.shape[0].isConcrete());
        QCOMPARE(x.shape[0].expr, std::string("s0"));
        QCOMPARE(x.shape[1].value, int64_t(4));
        const Node *n = mustFind(g, "n");
        QCOMPARE(n->op(), OpKind::Placeholder);
        QCOMPARE(n->meta().val->kind, ValueMeta::Kind::SymInt);
        QCOMPARE(n->meta().val->expr, std::string("s1"));
        QCOMPARE(n->meta().extra["input_spec"]["kind"].toString(), std::string("user_input"));
        // The hints of bare symbols (x's size s0, the input n = s1); 2*s0's hint adds nothing.
        QCOMPARE(g.symbolHints(), (std::map<std::string, int64_t>{{"s0", 8}, {"s1", 3}}));

        const Node *size = mustFind(g, "sym_size_int");
        QCOMPARE(size->target(), std::string("torch.ops.aten.sym_size.int"));
        QCOMPARE(size->meta().val->toAnnotation(), std::string("Sym(s0)"));
        const Node *mul = mustFind(g, "mul");
        QCOMPARE(mul->target(), std::string("operator.mul"));
        QCOMPARE(mul->args()[0].node(), size);
        QCOMPARE(mul->args()[1].toInt(), int64_t(2));
        QCOMPARE(mul->meta().val->expr, std::string("2*s0"));
        QCOMPARE(mustFind(g, "ge")->meta().val->kind, ValueMeta::Kind::SymBool);
        // A None-returning op is named like the deserializer's "<target>_unused" (torch 2.13 serialize.py).
        const Node *assertion = mustFind(g, "_assert_scalar_default_unused");
        QVERIFY(assertion);
        QCOMPARE(assertion->args()[0].node(), g.find("ge"));
        QCOMPARE(assertion->args()[1].kind(), Argument::Kind::String);

        const Node *view = mustFind(g, "view");
        QCOMPARE(view->args()[1].toFxText(), std::string("[%mul, 2]"));
        QCOMPARE(view->meta().val->toAnnotation(), std::string("f32[2*s0, 2][2, 1]cpu"));
        QCOMPARE(mustFind(g, "add")->args()[1].node(), n);

        const Node *out = g.outputNode();
        QCOMPARE(out->args()[0].toFxText(), std::string("(%relu, %add)"));
        const Json &rc = out->meta().extra["range_constraints"];
        QCOMPARE(rc["s0"]["min_val"].toInt(), int64_t(2));
        QCOMPARE(rc["s0"]["max_val"].toInt(), int64_t(1024));
        QCOMPARE(rc["s1"]["max_val"].toInt(), int64_t(64));
    }

    // torch 2.13 writes symbolic sizes as sympy's srepr; fxscope keeps them as the Python text torch prints.
    void sympyReprSizes_data()
    {
        QTest::addColumn<QString>("srepr");
        QTest::addColumn<QString>("text");
        QTest::newRow("symbol") << "Symbol('s77', positive=True, integer=True)" << "s77";
        QTest::newRow("product") << "Mul(Integer(2), Symbol('s0', integer=True))" << "2*s0";
        QTest::newRow("sum") << "Add(Symbol('s0'), Integer(-1))" << "s0 - 1";
        QTest::newRow("negated") << "Mul(NegativeOne(), Symbol('u0'))" << "-u0";
        QTest::newRow("sum in product") << "Mul(Integer(4), Add(Symbol('s0'), Integer(1)))" << "4*(s0 + 1)";
        QTest::newRow("power") << "Pow(Symbol('s1'), Integer(2))" << "s1**2";
        QTest::newRow("function") << "FloorDiv(Symbol('s0', integer=True), Integer(2))" << "FloorDiv(s0, 2)";
        QTest::newRow("already text") << "2*s0 + 1" << "2*s0 + 1";
        QTest::newRow("cut short, kept") << "Mul(Integer(2), Symbol('s0'" << "Mul(Integer(2), Symbol('s0'";
        QTest::newRow("too deep, kept") << QString("Mul(").repeated(100) + "Integer(1)" + QString(")").repeated(100)
                                        << QString("Mul(").repeated(100) + "Integer(1)" + QString(")").repeated(100);
    }
    void sympyReprSizes()
    {
        QFETCH(QString, srepr);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(sympyReprToText(srepr.toStdString())), text);
    }

    // The transformer block torch 2.13 exported with a dynamic batch (tests/data/torch2): its input's batch is the
    // symbol s77 with its hint, as torch.export.load reads it.
    void torch213DynamicBatch()
    {
        auto file = loadGraphFile(std::string(FXSCOPE_TEST_DATA_DIR) + "/torch2/export/transformer.pt2");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        const TensorMeta &x = mustFind(g, "x")->meta().val->tensor;
        QCOMPARE(x.shape[0].expr, std::string("s77"));
        QCOMPARE(g.symbolHints().count("s77"), size_t(1));
    }

    void nonFiniteFloats()
    {
        auto file = loadGraphFile(kDataDir + "nonfinite.json");
        QVERIFY(file.ok());
        const Graph &g = *file->graphs[0].graph;
        const Node *clamp = mustFind(g, "clamp");
        QCOMPARE(clamp->args()[1].kind(), Argument::Kind::Float);
        QVERIFY(std::isinf(clamp->args()[1].toDouble()) && clamp->args()[1].toDouble() < 0);
        QCOMPARE(clamp->args()[2].toDouble(), 6.0);
        const Node *full = mustFind(g, "full");
        QCOMPARE(full->args()[0].toFxText(), std::string("[2, 4]"));
        QVERIFY(std::isnan(full->args()[1].toDouble()));
        QCOMPARE(full->kwarg("device")->text(), std::string("cuda:0"));
        QCOMPARE(full->kwarg("device")->toPython(), std::string("device(type='cuda', index=0)"));
        QCOMPARE(full->kwarg("dtype")->text(), std::string("torch.float32"));
        QCOMPARE(full->kwarg("pin_memory")->kind(), Argument::Kind::Bool);
        const Node *fix = mustFind(g, "nan_to_num");
        QCOMPARE(fix->args()[1].toDouble(), 0.0);
        QVERIFY(std::isinf(fix->args()[2].toDouble()) && fix->args()[2].toDouble() > 0);
        QVERIFY(fix->args()[3].isNone());
        QCOMPARE(mustFind(g, "index")->args()[1].toFxText(), std::string("[%idx, None]"));
        QCOMPARE(mustFind(g, "div")->kwarg("rounding_mode")->kind(), Argument::Kind::String);
        QCOMPARE(mustFind(g, "div")->kwarg("rounding_mode")->text(), std::string("floor"));
        QCOMPARE(mustFind(g, "x")->meta().val->tensor.device, std::string("cuda:0"));
        QCOMPARE(mustFind(g, "idx")->meta().val->tensor.dtype, std::string("torch.int64"));
    }

    void argumentKinds_data()
    {
        QTest::addColumn<std::string>("json");
        QTest::addColumn<std::string>("python");
        QTest::addColumn<std::string>("kind");
        QTest::newRow("int") << std::string(R"({"as_int": 3})") << std::string("3") << std::string("int");
        QTest::newRow("ints") << std::string(R"({"as_ints": [1, -2]})") << std::string("[1, -2]")
                              << std::string("list");
        QTest::newRow("float") << std::string(R"({"as_float": 2.5})") << std::string("2.5") << std::string("float");
        QTest::newRow("inf") << std::string(R"({"as_float": "Infinity"})") << std::string("inf")
                             << std::string("float");
        QTest::newRow("-inf") << std::string(R"({"as_float": "-Infinity"})") << std::string("-inf")
                              << std::string("float");
        QTest::newRow("nan") << std::string(R"({"as_float": "NaN"})") << std::string("nan") << std::string("float");
        QTest::newRow("floats") << std::string(R"({"as_floats": [1.5, "NaN", "-Infinity"]})")
                                << std::string("[1.5, nan, -inf]") << std::string("list");
        QTest::newRow("string") << std::string(R"({"as_string": "floor"})") << std::string("'floor'")
                                << std::string("str");
        QTest::newRow("strings") << std::string(R"({"as_strings": ["a", "b"]})") << std::string("['a', 'b']")
                                 << std::string("list");
        QTest::newRow("bool") << std::string(R"({"as_bool": true})") << std::string("True") << std::string("bool");
        QTest::newRow("bools") << std::string(R"({"as_bools": [true, false]})") << std::string("[True, False]")
                               << std::string("list");
        QTest::newRow("none") << std::string(R"({"as_none": true})") << std::string("None") << std::string("none");
        QTest::newRow("tensor") << std::string(R"({"as_tensor": {"name": "x"}})") << std::string("x")
                                << std::string("node");
        QTest::newRow("tensors") << std::string(R"({"as_tensors": [{"name": "x"}, {"name": "x"}]})")
                                 << std::string("[x, x]") << std::string("list");
        QTest::newRow("optional tensors")
            << std::string(R"({"as_optional_tensors": [{"as_none": true}, {"as_tensor": {"name": "x"}}]})")
            << std::string("[None, x]") << std::string("list");
        QTest::newRow("scalar type") << std::string(R"({"as_scalar_type": 13})") << std::string("torch.bfloat16")
                                     << std::string("dtype");
        QTest::newRow("fp8") << std::string(R"({"as_scalar_type": 29})") << std::string("torch.float8_e4m3fn")
                             << std::string("dtype");
        QTest::newRow("unknown scalar type") << std::string(R"({"as_scalar_type": 99})")
                                             << std::string(R"({"as_scalar_type":99})") << std::string("repr");
        QTest::newRow("memory format") << std::string(R"({"as_memory_format": 2})")
                                       << std::string("torch.channels_last") << std::string("memory_format");
        QTest::newRow("layout") << std::string(R"({"as_layout": 1})") << std::string("torch.sparse_coo")
                                << std::string("layout");
        QTest::newRow("device") << std::string(R"({"as_device": {"type": "cuda", "index": 1}})")
                                << std::string("device(type='cuda', index=1)") << std::string("device");
        QTest::newRow("device no index") << std::string(R"({"as_device": {"type": "npu"}})")
                                         << std::string("device(type='npu')") << std::string("device");
        QTest::newRow("sym int literal") << std::string(R"({"as_sym_int": {"as_int": 5}})") << std::string("5")
                                         << std::string("int");
        QTest::newRow("sym ints") << std::string(R"({"as_sym_ints": [{"as_name": "x"}, {"as_int": 4}]})")
                                  << std::string("[x, 4]") << std::string("list");
        QTest::newRow("sym bool") << std::string(R"({"as_sym_bool": {"as_bool": false}})") << std::string("False")
                                  << std::string("bool");
        QTest::newRow("sym float") << std::string(R"({"as_sym_float": {"as_float": 0.5}})") << std::string("0.5")
                                   << std::string("float");
        QTest::newRow("complex") << std::string(R"({"as_complex": {"real": 1.0, "imag": -2.0}})")
                                 << std::string("(1-2j)") << std::string("repr");
        QTest::newRow("imaginary") << std::string(R"({"as_complex": {"real": 0.0, "imag": 0.5}})")
                                   << std::string("0.5j") << std::string("repr");
        QTest::newRow("dict") << std::string(
            R"({"as_string_to_argument": {"a": {"as_int": 1}, "b": {"as_tensor": {"name": "x"}}}})")
                              << std::string("{'a': 1, 'b': x}") << std::string("dict");
        QTest::newRow("operator") << std::string(R"({"as_operator": "aten::add.Tensor"})")
                                  << std::string("torch.ops.aten.add.Tensor") << std::string("repr");
        QTest::newRow("custom obj constant")
            << std::string(R"({"as_custom_obj": {"name": "obj0", "class_fqn": "__torch__.Foo"}})")
            << std::string("obj0") << std::string("repr");
        QTest::newRow("int lists") << std::string(R"({"as_int_lists": [[1, 2], [3]]})") << std::string("[[1, 2], [3]]")
                                   << std::string("list");
        QTest::newRow("unknown union") << std::string(R"({"as_future_thing": [1, {"k": null}]})")
                                       << std::string(R"({"as_future_thing":[1,{"k":null}]})") << std::string("repr");
        QTest::newRow("not a union") << std::string("42") << std::string("42") << std::string("repr");
    }

    void argumentKinds()
    {
        QFETCH(std::string, json);
        QFETCH(std::string, python);
        QFETCH(std::string, kind);
        auto file = parseExportJson(programWithArgument(json), "arg.json");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        const Node *y = g.find("y");
        QVERIFY(y);
        QCOMPARE(y->args().size(), size_t(2));
        QCOMPARE(y->args()[1].toPython(), python);
        QCOMPARE(std::string(kindName(y->args()[1].kind())), kind);
        QCOMPARE(lintAll(file.value()), std::string());
        // self=x is always one use; references inside the argument add no second user but are inputs.
        QCOMPARE(g.find("x")->users().size(), size_t(1));
        QCOMPARE(y->inputNodes().size(), size_t(1));
    }

    void argumentPlacement_data()
    {
        QTest::addColumn<std::string>("target");
        QTest::addColumn<std::string>("inputs");
        QTest::addColumn<std::string>("expected"); // the node's call as canonical text shows it
        const std::string x = R"({"as_tensor": {"name": "x"}})";
        QTest::newRow("kinds") << std::string("torch.ops.aten.add.Tensor")
                               << R"([{"name": "self", "arg": )" + x + R"(, "kind": 1}, {"name": "other", "arg": )" + x
                + R"(, "kind": 1}, {"name": "alpha", "arg": {"as_int": 2}, "kind": 2}])"
                               << std::string("(%x, %x, alpha=2)");
        QTest::newRow("no kinds: positional until a keyword")
            << std::string("torch.ops.aten.add.Tensor")
            << R"([{"name": "self", "arg": )" + x + R"(}, {"name": "other", "arg": )" + x
                + R"(}, {"name": "alpha", "arg": {"as_int": 2}, "kind": 2}, {"name": "beta", "arg": {"as_int": 3}}])"
            << std::string("(%x, %x, alpha=2, beta=3)");
        QTest::newRow("kind 0 is unknown")
            << std::string("torch.ops.aten.relu.default") << R"([{"name": "self", "arg": )" + x + R"(, "kind": 0}])"
            << std::string("(%x)");
        QTest::newRow("hop: named inputs are keywords")
            << std::string("torch.ops.higher_order.foo")
            << R"([{"name": "", "arg": )" + x + R"(}, {"name": "mode", "arg": {"as_string": "fast"}}])"
            << std::string("(%x, mode=fast)");
        QTest::newRow("python callables take everything positionally")
            << std::string("_operator.add")
            << std::string(
                   R"([{"name": "a", "arg": {"as_int": 1}, "kind": 2}, {"name": "b", "arg": {"as_int": 2}, "kind": 2}])")
            << std::string("(1, 2)");
        QTest::newRow("duplicate keyword keeps the last") << std::string("torch.ops.aten.relu.default")
                                                          << R"([{"name": "self", "arg": )" + x
                + R"(, "kind": 1}, {"name": "k", "arg": {"as_int": 1}, "kind": 2}, {"name": "k", "arg": {"as_int": 5}, "kind": 2}])"
                                                          << std::string("(%x, k=5)");
    }

    void argumentPlacement()
    {
        QFETCH(std::string, target);
        QFETCH(std::string, inputs);
        QFETCH(std::string, expected);
        // A HOP marked as returning one tensor is named after it (unmarked, it would return a tuple).
        auto file = parseExportJson(program(R"({"target": ")" + target + R"(", "inputs": )" + inputs
                                        + R"(, "outputs": [{"as_tensor": {"name": "y"}}], "metadata": {},)"
                                        + R"( "is_hop_single_tensor_return": true})"),
            "placement.json");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Node *y = file->graphs[0].graph->find("y");
        QVERIFY(y);
        std::string call = printCanonical(*file->graphs[0].graph);
        size_t at = call.find("%y = call_function[" + normalizeExportTarget(target) + "]");
        QVERIFY2(at != std::string::npos, call.c_str());
        size_t open = call.find("](", at) + 1;
        size_t close = call.find(") users=", open);
        QCOMPARE(call.substr(open, close - open + 1), expected);
    }

    void targets_data()
    {
        QTest::addColumn<std::string>("serialized");
        QTest::addColumn<std::string>("fx");
        QTest::newRow("overload") << std::string("torch.ops.aten.add.Tensor")
                                  << std::string("torch.ops.aten.add.Tensor");
        QTest::newRow("_operator") << std::string("_operator.getitem") << std::string("operator.getitem");
        QTest::newRow("module path") << std::string("torch._ops.aten.mm.default")
                                     << std::string("torch.ops.aten.mm.default");
        QTest::newRow("schema name") << std::string("aten::add.Tensor") << std::string("torch.ops.aten.add.Tensor");
        QTest::newRow("schema name, default overload")
            << std::string("aten::relu") << std::string("torch.ops.aten.relu.default");
        QTest::newRow("short aten") << std::string("aten.relu.default") << std::string("torch.ops.aten.relu.default");
        QTest::newRow("hop") << std::string("torch.ops.higher_order.cond")
                             << std::string("torch.ops.higher_order.cond");
        QTest::newRow("math") << std::string("math.ceil") << std::string("math.ceil");
        QTest::newRow("sym") << std::string("torch.sym_float") << std::string("torch.sym_float");
    }

    void targets()
    {
        QFETCH(std::string, serialized);
        QFETCH(std::string, fx);
        QCOMPARE(normalizeExportTarget(serialized), fx);
        auto file = parseExportJson(program(R"({"target": ")" + serialized
                                        + R"(", "inputs": [], "outputs": [{"as_tensor": {"name": "y"}}],)"
                                        + R"( "is_hop_single_tensor_return": true})"),
            "t.json");
        QVERIFY(file.ok());
        QCOMPARE(file->graphs[0].graph->find("y")->target(), fx);
    }

    void outputNaming()
    {
        // No outputs: a fresh name from the op; a literal-only output: the same.
        auto file
            = parseExportJson(program(R"({"target": "torch.ops.aten._assert_async.msg", "inputs": [], "outputs": []},
                       {"target": "torch.ops.aten.relu.default", "inputs": [], "outputs": [{"as_int": 3}]},
                       {"target": "torch.ops.aten.relu.default", "inputs": [], "outputs": [{"as_tensor": {"name": "y"}}]},
                       {"target": "torch.ops.test.pair.default", "inputs": [],
                        "outputs": [{"as_tensors": [{"name": "a"}, {"name": "b"}]}, {"as_none": true}, {"as_tensor": {"name": "c"}}]})",
                                  R"([{"as_tensor": {"name": "c"}}, {"as_tensor": {"name": "b"}}])"),
                "naming.json");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QVERIFY(g.find("_assert_async_msg"));
        QVERIFY(g.find("relu_default"));
        QVERIFY(g.find("y"));
        // Nested list output: getitem(op, 0) holds a list whose items are getitems again.
        const Node *pair = g.find("pair_default");
        QVERIFY(pair);
        QCOMPARE(pair->users().size(), size_t(3));
        const Node *list = pair->users()[0];
        QCOMPARE(list->name(), std::string("getitem"));
        QCOMPARE(list->users().size(), size_t(2));
        QCOMPARE(list->users()[0]->name(), std::string("a"));
        QCOMPARE(list->users()[1]->args()[1].toInt(), int64_t(1));
        // The None output gets a getitem too, named "as_none" as the deserializer names it.
        QCOMPARE(pair->users()[1]->name(), std::string("as_none"));
        QCOMPARE(pair->users()[1]->args()[1].toInt(), int64_t(1));
        QVERIFY(!pair->users()[1]->meta().val);
        QCOMPARE(pair->users()[2]->name(), std::string("c"));
        QCOMPARE(pair->users()[2]->args()[1].toInt(), int64_t(2));
        QCOMPARE(g.outputNode()->args()[0].toFxText(), std::string("(%c, %b)"));
        QCOMPARE(lintAll(file.value()), std::string());
    }

    // torch 2.13's deserializer (serialize.py deserialize_node/deserialize_outputs), as real archives need it
    // (tests/data/torch2/export/cond.pt2): a HOP with one tensor output returns a one-element tuple unless it is
    // marked is_hop_single_tensor_return, and an op with several outputs takes its serialized Node.name.
    void hopOutputsAndNodeNames_data()
    {
        QTest::addColumn<std::string>("node"); // the serialized node after "target"
        QTest::addColumn<std::string>("expected"); // canonical text of the nodes after x
        const std::string cond
            = R"("torch.ops.higher_order.cond", "inputs": [], )" R"("outputs": [{"as_tensor": {"name": "y"}}])";
        QTest::newRow("hop, flag false: tuple") << cond + R"(, "is_hop_single_tensor_return": false, "name": "cond")"
                                                << std::string("cond=cond() y=getitem(cond, 0)");
        QTest::newRow("hop, flag null: tuple") << cond + R"(, "is_hop_single_tensor_return": null)"
                                               << std::string("cond=cond() y=getitem(cond, 0)");
        QTest::newRow("hop, no flag: tuple") << cond << std::string("cond=cond() y=getitem(cond, 0)");
        QTest::newRow("hop, flag true: the tensor") << cond + R"(, "is_hop_single_tensor_return": true, "name": "c")"
                                                    << std::string("y=cond()");
        QTest::newRow("hop, None output") << std::string(
            R"("torch.ops.higher_order.foo", "inputs": [], "outputs": [{"as_none": true}], "name": "foo")")
                                          << std::string("foo_unused=foo()");
        const std::string split
            = R"("torch.ops.aten.split.Tensor", "inputs": [], )"
              R"("outputs": [{"as_tensors": [{"name": "a"}, {"name": "y"}]}])";
        QTest::newRow("several outputs, Node.name") << split + R"(, "name": "split")"
                                                    << std::string("split=split.Tensor() a=getitem(split, 0) "
                                                                   "y=getitem(split, 1)");
        QTest::newRow("several outputs, no Node.name") << split
                                                       << std::string("split_tensor=split.Tensor() "
                                                                      "a=getitem(split_tensor, 0) "
                                                                      "y=getitem(split_tensor, 1)");
        QTest::newRow("one output: its name wins") << std::string(
            R"("torch.ops.aten.relu.default", "inputs": [], "outputs": [{"as_tensor": {"name": "y"}}], "name": "r")")
                                                   << std::string("y=relu.default()");
    }

    void hopOutputsAndNodeNames()
    {
        QFETCH(std::string, node);
        QFETCH(std::string, expected);
        auto file = parseExportJson(program(R"({"target": )" + node + "}", "[]"), "hop.json");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        std::string actual;
        for (const auto &n : g.nodes()) {
            if (n->op() != OpKind::CallFunction)
                continue;
            std::string target = n->target(); // shortened: "cond", "split.Tensor", "getitem"
            for (const char *prefix : {"torch.ops.higher_order.", "torch.ops.aten.", "operator."})
                if (target.rfind(prefix, 0) == 0)
                    target = target.substr(std::strlen(prefix));
            std::string args;
            for (const auto &a : n->args())
                args += (args.empty() ? "" : ", ") + (a.isNode() ? a.node()->name() : a.toFxText());
            actual += (actual.empty() ? "" : " ") + n->name() + "=" + target + "(" + args + ")";
        }
        QVERIFY2(actual == expected, ("actual:   " + actual + "\nexpected: " + expected).c_str());
        QCOMPARE(lintAll(file.value()), std::string());
    }

    void singleTensorReturn()
    {
        std::string text = program(
            R"({"target": "torch.ops.aten.relu.default", "inputs": [], "outputs": [{"as_tensor": {"name": "y"}}]})");
        text.replace(text.find("\"is_single_tensor_return\": false"), 32, "\"is_single_tensor_return\": true ");
        auto file = parseExportJson(text, "single.json");
        QVERIFY(file.ok());
        const Node *out = file->graphs[0].graph->outputNode();
        QVERIFY(out->args()[0].isNode());
        QCOMPARE(out->args()[0].node()->name(), std::string("y"));
    }

    void nestingLimit()
    {
        auto ok = parseExportJson(nestedGraphs(60), "deep.json");
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
        int depth = 0;
        for (const Graph *g = ok->graphs[0].graph.get(); !g->subgraphs().empty(); g = g->subgraphs()[0].second.get())
            ++depth;
        QCOMPARE(depth, 60);
        QCOMPARE(lintAll(ok.value()), std::string());
        auto deep = parseExportJson(nestedGraphs(70), "deep.json");
        QVERIFY(!deep.ok());
        QVERIFY2(deep.error().message.find("nested at most 64") != std::string::npos, deep.error().toString().c_str());
        QCOMPARE(deep.error().line, 1);
        QVERIFY(deep.error().column > 1);
    }

    void errors_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("where"); // FILE:LINE:COL the error must start with
        QTest::addColumn<std::string>("what"); // a fragment of its message
        QTest::newRow("truncated JSON") << std::string("{\"graph_module\": {\n  \"graph\": {\"nodes\": [")
                                        << std::string("bad.json:2:") << std::string("expected a JSON value");
        QTest::newRow("not an ExportedProgram") << std::string("\n  {\"schema_version\": {\"major\": 8}, \"x\": 1}")
                                                << std::string("bad.json:2:3:") << std::string("\"graph_module\"");
        QTest::newRow("top level array") << std::string("[1]") << std::string("bad.json:1:1:")
                                         << std::string("ExportedProgram");
        QTest::newRow("graph_module not an object")
            << std::string("{\n\"graph_module\": 7}") << std::string("bad.json:2:17:") << std::string("GraphModule");
        QTest::newRow("no graph") << std::string("{\"graph_module\":\n   {\"signature\": {}}}")
                                  << std::string("bad.json:2:4:") << std::string("expected \"graph\"");
        QTest::newRow("node without target")
            << std::string("{\"graph_module\": {\"graph\": {\"inputs\": [], \"nodes\": [\n"
                           "    {\"target\": \"torch.ops.aten.relu.default\", \"inputs\": [], \"outputs\": []},\n"
                           "    {\"inputs\": [], \"outputs\": []}\n"
                           "]}}}")
            << std::string("bad.json:3:5:") << std::string("expected \"target\" in the node");
        QTest::newRow("target not a string")
            << std::string("{\"graph_module\": {\"graph\": {\"nodes\": [\n  {\"target\": 12}]}}}")
            << std::string("bad.json:2:14:") << std::string("found the number 12");
        QTest::newRow("unknown tensor") << std::string(
            "{\"graph_module\": {\"graph\": {\"nodes\": [\n"
            "  {\"target\": \"torch.ops.aten.relu.default\",\n"
            "   \"inputs\": [{\"name\": \"self\", \"arg\": {\"as_tensor\": {\"name\": \"ghost\"}}}]}]}}}")
                                        << std::string("bad.json:3:62:") << std::string("unknown name \"ghost\"");
        QTest::newRow("inputs not an array")
            << std::string("{\"graph_module\": {\"graph\": {\"nodes\": [\n  {\"target\": \"t\", \"inputs\": {}}]}}}")
            << std::string("bad.json:2:29:") << std::string("inputs as an array");
        QTest::newRow("NamedArgument without arg") << std::string(
            "{\"graph_module\": {\"graph\": {\"nodes\": [\n  {\"target\": \"t\", \"inputs\": [{\"name\": \"a\"}]}]}}}")
                                                   << std::string("bad.json:2:30:") << std::string("expected \"arg\"");
        QTest::newRow("nodes not an array") << std::string("{\"graph_module\": {\"graph\": {\"nodes\": 1}}}")
                                            << std::string("bad.json:1:38:") << std::string("nodes as an array");
        QTest::newRow("graph argument without graph")
            << std::string("{\"graph_module\": {\"graph\": {\"nodes\": [{\"target\": \"torch.ops.higher_order.cond\",\n"
                           "  \"inputs\": [{\"name\": \"\", \"arg\": {\"as_graph\": {\"name\": \"g\"}}}]}]}}}")
            << std::string("bad.json:2:47:") << std::string("GraphArgument");
    }

    void errors()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, where);
        QFETCH(std::string, what);
        auto file = parseExportJson(text, "bad.json");
        QVERIFY(!file.ok());
        const std::string message = file.error().toString();
        QVERIFY2(message.rfind(where, 0) == 0, message.c_str());
        QVERIFY2(message.find(what) != std::string::npos, message.c_str());
    }

    void archiveLayouts()
    {
        auto json = loadGraphFile(kDataDir + "mlp.json");
        QVERIFY(json.ok());
        const std::string canonical = printCanonical(*json->graphs[0].graph);
        for (const char *name : {"mlp.pt2", "mlp.legacy.pt2", "mlp_deflated.pt2"}) {
            auto file = parsePt2Archive(fixtureBytes(name), name);
            QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
            QCOMPARE(file->format, std::string(format::Pt2));
            QCOMPARE(file->graphs.size(), size_t(1));
            QCOMPARE(printCanonical(*file->graphs[0].graph), canonical);
        }
        auto multi = parsePt2Archive(fixtureBytes("multi_model.pt2"), "multi_model.pt2");
        QVERIFY(multi.ok());
        QCOMPARE(multi->graphs.size(), size_t(2));
        QCOMPARE(multi->graphs[0].name, std::string("encoder"));
        QCOMPARE(multi->graphs[1].name, std::string("decoder"));
        QCOMPARE(printCanonical(*multi->graphs[0].graph), canonical);
        QCOMPARE(multi->graphs[1].graph->subgraphs().size(), size_t(2));
        QVERIFY(multi->find("decoder"));
        QCOMPARE(lintAll(multi.value()), std::string());
    }

    void archiveErrors_data()
    {
        QTest::addColumn<std::string>("fixture");
        QTest::addColumn<std::string>("where");
        QTest::addColumn<std::string>("what");
        QTest::newRow("no program") << std::string("no_program.pt2") << std::string("no_program.pt2: ")
                                    << std::string("models/<name>.json or serialized_exported_program.json");
        QTest::newRow("zip bomb") << std::string("bomb.pt2") << std::string("bomb.pt2/bomb/models/model.json: ")
                                  << std::string("at most 1 GiB");
        QTest::newRow("broken program") << std::string("broken_model.pt2")
                                        << std::string("broken_model.pt2/broken/models/model.json:")
                                        << std::string("expected \"target\"");
    }

    void archiveErrors()
    {
        QFETCH(std::string, fixture);
        QFETCH(std::string, where);
        QFETCH(std::string, what);
        auto file = parsePt2Archive(fixtureBytes(fixture), fixture);
        QVERIFY(!file.ok());
        const std::string message = file.error().toString();
        QVERIFY2(message.rfind(where, 0) == 0, message.c_str());
        QVERIFY2(message.find(what) != std::string::npos, message.c_str());
        if (fixture == "broken_model.pt2") {
            // The node object sits where the fixture's JSON has it: its third node, second in the list.
            QVERIFY(file.error().line > 1);
            QVERIFY(file.error().column > 1);
        }
    }

    void brokenModelBesideGoodOne()
    {
        auto file = parsePt2Archive(fixtureBytes("partly_broken.pt2"), "partly_broken.pt2");
        QVERIFY(file.ok());
        QCOMPARE(file->graphs.size(), size_t(1));
        QCOMPARE(file->graphs[0].name, std::string("good"));
        QCOMPARE(file->warnings.size(), size_t(1));
        QVERIFY(file->warnings[0].file.find("models/bad.json") != std::string::npos);
        QVERIFY(file->warnings[0].line > 0);
    }

    void corruptArchives()
    {
        const std::string bytes = fixtureBytes("mlp.pt2");
        QVERIFY(bytes.size() > 1000);
        for (size_t keep : {bytes.size() / 2, size_t(4), size_t(30), bytes.size() - 10}) {
            auto truncated = parsePt2Archive(std::string_view(bytes).substr(0, keep), "cut.pt2");
            QVERIFY(!truncated.ok());
            QVERIFY2(truncated.error().toString().rfind("cut.pt2", 0) == 0, truncated.error().toString().c_str());
        }
        // A flipped byte inside a stored entry fails its CRC.
        std::string flipped = bytes;
        size_t at = flipped.find("\"graph_module\"");
        QVERIFY(at != std::string::npos);
        flipped[at + 3] = 'X';
        auto crc = parsePt2Archive(flipped, "crc.pt2");
        QVERIFY(!crc.ok());
        QVERIFY2(crc.error().message.find("corrupt") != std::string::npos, crc.error().toString().c_str());
        auto empty = parsePt2Archive("", "empty.pt2");
        QVERIFY(!empty.ok());
    }

    void loaderSniffsBoth()
    {
        auto pt2 = loadGraphFile(kDataDir + "cond.pt2");
        QVERIFY(pt2.ok());
        QCOMPARE(pt2->format, std::string(format::Pt2));
        QCOMPARE(pt2->path, kDataDir + "cond.pt2");
        auto json = loadGraphBytes(fixtureBytes("cond.json"), "cond.json");
        QVERIFY(json.ok());
        QCOMPARE(json->format, std::string(format::ExportJson));
        QVERIFY(json->graphs[0].line > 1);
    }

    void largeGraphIsIterative()
    {
        // A 100k-node relu chain: parsed without recursion over nodes, lint-clean.
        const size_t count = 100000;
        std::string nodes;
        nodes.reserve(count * 150);
        std::string prev = "x";
        for (size_t i = 0; i < count; ++i) {
            std::string name = "relu_" + std::to_string(i);
            // Plain literals: moc misreads some raw strings here.
            nodes += i ? "," : "";
            nodes += "{\"target\":\"torch.ops.aten.relu.default\",\"inputs\":[{\"name\":\"self\",\"arg\":"
                     "{\"as_tensor\":{\"name\":\""
                + prev + "\"}},\"kind\":1}],\"outputs\":[{\"as_tensor\":{\"name\":\"" + name + "\"}}],\"metadata\":{}}";
            prev = name;
        }
        auto file = parseExportJson(program(nodes, "[{\"as_tensor\": {\"name\": \"" + prev + "\"}}]"), "big.json");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QCOMPARE(g.size(), count + 2);
        QVERIFY(lint(g).empty());
        QCOMPARE(g.find("relu_99999")->args()[0].node(), g.find("relu_99998"));
    }
};

QTEST_GUILESS_MAIN(TestExportParser)
#include "tst_export_parser.moc"
