// Operator schemas: the built-in table, and LibTorch's registry filling in every other op.
#include "patterns/op_schema_table.h"

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
};

QTEST_GUILESS_MAIN(TestOpSchemas)
#include "tst_op_schemas.moc"
