#include "io/format.h"
#include "io/loader.h"
#include "ir/graph.h"
#include "util/progress.h"

#include <QtTest>

#include <QTemporaryDir>

using namespace fxs;

namespace {

// A readable graph with `n` chained ops: big enough for several progress reports.
std::string chainCode(size_t n)
{
    std::string code = "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[8]\"):\n";
    std::string prev = "x";
    for (size_t i = 0; i < n; ++i) {
        std::string name = "relu_" + std::to_string(i);
        code += "        " + name + ": \"f32[8]\" = torch.ops.aten.relu.default(" + prev + ");  " + prev + " = None\n";
        prev = name;
    }
    return code + "        return (" + prev + ",)\n";
}

} // namespace

class TestLoader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sniffsByContentNotExtension_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("format");
        QTest::newRow("fx text") << QByteArray(
            "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return (x,)\n")
                                 << "fx_text";
        QTest::newRow("readable") << QByteArray("def forward(self, x):\n    return (x,)\n") << "readable";
        QTest::newRow("print(ep)") << QByteArray("ExportedProgram:\n    class GraphModule(torch.nn.Module):\n")
                                   << "readable";
        QTest::newRow("torch trace") << QByteArray(
            "V1206 15:18:15.925000 1500233 torch/_dynamo/utils.py:1288] {\"chromium_event\": {}}\n")
                                     << "torch_trace";
        QTest::newRow("export json") << QByteArray("{\"graph_module\": {}, \"schema_version\": {}}") << "export_json";
        QTest::newRow("fxscope json") << QByteArray("  {\"fxscope\": 1, \"graphs\": []}") << "fxscope_json";
        QTest::newRow("torchair") << QByteArray("## FX Code: t = torch.ops.aten.t.default(x)\n") << "torchair_py";
        QTest::newRow("zip") << QByteArray("PK\x03\x04rest", 8) << "pt2";
    }
    void sniffsByContentNotExtension()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, format);
        auto f = sniffFormat(std::string_view(content.constData(), size_t(content.size())), "whatever.txt");
        QVERIFY2(f.ok(), f.ok() ? "" : f.error().toString().c_str());
        QCOMPARE(QString::fromStdString(f.value()), format);
    }

    void refusesWhatIsNotADump_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << "x:1:1: expected an FX graph dump, found an empty file";
        QTest::newRow("binary") << QByteArray("\x7f"
                                              "ELF\x02\x01\x01\x00\x00\x00",
            10) << "x:1:1: expected an FX graph dump (text, JSON or a .pt2 zip), found binary data";
        QTest::newRow("other json") << QByteArray("{\"a\": 1}")
                                    << "x:1:1: expected fxscope JSON (a \"fxscope\" key) or torch.export JSON "
                                       "(\"graph_module\"), found other JSON";
        QTest::newRow("prose") << QByteArray("Dear diary,\ntoday I fused nothing.\n")
                               << "x:1:1: expected an FX graph dump (print(gm.graph) text, readable code with 'def "
                                  "forward(', a TORCH_TRACE log, torch.export JSON/.pt2, a TorchAir graph dump or "
                                  "fxscope JSON), found none of their markers";
    }
    void refusesWhatIsNotADump()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        auto r = loadGraphBytes(std::string_view(content.constData(), size_t(content.size())), "x");
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().toString()), message);
    }

    void missingFilesAndDirectoriesAreErrors()
    {
        QTemporaryDir dir;
        auto missing = loadGraphFile((dir.path() + "/nope.txt").toStdString());
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.find("cannot open") == 0);
        auto directory = loadGraphFile(dir.path().toStdString());
        QVERIFY(!directory.ok());
        QCOMPARE(QString::fromStdString(directory.error().message), QString("expected a file, found a directory"));
    }

    void progressIsReportedAndReachesTheEnd()
    {
        std::string code = chainCode(20000);
        std::vector<double> seen;
        ProgressScope scope([&](double f) {
            seen.push_back(f);
            return true;
        });
        auto r = loadGraphBytes(code, "chain.py");
        QVERIFY(r.ok());
        QCOMPARE(r->graphs[0].graph->size(), size_t(20002));
        QVERIFY(seen.size() >= 10);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
    }

    void cancelStopsTheParse()
    {
        std::string code = chainCode(20000);
        double last = 0;
        ProgressScope scope([&](double f) {
            last = f;
            return f < 0.3;
        });
        auto r = loadGraphBytes(code, "chain.py");
        QVERIFY(!r.ok());
        QVERIFY(isCanceled(r.error()));
        QVERIFY(last < 0.5); // it stopped soon after the cancel, not at the end
    }

    // print_readable has no annotation for a tuple value: the loader infers it from the op's meta rule, and not
    // where the rule disagrees with the dump's own getitem annotations.
    void tupleValueOfReadableCodeIsInferred()
    {
        auto load = [](const std::string &getitem2) {
            auto file = loadGraphBytes("def forward(self, a: \"f16[s0, 64]\", b: \"f16[s0, 64]\", g: \"f16[64]\"):\n"
                                       "    norm = torch.ops.npu.npu_add_rms_norm.default(a, b, g)\n"
                                       "    getitem: \"f16[s0, 64]\" = norm[0]\n"
                                       "    getitem_2: \""
                    + getitem2 + "\" = norm[2]\n    return (getitem, getitem_2)\n",
                "norm.py");
            if (!file)
                qFatal("%s", file.error().toString().c_str());
            return std::move(file->graphs.front().graph);
        };
        auto graph = load("f16[s0, 64]");
        const auto &val = graph->find("norm")->meta().val;
        QVERIFY(val && val->kind == ValueMeta::Kind::Tuple);
        QCOMPARE(val->items.size(), size_t(3));
        QCOMPARE(QString::fromStdString(val->items[1].toAnnotation()), QString("f32[s0, 1][1, 1]"));
        QCOMPARE(val->items[2].tensor.shape, graph->find("getitem_2")->meta().val->tensor.shape);
        QVERIFY(!load("f32[s0, 64]")->find("norm")->meta().val);
    }

    // A constant's get_attr line has no annotation either: read only through lift_fresh_copy (as in AOT graphs), it
    // has its copy's val; a user that is no copy leaves it unknown.
    void constantValueOfReadableCodeIsInferred()
    {
        auto load = [](const std::string &user) {
            auto file = loadGraphBytes("def forward(self, x: \"f32[4]\"):\n"
                                       "    _tensor_constant0 = self._tensor_constant0\n"
                                       "    c: \"f32[]\" = torch.ops.aten." + user + "(_tensor_constant0)\n"
                                       "    add: \"f32[4]\" = torch.ops.aten.add.Tensor(x, c)\n"
                                       "    return (add,)\n",
                "constant.py");
            if (!file)
                qFatal("%s", file.error().toString().c_str());
            return std::move(file->graphs.front().graph);
        };
        const auto graph = load("lift_fresh_copy.default");
        const auto &val = graph->find("_tensor_constant0")->meta().val;
        QVERIFY(val && val->kind == ValueMeta::Kind::Tensor);
        QCOMPARE(QString::fromStdString(val->toAnnotation()), QString("f32[]"));
        QVERIFY(!load("neg.default")->find("_tensor_constant0")->meta().val);
    }

    void atomicWriteReplacesWhole()
    {
        QTemporaryDir dir;
        std::string path = (dir.path() + "/out.json").toStdString();
        QVERIFY(writeFileAtomically(path, "first").ok());
        QVERIFY(writeFileAtomically(path, "second").ok());
        QCOMPARE(QString::fromStdString(readFileBytes(path).value()), QString("second"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left behind
        QVERIFY(!writeFileAtomically(dir.path().toStdString() + "/no/such/dir/x", "x").ok());
    }
};

QTEST_GUILESS_MAIN(TestLoader)
#include "tst_loader.moc"
