// The emulated PrivateUse1 device (optimizer/runtime/emulated_device), loaded at run time from a path as torch_npu's
// library would be, runs the LLaMA block sample through the same device path an NPU takes. Its own executable: the
// sample runs three times (unfused and fused on the device, unfused on the CPU to check against), which takes
// minutes on LibTorch's reference BLAS.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

class TestExecutorDevice : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // torch_npu's libtorch_npu.so links torch's Python bindings, which need libpython: a plugin built that way loads
    // into fxscope (which runs no Python). libtorch_python.so itself, loaded as a plugin, is that case.
    void pluginOnTorchPythonBindingsLoads()
    {
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("LD_LIBRARY_PATH"));
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), {QStringLiteral("devices"), QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted(30000) && cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        const QString bindings = QJsonDocument::fromJson(cli.readAllStandardOutput())
                                     .object()
                                     .value(QStringLiteral("torch"))
                                     .toObject()
                                     .value(QStringLiteral("library_dir"))
                                     .toString()
            + QStringLiteral("/libtorch_python.so");
        QVERIFY2(QFile::exists(bindings), qPrintable(bindings));
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {QStringLiteral("devices"), QStringLiteral("--device-plugin"), bindings, QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted(30000) && cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QCOMPARE(QJsonDocument::fromJson(cli.readAllStandardOutput()).object().value(QStringLiteral("plugins")).toArray(),
            QJsonArray({bindings}));
    }

    // The emulated PrivateUse1 device, loaded at run time from a path as torch_npu's library would be, runs the
    // LLaMA block sample unfused and fused with the built-in patterns; its outputs match the CPU's.
    void emulatedNpuRunsSample()
    {
        const QString plugin = QStringLiteral(FXSCOPE_BIN_DIR "/libfxscope_emulated_npu.so");
        QProcess cli;
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {QStringLiteral("devices"), QStringLiteral("--device-plugin"), plugin, QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted(30000));
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        bool listed = false;
        for (const auto &d :
            QJsonDocument::fromJson(cli.readAllStandardOutput()).object().value(QStringLiteral("devices")).toArray())
            listed = listed
                || (d.toObject().value(QStringLiteral("name")).toString() == QStringLiteral("privateuseone:0")
                    && d.toObject().value(QStringLiteral("available")).toBool());
        QVERIFY(listed);

        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {QStringLiteral("profile"), QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"),
                QStringLiteral("--patterns"), QStringLiteral("builtin"), QStringLiteral("--device"),
                QStringLiteral("npu"), QStringLiteral("--device-plugin"), plugin, QStringLiteral("--check-on"),
                QStringLiteral("cpu"), QStringLiteral("--iters"), QStringLiteral("1"), QStringLiteral("--warmup"),
                QStringLiteral("0"), QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted(30000));
        QVERIFY2(cli.waitForFinished(600000), "profile did not finish in 10 minutes");
        QByteArray err = cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, err.constData());
        QJsonObject root = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QCOMPARE(root.value(QStringLiteral("device")).toString(), QStringLiteral("privateuseone"));
        QVERIFY2(root.value(QStringLiteral("outputs_match")).toBool(),
            qPrintable(QString::number(root.value(QStringLiteral("max_abs_diff")).toDouble())));
        QJsonObject reference = root.value(QStringLiteral("reference")).toObject();
        QCOMPARE(reference.value(QStringLiteral("device")).toString(), QStringLiteral("cpu"));
        QVERIFY2(reference.value(QStringLiteral("outputs_match")).toBool(),
            qPrintable(QString::number(reference.value(QStringLiteral("max_abs_diff")).toDouble())));
        // The device's own allocator served the run (host memory through the plugin's PrivateUse1 allocator).
        QVERIFY(root.value(QStringLiteral("unfused"))
                    .toObject()
                    .value(QStringLiteral("allocator"))
                    .toObject()
                    .value(QStringLiteral("peak_bytes"))
                    .toDouble()
            > 1e6);
        bool sawFusedOp = false;
        for (const auto &n : root.value(QStringLiteral("fused")).toObject().value(QStringLiteral("nodes")).toArray())
            sawFusedOp = sawFusedOp
                || n.toObject().value(QStringLiteral("target")).toString().contains(QStringLiteral("npu_rms_norm"));
        QVERIFY(sawFusedOp);
    }
};

QTEST_GUILESS_MAIN(TestExecutorDevice)
#include "tst_executor_device.moc"
