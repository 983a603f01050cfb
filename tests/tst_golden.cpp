// Golden canonical dumps: one small file of every format, printed with printCanonical and compared
// with the reviewed text in tests/data/golden/. Any change to what a parser produces shows up here as a
// diff. After reviewing a deliberate change, regenerate with FXSCOPE_UPDATE_GOLDEN=1.
#include "io/loader.h"
#include "ir/canonical_printer.h"

#include <QtTest>

using namespace fxs;

class TestGolden : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void canonical_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("golden");
        const QString corpus = QStringLiteral(FXSCOPE_CORPUS_DIR "/");
        const QString data = QStringLiteral(FXSCOPE_TEST_DATA_DIR "/");
        const struct {
            const char *input;
            const char *golden;
        } cases[] = {
            {"fx_text/torchair_docs__presentation_md__dynamic_true_fx_graph.txt", "fx_text_torchair_backward"},
            {"fx_text/pytorch_test_export__vmap_nonstrict__ep_graph.txt", "fx_text_vmap"},
            {"fx_text/tlparse__cache_hit_miss__1-0__inductor_output_code_graph_fragments.txt", "fx_text_fragment"},
            {"readable/tlparse__cache_hit_miss__1-0__dynamo_output_graph_flex_attention_hop.py",
                "readable_flex_attention"},
            {"readable/pytorch_test_export__cond_branches_return_constant_int__print_readable_normalized.py",
                "readable_cond"},
            {"readable/tlparse__export_log__exported_program_print.txt", "readable_exported_program"},
            {"readable/unknown_repo__pt2_0_era_aot_forward_timm_loss_unquoted_annotations.py", "readable_unquoted"},
            {"torch_trace/tlparse__simple.log", "torch_trace_simple"},
            {"torchair_py/torchair_docs__presentation_md__dynamic_true_dynamic_ge_graph.py", "torchair_dynamic"},
        };
        for (const auto &c : cases)
            QTest::newRow(c.golden) << corpus + c.input << data + "golden/" + c.golden + ".txt";
        QTest::newRow("export_cond") << data + "export/cond.pt2" << data + "golden/export_cond.txt";
    }

    void canonical()
    {
        QFETCH(QString, input);
        QFETCH(QString, golden);
        auto file = loadGraphFile(input.toStdString());
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        std::string text = "format " + file->format + "\n";
        for (const auto &g : file->graphs)
            text += "graph " + g.name + " (" + g.kind + ")\n" + printCanonical(*g.graph);
        for (const auto &w : file->warnings)
            text += "warning " + w.toString() + "\n";
        // Paths differ between checkouts; the golden text names the file only.
        const std::string dir = QFileInfo(input).absolutePath().toStdString() + "/";
        for (size_t at; (at = text.find(dir)) != std::string::npos;)
            text.erase(at, dir.size());

        if (qEnvironmentVariableIsSet("FXSCOPE_UPDATE_GOLDEN")) {
            QFile out(golden);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(text.data(), qint64(text.size()));
            return;
        }
        QFile expected(golden);
        QVERIFY2(expected.open(QIODevice::ReadOnly), qPrintable("missing golden file " + golden));
        QCOMPARE(QString::fromStdString(text), QString::fromUtf8(expected.readAll()));
    }
};

QTEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
