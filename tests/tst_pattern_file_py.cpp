// Python pattern files end to end: TorchAir's documentation example loads unchanged, its search/replace traces
// are the graphs make_fx records, and matching it accepts hidden size 7168 and rejects 4096 with the traced
// reason; op resolution by schema; load errors at FILE:LINE:COL.

#include "io/loader.h"
#include "match/matcher.h"
#include "patterns/pattern_file.h"
#include "patterns/python/python_pattern_file.h"

#include "util/json.h"

#include <QProcess>
#include <QtTest>

using namespace fxs;

namespace {

const std::string kExample = std::string(FXSCOPE_TEST_DATA_DIR) + "/examples/torchair_add_rms_norm.py";
const std::string kGraph = std::string(FXSCOPE_TEST_DATA_DIR) + "/patterns/add_rms_norm_graph.py";
const std::string kTorchairStyle = std::string(FXSCOPE_TEST_DATA_DIR) + "/patterns/torchair_style_patterns.py";
const std::string kLibrary = std::string(FXSCOPE_SOURCE_DIR) + "/resources/patterns/";
const std::string kLlama = std::string(FXSCOPE_SOURCE_DIR) + "/resources/samples/llama_block.py";

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

// Matches `registry` on the first graph of a loaded dump; a load error comes back as the error.
Result<MatchReport> matchFirstGraph(const PatternRegistry &registry, const Result<GraphFile> &file)
{
    if (!file)
        return file.error();
    return Matcher(registry).run(*file->graphs.front().graph);
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
    void docstringAndCrlfNotTraced();
    void checkWithoutShapes();
    void retraceWithMatchValues();
    void loggerFStringReason();
    void cliShowsWarnings();
    void trainingPattern();
    void registersNothingWarns();
    void deferredConstructs();
    void zeroArgumentRegisterFunctions();
    void passManagerClass();
    void opResolution();
    void registrationForms();
    void loadErrors();
    void library_data();
    void library();
    void torchairConventions();
    void searchFnPattern();
    void unsupportedConstruct_data();
    void unsupportedConstruct();
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
        QString("f16[1, 1, 2][2, 2, 1]npu")); // contiguous strides, as make_fx gives x1 + x2
}

