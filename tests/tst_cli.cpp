// fxscope-cli as users and scripts call it: the JSON contract of docs/cli-json-contract.md, exit codes, error
// locations, conversions that read back, one grammar for pattern files and each command's --help.
#include "cli_test_support.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace {


} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void infoJsonContract()
    {
        Run r = cli({"info", "--json", corpus("fx_text/torchair_docs__presentation_md__dynamic_true_fx_graph.txt")});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = json(r);
        QCOMPARE(o["format"].toString(), QString("fx_text"));
        QJsonObject g = o["graphs"].toArray()[0].toObject();
        QCOMPARE(g["nodes"].toInt(), 12); // len(graph.nodes): 4 placeholders, 7 ops, 1 output
        QCOMPARE(g["ops"].toObject()["placeholder"].toInt(), 4);
        QCOMPARE(g["ops"].toObject()["call_function"].toInt(), 7);
        QCOMPARE(g["ops"].toObject()["output"].toInt(), 1);
        QCOMPARE(g["outputs"].toArray().size(), 2); // (t_3, view, None, None, None, None)
        QCOMPARE(g["inputs"].toArray()[0].toString(), QString("primals_6"));
    }

    void infoListsEveryGraphOfATrace()
    {
        Run r = cli({"info", "--json", corpus("torch_trace/tlparse__simple.log")});
        QCOMPARE(r.exitCode, 0);
        QJsonArray graphs = json(r)["graphs"].toArray();
        QCOMPARE(graphs.size(), 3);
        QCOMPARE(graphs[0].toObject()["name"].toString(), QString("[0/0] dynamo_output_graph"));
        Run one = cli({"info", "--json", "--graph", "2", corpus("torch_trace/tlparse__simple.log")});
        QCOMPARE(json(one)["graphs"].toArray().size(), 1);
        QCOMPARE(json(one)["graphs"].toArray()[0].toObject()["nodes"].toInt(), 15);
        Run text = cli({"info", corpus("torch_trace/tlparse__simple.log")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("call_function"));
    }

    void exitCodes()
    {
        QCOMPARE(cli({}).exitCode, 1);
        QCOMPARE(cli({"frobnicate"}).exitCode, 1);
        QCOMPARE(cli({"info"}).exitCode, 1);
        QCOMPARE(cli({"info", "--bogus", "x"}).exitCode, 1);
        QCOMPARE(cli({"info", "--graph", "nope", corpus("torch_trace/tlparse__simple.log")}).exitCode, 1);
        QCOMPARE(
            cli({"convert", corpus("fx_text/torchair_docs__graph_dump_md__select_scatter_fx_graph.txt"), "-o", "x.txt"})
                .exitCode,
            1);
    }

    void badInputNamesFileLineColumn()
    {
        QTemporaryDir dir;
        QString path = dir.filePath("broken.txt");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("graph():\n    %x : [num_users=1] = placeholder[target=x]\n"
                "    %y : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,, kwargs = {})\n"
                "    return (y,)\n");
        f.close();
        Run r = cli({"info", path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith((path + ":3:").toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("expected"), r.err.constData());
    }

    void hundredMegabytesOfGarbageIsRefusedQuickly()
    {
        QTemporaryDir dir;
        QString path = dir.filePath("garbage.bin");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray block(1 << 20, '\0');
        for (int i = 0; i < block.size(); ++i)
            block[i] = char((i * 2654435761u) >> 24);
        for (int i = 0; i < 100; ++i)
            f.write(block);
        f.close();
        Run r = cli({"info", path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("found binary data"), r.err.constData());
    }

    void convertRoundTrips_data()
    {
        QTest::addColumn<QString>("input");
        QTest::newRow("readable") << corpus(
            "readable/tlparse__cache_hit_miss__1-0__dynamo_output_graph_flex_attention_hop.py");
        QTest::newRow("fx_text") << corpus(
            "fx_text/unknown_repo_test_subgraphs__resnet18_feature_extractor_typed_placeholder_dict_return.txt");
        QTest::newRow("torchair") << corpus(
            "torchair_py/torchair_docs__presentation_md__dynamic_true_dynamic_ge_graph.py");
        QTest::newRow("export") << QStringLiteral(FXSCOPE_TEST_DATA_DIR "/export/cond.pt2");
    }
    void convertRoundTrips()
    {
        QFETCH(QString, input);
        QTemporaryDir dir;
        Run before = cli({"info", "--json", input});
        QCOMPARE(before.exitCode, 0);
        const int nodes = json(before)["graphs"].toArray()[0].toObject()["nodes"].toInt();
        for (const char *ext : {"json", "py"}) {
            QString out = dir.filePath(QStringLiteral("out.") + ext);
            Run c = cli({"convert", input, "-o", out});
            QVERIFY2(c.exitCode == 0, c.err.constData());
            Run after = cli({"info", "--json", out});
            QVERIFY2(after.exitCode == 0, after.err.constData());
            QCOMPARE(json(after)["graphs"].toArray()[0].toObject()["nodes"].toInt(), nodes);
        }
        QString dot = dir.filePath("out.dot");
        QCOMPARE(cli({"convert", input, "-o", dot}).exitCode, 0);
        QFile d(dot);
        QVERIFY(d.open(QIODevice::ReadOnly));
        QVERIFY(d.readAll().startsWith("digraph"));
    }

    // Graphviz's layout of a big graph says it has started, so a long render does not look like a hang.
    void convertOfABigGraphSaysItLaysOut()
    {
        QTemporaryDir dir;
        Run r = cli({"convert", corpus("readable/learn_torch_compile__tb_resnet50_inference_cpu__aot_forward_graph.py"),
            "-o", dir.filePath("r50.svg")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("note: laying out 1400 nodes with Graphviz dot"), r.err.constData());
        QVERIFY(QFileInfo(dir.filePath("r50.svg")).size() > 0);
    }

    void convertRendersSvg()
    {
        QTemporaryDir dir;
        QString svg = dir.filePath("g.svg");
        Run r
            = cli({"convert", corpus("fx_text/torchair_docs__graph_dump_md__select_scatter_fx_graph.txt"), "-o", svg});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray content = f.readAll();
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.contains("select_scatter"));
    }

    // passes --json: the runs, one step per changing pass with its provenance, op table and lint; -o keeps the
    // provenance in the fxscope JSON it writes.
    void passesJsonContract()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("inlined.json");
        Run r = cli({"passes", QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/passes/inline_submodule.py"), "--pass",
            "dce,inline", "--json", "-o", out});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = json(r);
        QCOMPARE(o["nodes_before"].toInt(), 7);
        QCOMPARE(o["nodes_after"].toInt(), 6);
        QCOMPARE(o["iterations"].toInt(), 1);
        QCOMPARE(o["lint"].toArray().size(), 0);
        QVERIFY(!o.contains("error") && !o.contains("failed_pass"));
        QJsonArray runs = o["runs"].toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[1].toObject()["pass"].toString(), QString("inline"));
        QCOMPARE(runs[1].toObject()["revision"].toInt(), 2);
        QJsonArray steps = o["steps"].toArray();
        QCOMPARE(steps.size(), 2);
        QCOMPARE(steps[0].toObject()["removed"].toArray(), QJsonArray({"neg"}));
        QJsonObject inlined = steps[1].toObject();
        QCOMPARE(inlined["pass"].toString(), QString("inline"));
        QCOMPARE(inlined["added"].toArray(), QJsonArray({"mul"}));
        QJsonObject provenance = inlined["provenance"].toObject()["mul"].toObject();
        QCOMPARE(provenance["pass"].toString(), QString("inline"));
        QCOMPARE(provenance["replaced"].toArray(), QJsonArray({"sub"}));
        QVERIFY(!o["ops"].toArray().isEmpty());

        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QJsonObject mul;
        for (const auto &n : QJsonDocument::fromJson(written.readAll())
                                 .object()["graphs"]
                                 .toArray()[0]
                                 .toObject()["graph"]
                                 .toObject()["nodes"]
                                 .toArray())
            if (n.toObject()["name"].toString() == "mul")
                mul = n.toObject();
        QCOMPARE(mul["meta"].toObject()["extra"].toObject()["fxscope_provenance"].toObject(), provenance);
        Run info = cli({"info", "--json", out});
        QCOMPARE(info.exitCode, 0);
        QCOMPARE(json(info)["graphs"].toArray()[0].toObject()["nodes"].toInt(), 6);
    }

    // An fx.wrap'ed function (printed as __main___my_gelu) inlined from its graph in a --composites file.
    void passesInlineComposite()
    {
        const QString data = QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/passes/");
        Run r = cli(
            {"passes", data + "wrapped_call.py", "--pass", "inline", "--composites", data + "composites.py", "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject step = json(r)["steps"].toArray()[0].toObject();
        QCOMPARE(step["removed"].toArray(), QJsonArray({"my_gelu"}));
        QCOMPARE(step["added"].toArray(), QJsonArray({"mul", "erf", "mul_1"}));
        QCOMPARE(json(r)["lint"].toArray().size(), 0);
        Run without = cli({"passes", data + "wrapped_call.py", "--pass", "inline", "--json"});
        QCOMPARE(without.exitCode, 0);
        QCOMPARE(json(without)["steps"].toArray().size(), 0); // an unknown function stays a call
    }

    // A failing pass: exit 3, the error names it and the passes that ran before it, their runs are kept.
    void passesErrorNamesFailingPass()
    {
        Run r = cli({"passes", QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/passes/inline_missing_input.py"),
            "--pass", "dce,cse,inline", "--json"});
        QCOMPARE(r.exitCode, 3);
        QJsonObject o = json(r);
        QVERIFY(o["error"].toString().startsWith(
            "An error occurred when running the 'inline' pass after the following passes: ['dce', 'cse']"));
        QJsonObject failed = o["failed_pass"].toObject();
        QCOMPARE(failed["pass"].toString(), QString("inline"));
        QCOMPARE(failed["after"].toArray(), QJsonArray({"dce", "cse"}));
        QVERIFY(failed["cause"].toString().contains("no value for its input 'b'"));
        QCOMPARE(o["runs"].toArray().size(), 2);
        QCOMPARE(o["steps"].toArray().size(), 1); // dce's; cse changed nothing, inline failed and was rolled back
        QCOMPARE(o["nodes_after"].toInt(), 5);
        QVERIFY(r.err.contains("after the following passes: ['dce', 'cse']"));
    }

    // Built-in (aten) patterns on GPT-J's Dynamo graph: one warning saying why nothing can match, in --json and
    // first in the table, and in apply's --json.
    void matchWarnsOnDynamoGraph()
    {
        const QString gptj
            = corpus("readable/learn_torch_compile__hf_GPTJForCausalLM_inference_cpu__dynamo_captured_graph.py");
        Run r = cli({"match", gptj, "--patterns", "builtin", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray warnings = json(r)["warnings"].toArray();
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings[0].toString().startsWith("this graph is Dynamo-level (1305 torch.* / call_method / "
                                                   "call_module nodes, no aten ops)"),
            qPrintable(warnings[0].toString()));
        QVERIFY(warnings[0].toString().contains("TORCH_LOGS=post_grad_graphs"));
        Run table = cli({"match", gptj, "--patterns", "builtin"});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.startsWith("warning: this graph is Dynamo-level"), table.out.left(300).constData());
        // apply says the same about its 0 steps.
        Run applied = cli({"apply", gptj, "--patterns", "builtin", "--json"});
        QCOMPARE(applied.exitCode, 0);
        QCOMPARE(json(applied)["steps"].toArray().size(), 0);
        QCOMPARE(json(applied)["warnings"].toArray(), warnings);
        // The post-grad graph of the same kind of model: no such warning.
        Run postGrad
            = cli({"match", corpus("readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py"),
                "--patterns", "builtin", "--json"});
        QCOMPARE(postGrad.exitCode, 0);
        QCOMPARE(json(postGrad)["warnings"].toArray().size(), 0);
        // A TORCH_TRACE log's Dynamo graph: the log's aten-level graphs are named, to pick with --graph.
        const QString log = corpus("torch_trace/tlparse__simple.log");
        Run trace = cli({"match", log, "--graph", "0", "--patterns", "builtin", "--json"});
        QCOMPARE(trace.exitCode, 0);
        const QJsonArray traceWarnings = json(trace)["warnings"].toArray();
        QCOMPARE(traceWarnings.size(), 2);
        QVERIFY(traceWarnings[0].toString().startsWith("this graph is Dynamo-level"));
        QCOMPARE(traceWarnings[1].toString(),
            log
                + " also holds aten-level graphs: --graph 1 ([0/0] aot_inference_graph), --graph 2 ([0/0] "
                  "inductor_post_grad_graph)");
    }

    // A mistyped pass, built-in pattern, pattern or command: the error lists what exists and names the one meant.
    void mistypedNamesSuggestTheClosest_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected"); // the end of stderr's first part; empty: no suggestion
        const QString llama = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
        QTest::newRow("pass") << QStringList{"passes", llama, "--pass", "noop_views"} << 1
                              << "did you mean 'remove_noop_views'?";
        QTest::newRow("pass case") << QStringList{"passes", llama, "--pass", "DCE"} << 1 << "did you mean 'dce'?";
        QTest::newRow("pass far") << QStringList{"passes", llama, "--pass", "xyz"} << 1 << "";
        QTest::newRow("builtin") << QStringList{"match", llama, "--patterns", "builtin:rms_nrm"} << 2
                                 << "did you mean 'rms_norm'?";
        QTest::newRow("--pattern") << QStringList{"match", llama, "--patterns", "builtin", "--pattern", "swiglo"} << 1
                                   << "did you mean 'swiglu'?";
        QTest::newRow("command") << QStringList{"mach", llama} << 1 << "did you mean 'match'?";
    }

    void mistypedNamesSuggestTheClosest()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        Run r = cli(args);
        QCOMPARE(r.exitCode, exitCode);
        const QString err = QString::fromUtf8(r.err);
        const QString first = err.left(err.indexOf(QLatin1String("\n\n"))).trimmed(); // before the usage text
        if (expected.isEmpty())
            QVERIFY2(!err.contains(QLatin1String("did you mean")), qPrintable(err));
        else
            QVERIFY2(first.endsWith(expected), qPrintable(err));
        if (args.contains(QLatin1String("--pass")))
            QVERIFY2(err.contains(QLatin1String("known: dce, cse, remove_noop_views")), qPrintable(err));
    }

    // A mistyped device is a usage error (exit 1) said before LibTorch loads, not LibTorch's own parse failure.
    void profileRefusesAMalformedDevice_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("device");
        QTest::newRow("gpu") << "--device"
                             << "gpu";
        QTest::newRow("index") << "--device"
                               << "cuda:x";
        QTest::newRow("empty index") << "--device"
                                     << "npu:";
        QTest::newRow("check-on") << "--check-on"
                                  << "CPU";
    }

    void profileRefusesAMalformedDevice()
    {
        QFETCH(QString, option);
        QFETCH(QString, device);
        Run r
            = cli({"profile", QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"), option, device});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains((option + ": expected cpu, cuda[:i], npu[:i]").toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains(("found '" + device + "'").toUtf8()), r.err.constData());
    }

    // A missing --inputs file or --device-plugin path is bad input (exit 2) that names the file, not a runtime failure.
    void missingOptionFileIsBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected"); // stderr's start
        const QString llama = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
        const QString missing = QStringLiteral(FXSCOPE_BIN_DIR "/no-such-file.safetensors");
        const QString dir = QStringLiteral(FXSCOPE_BIN_DIR);
        QTest::newRow("--inputs") << QStringList{"profile", llama, "--inputs", missing} << missing + ": cannot open: ";
        QTest::newRow("profile plugin") << QStringList{"profile", llama, "--device-plugin", missing}
                                        << missing + ": cannot open: ";
        QTest::newRow("devices plugin dir")
            << QStringList{"devices", "--device-plugin", dir} << dir + ": expected a file, found a directory";
    }

    void missingOptionFileIsBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(expected.toUtf8()), r.err.constData());
    }

    // A device plugin cut short (a copy that stopped early) is an error naming the file, not a SIGBUS inside dlopen.
    void truncatedPluginIsAnError()
    {
        QTemporaryDir dir;
        const QString cut = dir.filePath("libcut.so");
        QFile whole(QStringLiteral(FXSCOPE_BIN_DIR "/libfxscope_emulated_npu.so"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QFile f(cut);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(whole.read(whole.size() / 2));
        f.close();
        Run r = cli({"devices", "--device-plugin", cut});
        QVERIFY2(r.exitCode == 3, r.err.constData());
        QVERIFY2(r.err.contains(cut.toUtf8()) && r.err.contains("cut short"), r.err.constData());
    }

    // A pattern file is read from its content: Python saved under another name loads; an empty one is told so.
    void patternFileReadFromContent()
    {
        QTemporaryDir dir;
        const QString python = dir.filePath("torchair_add_rms_norm.txt");
        QVERIFY(QFile::copy(QStringLiteral(FXSCOPE_TEST_DATA_DIR "/examples/torchair_add_rms_norm.py"), python));
        Run r = cli({"patterns", "--json", python});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(json(r)["patterns"].toArray().size(), 1);
        QCOMPARE(json(r)["patterns"].toArray()[0].toObject()["name"].toString(), QString("search_fn"));

        const QString empty = dir.filePath("empty.txt");
        QFile f(empty);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        Run e = cli({"patterns", empty});
        QCOMPARE(e.exitCode, 2);
        QVERIFY2(e.err.startsWith((empty + ":1:1: expected a pattern file").toUtf8()), e.err.constData());
    }

    // An error with no file to name reads as its message alone, without a made-up "<input>:" place.
    void errorWithoutAPlaceIsTheMessageAlone()
    {
        Run r = cli({"match", QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"), "--patterns",
            "builtin:xyz"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("no built-in pattern 'xyz'"), r.err.constData());
    }

    // `patterns` takes its files through --patterns as match, apply and profile do; the positional form is an alias.
    void patternsTakeThePatternsOption_data()
    {
        const QString example = QStringLiteral(FXSCOPE_TEST_DATA_DIR "/examples/torchair_add_rms_norm.py");
        QTest::addColumn<QStringList>("sources");
        QTest::addColumn<int>("patterns");
        QTest::newRow("python file") << QStringList{example} << 1;
        QTest::newRow("builtin") << QStringList{"builtin"} << 6;
        QTest::newRow("two sources, in order") << QStringList{"builtin:rms_norm", example} << 2;
    }
    void patternsTakeThePatternsOption()
    {
        QFETCH(QStringList, sources);
        QFETCH(int, patterns);
        Run positional = cli(QStringList{"patterns"} + sources + QStringList{"--json"});
        QVERIFY2(positional.exitCode == 0, positional.err.constData());
        Run option = cli(QStringList{"patterns", "--patterns"} + sources + QStringList{"--json"});
        QVERIFY2(option.exitCode == 0, option.err.constData());
        QCOMPARE(json(option)["patterns"].toArray().size(), patterns);
        QCOMPARE(option.out, positional.out);
        // Both forms on one line: the positional files first, then those of --patterns.
        if (sources.size() > 1) {
            Run mixed
                = cli(QStringList{"patterns", sources.first(), "--patterns"} + sources.mid(1) + QStringList{"--json"});
            QVERIFY2(mixed.exitCode == 0, mixed.err.constData());
            QCOMPARE(mixed.out, positional.out);
        }
    }

    void patternsWithoutAFileIsAUsageError()
    {
        QCOMPARE(cli({"patterns", "--json"}).exitCode, 1);
        Run r = cli({"patterns", "--patterns", "--json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("option --patterns needs a value"), r.err.constData());
    }

    // COMMAND --help (or -h) prints the command's usage with every option it takes on stdout and exits 0, whatever
    // else the line holds.
    void helpListsTheOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("options");
        const QList<QPair<QString, QStringList>> commands = {
            {"info", {"--graph", "--json"}},
            {"convert", {"-o", "--output", "--graph"}},
            {"devices", {"--device-plugin", "--json"}},
            {"profile",
                {"--patterns", "--device", "--device-plugin", "--check-on", "--iters", "--warmup", "--inputs",
                    "--graph", "--sym", "--expected", "--trace", "--csv", "--ranks", "--rank-timeout", "--json"}},
            {"patterns", {"--patterns", "--json"}},
            {"match",
                {"--patterns", "--pattern", "--graph", "--subgraph", "--json", "--check-with-torch", "--jobs",
                    "--batch", "--jsonl", "--summary"}},
            {"apply",
                {"--patterns", "--steps", "--all", "-o", "--graph", "--json", "--jobs", "--batch", "--jsonl",
                    "--summary"}},
            {"passes",
                {"--pass", "--steps", "--check-each", "--patterns", "--supported", "--partition", "--allow-single-node",
                    "-o", "--composites", "--graph", "--json"}},
            {"diff", {"--graph-a", "--graph-b", "--json"}},
        };
        for (const auto &[command, options] : commands) {
            QTest::newRow(qPrintable(command + " --help")) << QStringList{command, "--help"} << options;
            QTest::newRow(qPrintable(command + " -h")) << QStringList{command, "-h"} << options;
        }
        // Asked for among other arguments, even ones that would be refused.
        QTest::newRow("match GRAPH --patterns X --help")
            << QStringList{"match", "nowhere.py", "--patterns", "nothing.py", "--help"} << QStringList{"--patterns"};
        QTest::newRow("info --bogus -h") << QStringList{"info", "--bogus", "-h"} << QStringList{"--graph"};
    }
    void helpListsTheOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, options);
        Run r = cli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith("usage: fxscope-cli " + args.first() + " "), r.out.constData());
        for (const QString &option : options) {
            // The option as a word of its own: "-o" inside "--output" does not count.
            const QRegularExpression word("(?<![\\w-])" + QRegularExpression::escape(option) + "(?![\\w-])");
            QVERIFY2(word.match(out).hasMatch(), qPrintable(option + " is not in:\n" + out));
        }
    }

    // Every command the top-level help lists answers --help, so a new command cannot go without one.
    void everyListedCommandAnswersHelp()
    {
        Run top = cli({"--help"});
        QCOMPARE(top.exitCode, 0);
        const QString text = QString::fromUtf8(top.out);
        const QString commands = text.section("commands:\n", 1).section("\n\n", 0, 0);
        QStringList names;
        const QRegularExpression line("^  (\\w+) ", QRegularExpression::MultilineOption);
        for (auto it = line.globalMatch(commands); it.hasNext();)
            names << it.next().captured(1);
        names.removeDuplicates();
        QCOMPARE(names.size(), 9);
        for (const QString &name : names) {
            Run r = cli({name, "--help"});
            QVERIFY2(r.exitCode == 0 && r.out.startsWith(("usage: fxscope-cli " + name).toUtf8()), qPrintable(name));
        }
    }

    void devicesAlwaysHasCpu()
    {
        Run r = cli({"devices", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject o = json(r);
        QVERIFY(!o["libtorch"].toString().isEmpty());
        QJsonObject cpu = o["devices"].toArray()[0].toObject();
        QCOMPARE(cpu["name"].toString(), QString("cpu"));
        QVERIFY(cpu["available"].toBool());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
