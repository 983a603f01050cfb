// Aten patterns on a Dynamo-level graph find nothing; the match report says so once, with the counts and what to
// capture instead. Checked on the shared corpus: Dynamo and symbolic_trace graphs warn, AOT and post-grad ones don't.

#include "io/loader.h"
#include "match/graph_level.h"
#include "match/matcher.h"
#include "patterns/builtin_patterns.h"
#include "patterns/pattern_file.h"

#include <QtTest>

using namespace fxs;

namespace {

std::vector<std::string> dynamoWarnings(const MatchReport &report)
{
    std::vector<std::string> out;
    for (const std::string &w : report.warnings)
        if (w.find("Dynamo-level") != std::string::npos)
            out.push_back(w);
    return out;
}

} // namespace

class TestGraphLevel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void corpus_data();
    void corpus();
    void torchLevelPatternsDoNotWarn();
};

void TestGraphLevel::corpus_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected"); // the warning's start; empty: none
    // GPT-J: 478 torch.* calls (grep "= torch." in the file), 543 call_method and 284 call_module (fxscope-cli info).
    QTest::newRow("GPT-J dynamo") << "readable/learn_torch_compile__hf_GPTJForCausalLM_inference_cpu__dynamo_captured_"
                                     "graph.py"
                                  << "this graph is Dynamo-level (1305 torch.* / call_method / call_module nodes, no "
                                     "aten ops); the patterns match aten graphs (6 of 6 here): capture the post-grad "
                                     "or AOT graph (TORCH_LOGS=post_grad_graphs or aot_graphs)";
    // torch._C._nn.gelu, dropout and a custom torch.ops.test.baz, which counts for neither level.
    QTest::newRow("custom op stays dynamo") << "readable/tlparse__simple_log__dynamo_output_graph.py"
                                            << "this graph is Dynamo-level (2 torch.* / call_method";
    QTest::newRow("symbolic_trace resnet18")
        << "fx_text/apachecn_pytorch_doc_zh__fx_profiling_tutorial__resnet18_symbolic_trace_old_users_form.txt"
        << "this graph is Dynamo-level (";
    QTest::newRow("GPT-2 post-grad") << "readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py"
                                     << "";
    QTest::newRow("BERT AOT forward") << "readable/learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_forward_"
                                         "graph.py"
                                      << "";
    QTest::newRow("TorchAir fx graph") << "fx_text/torchair_docs__presentation_md__dynamic_true_fx_graph.txt"
                                       << "";
}

void TestGraphLevel::corpus()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    PatternRegistry registry;
    QVERIFY(registerBuiltinPatterns(registry, ""));
    auto graphs = loadGraphFile(std::string(FXSCOPE_CORPUS_DIR "/") + file.toStdString());
    QVERIFY2(graphs, graphs ? "" : graphs.error().toString().c_str());
    const Graph &graph = *graphs->graphs.front().graph;
    auto report = Matcher(registry).run(graph);
    QVERIFY(report);
    const std::vector<std::string> warnings = dynamoWarnings(report.value());
    QCOMPARE(graphLevel(graph).isDynamoLevel(), !expected.isEmpty());
    if (expected.isEmpty()) {
        QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings.front().c_str());
        return;
    }
    QCOMPARE(warnings.size(), size_t(1));
    QVERIFY2(QString::fromStdString(warnings.front()).startsWith(expected), warnings.front().c_str());
    QCOMPARE(graphLevel(graph).atenCalls, size_t(0));
}

// A pattern at the torch level (its search graph calls torch.* functions, as fx.replace_pattern users write them)
// is no mismatch for a Dynamo graph: alone it gives no warning, beside the built-ins it is not counted.
void TestGraphLevel::torchLevelPatternsDoNotWarn()
{
    auto search = loadGraphBytes(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]"):
        abs_1: "f32[4]" = torch.abs(x)
        return (abs_1,)
)",
        "search.py");
    QVERIFY2(search, search ? "" : search.error().toString().c_str());
    ReplacementSpec spec;
    spec.name = "torch_abs";
    spec.search = std::move(search->graphs.front().graph);
    spec.replace = spec.search;
    PatternRegistry registry;
    auto st = registerReplacement(registry, spec);
    QVERIFY2(st, st ? "" : st.error().toString().c_str());
    auto dynamo = loadGraphFile(
        std::string(FXSCOPE_CORPUS_DIR "/readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_dynamo_graph.py"));
    QVERIFY2(dynamo, dynamo ? "" : dynamo.error().toString().c_str());
    const Graph &graph = *dynamo->graphs.front().graph;
    QVERIFY(graphLevel(graph).isDynamoLevel());
    auto report = Matcher(registry).run(graph);
    QVERIFY(report);
    QVERIFY(dynamoWarnings(report.value()).empty());
    QCOMPARE(report->patterns.front().candidates.size(), size_t(1)); // torch.abs(l_a_): it can match here

    QVERIFY(registerBuiltinPatterns(registry, ""));
    report = Matcher(registry).run(graph);
    QVERIFY(report);
    QCOMPARE(dynamoWarnings(report.value()).size(), size_t(1));
    QVERIFY2(dynamoWarnings(report.value()).front().find("(6 of 7 here)") != std::string::npos,
        dynamoWarnings(report.value()).front().c_str());
}

QTEST_GUILESS_MAIN(TestGraphLevel)
#include "tst_graph_level.moc"
