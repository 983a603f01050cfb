// The main flow as a user goes through it, under QT_QPA_PLATFORM=offscreen: open the bundled sample → the patterns
// match → select the accepted rms_norm_cast candidate → step → undo → export the view as SVG and the whole graph as
// PNG; plus export errors and cancelling a match.

#include "canvas_node_item.h"
#include "canvas_style.h"
#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_filter_proxy_model.h"
#include "pattern_graph_widget.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"

#include "ir/canonical_printer.h"
#include "ir/graph.h"
#include "match/match_report.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

class TestMainFlow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void openMatchSelectStepUndoExport();
    void exportErrors();
    void cancelMatchKeepsReport();
    void darkAndLightPalettes();

private:
    QTemporaryDir m_dir;
};

void TestMainFlow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useTemporarySettings(m_dir, QStringLiteral("tst_main_flow"));
}

void TestMainFlow::openMatchSelectStepUndoExport()
{
    Document doc;
    MainWindow window(&doc);
    window.setGeometry(0, 0, 1600, 1000);
    window.show();
    QVERIFY(openSampleAndMatch(&doc));
    QVERIFY(laidOut(window.canvas()));
    const std::string loaded = printCanonical(*doc.currentGraphShared());

    // Select the accepted rms_norm_cast candidate in the Patterns tree, as a click does.
    const MatchReport &report = *doc.matchReport();
    const PatternReport *cast = report.find("rms_norm_cast");
    QVERIFY(cast);
    const int pattern = int(cast - report.patterns.data());
    int candidate = -1;
    for (size_t c = 0; c < cast->candidates.size() && candidate < 0; ++c)
        if (cast->candidates[c].accepted)
            candidate = int(c);
    QVERIFY(candidate >= 0);
    PatternsWidget *patterns = window.patternsView();
    patterns->treeView()->setCurrentIndex(
        patterns->proxyModel()->mapFromSource(patterns->model()->candidateIndex(pattern, candidate)));
    const QString anchor = QString::fromStdString(cast->candidates[size_t(candidate)].anchor);
    QTRY_COMPARE(window.canvas()->selectedNode(), anchor);
    QVERIFY(window.patternGraph()->isVisible());
    QVERIFY(window.patternGraph()->correspondence().disagreeing.empty());

    // Step over that pattern: both its candidates fuse, one step each.
    QCOMPARE(window.stepOverPattern(), QStringLiteral("rms_norm_cast"));
    doc.stepOver(window.stepOverPattern());
    QVERIFY(settle(&doc));
    QCOMPARE(doc.revision(), 2);
    QVERIFY(!doc.currentGraphShared()->find(anchor.toStdString()));
    QVERIFY(laidOut(window.canvas()));

    // Undo both: the graph as loaded, exactly.
    doc.undo();
    doc.undo();
    QVERIFY(settle(&doc));
    QCOMPARE(doc.revision(), 0);
    QCOMPARE(printCanonical(*doc.currentGraphShared()), loaded);
    QVERIFY(laidOut(window.canvas()));

    // Export the view as SVG and the whole graph as PNG.
    const QString svg = m_dir.filePath(QStringLiteral("view.svg"));
    QVERIFY(window.exportImage(svg, false));
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY2(svgText.contains(anchor.toUtf8()), "the selected node is in view, so its name is in the SVG");

    const QString png = m_dir.filePath(QStringLiteral("whole.png"));
    QVERIFY(window.exportImage(png, true));
    QImage image(png);
    QVERIFY(!image.isNull());
    // The whole graph at two pixels per point: as large as the scene, and more than one colour.
    const QRectF scene = window.canvas()->sceneRect();
    QCOMPARE(image.width(), int(std::ceil(scene.width() * 2)));
    QVERIFY(image.pixel(0, 0) != image.pixel(image.width() / 2, image.height() / 2)
        || image.pixel(0, 0) != image.pixel(image.width() / 3, image.height() / 3));
    // Kept for looking at when FXSCOPE_SCREENSHOTS names a folder.
    if (const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS"); !folder.isEmpty()) {
        QFile::remove(QDir(folder).filePath(QStringLiteral("export-view.svg")));
        QFile::remove(QDir(folder).filePath(QStringLiteral("export-whole.png")));
        QFile::copy(svg, QDir(folder).filePath(QStringLiteral("export-view.svg")));
        QFile::copy(png, QDir(folder).filePath(QStringLiteral("export-whole.png")));
    }
}

