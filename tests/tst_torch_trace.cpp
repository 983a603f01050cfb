#include "io/torch_trace_parser.h"
#include "ir/lint.h"

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

Result<GraphFile> loadLog(const char *name)
{
    return parseTorchTrace(
        readFile(QStringLiteral(FXSCOPE_CORPUS_DIR "/torch_trace/") + QString::fromUtf8(name)), name);
}

std::string record(const std::string &json)
{
    return "V1206 15:18:15.925000 1500233 torch/_dynamo/utils.py:1288] " + json + "\n";
}

// Prefixes every line with the payload tab.
std::string payload(const std::string &code)
{
    std::string out;
    size_t pos = 0;
    while (pos < code.size()) {
        size_t eol = code.find('\n', pos);
        std::string line = code.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
        out += (line.empty() ? "" : "\t") + line + "\n";
        pos = eol == std::string::npos ? code.size() : eol + 1;
    }
    return out;
}

const char *kSmallGraph = "class GraphModule(torch.nn.Module):\n"
                          "    def forward(self, L_x_: \"f32[4][1]cpu\"):\n"
                          "        l_x_ = L_x_\n"
                          "        \n"
                          "         # File: /t.py:3 in f, code: return x.relu()\n"
                          "        relu: \"f32[4][1]cpu\" = l_x_.relu();  l_x_ = None\n"
                          "        return (relu,)\n";

} // namespace

