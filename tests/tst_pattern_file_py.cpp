// Python pattern files end to end: TorchAir's documentation example loads unchanged, its search/replace traces
// are the graphs make_fx records, and matching it accepts hidden size 7168 and rejects 4096 with the traced
// reason; op resolution by schema; load errors at FILE:LINE:COL.

#include "io/loader.h"
#include "match/matcher.h"
#include "patterns/pattern_file.h"
#include "patterns/python/python_pattern_file.h"

#include <QtTest>

using namespace fxs;

namespace {

const std::string kExample = std::string(FXSCOPE_SOURCE_DIR) + "/../shared/examples/torchair_add_rms_norm.py";
const std::string kGraph = std::string(FXSCOPE_TEST_DATA_DIR) + "/patterns/add_rms_norm_graph.py";

std::vector<std::string> targets(const Graph &g)
{
    std::vector<std::string> out;
    for (const auto &n : g.nodes())
        if (n->op() == OpKind::CallFunction) {
            std::string args;
            for (const Argument &a : n->args())
                args += (args.empty() ? "" : ", ") + a.toPython();
            for (const auto &kv : n->kwargs())
                args += (args.empty() ? "" : ", ") + kv.first + "=" + kv.second.toPython();
            out.push_back(n->target() + "(" + args + ")");
        }
    return out;
}

std::string join(const std::vector<std::string> &v)
{
    std::string s;
    for (const auto &x : v)
        s += (s.empty() ? "" : "; ") + x;
    return s;
}

} // namespace

class TestPatternFilePy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exampleLoads();
    void exampleMatches();
    void checkWithoutShapes();
    void opResolution();
    void registrationForms();
    void loadErrors();
};

void TestPatternFilePy::exampleLoads()
{
    PatternRegistry registry;
    auto st = loadPatternSpec(kExample, registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QCOMPARE(registry.entries().size(), size_t(1));
    const PatternEntry &e = *registry.entries()[0];
    QCOMPARE(QString::fromStdString(e.name), QString("search_fn"));
    QVERIFY(e.extraCheck);
    QVERIFY(e.torchairStreamCheck);
    QVERIFY(e.extraCheckSource.rfind("def extra_check(match: Match):", 0) == 0);
    QCOMPARE(QString::fromStdString(join(targets(*e.searchGraph))),
        QString("aten.add.Tensor(x1, x2); npu.npu_rms_norm.default(add, gamma); operator.getitem(npu_rms_norm, 0)"));
    QCOMPARE(QString::fromStdString(join(targets(*e.replaceGraph))),
        QString("npu.npu_add_rms_norm.default(x1, x2, gamma); operator.getitem(npu_add_rms_norm, 0); "
                "operator.getitem(npu_add_rms_norm, 2)"));
    // Example inputs: functools.partial(torch.empty, (1, 1, 2), device="npu", dtype=torch.float16).
    QCOMPARE(e.exampleInputs.size(), size_t(3));
    QVERIFY(e.exampleInputs[0].meta);
    QCOMPARE(QString::fromStdString(e.exampleInputs[0].meta->dtype), QString("torch.float16"));
    QCOMPARE(e.exampleInputs[0].meta->shape.size(), size_t(3));
    QCOMPARE(e.exampleInputs[2].meta->shape.size(), size_t(1));
    // Shapes propagate through add and npu_rms_norm.
    const Node *getitem = e.searchGraph->find("getitem");
    QVERIFY(getitem && getitem->meta().val);
    QCOMPARE(QString::fromStdString(getitem->meta().val->toAnnotation()),
        QString("f16[1, 1, 2]npu")); // strides are not propagated (unknown)
}

void TestPatternFilePy::exampleMatches()
{
    PatternRegistry registry;
    QVERIFY(loadPatternSpec(kExample, registry));
    auto file = loadGraphFile(kGraph);
    QVERIFY2(file, file ? "" : file.error().toString().c_str());
    auto report = Matcher(registry).run(*file->graphs.front().graph);
    QVERIFY(report);
    QCOMPARE(report->patterns.size(), size_t(1));
    const auto &cands = report->patterns[0].candidates;
    QCOMPARE(cands.size(), size_t(2));
    const Verdict *accepted = nullptr;
    const Verdict *rejected = nullptr;
    for (const Verdict &v : cands)
        (v.accepted ? accepted : rejected) = &v;
    QVERIFY(accepted && rejected);
    QCOMPARE(QString::fromStdString(accepted->anchor), QString("getitem"));
    QCOMPARE(QString::fromStdString(rejected->anchor), QString("getitem_2"));
    QCOMPARE(rejected->stage, MatchStage::ExtraCheck);
    QCOMPARE(QString::fromStdString(rejected->checkTrace.back()),
        QString("line 29: return a_shape[-1] == 7168 → False (a_shape[-1] = 4096)"));
    QCOMPARE(QString::fromStdString(accepted->checkTrace.back()),
        QString("line 29: return a_shape[-1] == 7168 → True (a_shape[-1] = 7168)"));
    QCOMPARE(
        QString::fromStdString(rejected->checkTrace.front()), QString("line 23: x1 = match.kwargs.get(\"x1\") → c"));
}

void TestPatternFilePy::checkWithoutShapes()
{
    PatternRegistry registry;
    QVERIFY(loadPatternSpec(kExample, registry));
    auto file = loadGraphBytes(R"(class GraphModule(torch.nn.Module):
    def forward(self, a, b, g):
        add = torch.ops.aten.add.Tensor(a, b)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, g)
        getitem = npu_rms_norm[0]
        return (getitem, add)
)",
        "noshape.py");
    QVERIFY2(file, file ? "" : file.error().toString().c_str());
    auto report = Matcher(registry).run(*file->graphs.front().graph);
    QVERIFY(report);
    const auto &cands = report->patterns[0].candidates;
    QCOMPARE(cands.size(), size_t(1));
    QVERIFY(!cands[0].accepted);
    QCOMPARE(cands[0].stage, MatchStage::ExtraCheck);
    QVERIFY2(join(cands[0].checkTrace).find("line 26: if not hasattr(x1, \"meta\") or \"val\" not in x1.meta → True")
            != std::string::npos,
        join(cands[0].checkTrace).c_str());
}