void TestPatternFilePy::exampleMatches()
{
    PatternRegistry registry;
    QVERIFY(loadPatternSpec(kExample, registry));
    auto report = matchFirstGraph(registry, loadGraphFile(kGraph));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
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

// TorchAir's own checks open with a docstring, and some files have CRLF line ends (issue 17): the docstring is no
// traced step, and traced lines carry no '\r'. The example with a docstring in extra_check, written with CRLF.
void TestPatternFilePy::docstringAndCrlfNotTraced()
{
    QFile example(QString::fromStdString(kExample));
    QVERIFY(example.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(example.readAll());
    text.replace(QStringLiteral("def extra_check(match: Match):\n"),
        QStringLiteral("def extra_check(match: Match):\n    \"\"\"\n    Check the hidden size.\n    \"\"\"\n"));
    text.replace(QStringLiteral("\n"), QStringLiteral("\r\n"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("crlf_docstring.py"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text.toUtf8()) > 0);
    out.close();
    PatternRegistry registry;
    QVERIFY(loadPatternSpec(path.toStdString(), registry));
    auto report = matchFirstGraph(registry, loadGraphFile(kGraph));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    for (const Verdict &v : report->patterns[0].candidates) {
        QVERIFY(!v.checkTrace.empty());
        // Three lines lower than in the example: the docstring's.
        QVERIFY2(v.checkTrace.front().rfind("line 26: x1 = match.kwargs.get(\"x1\") → ", 0) == 0,
            v.checkTrace.front().c_str());
        for (const std::string &line : v.checkTrace)
            QVERIFY2(line.find('\r') == std::string::npos && line.find("hidden size") == std::string::npos, line.c_str());
    }
}

void TestPatternFilePy::checkWithoutShapes()
{
    PatternRegistry registry;
    QVERIFY(loadPatternSpec(kExample, registry));
    auto report = matchFirstGraph(registry,
        loadGraphBytes(R"(class GraphModule(torch.nn.Module):
    def forward(self, a, b, g):
        add = torch.ops.aten.add.Tensor(a, b)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, g)
        getitem = npu_rms_norm[0]
        return (getitem, add)
)",
            "noshape.py"));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    const auto &cands = report->patterns[0].candidates;
    QCOMPARE(cands.size(), size_t(1));
    QVERIFY(!cands[0].accepted);
    QCOMPARE(cands[0].stage, MatchStage::ExtraCheck);
    QVERIFY2(join(cands[0].checkTrace).find("line 26: if not hasattr(x1, \"meta\") or \"val\" not in x1.meta → True")
            != std::string::npos,
        join(cands[0].checkTrace).c_str());
    // The re-trace could not read meta["val"] either, and says what it used instead.
    QVERIFY2(join(cands[0].reasons).find("re-trace: 'x1' is a, which has no tensor meta['val'] in this dump")
            != std::string::npos,
        join(cands[0].reasons).c_str());
}

// Stage 2 re-traces search_fn with each match's own input shapes (Inductor's check_fn): a shape-dependent
// search_fn matches a hidden size other than its example's, and one that raises for the matched shape rejects
// the candidate at the re-trace stage with the error and its line.
void TestPatternFilePy::retraceWithMatchValues()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"(import torch
from torch._inductor.pattern_matcher import register_replacement, fwd_only


def search_fn(x, w):
    if x.shape[-1] % 128: raise RuntimeError("hidden size must be a multiple of 128")
    y = x.view(-1, x.shape[-1])
    return torch.mm(y, w)


def replace_fn(x, w):
    return torch.mm(x.view(-1, x.shape[-1]), w)


register_replacement(search_fn, replace_fn, [torch.empty(2, 4, 256), torch.empty(256, 8)], fwd_only, [])
)",
        "retrace.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QVERIFY(registry.entries().front()->retrace);
    auto report = matchFirstGraph(registry,
        loadGraphBytes(R"(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[2, 4, 384]", b: "f32[384, 8]", c: "f32[3, 100]", d: "f32[100, 8]"):
        view = torch.ops.aten.view.default(a, [-1, 384])
        mm = torch.ops.aten.mm.default(view, b)
        view_1 = torch.ops.aten.view.default(c, [-1, 100])
        mm_1 = torch.ops.aten.mm.default(view_1, d)
        return (mm, mm_1)
)",
            "retrace_graph.py"));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    const auto &cands = report->patterns[0].candidates;
    QCOMPARE(cands.size(), size_t(2));
    // Last-to-first: mm_1 (hidden size 100) first.
    QCOMPARE(QString::fromStdString(cands[0].anchor), QString("mm_1"));
    QVERIFY(!cands[0].accepted);
    QCOMPARE(cands[0].stage, MatchStage::Retrace);
    QCOMPARE(QString::fromStdString(cands[0].reasons.back()),
        QString("re-tracing search_fn with this match's values raised retrace.py:6:27: RuntimeError: hidden size "
                "must be a multiple of 128; Inductor's check_fn rejects the match"));
    // Hidden size 384: the example traced [-1, 256], the re-trace [-1, 384], which is what the graph has.
    QCOMPARE(QString::fromStdString(cands[1].anchor), QString("mm"));
    QVERIFY2(cands[1].accepted, join(cands[1].reasonTexts()).c_str());
}

// TorchAir's checks explain themselves with logger.debug(f"..."): the fields are evaluated, so the reason shows
// the values the check saw.
void TestPatternFilePy::loggerFStringReason()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"PY(import logging
import torch
import torch_npu
import torchair
logger = logging.getLogger(__name__)


def search_fn(x1, x2, gamma):
    xOut = torch.add(x1, x2)
    y, _ = torch_npu.npu_rms_norm(xOut, gamma)
    return y, xOut


def replace_fn(x1, x2, gamma):
    y, _, xOut = torch_npu.npu_add_rms_norm(x1, x2, gamma)
    return y, xOut


def extra_check(match):
    x1 = match.kwargs.get("x1")
    hidden = x1.meta["val"].shape[-1]
    if hidden != 7168:
        logger.debug(f"{__name__}: {x1.name!r} has hidden size {hidden}, expected 7168 ({hidden / 7168:.0%})")
        return False
    return True


def get_inputs():
    return [torch.empty(1, 16, 7168, dtype=torch.float16), torch.empty(1, 16, 7168, dtype=torch.float16),
            torch.empty(7168, dtype=torch.float16)]


