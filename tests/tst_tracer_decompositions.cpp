// The tracer records a pattern's search_fn as torch's fwd_only does: make_fx with Inductor's decomposition table
// (silu/gelu with their f32 upcast for half types, softmax/log_softmax, layer_norm, square, rsub, transpose),
// remove_noop_ops and dead code elimination, and every node's meta["val"] as make_fx gives it. Each expected row
// below is the real trace: torch 2.13's fwd_only(fn, args) printed node by node (target(args) : dtype[shape]),
// with the placeholders named after the parameters as fxscope names them (x, where make_fx writes x_1).

#include "ir/tensor_meta.h"
#include "patterns/pattern_file.h"
#include "patterns/python/python_pattern_file.h"

#include <QtTest>

using namespace fxs;

namespace {

std::string shapeText(const std::vector<SymInt> &shape)
{
    std::string s;
    for (const SymInt &d : shape)
        s += (s.empty() ? "" : ", ") + d.toString();
    return "[" + s + "]";
}

// One line per call: target(args, kwargs) : dtype[shape] of its tensor val (none for a tuple val).
QString traceText(const Graph &g)
{
    std::string out;
    for (const auto &n : g.nodes()) {
        if (n->op() != OpKind::CallFunction)
            continue;
        std::string args;
        for (const Argument &a : n->args())
            args += (args.empty() ? "" : ", ") + a.toPython();
        for (const auto &kv : n->kwargs())
            args += (args.empty() ? "" : ", ") + kv.first + "=" + kv.second.toPython();
        out += n->target() + "(" + args + ")";
        const auto &val = n->meta().val;
        if (val && val->kind == ValueMeta::Kind::Tensor)
            out += " : " + dtypeAbbreviation(val->tensor.dtype) + shapeText(val->tensor.shape);
        out += "\n";
    }
    return QString::fromStdString(out);
}

Result<std::shared_ptr<const Graph>> traceSearch(const QString &params, const QString &body, const QString &examples,
    std::vector<std::string> *warnings = nullptr)
{
    const std::string source = "import torch\nfrom torch._inductor.pattern_matcher import register_replacement, "
                               "fwd_only\n\ndef search("
        + params.toStdString() + "):\n    return " + body.toStdString() + "\n\ndef replace(" + params.toStdString()
        + "):\n    return " + body.toStdString() + "\n\nregister_replacement(search, replace, [" + examples.toStdString()
        + "], fwd_only, [])\n";
    PatternRegistry registry;
    auto st = loadPythonPatternSource(source, "trace.py", registry);
    if (!st)
        return st.error();
    if (registry.entries().empty())
        return Error{"", 0, 0, "nothing registered"};
    if (warnings)
        *warnings = registry.entries()[0]->warnings;
    return std::shared_ptr<const Graph>(registry.entries()[0]->searchGraph);
}

} // namespace

class TestTracerDecompositions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fwdOnlyTrace_data();
    void fwdOnlyTrace();
    void strides();
    void notReproducedWarns();
};

