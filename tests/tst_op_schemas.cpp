// Operator schemas: the built-in table, and LibTorch's registry filling in every other op.
#include "patterns/op_schema_table.h"
#include "runtime/runtime_library.h"

#include <QtTest>

using namespace fxs;

class TestOpSchemas : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void builtinNpuFusionOps()
    {
        const OpSchema *s = OpSchemaTable::instance().find("torch.ops.npu.npu_add_rms_norm.default");
        QVERIFY(s);
        QCOMPARE(s->arguments.size(), size_t(4));
        QCOMPARE(s->arguments[0].name, std::string("x1"));
        QCOMPARE(s->arguments[3].name, std::string("epsilon"));
        QVERIFY(s->arguments[3].defaultValue.has_value());
    }

    void libTorchRegistryFillsTheRest()
    {
        // Every real aten op, not only the ~70 the built-in table lists, through the LibTorch runtime module.
        auto added = OpSchemaTable::instance().addLibTorchSchemas();
        QVERIFY2(added.ok(), added.ok() ? "" : added.error().message.c_str());
        QVERIFY2(added.value() > 1000, qPrintable(QString::number(added.value())));
        const OpSchema *conv = OpSchemaTable::instance().find("torch.ops.aten.convolution.default");
        QVERIFY(conv);
        QStringList names;
        for (const auto &a : conv->arguments)
            names << QString::fromStdString(a.name);
        QCOMPARE(names,
            QStringList({"input", "weight", "bias", "stride", "padding", "dilation", "transposed", "output_padding",
                "groups"}));
        const OpSchema *addInplace = OpSchemaTable::instance().find("aten.add_.Tensor");
        QVERIFY(addInplace && addInplace->isMutable());
        // Overload packets now know every overload LibTorch registers.
        QVERIFY(OpSchemaTable::instance().overloads("aten.convolution").size() >= 1);
        QVERIFY(!OpSchemaTable::instance().find("aten.no_such_op.default"));
    }

    // LibTorch's schemas are kept beside the runtime module (FILE.schemas, keyed by the module's size and time), so
    // later commands read them without loading LibTorch; a rebuilt module makes the cache anew. Run on a copy of the
    // module in a folder of the test's own, with a probe line added to the cache to see that the cache was read.
    void schemasCachedBesideTheModule()
    {
        QTemporaryDir dir;
        const QString module = dir.filePath(QStringLiteral("libfxscope_runtime.so"));
        QVERIFY(QFile::copy(QStringLiteral(FXSCOPE_BIN_DIR "/libfxscope_runtime.so"), module));
        qputenv("FXSCOPE_RUNTIME_LIBRARY", module.toUtf8());
        qunsetenv("FXSCOPE_DEVICE_PLUGINS");
        auto first = runtimeOpSchemas();
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
        QVERIFY(first.value().size() > 1000);
        QFile cache(dir.filePath(QStringLiteral("libfxscope_runtime.schemas")));
        QVERIFY(cache.exists());
        QVERIFY(cache.open(QIODevice::Append));
        cache.write("fxscope_test::probe(Tensor x) -> Tensor\n");
        cache.close();
        auto second = runtimeOpSchemas();
        QVERIFY(second.ok());
        QCOMPARE(second.value().size(), first.value().size() + 1);
        QCOMPARE(second.value().back(), std::string("fxscope_test::probe(Tensor x) -> Tensor"));

        // The module changes (a rebuild against another torch): the cache is made anew from LibTorch.
        QFile touched(module);
        QVERIFY(touched.open(QIODevice::ReadWrite));
        QVERIFY(touched.setFileTime(QDateTime::currentDateTime().addSecs(60), QFileDevice::FileModificationTime));
        touched.close();
        auto third = runtimeOpSchemas();
        QVERIFY(third.ok());
        QCOMPARE(third.value(), first.value());
        qunsetenv("FXSCOPE_RUNTIME_LIBRARY");
    }
};

QTEST_GUILESS_MAIN(TestOpSchemas)
#include "tst_op_schemas.moc"