torchair.register_replacement(search_fn=search_fn, replace_fn=replace_fn, example_inputs=get_inputs(),
                              extra_check=extra_check)
)PY",
        "fstring_check.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    auto report = matchFirstGraph(registry, loadGraphFile(kGraph));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    const Verdict *rejected = nullptr;
    for (const Verdict &v : report->patterns[0].candidates)
        if (!v.accepted)
            rejected = &v;
    QVERIFY(rejected);
    QCOMPARE(rejected->stage, MatchStage::ExtraCheck);
    QCOMPARE(QString::fromStdString(rejected->checkTrace.back()),
        QString("logger.debug: fstring_check: 'c' has hidden size 4096, expected 7168 (57%)"));
}

// Load warnings reach the user of `fxscope-cli match`: the file-level ones (a _register_ function not called) and
// the pattern's own (a reshape traced as view), in the table and in --json.
void TestPatternFilePy::cliShowsWarnings()
{
    const QString cli = QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli");
    if (!QFile::exists(cli))
        QSKIP("fxscope-cli is not built");
    QProcess p;
    const QStringList args{
        "match", QString::fromStdString(kLlama), "--patterns", QString::fromStdString(kTorchairStyle)};
    p.start(cli, args + QStringList{"--json"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    auto json = Json::parse(p.readAllStandardOutput().toStdString());
    QVERIFY(json);
    const Json &warnings = json.value()["warnings"];
    QCOMPARE(warnings.size(), size_t(1));
    QVERIFY2(warnings.items()[0].toString().find("_register_transpose_pattern(pattern_pass_manager, dim0, dim1) was "
                                                 "not called")
            != std::string::npos,
        warnings.items()[0].toString().c_str());
    for (const Json &pattern : json.value()["patterns"].items())
        QVERIFY(pattern["warnings"].isArray());

    p.start(cli, args);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(text.startsWith("warning: ") && text.contains("_register_transpose_pattern"), qPrintable(text));

    // `patterns --json` carries the same file-level warnings.
    p.start(cli, {"patterns", QString::fromStdString(kTorchairStyle), "--json"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    auto list = Json::parse(p.readAllStandardOutput().toStdString());
    QVERIFY(list);
    QCOMPARE(list.value()["warnings"].size(), size_t(1));
    QCOMPARE(list.value()["patterns"].size(), size_t(2));
}

// The training (joint graph) pattern: its .py source uses trace_fn=joint_fwd_bwd, which the subset cannot trace,
// so loading it skips that registration with a warning saying how to export it; the exported JSON (PyTorch's own
// joint trace) matches a training graph's forward + backward, and its extra_check is evaluated per candidate.
void TestPatternFilePy::trainingPattern()
{
    PatternRegistry skipped;
    const std::string source = std::string(FXSCOPE_SOURCE_DIR) + "/resources/patterns/joint/addmm_training.py";
    auto st = loadPatternSpec(source, skipped);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QVERIFY(skipped.entries().empty());
    QCOMPARE(skipped.warnings().size(), size_t(1));
    const std::string &w = skipped.warnings()[0];
    QVERIFY2(
        w.find("addmm_training.py:47: addmm_training is registered with trace_fn=joint_fwd_bwd") != std::string::npos
            && w.find("fxscope_capture.export_patterns('" + source + "', out_dir='patterns')") != std::string::npos
            && w.find("--patterns patterns/addmm_training.addmm_training.json") != std::string::npos,
        w.c_str());

    PatternRegistry registry;
    st = loadPatternSpec(kLibrary + "addmm_training.addmm_training.json", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    const PatternEntry &e = *registry.entries().front();
    QVERIFY(e.extraCheck && e.extraCheckEvaluated);
    QCOMPARE(e.exampleInputs.size(), size_t(3));
    QVERIFY(e.exampleInputs[0].requiresGrad);
    auto report = matchFirstGraph(
        registry, loadGraphFile(std::string(FXSCOPE_TEST_DATA_DIR) + "/patterns/addmm_training_graph.json"));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    const auto &cands = report->patterns[0].candidates;
    QCOMPARE(cands.size(), size_t(2));
    // Layer 2 (float64) first, last-to-first: same structure, rejected by the check with its logged reason.
    QCOMPARE(QString::fromStdString(cands[0].anchor), QString("add_1"));
    QCOMPARE(cands[0].stage, MatchStage::ExtraCheck);
    QCOMPARE(QString::fromStdString(cands[0].checkTrace.back()),
        QString("logger.debug: x torch.float64, w torch.float64, bias torch.float64: needs one dtype among float16, "
                "bfloat16, float32"));
    // Layer 1: forward mm + add and the backward's bias sum/view and two gradient mm's, 8 nodes.
    QCOMPARE(QString::fromStdString(cands[1].anchor), QString("add"));
    QVERIFY2(cands[1].accepted, join(cands[1].reasonTexts()).c_str());
    QCOMPARE(cands[1].nodes.size(), size_t(8));
    QCOMPARE(QString::fromStdString(cands[1].checkTrace.back()), QString("line 43: return True → True"));
}

// A file that registers nothing says so, naming the _register_ functions it only imports (TorchAir's
// pattern_util.py imports those of its sibling files and calls them from a pass).
void TestPatternFilePy::registersNothingWarns()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"(import torch
from torchair.patterns.add_rms_norm_cast import _register_addrmsnormcast_pattern


def apply_passes(graph_module, manager):
    _register_addrmsnormcast_pattern(manager)
)",
        "util.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QVERIFY(registry.entries().empty());
    QCOMPARE(registry.warnings().size(), size_t(1));
    QCOMPARE(QString::fromStdString(registry.warnings()[0]),
        QString("util.py: registers no pattern (no register_replacement / register_pattern call ran, and no "
                "_register_*(pattern_pass_manager) function is defined here); it imports "
                "torchair.patterns.add_rms_norm_cast._register_addrmsnormcast_pattern, which fxscope does not "
                "follow: load the files that define them"));
}

// Inside a def, a construct outside the subset does not stop the file (TorchAir's FX-pass files keep lambdas in
// helpers no registration reaches): it is a load warning, and a check that runs it is rejected with the error.
void TestPatternFilePy::deferredConstructs()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"PY(import torch
import torch_npu
import torchair


def search_fn(x1, x2, gamma):
    xOut = torch.add(x1, x2)
    y, _ = torch_npu.npu_rms_norm(xOut, gamma)
    return y, xOut


def replace_fn(x1, x2, gamma):
    y, _, xOut = torch_npu.npu_add_rms_norm(x1, x2, gamma)
    return y, xOut


def by_name(nodes):
    return sorted(nodes, key=lambda n: n.name)


def extra_check(match):
    try:
        hidden = match.kwargs["x1"].meta["val"].shape[-1]
    except KeyError:
        return False
    return len(by_name(match.nodes)) == 3 and hidden == 7168


torchair.register_replacement(search_fn=search_fn, replace_fn=replace_fn, extra_check=extra_check,
    example_inputs=[torch.empty(1, 16, 7168, dtype=torch.float16), torch.empty(1, 16, 7168, dtype=torch.float16),
                    torch.empty(7168, dtype=torch.float16)])
)PY",
        "deferred.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QCOMPARE(registry.warnings().size(), size_t(1));
    QVERIFY2(registry.warnings()[0].rfind("deferred.py:18:30: a lambda is outside fxscope's Python subset", 0) == 0,
        registry.warnings()[0].c_str());
    auto report = matchFirstGraph(registry, loadGraphFile(kGraph));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    for (const Verdict &v : report->patterns[0].candidates) {
        QCOMPARE(v.stage, MatchStage::ExtraCheck);
        QVERIFY2(v.checkTrace.back().find("could not evaluate the check (deferred.py:18:30: SubsetError: a lambda is "
                                          "outside")
                != std::string::npos,
            v.checkTrace.back().c_str());
    }
}

// TorchAir's older convention: `_register_xxx_pattern()` without parameters registers on a module-level pass
// manager; fxscope calls it once (lru_cache'd or not) since TorchAir's apply function would.
void TestPatternFilePy::zeroArgumentRegisterFunctions()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"PY(import functools
import torch
import torch_npu
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.patterns.pattern_pass_manager import _PatternPassManager

pattern_pass_manager = _PatternPassManager()


@functools.lru_cache(None)
def _register_addrmsnorm_pattern():
    def search_fn(x1, x2, gamma):
        xOut = torch.add(x1, x2)
        y, _ = torch_npu.npu_rms_norm(xOut, gamma)
        return y, xOut

    def replace_fn(x1, x2, gamma):
        y, _, xOut = torch_npu.npu_add_rms_norm(x1, x2, gamma)
        return y, xOut

    with FakeTensorMode():
        input_tensor = functools.partial(torch.empty, (1, 1, 2), device="npu:0", dtype=torch.float16)
        pattern_pass_manager.register_pattern(
            search_fn=search_fn, replace_fn=replace_fn,
            example_inputs=(input_tensor(), input_tensor(), torch.empty(2, dtype=torch.float16)))


def _apply_pattern_passes(graph_module):
    _register_addrmsnorm_pattern()
    pattern_pass_manager.apply_pass(graph_module)
)PY",
        "old_style.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QCOMPARE(registry.entries().size(), size_t(1));
    QVERIFY(registry.warnings().empty());
    auto report = matchFirstGraph(registry, loadGraphFile(kGraph));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    QCOMPARE(report->patterns[0].acceptedCount(), size_t(2)); // no extra_check: both add + npu_rms_norm sites
}