void TestTracerDecompositions::fwdOnlyTrace_data()
{
    QTest::addColumn<QString>("params");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("examples");
    QTest::addColumn<QString>("expected");
    // Generated from fwd_only traces (see the header comment).
    QTest::newRow("silu_f16")
        << QString("x")
        << QString("torch.nn.functional.silu(x)")
        << QString("torch.empty(2, 8, dtype=torch.float16)")
        << QString("prims.convert_element_type.default(x, torch.float32) : f32[2, 8]\n"
           "aten.neg.default(convert_element_type) : f32[2, 8]\n"
           "aten.exp.default(neg) : f32[2, 8]\n"
           "aten.add.Tensor(exp, 1) : f32[2, 8]\n"
           "aten.div.Tensor(convert_element_type, add) : f32[2, 8]\n"
           "prims.convert_element_type.default(div, torch.float16) : f16[2, 8]\n");
    QTest::newRow("flatten_view")
        << QString("x")
        << QString("x.flatten(0, 1) * 2")
        << QString("torch.empty(2, 3, 4)")
        << QString("aten.view.default(x, [6, 4]) : f32[6, 4]\n"
           "aten.mul.Tensor(view, 2) : f32[6, 4]\n");
    QTest::newRow("flatten_all")
        << QString("x")
        << QString("torch.flatten(x) + 1")
        << QString("torch.empty(2, 3, 4)")
        << QString("aten.view.default(x, [24]) : f32[24]\n"
           "aten.add.Tensor(view, 1) : f32[24]\n");
    QTest::newRow("flatten_one_dim_is_itself")
        << QString("x")
        << QString("x.flatten(1, 1) * 2")
        << QString("torch.empty(2, 3, 4)")
        << QString("aten.mul.Tensor(x, 2) : f32[2, 3, 4]\n");
    QTest::newRow("silu_f32_mul")
        << QString("x, y")
        << QString("torch.nn.functional.silu(x) * y")
        << QString("torch.empty(2, 8), torch.empty(2, 8)")
        << QString("aten.neg.default(x) : f32[2, 8]\n"
           "aten.exp.default(neg) : f32[2, 8]\n"
           "aten.add.Tensor(exp, 1) : f32[2, 8]\n"
           "aten.div.Tensor(x, add) : f32[2, 8]\n"
           "aten.mul.Tensor(div, y) : f32[2, 8]\n");
    QTest::newRow("gelu_erf_bf16")
        << QString("x")
        << QString("torch.nn.functional.gelu(x)")
        << QString("torch.empty(2, 3, 5, dtype=torch.bfloat16)")
        << QString("prims.convert_element_type.default(x, torch.float32) : f32[2, 3, 5]\n"
           "aten.mul.Tensor(convert_element_type, 0.5) : f32[2, 3, 5]\n"
           "aten.mul.Tensor(convert_element_type, 0.7071067811865476) : f32[2, 3, 5]\n"
           "aten.erf.default(mul_1) : f32[2, 3, 5]\n"
           "aten.add.Tensor(erf, 1) : f32[2, 3, 5]\n"
           "aten.mul.Tensor(mul, add) : f32[2, 3, 5]\n"
           "prims.convert_element_type.default(mul_2, torch.bfloat16) : bf16[2, 3, 5]\n");
    QTest::newRow("gelu_tanh_f32")
        << QString("x")
        << QString("torch.nn.functional.gelu(x, approximate='tanh')")
        << QString("torch.empty(4, 7)")
        << QString("aten.mul.Tensor(x, x) : f32[4, 7]\n"
           "aten.mul.Tensor(mul, x) : f32[4, 7]\n"
           "aten.mul.Tensor(mul_1, 0.044715) : f32[4, 7]\n"
           "aten.add.Tensor(x, mul_2) : f32[4, 7]\n"
           "aten.mul.Tensor(add, 0.7978845608028654) : f32[4, 7]\n"
           "aten.mul.Tensor(x, 0.5) : f32[4, 7]\n"
           "aten.tanh.default(mul_3) : f32[4, 7]\n"
           "aten.add.Tensor(tanh, 1) : f32[4, 7]\n"
           "aten.mul.Tensor(mul_4, add_1) : f32[4, 7]\n");
    QTest::newRow("softmax_f16")
        << QString("x, y")
        << QString("torch.softmax(x * 0.125, -1) + y")
        << QString("torch.empty(4, 4, dtype=torch.float16), torch.empty(4, 4, dtype=torch.float16)")
        << QString("aten.mul.Tensor(x, 0.125) : f16[4, 4]\n"
           "prims.convert_element_type.default(mul, torch.float32) : f32[4, 4]\n"
           "aten.amax.default(convert_element_type, [-1], True) : f32[4, 1]\n"
           "aten.sub.Tensor(convert_element_type, amax) : f32[4, 4]\n"
           "aten.exp.default(sub) : f32[4, 4]\n"
           "aten.sum.dim_IntList(exp, [-1], True) : f32[4, 1]\n"
           "aten.div.Tensor(exp, sum_1) : f32[4, 4]\n"
           "prims.convert_element_type.default(div, torch.float16) : f16[4, 4]\n"
           "aten.add.Tensor(convert_element_type_1, y) : f16[4, 4]\n");
    QTest::newRow("log_softmax_bf16")
        << QString("x")
        << QString("torch.log_softmax(x, 1)")
        << QString("torch.empty(2, 3, 5, dtype=torch.bfloat16)")
        << QString("prims.convert_element_type.default(x, torch.float32) : f32[2, 3, 5]\n"
           "aten.amax.default(convert_element_type, [1], True) : f32[2, 1, 5]\n"
           "aten.sub.Tensor(convert_element_type, amax) : f32[2, 3, 5]\n"
           "aten.exp.default(sub) : f32[2, 3, 5]\n"
           "aten.sum.dim_IntList(exp, [1], True) : f32[2, 1, 5]\n"
           "aten.log.default(sum_1) : f32[2, 1, 5]\n"
           "aten.sub.Tensor(sub, log) : f32[2, 3, 5]\n"
           "prims.convert_element_type.default(sub_1, torch.bfloat16) : bf16[2, 3, 5]\n");
    QTest::newRow("layer_norm_f32")
        << QString("x, w, b")
        << QString("torch.nn.functional.layer_norm(x, [x.shape[-1]], w, b, 1e-5)")
        << QString("torch.empty(2, 8), torch.empty(8), torch.empty(8)")
        << QString("aten.var_mean.correction(x, [1], correction=0, keepdim=True)\n"
           "operator.getitem(var_mean, 0) : f32[2, 1]\n"
           "operator.getitem(var_mean, 1) : f32[2, 1]\n"
           "aten.add.Tensor(getitem, 1e-05) : f32[2, 1]\n"
           "aten.rsqrt.default(add) : f32[2, 1]\n"
           "aten.sub.Tensor(x, getitem_1) : f32[2, 8]\n"
           "aten.mul.Tensor(sub, rsqrt) : f32[2, 8]\n"
           "aten.mul.Tensor(mul, w) : f32[2, 8]\n"
           "aten.add.Tensor(mul_1, b) : f32[2, 8]\n");
    QTest::newRow("layer_norm_bf16_2d_weight")
        << QString("x, w")
        << QString("torch.nn.functional.layer_norm(x, [3, 5], w)")
        << QString("torch.empty(2, 3, 5, dtype=torch.bfloat16), torch.empty(3, 5, dtype=torch.bfloat16)")
        << QString("prims.convert_element_type.default(x, torch.float32) : f32[2, 3, 5]\n"
           "aten.var_mean.correction(convert_element_type, [1, 2], correction=0, keepdim=True)\n"
           "operator.getitem(var_mean, 0) : f32[2, 1, 1]\n"
           "operator.getitem(var_mean, 1) : f32[2, 1, 1]\n"
           "aten.add.Tensor(getitem, 1e-05) : f32[2, 1, 1]\n"
           "aten.rsqrt.default(add) : f32[2, 1, 1]\n"
           "aten.sub.Tensor(convert_element_type, getitem_1) : f32[2, 3, 5]\n"
           "aten.mul.Tensor(sub, rsqrt) : f32[2, 3, 5]\n"
           "aten.mul.Tensor(mul, w) : f32[2, 3, 5]\n"
           "prims.convert_element_type.default(mul_1, torch.bfloat16) : bf16[2, 3, 5]\n");
    QTest::newRow("layer_norm_bias_only")
        << QString("x, b")
        << QString("torch.nn.functional.layer_norm(x, [5], None, b, 1e-6)")
        << QString("torch.empty(2, 3, 5, dtype=torch.bfloat16), torch.empty(5, dtype=torch.bfloat16)")
        << QString("prims.convert_element_type.default(x, torch.float32) : f32[2, 3, 5]\n"
           "aten.var_mean.correction(convert_element_type, [2], correction=0, keepdim=True)\n"
           "operator.getitem(var_mean, 0) : f32[2, 3, 1]\n"
           "operator.getitem(var_mean, 1) : f32[2, 3, 1]\n"
           "aten.add.Tensor(getitem, 1e-06) : f32[2, 3, 1]\n"
           "aten.rsqrt.default(add) : f32[2, 3, 1]\n"
           "aten.sub.Tensor(convert_element_type, getitem_1) : f32[2, 3, 5]\n"
           "aten.mul.Tensor(sub, rsqrt) : f32[2, 3, 5]\n"
           "aten.add.Tensor(mul, b) : f32[2, 3, 5]\n"
           "prims.convert_element_type.default(add_1, torch.bfloat16) : bf16[2, 3, 5]\n");
    QTest::newRow("square_rsub")
        << QString("x")
        << QString("torch.square(x) + (2 - x)")
        << QString("torch.empty(2, 3, 5, dtype=torch.bfloat16)")
        << QString("aten.pow.Tensor_Scalar(x, 2) : bf16[2, 3, 5]\n"
           "aten.sub.Tensor(2, x) : bf16[2, 3, 5]\n"
           "aten.add.Tensor(pow_1, sub) : bf16[2, 3, 5]\n");
    QTest::newRow("transpose_3d") << QString("x") << QString("x.transpose(1, 2) * 2") << QString("torch.empty(2, 3, 5)")
        << QString("aten.permute.default(x, [0, 2, 1]) : f32[2, 5, 3]\n"
           "aten.mul.Tensor(permute, 2) : f32[2, 5, 3]\n");
    QTest::newRow("noops_removed")
        << QString("x")
        << QString("torch.ops.aten.slice.Tensor(x, 0, 0, 9223372036854775807).clone().view(2, 3, 5).to(torch.float32) * 2")
        << QString("torch.empty(2, 3, 5)")
        << QString("aten.mul.Tensor(x, 2) : f32[2, 3, 5]\n");
    QTest::newRow("noop_output_kept")
        << QString("x")
        << QString("torch.ops.aten.slice.Tensor(x, 0, 0, 9223372036854775807)")
        << QString("torch.empty(2, 3, 5)")
        << QString("aten.slice.Tensor(x, 0, 0, 9223372036854775807) : f32[2, 3, 5]\n");
    QTest::newRow("int_promotion")
        << QString("x")
        << QString("(x + 1.5, x / 2, x * 2, torch.exp(x), x.sum())")
        << QString("torch.empty(2, 3, dtype=torch.int32)")
        << QString("aten.add.Tensor(x, 1.5) : f32[2, 3]\n"
           "aten.div.Tensor(x, 2) : f32[2, 3]\n"
           "aten.mul.Tensor(x, 2) : i32[2, 3]\n"
           "aten.exp.default(x) : f32[2, 3]\n"
           "aten.sum.default(x) : i64[]\n");
    // fwd_only(lambda a: torch.zeros_like(a) + torch.full_like(a, 3.0), [torch.empty(4, 4)]) in torch 2.13 (device
    // written as fxscope prints it)
    QTest::newRow("zeros_full_like")
        << QString("x")
        << QString("torch.zeros_like(x) + torch.full_like(x, 3.0)")
        << QString("torch.empty(4, 4)")
        << QString("aten.full.default([4, 4], 0, dtype=torch.float32, layout=torch.strided, device=device(type='cpu'), "
                   "pin_memory=False) : f32[4, 4]\n"
                   "aten.full.default([4, 4], 3.0, dtype=torch.float32, layout=torch.strided, device=device(type='cpu'), "
                   "pin_memory=False) : f32[4, 4]\n"
                   "aten.add.Tensor(full, full_1) : f32[4, 4]\n");
    QTest::newRow("cat_view")
        << QString("x, y")
        << QString("torch.cat([x, y]).view(-1, 5)")
        << QString("torch.empty(2, 3, 5), torch.empty(1, 3, 5)")
        << QString("aten.cat.default([x, y]) : f32[3, 3, 5]\n"
           "aten.view.default(cat, [-1, 5]) : f32[9, 5]\n");
}

