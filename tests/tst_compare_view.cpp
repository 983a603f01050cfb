// The compare window (File ▸ Compare with…) under QT_QPA_PLATFORM=offscreen: two graphs of one TORCH_TRACE log, the
// bundled sample against its fused revision saved without provenance, a session revision against the file it came
// from, and a file that does not load. Regions are marked on both canvases, selection and pan/zoom follow from one
// side to the other, F3 steps through the regions, the inspector shows both sides, and the UI never waits on the job.

#include "canvas_node_item.h"
#include "compare_inspector.h"
#include "compare_region_model.h"
#include "compare_widget.h"
#include "compare_window.h"
#include "gui_test_support.h"

#include "compare/graph_comparison.h"
#include "compare/graph_variants.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "ir/graph_file.h"
#include "patterns/builtin_patterns.h"
#include "rewrite/session.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QListView>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

namespace {

const QString kTrace = QStringLiteral(FXSCOPE_CORPUS_DIR "/torch_trace/tlparse__simple.log");
const QString kSample = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");

// Opens `path` (graph `graph`) in a new main window and waits for it.
bool openFile(Loaded &l, const QString &path, const QString &graph = {})
{
    l.doc = std::make_unique<Document>();
    l.window = std::make_unique<MainWindow>(l.doc.get());
    l.window->show();
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->open(path, graph);
    return matched.wait(kTimeoutMs) && l.doc->currentGraphShared();
}

// Compares what `l` shows with `path` and waits for the comparison and both canvases' first layouts.
CompareWindow *compareAndWait(Loaded &l, const QString &path, const QString &graph = {})
{
    l.window->compareWith(path, graph);
    CompareWindow *w = l.window->compareWindow();
    if (!w)
        return nullptr;
    QSignalSpy ready(w, &CompareWindow::comparisonReady);
    if (w->isComparing() && !ready.wait(kTimeoutMs))
        return nullptr;
    if (!laidOut(w->view()->canvasA()) || !laidOut(w->view()->canvasB()))
        return nullptr;
    QCoreApplication::processEvents();
    return w;
}

// The fused revision of the sample, provenance removed, saved as fxscope JSON in `dir`.
QString writeFusedSample(const QTemporaryDir &dir)
{
    auto file = loadGraphFile(kSample.toStdString());
    auto registry = std::make_shared<PatternRegistry>();
    if (!file || !registerBuiltinPatterns(*registry).ok())
        return {};
    Session session(file->graphs.front().graph->clone(), registry);
    if (!session.runToEnd().ok())
        return {};
    GraphFile fused;
    fused.graphs.push_back({"fused", "", session.graph().clone(), 0});
    stripProvenance(*fused.graphs.front().graph);
    const QString path = dir.filePath(QStringLiteral("fused.json"));
    return writeFileAtomically(path.toStdString(), writeFxscopeJson(fused)).ok() ? path : QString();
}

} // namespace