// TorchAir's pattern_pass_manager.py style: a pass-manager class whose __init__ probes PatternMatcherPass's
// signature and whose register_pattern method calls Inductor's register_replacement with pass_dicts=self.pass_dict,
// a module-level instance, and a zero-parameter _register_ function registering on it.
void TestPatternFilePy::passManagerClass()
{
    PatternRegistry registry;
    auto st = loadPythonPatternSource(R"PY(import functools
import torch
try:
    import torch_npu
except ImportError:
    pass
from torch._inductor.pattern_matcher import register_replacement, PatternMatcherPass, fwd_only


class Manager:
    def __init__(self):
        if 'pass_name' in PatternMatcherPass.__init__.__code__.co_varnames:
            self.pass_dict = PatternMatcherPass(pass_name="my_pass")
        else:
            self.pass_dict = PatternMatcherPass()

    def _return_true(self):
        return True

    def register_pattern(self, search_fn, replace_fn, example_inputs, trace_fn=fwd_only, extra_check=_return_true):
        if hasattr(register_replacement, '__code__') and 'pass_dicts' in register_replacement.__code__.co_varnames:
            register_replacement(search_fn=search_fn, replace_fn=replace_fn, example_inputs=example_inputs,
                                 trace_fn=trace_fn, pass_dicts=self.pass_dict, extra_check=extra_check)
        else:
            raise RuntimeError("an older Inductor")


manager = Manager()


@functools.lru_cache(None)
def _register_add_rms_norm():
    def search_fn(x1, x2, gamma):
        x = torch.add(x1, x2)
        y, _ = torch_npu.npu_rms_norm(x, gamma)
        return y, x

    def replace_fn(x1, x2, gamma):
        y, _, x = torch_npu.npu_add_rms_norm(x1, x2, gamma)
        return y, x

    empty = functools.partial(torch.empty, (1, 1, 2), dtype=torch.float16)
    manager.register_pattern(search_fn=search_fn, replace_fn=replace_fn,
                             example_inputs=(empty(), empty(), torch.empty(2, dtype=torch.float16)))
)PY",
        "manager.py", registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QCOMPARE(registry.entries().size(), size_t(1));
    QVERIFY(!registry.entries()[0]->torchairStreamCheck); // Inductor's register_replacement, called directly
    auto report = matchFirstGraph(registry, loadGraphFile(kGraph));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    // The default extra_check is the class's _return_true(self), called with the match: both sites accepted.
    QCOMPARE(report->patterns[0].acceptedCount(), size_t(2));
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
    // softmax is traced in Inductor's decomposed form, with the f32 upcast of a float16 input (fwd_only's trace).
    QVERIFY(e.warnings.empty());
    QCOMPARE(QString::fromStdString(join(targets(*e.searchGraph))),
        QString("prims.convert_element_type.default(a, torch.float32); aten.amax.default(convert_element_type, [-1], "
                "True); aten.sub.Tensor(convert_element_type, amax); aten.exp.default(sub); "
                "aten.sum.dim_IntList(exp, [-1], True); aten.div.Tensor(exp, sum_1); "
                "prims.convert_element_type.default(div, torch.float16); aten.add.Tensor(convert_element_type_1, b)"));
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
    st = loadPythonPatternSource(
        "def s(x):\n    return x\n\nimport abc\n@abc.final\nclass P:\n    x: int\n", "cls.py", registry);
    QVERIFY(!st);
    QVERIFY2(st.error().toString().rfind("cls.py:5:2: SubsetError: the class decorator @abc.final is outside", 0) == 0,
        st.error().toString().c_str());
}