void TestTracerDecompositions::fwdOnlyTrace()
{
    QFETCH(QString, params);
    QFETCH(QString, body);
    QFETCH(QString, examples);
    QFETCH(QString, expected);
    auto g = traceSearch(params, body, examples);
    QVERIFY2(g, g ? "" : g.error().toString().c_str());
    QCOMPARE(traceText(*g.value()), expected);
}

void TestTracerDecompositions::strides()
{
    // fwd_only: amax's keepdim result f32[2, 1, 5] has strides (5, 5, 1); the permute of transpose(1, 2) keeps the
    // input's strides permuted, (15, 1, 5).
    auto g = traceSearch("x", "torch.log_softmax(x, 1)", "torch.empty(2, 3, 5, dtype=torch.bfloat16)");
    QVERIFY2(g, g ? "" : g.error().toString().c_str());
    const Node *amax = g.value()->find("amax");
    QVERIFY(amax && amax->meta().val);
    QCOMPARE(QString::fromStdString(shapeText(amax->meta().val->tensor.stride)), QString("[5, 5, 1]"));
    g = traceSearch("x", "x.transpose(1, 2) * 2", "torch.empty(2, 3, 5)");
    QVERIFY2(g, g ? "" : g.error().toString().c_str());
    const Node *permute = g.value()->find("permute");
    QVERIFY(permute && permute->meta().val);
    QCOMPARE(QString::fromStdString(shapeText(permute->meta().val->tensor.stride)), QString("[15, 1, 5]"));
}

void TestTracerDecompositions::notReproducedWarns()
{
    // softmax with dtype= is not reproduced: recorded as itself, with a warning naming the op.
    std::vector<std::string> warnings;
    auto g = traceSearch("x", "torch.softmax(x, -1, dtype=torch.float32)", "torch.empty(2, 8, dtype=torch.float16)",
        &warnings);
    QVERIFY2(g, g ? "" : g.error().toString().c_str());
    QCOMPARE(traceText(*g.value()), QString("aten.softmax.int(x, -1, torch.float32)\n"));
    QCOMPARE(warnings.size(), size_t(2)); // search (line 5) and replace (line 8, the same body) each
    for (size_t i = 0; i < warnings.size(); ++i)
        QVERIFY2(warnings[i].find(std::string(i == 0 ? "line 5" : "line 8")
                     + ": torch.softmax: fxscope does not reproduce Inductor's decomposition of aten.softmax.int "
                       "with dtype=")
                == 0,
            warnings[i].c_str());
}

QTEST_GUILESS_MAIN(TestTracerDecompositions)
#include "tst_tracer_decompositions.moc"