class TestCompareView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        useTemporarySettings(m_dir, QStringLiteral("tst_compare_view"));
    }

    // The AOT graph of a TORCH_TRACE log against its post-grad graph, B picked from the same log.
    void twoGraphsOfOneTrace()
    {
        Loaded l;
        QVERIFY(openFile(l, kTrace, QStringLiteral("1")));
        l.window->compareWith(kTrace);
        CompareWindow *w = l.window->compareWindow();
        QVERIFY(w);
        QVERIFY(w->isComparing()); // the job runs off the UI thread: compareWith returned before it finished
        QSignalSpy ready(w, &CompareWindow::comparisonReady);
        QVERIFY(ready.wait(kTimeoutMs));
        CompareWidget *view = w->view();
        QVERIFY(laidOut(view->canvasA()) && laidOut(view->canvasB()));
        QCoreApplication::processEvents();
        // Without a choice B is the graph after A's in the same log; the picker lists all three.
        QCOMPARE(view->graphPickerB()->count(), 3);
        QCOMPARE(view->graphPickerB()->currentIndex(), 2);
        QCOMPARE(view->comparison()->regions.size(), size_t(1));
        QVERIFY(view->summary()->text().contains(QStringLiteral("2 only in A, 3 only in B")));
        QCOMPARE(view->canvasA()->matchMark(QStringLiteral("rand")), CanvasMatchMark::Disagreeing);
        QCOMPARE(view->canvasB()->matchMark(QStringLiteral("inductor_random_default")), CanvasMatchMark::Added);
        QCOMPARE(view->canvasA()->matchMark(QStringLiteral("clone")), CanvasMatchMark::None);

        // Selecting on one side selects the partner on the other, and the inspector shows both.
        QVERIFY(view->selectNode(0, QStringLiteral("mul_3")));
        QCOMPARE(view->canvasB()->selectedNode(), QStringLiteral("mul_3"));
        QCOMPARE(view->inspector()->fieldText(QStringLiteral("target"), 1), QStringLiteral("aten.mul.Tensor"));
        QCOMPARE(view->inspector()->fieldText(QStringLiteral("shape"), 0), QStringLiteral("[1, 320, 128, 128]"));
        QVERIFY(view->selectNode(1, QStringLiteral("inductor_seeds_default")));
        QCOMPARE(view->inspector()->fieldText(QStringLiteral("name"), 0), QStringLiteral("(no partner)"));

        // Choosing B's first graph (Dynamo's) compares again, with the file already loaded.
        QSignalSpy again(w, &CompareWindow::comparisonReady);
        Q_EMIT view->graphPickerB()->activated(0);
        QVERIFY(again.wait(kTimeoutMs));
        QCOMPARE(view->graphPickerB()->currentIndex(), 0);
        QVERIFY(!view->comparison()->equal());
    }

    // The sample against its fused revision without provenance: the three fusion regions, stepped with F3.
    void fusedSampleRegionsStepWithF3()
    {
        const QString fused = writeFusedSample(m_dir);
        QVERIFY(!fused.isEmpty());
        Loaded l;
        QVERIFY(openFile(l, kSample));
        CompareWindow *w = compareAndWait(l, fused);
        QVERIFY(w);
        CompareWidget *view = w->view();
        QCOMPARE(view->comparison()->regions.size(), size_t(3));
        QAbstractItemModelTester tester(view->regionList()->model());
        QCOMPARE(view->regionList()->model()->rowCount(), 3);
        QCOMPARE(view->currentRegion(), 0);
        QTest::keyClick(view, Qt::Key_F3);
        QCOMPARE(view->currentRegion(), 1);
        QTest::keyClick(view, Qt::Key_F3);
        QCOMPARE(view->currentRegion(), 2);
        QTest::keyClick(view, Qt::Key_F3);
        QCOMPARE(view->currentRegion(), 0);
        QTest::keyClick(view, Qt::Key_F3, Qt::ShiftModifier);
        QCOMPARE(view->currentRegion(), 2);
        // The region's first A node is selected, and B shows the fused nodes marked as added.
        const CompareRegion &r = view->comparison()->regions[2];
        QCOMPARE(view->canvasA()->selectedNode(), QString::fromStdString(view->comparison()->a.names[r.a.front()]));
        for (uint32_t j : r.b)
            QCOMPARE(view->canvasB()->matchMark(QString::fromStdString(view->comparison()->b.names[j])),
                CanvasMatchMark::Added);

        // Pan and zoom follow: B takes A's zoom and puts the partner of the node nearest A's centre where A has it
        // (the view stops at the picture's edge, so the node need not be in the very middle).
        const CanvasNodeItem *item = view->canvasA()->nodeItem(QStringLiteral("mm_1"));
        QVERIFY(item);
        view->canvasA()->restoreView(0.8, item->sceneBoundingRect().center(), view->canvasA()->expandedGroupLabels());
        QVERIFY(qAbs(view->canvasB()->zoom() - 0.8) < 1e-6);
        const CanvasNodeItem *partner = view->canvasB()->nodeItem(QStringLiteral("mm_1"));
        QVERIFY(partner);
        const QPointF offsetA = view->canvasA()->viewCentre() - item->sceneBoundingRect().center();
        const QPointF offsetB = view->canvasB()->viewCentre() - partner->sceneBoundingRect().center();
        QVERIFY2(QLineF(offsetA, offsetB).length() < 4, qPrintable(QString("A %1,%2 B %3,%4")
                .arg(offsetA.x()).arg(offsetA.y()).arg(offsetB.x()).arg(offsetB.y())));
    }

    // A session revision (the sample after the built-in fusions) against the file it came from.
    void sessionRevisionAgainstItsFile()
    {
        Loaded l;
        QVERIFY(openSample(l, {true, false}));
        l.doc->runToEnd();
        QVERIFY(settle(l.doc.get()));
        QCOMPARE(l.doc->revision(), 3);
        CompareWindow *w = compareAndWait(l, kSample);
        QVERIFY(w);
        const GraphComparison &c = *w->view()->comparison();
        QCOMPARE(c.regions.size(), size_t(3));
        for (const CompareRegion &r : c.regions)
            QCOMPARE(r.kind, RegionKind::Replaced);
        QCOMPARE(c.pairedBy(PairedBy::Provenance), size_t(0));
        QCOMPARE(c.a.names.size(), size_t(95)); // A is the fused revision shown
        QCOMPARE(c.b.names.size(), size_t(107));
        QVERIFY(w->windowTitle().contains(QStringLiteral("Compare")));
    }

    // A file that does not load: the error (FILE:LINE:COL) is said, nothing crashes, the main window goes on.
    void badFileIsReported()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"fxscope\",\n \"graphs\": [\n  {\"name\": \"g\", \"nodes\": [ }\n");
        f.close();
        Loaded l;
        QVERIFY(openFile(l, kSample));
        l.window->compareWith(broken);
        QSignalSpy failed(l.window->compareWindow(), &CompareWindow::comparisonFailed);
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY(failed.front().front().toString().contains(QRegularExpression(QStringLiteral("broken.json:3:\\d+: "))));
        QVERIFY(!l.window->compareWindow()->isComparing());
        QVERIFY(l.doc->currentGraphShared());
    }

    // The inspector marks the fields that differ and shows both values.
    void inspectorShowsBothValues()
    {
        auto file = loadGraphFile(kSample.toStdString());
        QVERIFY(file.ok());
        const Graph &a = *file->graphs.front().graph;
        std::unique_ptr<Graph> b = renamedCopy(a, Renaming::Fresh);
        const GraphComparison c = compareGraphs(a, *b);
        CompareInspector inspector;
        inspector.showNodes(a.find("mm"), b->find("t" + std::to_string(a.find("mm")->index())), nullptr);
        QCOMPARE(inspector.fieldText(QStringLiteral("name"), 0), QStringLiteral("mm"));
        QCOMPARE(inspector.fieldText(QStringLiteral("dtype"), 1), QStringLiteral("torch.float16"));
        NodeChange change{0, 0, {{"dtype", "torch.float16", "torch.float32"}}};
        inspector.showNodes(a.find("mm"), a.find("mm"), &change);
        QVERIFY(inspector.isFieldChanged(QStringLiteral("dtype")));
        QVERIFY(!inspector.isFieldChanged(QStringLiteral("shape")));
        QVERIFY(c.equal());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestCompareView)
#include "tst_compare_view.moc"