// The built-in library (resources/patterns/*.py): each file loads, and matching the LLaMA block accepts the
// candidates its extra_check should accept.
void TestPatternFilePy::library_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("names");
    QTest::addColumn<QString>("accepted"); // anchors accepted on the LLaMA block, in report order
    QTest::newRow("add_rms_norm") << "add_rms_norm.py"
                                  << "add_rms_norm"
                                  << "";
    QTest::newRow("rms_norm") << "rms_norm.py"
                              << "rms_norm rms_norm_2"
                              << "mul_7 mul_1";
    // Inductor's f16 swiglu search pattern is silu decomposed (convert_element_type/neg/exp/add/div) and the
    // block's graph holds aten.silu: no match, as Inductor's PatternMatcherPass finds none (the oracle's check).
    QTest::newRow("swiglu") << "swiglu.py"
                            << "swiglu"
                            << "";
    QTest::newRow("rotary_mul") << "rotary_mul.py"
                                << "rotary_mul rotary_mul_2"
                                << "add_3 add_2";
    QTest::newRow("addmm") << "addmm.py"
                           << "addmm"
                           << "";
}

void TestPatternFilePy::library()
{
    QFETCH(QString, file);
    QFETCH(QString, names);
    QFETCH(QString, accepted);
    PatternRegistry registry;
    auto st = loadPatternSpec(kLibrary + file.toStdString(), registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QStringList got;
    for (const auto &e : registry.entries()) {
        got << QString::fromStdString(e->name);
        QVERIFY(e->extraCheck);
        QVERIFY(e->replaceGraph);
        QVERIFY(QString::fromStdString(e->source).startsWith(QString::fromStdString(kLibrary) + file + ":"));
    }
    QCOMPARE(got.join(' '), names);
    auto report = matchFirstGraph(registry, loadGraphFile(kLlama));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    QStringList anchors;
    for (const auto &p : report->patterns)
        for (const Verdict &v : p.candidates)
            if (v.accepted)
                anchors << QString::fromStdString(v.anchor);
    QCOMPARE(anchors.join(' '), accepted);
}

// TorchAir's file conventions: `_register_*(pattern_pass_manager, ...)` functions called by the loader,
// functools.lru_cache de-duplicating repeated calls, the sys.modules guard, same_meta, element_size().
void TestPatternFilePy::torchairConventions()
{
    PatternRegistry registry;
    auto st = loadPatternSpec(kTorchairStyle, registry);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    QStringList names;
    for (const auto &e : registry.entries())
        names << QString::fromStdString(e->name);
    // The cast pattern once although three calls reach it (lru_cache); the quant pattern through the helper.
    QCOMPARE(names.join(' '), QString("search_fn search_fn_2"));
    QCOMPARE(registry.warnings().size(), size_t(1));
    const std::string &w = registry.warnings()[0];
    QVERIFY2(w.find("torchair_style_patterns.py:117: _register_transpose_pattern(pattern_pass_manager, dim0, dim1) "
                    "was not called")
            != std::string::npos,
        w.c_str());
    QVERIFY2(w.find("it needs dim0, dim1") != std::string::npos, w.c_str());
    // scalar_workaround parameters take their value and consume no example input (Inductor's gen_pattern).
    const PatternEntry &quant = *registry.entries()[1];
    QCOMPARE(QString::fromStdString(join(targets(*quant.searchGraph))),
        QString("npu.npu_add_rms_norm.default(x1, x2, gamma, 2e-06); operator.getitem(npu_add_rms_norm, 0); "
                "operator.getitem(npu_add_rms_norm, 2); npu.npu_quantize.default(getitem, scales, None, 1, -1)"));
    QVERIFY(quant.pattern->repr(400).find("KeywordArg('epsilon')") != std::string::npos);
    QVERIFY(quant.pattern->repr(400).find("KeywordArg('dtype')") != std::string::npos);

    // The cast pattern's check on a graph: same_meta, element_size() and the logger reason.
    auto report = matchFirstGraph(registry,
        loadGraphBytes(R"(class GraphModule(torch.nn.Module):
    def forward(self, a: "f16[4, 8]", b: "f16[4, 8]", g: "f16[8]"):
        norm = torch.ops.npu.npu_add_rms_norm.default(a, b, g)
        y = norm[0]
        x_out = norm[2]
        v = torch.ops.aten.view.default(y, [-1, 8])
        c = torch.ops.aten._to_copy.default(v, dtype=torch.float32)
        return (y, x_out, c)
)",
            "cast.py"));
    QVERIFY2(report, report ? "" : report.error().toString().c_str());
    const Verdict *cast = nullptr;
    for (const auto &p : report->patterns)
        for (const Verdict &v : p.candidates)
            if (p.name == "search_fn")
                cast = &v;
    QVERIFY(cast);
    QCOMPARE(cast->stage, MatchStage::ExtraCheck); // 8 f16 = 16 bytes: not 32-byte aligned
    QVERIFY2(join(cast->checkTrace)
                 .find("line 29: if x1_val.ndim == 0 or (x1_val.shape[-1] * x1_val.element_size()) "
                       "% 32 != 0 → True")
            != std::string::npos,
        join(cast->checkTrace).c_str());
}