void TestPatternFilePy::opResolution()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"(import torch, torch_npu
from torch._inductor.pattern_matcher import register_replacement, fwd_only

def search(x, w):
    v = x.pow(2).mean(-1, keepdim=True)
    r = torch.rsqrt(v + 1e-6)
    y = torch.add(x * r, w)
    return y * w

def replace(x, w):
    y, _ = torch_npu.npu_rms_norm(x, w)
    return torch.ops.aten.mul.Tensor(y, w)

t = torch.empty(2, 8, dtype=torch.float32)
register_replacement(search, replace, [t, torch.empty(8)], fwd_only, [])
)",
        "ops.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    const PatternEntry &e = *registry.entries()[0];
    QCOMPARE(QString::fromStdString(join(targets(*e.searchGraph))),
        QString("aten.pow.Tensor_Scalar(x, 2); aten.mean.dim(pow_1, [-1], True); aten.add.Tensor(mean, 1e-06); "
                "aten.rsqrt.default(add); aten.mul.Tensor(x, rsqrt); aten.add.Tensor(mul, w); "
                "aten.mul.Tensor(add_1, w)"));
    // Unused second output of npu_rms_norm is dropped (fwd_only's DCE).
    QCOMPARE(QString::fromStdString(join(targets(*e.replaceGraph))),
        QString("npu.npu_rms_norm.default(x, w); operator.getitem(npu_rms_norm, 0); aten.mul.Tensor(getitem, w)"));
    QVERIFY(!e.torchairStreamCheck); // Inductor's register_replacement has no TorchAir stream check
    const Node *mean = e.searchGraph->find("mean");
    QCOMPARE(QString::fromStdString(mean->meta().val->toAnnotation()).left(9), QString("f32[2, 1]"));
}

void TestPatternFilePy::registrationForms()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"(import functools
import torch
from torchair.patterns.pattern_pass_manager import _PatternPassManager

def s(a, b):
    return torch.nn.functional.softmax(a, -1) + b

def r(a, b):
    return a + b

mgr = _PatternPassManager()
inp = functools.partial(torch.empty, (4, 4), device="npu", dtype=torch.float16)
mgr.register_pattern(s, r, [inp(), inp()])
)",
        "pm.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    const PatternEntry &e = *registry.entries()[0];
    QVERIFY(e.torchairStreamCheck);
    QCOMPARE(e.warnings.size(), size_t(1));
    QVERIFY2(e.warnings[0].find("line 6: torch.nn.functional.softmax: PyTorch's tracer") == 0, e.warnings[0].c_str());
    QVERIFY(e.warnings[0].find("decomposed into amax/sub/exp/sum/div") != std::string::npos);
}

void TestPatternFilePy::loadErrors()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource("import torch\n\ndef s(x):\n    return torch.no_such_op(x)\n\n"
                                      "import torchair\ntorchair.register_replacement(s, s, [torch.empty(2)])\n",
        "bad.py", registry);
    QVERIFY(!st);
    QVERIFY2(st.error().toString().rfind("bad.py:4:12: SubsetError: torch.no_such_op: no operator schema", 0) == 0,
        st.error().toString().c_str());
    st = loadPythonPatternSource("def s(x):\n    return x\n\nclass P:\n    pass\n", "cls.py", registry);
    QVERIFY(!st);
    QVERIFY2(st.error().toString().rfind("cls.py:4:1: a class definition is outside", 0) == 0,
        st.error().toString().c_str());
}

QTEST_GUILESS_MAIN(TestPatternFilePy)
#include "tst_pattern_file_py.moc"