class TestTorchTrace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every graph-bearing record of the corpus logs, in file order. Node counts were checked independently:
    // each payload (TAB removed) was counted with Python's `ast` module by the rules given in
    // tst_readable_parser.cpp (corpusNodeCounts); record lines are where the JSON envelope sits.
    void corpusGraphLists_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("graphs"); // "name|kind|line|nodes|subgraphs"
        QTest::newRow("simple") << "tlparse__simple.log"
                                << QStringList{"[0/0] dynamo_output_graph|dynamo_output_graph|114|5|0",
                                       "[0/0] aot_inference_graph|aot_inference_graph|236|14|0",
                                       "[0/0] inductor_post_grad_graph|inductor_post_grad_graph|433|15|0"};
        QTest::newRow("corrupted") << "tlparse__simple_corrupted_json.log"
                                   << QStringList{"[0/0] dynamo_output_graph|dynamo_output_graph|113|5|0",
                                          "[0/0] aot_inference_graph|aot_inference_graph|235|14|0",
                                          "[0/0] inductor_post_grad_graph|inductor_post_grad_graph|432|15|0"};
        QTest::newRow("export") << "tlparse__export.log"
                                << QStringList{"[-/-] exported_program|exported_program|60|9|0"};
        QTest::newRow("provenance") << "tlparse__inductor_provenance_jit_log.txt"
                                    << QStringList{"[0/0] dynamo_output_graph|dynamo_output_graph|88|13|0",
                                           "[0/0] before_pre_grad_graph|before_pre_grad_graph|130|13|0",
                                           "[0/0] after_pre_grad_graph|after_pre_grad_graph|185|13|0",
                                           "[0/0] aot_inference_graph|aot_inference_graph|375|18|0",
                                           "[0/0] before_post_grad_graph|before_post_grad_graph|669|18|0",
                                           "[0/0] after_post_grad_graph|after_post_grad_graph|720|18|0"};
        QTest::newRow("cache hit/miss") << "tlparse__cache_hit_miss.log"
                                        << QStringList{"[0/0] dynamo_output_graph|dynamo_output_graph|71|17|2",
                                               "[1/0] dynamo_output_graph|dynamo_output_graph|388|16|2",
                                               "[1/0] aot_inference_graph|aot_inference_graph|616|16|2",
                                               "[1/0] inductor_post_grad_graph|inductor_post_grad_graph|856|16|2",
                                               "[0/0] dynamo_output_graph (2)|dynamo_output_graph|2722|17|2",
                                               "[1/0] dynamo_output_graph (2)|dynamo_output_graph|3039|16|2",
                                               "[1/0] aot_inference_graph (2)|aot_inference_graph|3267|16|2",
                                               "[0/0] dynamo_output_graph (3)|dynamo_output_graph|4989|17|2",
                                               "[1/0] dynamo_output_graph (3)|dynamo_output_graph|5303|16|2",
                                               "[1/0] aot_inference_graph (3)|aot_inference_graph|5528|16|2",
                                               "[1/0] inductor_post_grad_graph (2)|inductor_post_grad_graph|5741|16|2"};
    }

    void corpusGraphLists()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, graphs);
        std::string name = file.toStdString();
        auto log = loadLog(name.c_str());
        QVERIFY2(log.ok(), log.ok() ? "" : log.error().toString().c_str());
        QCOMPARE(log->format, std::string("torch_trace"));
        QStringList actual;
        for (const NamedGraph &g : log->graphs) {
            actual << QStringLiteral("%1|%2|%3|%4|%5")
                          .arg(QString::fromStdString(g.name), QString::fromStdString(g.kind))
                          .arg(g.line)
                          .arg(g.graph->size())
                          .arg(g.graph->subgraphs().size());
            auto problems = lint(*g.graph);
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].c_str());
        }
        QCOMPARE(actual, graphs);
        if (file != QLatin1String("tlparse__simple_corrupted_json.log"))
            QVERIFY(log->warnings.empty());
    }

    // The corrupted chromium_event payload is reported where it is broken; every graph still loads.
    void corruptedJsonWarning()
    {
        auto log = loadLog("tlparse__simple_corrupted_json.log");
        QVERIFY(log.ok());
        QCOMPARE(log->graphs.size(), size_t(3));
        QCOMPARE(log->warnings.size(), size_t(1));
        const Error &w = log->warnings[0];
        QCOMPARE(w.file, std::string("tlparse__simple_corrupted_json.log"));
        QCOMPARE(w.line, 19);
        QCOMPARE(w.column, 2);
        QCOMPARE(w.message, std::string("expected ',' or '}' in object, found '\"'"));
        QCOMPARE(w.toString(),
            std::string("tlparse__simple_corrupted_json.log:19:2: expected ',' or '}' in object, found '\"'"));
    }

    // Node positions inside payloads are file lines; subgraphs of higher-order ops come along.
    void payloadPositionsAndSubgraphs()
    {
        auto log = loadLog("tlparse__cache_hit_miss.log");
        QVERIFY(log.ok());
        const NamedGraph *g = log->find("[1/0] dynamo_output_graph");
        QVERIFY(g);
        const Graph *score = g->graph->subgraph("score_mod_0");
        QVERIFY(score);
        QCOMPARE(score->find("sub")->target(), std::string("operator.sub"));
        QVERIFY(g->graph->subgraph("mask_fn_0"));
        Node *flex = g->graph->find("flex_attention");
        QVERIFY(flex);
        // The record is at line 388 and the flex_attention statement is line 18 of its payload.
        QCOMPARE(flex->meta().dumpLine, 388 + 18);

        auto exported = loadLog("tlparse__export.log");
        QVERIFY(exported.ok());
        Node *neg = exported->graphs[0].graph->find("neg");
        QCOMPARE(neg->target(), std::string("operator.neg"));
        QCOMPARE(neg->meta().dumpLine, 68);
        QCOMPARE(exported->graphs[0].graph->find("x")->meta().val->toAnnotation(), std::string("i64[]"));
    }

    // A broken envelope and a broken graph payload are both reported at their file positions; the rest loads.
    void brokenRecordsAreWarnings()
    {
        std::string log
            = record(R"({"dynamo_start": {"stack": []}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0})")
            + record(R"({"dynamo_output_graph": {"sizes": {}}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, )"
                     R"("has_payload": "x"})")
            + payload(kSmallGraph)
            + record(R"({"aot_forward_graph": {}, "frame_id": 0, "frame_compile_id": 0 "attempt": 0})")
            + payload(kSmallGraph)
            + record(
                R"({"aot_backward_graph": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "y"})")
            + payload(
                "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = f(x]\n        return y\n")
            + record(R"({"inductor_post_grad_graph": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 1})")
            + payload(kSmallGraph);
        auto file = parseTorchTrace(log, "run.log");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        QCOMPARE(file->graphs.size(), size_t(2));
        QCOMPARE(file->graphs[0].name, std::string("[0/0] dynamo_output_graph"));
        QCOMPARE(file->graphs[0].line, 2);
        QCOMPARE(file->graphs[0].graph->size(), size_t(3));
        QCOMPARE(file->graphs[0].graph->find("l_x_")->target(), std::string("L_x_"));
        QCOMPARE(file->graphs[0].graph->find("relu")->meta().dumpLine, 8);
        QCOMPARE(file->graphs[0].graph->find("relu")->meta().source->line, 3);
        QCOMPARE(file->graphs[1].name, std::string("[0/0_1] inductor_post_grad_graph"));
        QCOMPARE(file->graphs[1].line, 23);
        QCOMPARE(file->warnings.size(), size_t(2));
        // Line 10: the envelope lacks a comma before "attempt" (column 64 of the JSON, after a 59-byte prefix).
        const Error &envelope = file->warnings[0];
        QCOMPARE(envelope.line, 10);
        QCOMPARE(envelope.column, 59 + 64);
        QCOMPARE(envelope.message, std::string("expected ',' or '}' in object, found '\"'"));
        // Line 21: the third payload line of the aot_backward_graph record at line 18.
        const Error &graph = file->warnings[1];
        QCOMPARE(graph.file, std::string("run.log"));
        QCOMPARE(graph.line, 21);
        QCOMPARE(graph.column, 17);
        QCOMPARE(graph.message, std::string("expected ')' closing '(' opened at 21:15, found ']'"));
    }

    void compileIds()
    {
        std::string log = record(R"({"compiled_autograd_graph": {}, "compiled_autograd_id": 2, "frame_id": 5, )"
                                 R"("frame_compile_id": 1, "attempt": 0, "has_payload": "z"})")
            + payload(kSmallGraph)
            + record(R"({"optimize_ddp_split_child": {"name": "submod_1"}, "frame_id": 0, "frame_compile_id": 3, )"
                     R"("attempt": 2})")
            + payload(kSmallGraph)
            + record(R"({"artifact": {"name": "after_post_grad_graph", "encoding": "string"}, "frame_id": 1, )"
                     R"("frame_compile_id": 0, "attempt": 0})")
            + payload(kSmallGraph)
            + record(R"({"artifact": {"name": "fx_graph_runnable", "encoding": "string"}, "frame_id": 1, )"
                     R"("frame_compile_id": 0, "attempt": 0})")
            + payload("import torch\nclass Repro(torch.nn.Module):\n    pass\n");
        auto file = parseTorchTrace(log, "ids.log");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        QCOMPARE(file->graphs.size(), size_t(3));
        QCOMPARE(file->graphs[0].name, std::string("[!2/5/1] compiled_autograd_graph"));
        QCOMPARE(file->graphs[1].name, std::string("[0/3_2] optimize_ddp_split_child submod_1"));
        QCOMPARE(file->graphs[1].kind, std::string("optimize_ddp_split_child"));
        QCOMPARE(file->graphs[2].name, std::string("[1/0] after_post_grad_graph"));
        QCOMPARE(file->graphs[2].kind, std::string("after_post_grad_graph"));
        QVERIFY(file->warnings.empty());
    }

    // torch 2.13 logs Inductor's post-grad graph as an artifact (tests/data/torch2/trace has real ones); the
    // pre-grad artifacts' payload is the graph followed by a "# graph id" comment.
    void graphArtifactsOfTorch213()
    {
        std::string log = record(R"({"artifact": {"name": "before_pre_grad_graph", "encoding": "string"}, )"
                                 R"("frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "a"})")
            + payload(std::string(kSmallGraph) + "\n\n # graph id: 140376264422800")
            + record(R"({"artifact": {"name": "inductor_post_grad_graph", "encoding": "string"}, )"
                     R"("frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "b"})")
            + payload(kSmallGraph);
        auto file = parseTorchTrace(log, "t213.log");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        QCOMPARE(file->graphs.size(), size_t(2));
        QCOMPARE(file->graphs[0].name, std::string("[0/0] before_pre_grad_graph"));
        QCOMPARE(file->graphs[0].graph->size(), size_t(3));
        QCOMPARE(file->graphs[1].name, std::string("[0/0] inductor_post_grad_graph"));
        QCOMPARE(file->graphs[1].kind, std::string("inductor_post_grad_graph"));
        QCOMPARE(file->graphs[1].line, 12);
        QCOMPARE(file->graphs[1].graph->size(), size_t(3));
        QVERIFY(file->warnings.empty());
    }

    // create_symbol records give their frame's graphs the symbols' example values as hints; a float or an
    // unbacked symbol gives none, and another frame's graph gets nothing from them.
    void createSymbolGivesHints()
    {
        auto symbol = [](const std::string &name, const std::string &val, int frame) {
            return record(R"({"create_symbol": {"symbol": ")" + name + R"(", "val": ")" + val
                + R"(", "vr": "[2, int_oo]", "source": "L['x'].size()[0]", "user_stack": "STACK", "stack": "STACK"}, )"
                + R"("frame_id": )" + std::to_string(frame) + R"(, "frame_compile_id": 0, "attempt": 0})");
        };
        std::string log = symbol("s0", "8", 0) + symbol("s1", "1.5", 0) + symbol("s2", "-4", 0)
            + record(R"({"create_unbacked_symbol": {"symbol": "u0", "vr": "[-int_oo, int_oo]"}, "frame_id": 0, )"
                     R"("frame_compile_id": 0, "attempt": 0})")
            + record(R"({"dynamo_output_graph": {"sizes": {}}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0})")
            + payload(kSmallGraph) + symbol("s0", "512", 1)
            + record(R"({"aot_forward_graph": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0})")
            + payload(kSmallGraph)
            + record(R"({"dynamo_output_graph": {"sizes": {}}, "frame_id": 2, "frame_compile_id": 0, "attempt": 0})")
            + payload(kSmallGraph);
        auto file = parseTorchTrace(log, "sym.log");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        QCOMPARE(file->graphs.size(), size_t(3));
        const std::map<std::string, int64_t> frame0{{"s0", 8}, {"s2", -4}};
        QCOMPARE(file->graphs[0].graph->symbolHints(), frame0);
        QCOMPARE(file->graphs[1].graph->symbolHints(), frame0); // frame 1's s0 is another symbol
        QVERIFY(file->graphs[2].graph->symbolHints().empty());
        QVERIFY(file->warnings.empty());
    }

    void logsWithoutGraphs_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("message");
        QTest::newRow("records only")
            << QString::fromStdString(record(R"({"dynamo_start": {"stack": []}, "frame_id": 0})")
                   + record(R"({"chromium_event": {}, "has_payload": "a"})") + payload("{\"ph\": \"B\"}"))
            << "expected a graph record (dynamo_output_graph, aot_*_graph, inductor_*_graph, exported_program, ...), "
               "found 2 records and no graph";
        QTest::newRow("not a log") << "hello\nworld\n"
                                   << "expected TORCH_TRACE records (V1206 15:18:15.925000 1500233 file.py:12] {...}), "
                                      "found none";
        QTest::newRow("empty") << ""
                               << "expected TORCH_TRACE records (V1206 15:18:15.925000 1500233 file.py:12] {...}), "
                                  "found none";
        QTest::newRow("only a broken graph")
            << QString::fromStdString(record(R"({"aot_joint_graph": {}, "frame_id": 0, "frame_compile_id": 0})")
                   + payload("def forward(self, x):\n    return (x,\n"))
            << "expected ')' closing '(' opened at 3:13, found end of file";
        QTest::newRow("graph record without payload")
            << QString::fromStdString(record(R"({"aot_joint_graph": {}, "frame_id": 0, "frame_compile_id": 0})"))
            << "expected a graph payload (tab-indented lines) after the aot_joint_graph record, found none";
    }

    void logsWithoutGraphs()
    {
        QFETCH(QString, log);
        QFETCH(QString, message);
        auto file = parseTorchTrace(log.toStdString(), "x.log");
        QVERIFY(!file.ok());
        QCOMPARE(QString::fromStdString(file.error().message), message);
        QCOMPARE(file.error().file, std::string("x.log"));
    }

    // Lines that are not records are reported (a few of them) and skipped.
    void strayLines()
    {
        std::string log = "some stderr noise\n"
            + record(R"({"dynamo_output_graph": {}, "frame_id": 0, "frame_compile_id": 0})") + payload(kSmallGraph);
        auto file = parseTorchTrace(log, "noise.log");
        QVERIFY(file.ok());
        QCOMPARE(file->graphs.size(), size_t(1));
        QCOMPARE(file->warnings.size(), size_t(1));
        QCOMPARE(file->warnings[0].line, 1);
        QVERIFY(file->warnings[0].message.rfind("expected a TORCH_TRACE record", 0) == 0);
    }
};

QTEST_APPLESS_MAIN(TestTorchTrace)
#include "tst_torch_trace.moc"