// search_fn_pattern built in the file with CallFunction/KeywordArg/Ignored/MultiOutputPattern/operator.getitem.
void TestPatternFilePy::searchFnPattern()
{
    PatternRegistry registry;
    QVERIFY(loadPatternSpec(kTorchairStyle, registry));
    const PatternEntry &e = *registry.entries()[0];
    QVERIFY(!e.searchGraph); // search_fn is `pass`: never traced, as in Inductor
    QCOMPARE(e.pattern, e.specificPattern);
    QCOMPARE(e.pattern->kind, PatternExpr::Kind::MultiOutput);
    QCOMPARE(e.pattern->children.size(), size_t(3));
    QCOMPARE(QString::fromStdString(e.pattern->children[0]->repr(400)),
        QString("CallFunction(operator.getitem, CallFunction(npu.npu_add_rms_norm.default, KeywordArg('x1'), "
                "KeywordArg('x2'), KeywordArg('gamma'), _users=2), 0, _users=2)"));
    QVERIFY2(e.pattern->children[2]->repr(400).find("aten._to_copy.default, CallFunction(aten.view.default") == 0
            || e.pattern->children[2]->repr(400).find(
                   "CallFunction(aten._to_copy.default, CallFunction(aten.view.default")
                == 0,
        e.pattern->children[2]->repr(400).c_str());
    QVERIFY(e.pattern->children[2]->repr(400).find("[-1, *]") != std::string::npos);
    QVERIFY(e.pattern->children[2]->repr(400).find("dtype=torch.float32") != std::string::npos);
    // One KeywordArg('x1') object per call, shared by the two getitems: the matcher binds it once.
    QCOMPARE(e.pattern->children[0]->args[0].expr, e.pattern->children[1]->args[0].expr);
    QCOMPARE(QString::fromStdString(join(e.argnames)), QString("x1; x2; gamma"));
}

void TestPatternFilePy::unsupportedConstruct_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("expected");
    QTest::newRow("decorator") << "import functools\n\n@functools.wraps(len)\ndef f(x):\n    return x\n"
                               << "deco.py:3:2: SubsetError: the decorator @functools.wraps(len) is outside "
                                  "fxscope's Python subset";
    QTest::newRow("class decorator") << "import abc\n@abc.final\nclass A:\n    pass\n"
                                     << "deco.py:2:2: SubsetError: the class decorator @abc.final is outside";
    QTest::newRow("bad search_fn_pattern")
        << "import torch, torchair\ndef s(x):\n    pass\n"
           "torchair.register_replacement(s, s, [torch.empty(2)], search_fn_pattern=[1])\n"
        << "deco.py:4:1: TypeError: search_fn_pattern must be built with CallFunction";
}

void TestPatternFilePy::unsupportedConstruct()
{
    QFETCH(QString, source);
    QFETCH(QString, expected);
    PatternRegistry registry;
    auto st = loadPythonPatternSource(source.toStdString(), "deco.py", registry);
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.error().toString()).startsWith(expected), st.error().toString().c_str());
}

QTEST_GUILESS_MAIN(TestPatternFilePy)
#include "tst_pattern_file_py.moc"
