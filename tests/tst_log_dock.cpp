// The Log dock: records from any thread reach the table in order, the level and text filters hide what they
// should, the table keeps at most the cap (oldest dropped), and the main window's dock shows startup records
// of the default (optimizer) logger and the "ui" logger.

#include "gui_test_paths.h"

#include "document.h"
#include "log_filter_proxy_model.h"
#include "log_model.h"
#include "log_sink.h"
#include "log_widget.h"
#include "logging.h"
#include "mainwindow.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QtTest>

#include <spdlog/spdlog.h>

#include <thread>

using namespace fxs;

namespace {

std::shared_ptr<spdlog::logger> makeLogger(const char *name, const std::shared_ptr<LogSink> &sink)
{
    auto logger = std::make_shared<spdlog::logger>(name, sink);
    logger->set_level(spdlog::level::trace);
    return logger;
}

QStringList column(const QAbstractItemModel &model, int column)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, column).data().toString();
    return out;
}

} // namespace

class TestLogDock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordsFromWorkerAndMainThreadArriveInOrder()
    {
        auto sink = std::make_shared<LogSink>();
        LogModel model(sink);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto optimizer = makeLogger("optimizer", sink);
        auto ui = makeLogger("ui", sink);

        ui->info("before worker");
        std::thread worker([&] {
            for (int i = 0; i < 100; ++i)
                optimizer->debug("worker {}", i);
        });
        worker.join();
        ui->warn("after worker");
        QCOMPARE(model.rowCount(), 0); // nothing arrives until the UI thread runs its queued batch
        QTRY_COMPARE(model.rowCount(), 102);

        const QStringList messages = column(model, LogModel::MessageColumn);
        QCOMPARE(messages.first(), QStringLiteral("before worker"));
        QCOMPARE(messages.at(1), QStringLiteral("worker 0"));
        QCOMPARE(messages.at(100), QStringLiteral("worker 99"));
        QCOMPARE(messages.last(), QStringLiteral("after worker"));
        QCOMPARE(model.index(1, LogModel::LoggerColumn).data().toString(), QStringLiteral("optimizer"));
        QCOMPARE(model.index(1, LogModel::LevelColumn).data().toString(), QStringLiteral("debug"));
        QCOMPARE(model.index(101, LogModel::LevelColumn).data().toString(), QStringLiteral("warning"));
        QCOMPARE(model.index(101, LogModel::LevelColumn).data(LogModel::LevelRole).toInt(), int(spdlog::level::warn));
        QVERIFY(!model.index(0, LogModel::TimeColumn).data().toString().isEmpty());

        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void levelAndTextFilters()
    {
        auto sink = std::make_shared<LogSink>();
        LogWidget widget(sink);
        QAbstractItemModelTester tester(widget.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto logger = makeLogger("matcher", sink);
        logger->trace("t record");
        logger->debug("d record");
        logger->info("i record");
        logger->warn("w record");
        logger->error("e record");
        QTRY_COMPARE(widget.proxy()->rowCount(), 5);

        // The combo lists trace..error; choosing "warning" keeps warnings and errors.
        QCOMPARE(widget.levelCombo()->count(), 5);
        widget.levelCombo()->setCurrentIndex(widget.levelCombo()->findText(QStringLiteral("warning")));
        QCOMPARE(column(*widget.proxy(), LogModel::MessageColumn),
            (QStringList{QStringLiteral("w record"), QStringLiteral("e record")}));
        widget.levelCombo()->setCurrentIndex(widget.levelCombo()->findText(QStringLiteral("debug")));
        QCOMPARE(widget.proxy()->rowCount(), 4);

        // Text matches the message or the logger, case-insensitively, together with the level.
        QTest::keyClicks(widget.filterEdit(), QStringLiteral("I REC"));
        QCOMPARE(column(*widget.proxy(), LogModel::MessageColumn), QStringList{QStringLiteral("i record")});
        widget.filterEdit()->setText(QStringLiteral("matcher"));
        QCOMPARE(widget.proxy()->rowCount(), 4);
        widget.filterEdit()->clear();

        // A record arriving later is filtered too.
        logger->trace("late trace");
        logger->error("late error");
        QTRY_COMPARE(widget.model()->rowCount(), 7);
        QCOMPARE(widget.proxy()->rowCount(), 5);
    }

    void keepsAtMostTheCapDroppingTheOldest()
    {
        auto sink = std::make_shared<LogSink>(50);
        // Records written before any model exists wait in the sink, capped as well.
        auto logger = makeLogger("flood", sink);
        for (int i = 0; i < 80; ++i)
            logger->info("early {}", i);
        LogModel model(sink);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(model.rowCount(), 50);
        QCOMPARE(model.index(0, LogModel::MessageColumn).data().toString(), QStringLiteral("early 30"));

        // A flood from a worker: still at most 50 rows, the newest kept, in order.
        std::thread worker([&] {
            for (int i = 0; i < 1000; ++i)
                logger->info("flood {}", i);
        });
        worker.join();
        QTRY_COMPARE(model.index(49, LogModel::MessageColumn).data().toString(), QStringLiteral("flood 999"));
        QCOMPARE(model.rowCount(), 50);
        QCOMPARE(model.index(0, LogModel::MessageColumn).data().toString(), QStringLiteral("flood 950"));

        // A batch smaller than the cap removes only as many old rows as it adds.
        logger->info("one more");
        QTRY_COMPARE(model.index(49, LogModel::MessageColumn).data().toString(), QStringLiteral("one more"));
        QCOMPARE(model.rowCount(), 50);
        QCOMPARE(model.index(0, LogModel::MessageColumn).data().toString(), QStringLiteral("flood 951"));
    }

    void followsNewestUnlessScrolledUp()
    {
        auto sink = std::make_shared<LogSink>();
        LogWidget widget(sink);
        widget.resize(600, 200);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        auto logger = makeLogger("scroll", sink);
        for (int i = 0; i < 200; ++i)
            logger->info("line {}", i);
        QTRY_COMPARE(widget.model()->rowCount(), 200);
        QScrollBar *bar = widget.view()->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum());

        bar->setValue(0);
        logger->info("while reading");
        QTRY_COMPARE(widget.model()->rowCount(), 201);
        QCOMPARE(bar->value(), 0);

        bar->setValue(bar->maximum());
        logger->info("at the bottom again");
        QTRY_COMPARE(widget.model()->rowCount(), 202);
        QTRY_COMPARE(bar->value(), bar->maximum());
    }

    void mainWindowDockShowsStartupRecordsOfEveryLogger()
    {
        installLogSink();
        spdlog::info("optimizer record before the window");
        uiLogger()->debug("ui debug record before the window");
        Document document;
        MainWindow window(&document);
        QDockWidget *dock = window.logDock();
        QVERIFY(dock);
        QCOMPARE(dock->objectName(), QStringLiteral("logDock"));
        QVERIFY(dock->toggleViewAction());
        LogModel *model = window.logView()->model();
        QTRY_VERIFY(
            column(*model, LogModel::MessageColumn).contains(QStringLiteral("optimizer record before the window")));
        QVERIFY(column(*model, LogModel::MessageColumn).contains(QStringLiteral("ui debug record before the window")));
        QVERIFY(column(*model, LogModel::LoggerColumn).contains(QStringLiteral("ui")));
    }
};

QTEST_MAIN(TestLogDock)
#include "tst_log_dock.moc"