void TestMainFlow::exportErrors()
{
    Document doc;
    MainWindow window(&doc);
    window.show();
    // Nothing shown yet.
    QVERIFY(!window.exportImage(m_dir.filePath(QStringLiteral("empty.svg")), false));
    QVERIFY(window.errorBox());
    QVERIFY(window.errorBox()->informativeText().contains(QStringLiteral("empty.svg")));
    QVERIFY(openSampleAndMatch(&doc));
    QVERIFY(laidOut(window.canvas()));
    // A format it cannot write, and a folder that does not exist: errors naming the file, nothing written.
    const QString jpg = m_dir.filePath(QStringLiteral("view.jpg"));
    QVERIFY(!window.exportImage(jpg, false));
    QVERIFY(window.errorBox()->informativeText().contains(QStringLiteral("expected a .svg or .png")));
    QVERIFY(!QFile::exists(jpg));
    const QString missing = m_dir.filePath(QStringLiteral("no/such/dir/view.png"));
    QVERIFY(!window.exportImage(missing, false));
    QVERIFY(window.errorBox()->informativeText().contains(missing));
}

void TestMainFlow::cancelMatchKeepsReport()
{
    Document doc;
    MainWindow window(&doc);
    window.show();
    QVERIFY(openSampleAndMatch(&doc));
    const auto report = doc.matchReport();
    QSignalSpy canceled(&doc, &Document::matchCanceled);
    QSignalSpy matched(&doc, &Document::matchReportChanged);
    doc.rematch();
    QVERIFY(doc.isMatching());
    doc.cancelMatch();
    QCOMPARE(canceled.count(), 1);
    QVERIFY(!doc.isMatching());
    QVERIFY(!window.matchProgress()->isVisible());
    // The cancelled job's report, if it still finishes, is dropped: the old report stays.
    QTest::qWait(300);
    QCOMPARE(matched.count(), 0);
    QCOMPARE(doc.matchReport(), report);
    QCOMPARE(window.patternsView()->model()->report(), report.get());
}

// The dark palette darkens the whole window and the canvas (its paper and its boxes), is kept for the next start,
// and the light one brings both back.
void TestMainFlow::darkAndLightPalettes()
{
    auto lightness = [](const QImage &image, QPoint at) { return QColor(image.pixel(at)).lightness(); };
    {
        Document doc;
        MainWindow window(&doc);
        window.setAutosavePath({});
        window.setGeometry(0, 0, 1600, 1000);
        window.show();
        QVERIFY(openSampleAndMatch(&doc));
        QVERIFY(laidOut(window.canvas()));
        window.setTheme(Theme::Light);
        QImage light = window.canvas()->viewport()->grab().toImage();
        QVERIFY(lightness(light, QPoint(2, 2)) > 200);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 128);

        window.setTheme(Theme::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 128);
        QVERIFY(window.findChild<QAction *>(QStringLiteral("theme_dark"))->isChecked());
        QImage dark = window.canvas()->viewport()->grab().toImage();
        QVERIFY(lightness(dark, QPoint(2, 2)) < 60);
        // A node box is dark too: the selected anchor's middle.
        CanvasNodeItem *node = window.canvas()->nodeItem(QStringLiteral("mul_7"));
        QVERIFY(node);
        window.canvas()->centerOn(node);
        dark = window.canvas()->viewport()->grab().toImage();
        const QPoint middle = window.canvas()->mapFromScene(node->sceneBoundingRect().center() + QPointF(40, 0));
        QVERIFY2(lightness(dark, middle) < 128, qPrintable(QString::number(lightness(dark, middle))));
    }
    {
        // The choice is kept.
        Document doc;
        MainWindow window(&doc);
        window.setAutosavePath({});
        QCOMPARE(window.theme(), Theme::Dark);
        QVERIFY(canvas::isDark());
        window.setTheme(Theme::Light);
        QVERIFY(!canvas::isDark());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 128);
    }
}

QTEST_MAIN(TestMainFlow)
#include "tst_main_flow.moc"
