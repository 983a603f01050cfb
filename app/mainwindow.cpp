#include "mainwindow.h"

#include "compare_window.h"
#include "recording_widget.h"
#include "document.h"
#include "logging.h"
#include "recent_files.h"

#include "diff_widget.h"
#include "graph_canvas.h"
#include "log_widget.h"
#include "node_grouping.h"
#include "node_inspector.h"
#include "node_list_widget.h"
#include "pattern_graph_widget.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"
#include "profile_model.h"
#include "profile_widget.h"
#include "ranks_profile.h"
#include "timeline_widget.h"

#include "io/loader.h"
#include "ir/graph_file.h"
#include "match/match_report.h"
#include "match/torch_check.h"
#include "patterns/pattern_registry.h"
#include "rewrite/graph_diff.h"
#include "runtime/profile_export.h"
#include "runtime/runtime_library.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <array>

namespace fxs {

namespace {

// Loads shorter than this finish without the progress indicator flashing up.
constexpr int kProgressDelayMs = 250;
constexpr int kStatusMessageMs = 8000;

QString displayName(const QString &path)
{
    if (path == Document::bundledSamplePath())
        return MainWindow::tr("%1 (bundled sample)").arg(QFileInfo(path).fileName());
    return QFileInfo(path).fileName();
}

QString localFileOf(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl &url : mime->urls())
        if (url.isLocalFile())
            return url.toLocalFile();
    return {};
}

QLabel *statusLabel(QWidget *parent, const char *objectName)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QLatin1String(objectName));
    label->setContentsMargins(6, 0, 6, 0);
    return label;
}

} // namespace

MainWindow::MainWindow(Document *document, QWidget *parent)
    : QMainWindow(parent), m_document(document), m_nodeList(new NodeListWidget(this)), m_canvas(new GraphCanvas(this)),
      m_nodesDock(new QDockWidget(tr("Nodes"), this)), m_patterns(new PatternsWidget(this)),
      m_patternsDock(new QDockWidget(tr("Patterns"), this)), m_inspector(new NodeInspector(this)),
      m_inspectorDock(new QDockWidget(tr("Inspector"), this)), m_timeline(new TimelineWidget(this)),
      m_timelineDock(new QDockWidget(tr("Timeline"), this)), m_patternGraph(new PatternGraphWidget(this)),
      m_diff(new DiffWidget(this)), m_diffDock(new QDockWidget(tr("Diff"), this)), m_graphRow(new QWidget(this)),
      m_graphPicker(new QComboBox(m_graphRow)), m_graphCountLabel(new QLabel(m_graphRow)),
      m_progress(new QWidget(this)), m_progressLabel(new QLabel(m_progress)),
      m_progressBar(new QProgressBar(m_progress)), m_cancelButton(new QToolButton(m_progress)),
      m_matchProgress(new QWidget(this)), m_matchBar(new QProgressBar(m_matchProgress)), m_matchDelay(new QTimer(this)),
      m_progressDelay(new QTimer(this)), m_formatLabel(statusLabel(this, "formatLabel")),
      m_graphLabel(statusLabel(this, "graphLabel")), m_countsLabel(statusLabel(this, "countsLabel")),
      m_warningsLabel(statusLabel(this, "warningsLabel"))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);

    m_graphPicker->setObjectName(QStringLiteral("graphPicker"));
    m_graphPicker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_graphPicker->setMinimumContentsLength(24);
    m_graphPicker->setToolTip(tr("This file holds several graphs; pick the one to show"));
    auto *graphLabel = new QLabel(tr("&Graph:"), m_graphRow);
    graphLabel->setBuddy(m_graphPicker);
    auto *graphLayout = new QHBoxLayout(m_graphRow);
    graphLayout->setContentsMargins(6, 6, 6, 0);
    graphLayout->addWidget(graphLabel);
    graphLayout->addWidget(m_graphPicker);
    graphLayout->addWidget(m_graphCountLabel);
    graphLayout->addStretch(1);
    m_graphRow->setVisible(false);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_graphRow);
    // The candidate's pattern sits beside the graph it was matched on, so the two read side by side.
    auto *split = new QSplitter(Qt::Horizontal, central);
    split->setObjectName(QStringLiteral("canvasSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(m_canvas);
    split->addWidget(m_patternGraph);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    m_patternGraph->setVisible(false);
    layout->addWidget(split, 1);
    setCentralWidget(central);

    m_nodesDock->setObjectName(QStringLiteral("nodesDock"));
    m_nodesDock->setWidget(m_nodeList);
    m_nodesDock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea | Qt::BottomDockWidgetArea);
    m_patternsDock->setObjectName(QStringLiteral("patternsDock"));
    m_patternsDock->setWidget(m_patterns);
    m_inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    m_inspectorDock->setWidget(m_inspector);
    // Why on the left, what on the right: the patterns' verdicts beside the canvas, the selected node's
    // details above the list of every node.
    addDockWidget(Qt::LeftDockWidgetArea, m_patternsDock);
    addDockWidget(Qt::RightDockWidgetArea, m_inspectorDock);
    addDockWidget(Qt::RightDockWidgetArea, m_nodesDock);
    splitDockWidget(m_inspectorDock, m_nodesDock, Qt::Vertical);
    // The steps under the verdicts that chose them.
    m_timelineDock->setObjectName(QStringLiteral("timelineDock"));
    m_timelineDock->setWidget(m_timeline);
    addDockWidget(Qt::LeftDockWidgetArea, m_timelineDock);
    splitDockWidget(m_patternsDock, m_timelineDock, Qt::Vertical);
    // Any two revisions side by side, behind the node list.
    m_diffDock->setObjectName(QStringLiteral("diffDock"));
    m_diffDock->setWidget(m_diff);
    tabifyDockWidget(m_nodesDock, m_diffDock);
    m_nodesDock->raise();
    resizeDocks({m_patternsDock, m_inspectorDock}, {500, 400}, Qt::Horizontal);
    resizeDocks({m_inspectorDock, m_nodesDock}, {560, 320}, Qt::Vertical);

    createProfiling();
    createLogDock();
    createRecordingDock();
    createMenus();
    createStepping();
    createStatusBar();
    connectDocument();
    connectViews();
    restoreSettings();
    updateTitle();
    updateStatus();

    // The session is written a moment after each change: a burst of changes (panning) costs one write.
    m_autosavePath = autosavePath();
    m_autosaveTimer = new QTimer(this);
    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(1000);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveNow);
    for (auto signal : {&Document::fileLoaded, &Document::loadStarted})
        connect(m_document, signal, this, &MainWindow::scheduleAutosave);
    connect(m_document, &Document::patternsChanged, this, &MainWindow::scheduleAutosave);
    connect(m_document, &Document::revisionChanged, this, &MainWindow::scheduleAutosave);
    connect(m_document, &Document::currentGraphChanged, this, &MainWindow::scheduleAutosave);
    connect(m_canvas, &GraphCanvas::viewChanged, this, &MainWindow::scheduleAutosave);
    connect(m_canvas, &GraphCanvas::layoutFinished, this, &MainWindow::scheduleAutosave);
    connect(m_canvas, &GraphCanvas::nodeSelected, this, &MainWindow::scheduleAutosave);
    connect(m_patterns, &PatternsWidget::candidateSelected, this, &MainWindow::scheduleAutosave);

    // Each stage of a restore starts when the one before has finished.
    connect(m_document, &Document::fileLoaded, this, [this] {
        if (m_restore && m_restoreStage == RestoreStage::Loading)
            advanceRestore();
    });
    connect(m_document, &Document::patternsChanged, this, [this] {
        if (m_restore && m_restoreStage == RestoreStage::Patterns) {
            --m_restorePatternsLeft;
            advanceRestore();
        }
    });
    connect(m_document, &Document::matchReportChanged, this, &MainWindow::advanceRestore);
    connect(m_document, &Document::loadFailed, this, [this](const QString &, const QString &message) {
        if (m_restore)
            finishRestore(false, message);
    });
    connect(m_document, &Document::patternsFailed, this, [this] {
        if (m_restore && m_restoreStage == RestoreStage::Patterns) {
            --m_restorePatternsLeft; // shown already; the rest of the session still comes back
            advanceRestore();
        }
    });
    connect(m_document, &Document::stepFailed, this, [this](const QString &message) {
        if (m_restore && m_restoreStage == RestoreStage::Stepping)
            finishRestore(false, message);
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, &MainWindow::openFileDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    // Built once here too so the menu is not disabled-looking (empty) before its first opening.
    rebuildRecentMenu();
    QAction *openRecording = file->addAction(tr("Open Recor&ding…"), this, [this] {
        // A folder written by python -m fxscope_capture.record (docs/recording.md).
        QSettings settings;
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Recording"),
            settings.value(QStringLiteral("lastOpenDirectory")).toString());
        if (dir.isEmpty())
            return;
        settings.setValue(QStringLiteral("lastOpenDirectory"), QFileInfo(dir).absolutePath());
        m_document->open(dir);
    });
    openRecording->setObjectName(QStringLiteral("openRecordingAction"));
    openRecording->setToolTip(tr("A folder from python -m fxscope_capture.record: the passes of a torch.compile run"));
    file->addAction(tr("Open Bundled &Sample"), m_document, &Document::openBundledSample);
    file->addAction(tr("&Compare with…"), this, &MainWindow::compareWithDialog);
    file->addSeparator();
    QAction *openPatterns = file->addAction(tr("Open &Patterns…"), this, &MainWindow::openPatternsDialog);
    openPatterns->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addAction(tr("Use Built-in Patterns &Only"), m_document, &Document::resetPatterns);
    file->addSeparator();
    QAction *exportView = file->addAction(tr("&Export View…"), this, [this] { exportDialog(false); });
    exportView->setObjectName(QStringLiteral("exportViewAction"));
    exportView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportView->setToolTip(tr("Write what the canvas shows to an SVG or PNG file"));
    QAction *exportGraph = file->addAction(tr("Export &Whole Graph…"), this, [this] { exportDialog(true); });
    exportGraph->setObjectName(QStringLiteral("exportGraphAction"));
    exportGraph->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E));
    exportGraph->setToolTip(tr("Write the whole graph as laid out (collapsed groups as boxes) to an SVG or PNG file"));
    file->addSeparator();
    QAction *openSessionAction = file->addAction(tr("Open Sessio&n…"), this, &MainWindow::openSessionDialog);
    openSessionAction->setObjectName(QStringLiteral("openSessionAction"));
    QAction *saveSessionAction = file->addAction(tr("Sa&ve Session…"), this, &MainWindow::saveSessionDialog);
    saveSessionAction->setObjectName(QStringLiteral("saveSessionAction"));
    saveSessionAction->setShortcut(QKeySequence::Save);
    QAction *restoreLast = file->addAction(tr("Restore &Last Session"), this, [this] { openSession(autosavePath()); });
    restoreLast->setObjectName(QStringLiteral("restoreLastSessionAction"));
    restoreLast->setToolTip(tr("Where you were when fxscope last closed (or was killed)"));
    connect(file, &QMenu::aboutToShow, restoreLast,
        [restoreLast] { restoreLast->setEnabled(QFileInfo::exists(autosavePath())); });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *fit = view->addAction(tr("&Fit Graph"), m_canvas, &GraphCanvas::fitToView);
    fit->setObjectName(QStringLiteral("fitAction"));
    fit->setShortcut(Qt::Key_F);
    QAction *zoomIn = view->addAction(tr("Zoom &In"), m_canvas, &GraphCanvas::zoomIn);
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::Key_Plus)});
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), m_canvas, &GraphCanvas::zoomOut);
    zoomOut->setShortcuts({QKeySequence::ZoomOut, QKeySequence(Qt::Key_Minus)});
    QAction *actual = view->addAction(tr("&Actual Size"), m_canvas, &GraphCanvas::resetZoom);
    actual->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    QAction *expand = view->addAction(tr("&Expand All Groups"), m_canvas, &GraphCanvas::expandAll);
    expand->setObjectName(QStringLiteral("expandAllAction"));
    expand->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction *collapse = view->addAction(tr("&Collapse All Groups"), m_canvas, &GraphCanvas::collapseAll);
    collapse->setObjectName(QStringLiteral("collapseAllAction"));
    collapse->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    view->addSeparator();
    QMenu *themeMenu = view->addMenu(tr("&Theme"));
    m_themeActions = new QActionGroup(this);
    for (const auto &[theme, text] : {std::pair{Theme::System, tr("&System")}, std::pair{Theme::Light, tr("&Light")},
             std::pair{Theme::Dark, tr("&Dark")}}) {
        QAction *a = themeMenu->addAction(text, this, [this, theme = theme] { setTheme(theme); });
        a->setCheckable(true);
        a->setData(int(theme));
        a->setObjectName(QStringLiteral("theme_") + themeKey(theme));
        m_themeActions->addAction(a);
    }
    view->addSeparator();
    view->addAction(m_patternsDock->toggleViewAction());
    view->addAction(m_inspectorDock->toggleViewAction());
    view->addAction(m_nodesDock->toggleViewAction());
    view->addAction(m_timelineDock->toggleViewAction());
    view->addAction(m_diffDock->toggleViewAction());
    view->addAction(m_profileDock->toggleViewAction());
    view->addAction(m_logDock->toggleViewAction());
    QAction *findCandidate = view->addAction(tr("Filter &Candidates"), this, [this] {
        m_patternsDock->show();
        m_patternsDock->raise();
        m_patterns->focusFilter();
    });
    findCandidate->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    QAction *find = view->addAction(tr("&Filter Nodes"), this, [this] {
        m_nodesDock->show();
        m_nodesDock->raise();
        m_nodeList->focusFilter();
    });
    find->setShortcut(QKeySequence::Find);
    // Step through the node search's matches: the node list selection drives canvas and inspector.
    QAction *findNext = view->addAction(tr("Find &Next Node"), m_nodeList, &NodeListWidget::findNext);
    findNext->setShortcut(QKeySequence(Qt::Key_F3));
    QAction *findPrevious = view->addAction(tr("Find &Previous Node"), m_nodeList, &NodeListWidget::findPrevious);
    findPrevious->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About fxscope"), this, [this] {
        QMessageBox::about(this, tr("About fxscope"),
            tr("<b>fxscope %1</b><p>A debugger for PyTorch FX graph fusion passes.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createStepping()
{
    // The Step menu and the toolbar share the actions; the undo stack's own actions carry its texts.
    auto *menu = new QMenu(tr("&Step"), this);
    menuBar()->insertMenu(menuBar()->actions().last(), menu); // before Help
    m_steppingBar = addToolBar(tr("Stepping"));
    m_steppingBar->setObjectName(QStringLiteral("steppingToolBar"));
    m_steppingBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto add = [&](const QString &text, const char *name, const QKeySequence &key, const QString &tip, auto slot) {
        QAction *a = menu->addAction(text, this, slot);
        a->setObjectName(QLatin1String(name));
        a->setShortcut(key);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        m_steppingBar->addAction(a);
        return a;
    };
    add(tr("Step"), "stepAction", QKeySequence(Qt::Key_F10), tr("Apply the next accepted match, in Inductor's order"),
        [this] { m_document->step(); });
    add(tr("Step Over Pattern"), "stepOverAction", QKeySequence(Qt::SHIFT | Qt::Key_F10),
        tr("Apply every match of the current candidate's pattern"), [this] {
            const QString pattern = stepOverPattern();
            if (pattern.isEmpty())
                statusBar()->showMessage(tr("No pattern has an accepted candidate"), kStatusMessageMs);
            else
                m_document->stepOver(pattern);
        });
    add(tr("Run to End"), "runToEndAction", QKeySequence(Qt::Key_F5), tr("Apply the rest of the pass: every match one PatternMatcherPass.apply would make"),
        [this] { m_document->runToEnd(); });
    menu->addSeparator();
    m_steppingBar->addSeparator();
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    menu->addAction(undo);
    menu->addAction(redo);
    m_steppingBar->addAction(undo);
    m_steppingBar->addAction(redo);
    add(tr("Reset"), "resetAction", QKeySequence(Qt::CTRL | Qt::Key_R), tr("Undo every step: the graph as loaded"),
        [this] { m_document->reset(); });
    menu->addSeparator();
    menu->addAction(m_timelineDock->toggleViewAction());
    m_timeline->setUndoStack(m_document->undoStack());
}

void MainWindow::createLogDock()
{
    // Every logger's records, startup ones included (logSink() kept them); behind the other right-hand tabs.
    m_log = new LogWidget(logSink(), this);
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setWidget(m_log);
    tabifyDockWidget(m_profileDock, m_logDock);
    m_nodesDock->raise();
}

void MainWindow::createRecordingDock()
{
    // A recording's passes beside the verdicts: what torch did in the real run, next to what fxscope finds.
    m_recording = new RecordingWidget(this);
    m_recordingDock = new QDockWidget(tr("Recording"), this);
    m_recordingDock->setObjectName(QStringLiteral("recordingDock"));
    m_recordingDock->setWidget(m_recording);
    tabifyDockWidget(m_patternsDock, m_recordingDock);
    m_patternsDock->raise();
    connect(m_document, &Document::fileLoaded, this, [this] {
        QElapsedTimer timer;
        timer.start();
        m_recording->setFile(m_document->file());
        if (m_recording->hasRecording()) {
            uiLogger()->debug("recording dock filled in {} ms", timer.elapsed());
            m_recordingDock->raise();
            resizeDocks({m_recordingDock}, {qMax(m_recordingDock->width(), 640)}, Qt::Horizontal);
            resizeDocks({m_recordingDock, m_timelineDock}, {700, 200}, Qt::Vertical); // the passes, not the session
        }
    });
    connect(m_recording, &RecordingWidget::graphActivated, m_document, &Document::setCurrentGraphIndex);
    connect(m_recording, &RecordingWidget::compareRequested, this, [this](int before, int after) {
        m_document->setCurrentGraphIndex(before);
        compareWith(m_document->path(), QString::number(after));
    });
    connect(m_recording, &RecordingWidget::rerunRequested, this, [this](int before, const QString &source) {
        m_document->setCurrentGraphIndex(before);
        if (!m_document->patternFiles().contains(source))
            m_document->openPatterns(source);
        m_patternsDock->raise(); // the verdicts of the re-run
    });
}

void MainWindow::createProfiling()
{
    // Beside the diff: what a fusion changed, then what it bought.
    m_profile = new ProfileWidget(this);
    m_profileDock = new QDockWidget(tr("Profile"), this);
    m_profileDock->setObjectName(QStringLiteral("profileDock"));
    m_profileDock->setWidget(m_profile);
    tabifyDockWidget(m_diffDock, m_profileDock);
    m_nodesDock->raise();
    connect(m_profile, &ProfileWidget::profileRequested, this,
        [this](const QString &device, int iters, int warmup, const SymbolValues &symbols) {
            if (!m_document->currentGraph()) {
                m_profile->setError(tr("Open a graph first"));
                return;
            }
            m_document->profile(device, iters, warmup, symbols);
        });
    // Another graph: the profile of the last one no longer describes it.
    connect(m_document, &Document::currentGraphChanged, this, [this] {
        m_profile->setGraphSymbols(m_document->profileSymbols(), m_document->profileSymbolHints());
        m_profile->setProfile(nullptr);
        applyProfileOverlay();
    });
    connect(m_profile, &ProfileWidget::ranksProfileRequested, this,
        [this](const QString &device, int iters, int warmup, const SymbolValues &symbols,
            const RankRunRequest &request) {
            if (!m_document->currentGraph()) {
                m_profile->setError(tr("Open a graph first"));
                return;
            }
            m_document->profileRanks(device, iters, warmup, symbols, request);
        });
    connect(m_document, &Document::ranksProfileStarted, m_profile, &ProfileWidget::startRanks);
    connect(m_document, &Document::ranksProgress, m_profile, &ProfileWidget::setRanksProgress);
    connect(m_document, &Document::ranksProfileFinished, m_profile, &ProfileWidget::setRanksProfile);
    connect(m_document, &Document::fileLoaded, m_profile, &ProfileWidget::suggestRankFiles);
    connect(m_profile, &ProfileWidget::cancelRequested, m_document, &Document::cancelProfile);
    connect(m_profile, &ProfileWidget::nodeActivated, this, &MainWindow::selectNode);
    connect(m_profile, &ProfileWidget::overlayChanged, this, &MainWindow::applyProfileOverlay);
    connect(m_document, &Document::profileStarted, this, [this](bool withFused) {
        m_profile->setBusy(true,
            withFused ? tr("Profiling the graph as loaded and revision %1…").arg(m_document->revision())
                      : tr("Profiling the graph as loaded…"));
    });
    connect(m_document, &Document::profileFinished, this, [this](std::shared_ptr<const ProfileReport> report) {
        m_profile->setProfile(std::move(report));
        applyProfileOverlay();
    });
    connect(m_document, &Document::profileProgress, m_profile, &ProfileWidget::setProgress);
    connect(m_profile, &ProfileWidget::exportRequested, this, &MainWindow::exportProfileDialog);
    connect(m_profile, &ProfileWidget::settingsChanged, this, &MainWindow::scheduleAutosave);
    connect(m_profile, &ProfileWidget::devicePluginRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Load Device Plugin"), QString(), tr("Device plugins (*.so *.so.*);;All files (*)"));
        if (!path.isEmpty())
            m_document->listDevices({path});
    });
    connect(m_document, &Document::devicesListed, this,
        [this](std::shared_ptr<const RuntimeDevices> devices) { m_profile->setDevices(*devices); });
    connect(m_document, &Document::devicesFailed, m_profile, &ProfileWidget::setError);
    // The runtime (LibTorch) loads when the dock is first shown, not when the window opens.
    connect(m_profileDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_document->devices() && !m_document->isListingDevices())
            m_document->listDevices();
    });
    connect(m_document, &Document::profileFailed, this,
        [this](const QString &message, std::shared_ptr<const ProfileReport> partial) {
            // The node that failed is shown on the canvas, as a parse error's line is in the editor.
            QString failedNode;
            if (partial)
                failedNode = QString::fromStdString(
                    partial->fused && !partial->fused->failedNode.empty() && m_document->revision() > 0
                        ? partial->fused->failedNode
                        : partial->unfused.failedNode);
            m_profile->setFailure(message, std::move(partial));
            applyProfileOverlay();
            if (!failedNode.isEmpty())
                selectNode(failedNode);
        });
    connect(m_document, &Document::profileCanceled, this, [this] {
        m_profile->stopRanks();
        m_profile->setError(tr("Profiling cancelled"));
    });
    // A new graph or revision: the overlay follows the graph shown.
    connect(m_canvas, &GraphCanvas::layoutFinished, this, [this] {
        if (m_profile->overlayBox()->isChecked() && !m_canvas->hasNodeTimes())
            applyProfileOverlay();
    });
}

void MainWindow::applyProfileOverlay()
{
    std::map<std::string, double> times;
    const ProfileReport *report = m_profile->model()->report();
    if (report && m_profile->overlayBox()->isChecked()) {
        // The graph shown is the fused one after steps: its times where it has them, the unfused ones elsewhere.
        for (const NodeProfile &n : report->unfused.nodes)
            times[n.name] = n.medianUs;
        if (report->fused && m_document->revision() > 0)
            for (const NodeProfile &n : report->fused->nodes)
                times[n.name] = n.medianUs;
    }
    m_canvas->setNodeTimes(times);
}

QString MainWindow::stepOverPattern() const
{
    const MatchReport *report = m_patterns->model()->report();
    if (!report)
        return {};
    const int current = m_patterns->currentCandidate().first;
    if (current >= 0 && size_t(current) < report->patterns.size())
        return QString::fromStdString(report->patterns[size_t(current)].name);
    for (const PatternReport &p : report->patterns)
        if (p.acceptedCount() > 0)
            return QString::fromStdString(p.name);
    return {};
}

void MainWindow::onRevisionChanged(const QString &description)
{
    const std::shared_ptr<const Graph> graph = m_document->currentGraphShared();
    const QString selected = m_canvas->selectedNode();
    m_nodeList->setGraph(graph);
    m_canvas->setGraphRevision(graph);
    m_inspector->setGraph(graph);
    const std::shared_ptr<const GraphDiff> diff = m_document->lastDiff();
    m_timeline->setDiff(diff, description);
    m_timeline->bisectBox()->setValue(m_document->revision());
    m_diff->setRevisions(QStringList{tr("0. Graph as loaded")} + m_document->historyTexts());
    m_stepAdded.clear();
    if (diff)
        for (const DiffNode &n : diff->added)
            m_stepAdded << QString::fromStdString(n.name);
    applyStepMarks();
    // The node selected before stays selected when the step kept it.
    if (!selected.isEmpty() && graph && graph->find(selected.toStdString())) {
        m_nodeList->selectNode(selected);
        m_inspector->showNode(selected);
    }
    statusBar()->showMessage(description, kStatusMessageMs);
    updateStatus();
}

void MainWindow::applyStepMarks()
{
    if (m_stepAdded.isEmpty())
        return;
    std::vector<std::pair<QString, CanvasMatchMark>> marks;
    for (const QString &name : m_stepAdded)
        marks.emplace_back(name, CanvasMatchMark::Added);
    // The view follows the change, but only moves when the first node added is out of sight: the unchanged nodes
    // keep their place on screen.
    m_canvas->setMatchMarks(marks, m_stepAdded.first(), true);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = RecentFiles::list();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        // &1 … &9, &0: keyboard access in the order shown
        QString escaped = path;
        escaped.replace(QLatin1Char('&'), QLatin1String("&&"));
        const QString text = i < 10 ? QStringLiteral("&%1  %2").arg(QString::number((i + 1) % 10), escaped) : escaped;
        QAction *action = m_recentMenu->addAction(text, this, [this, path] { m_document->open(path); });
        action->setEnabled(QFileInfo::exists(path));
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction *clear = m_recentMenu->addAction(tr("&Clear Menu"), this, [] { RecentFiles::clear(); });
    clear->setEnabled(!files.isEmpty());
}

void MainWindow::createStatusBar()
{
    m_progressLabel->setObjectName(QStringLiteral("progressLabel"));
    m_progressBar->setRange(0, 0); // busy until the parser reports its first fraction
    m_progressBar->setMaximumWidth(120);
    m_progressBar->setMaximumHeight(fontMetrics().height());
    m_progressBar->setTextVisible(false);
    m_cancelButton->setObjectName(QStringLiteral("cancelLoad"));
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop waiting for this file; the graph shown stays"));
    m_cancelButton->setAutoRaise(true);
    connect(m_cancelButton, &QToolButton::clicked, m_document, &Document::cancelLoad);
    auto *progressLayout = new QHBoxLayout(m_progress);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    progressLayout->addWidget(m_progressLabel);
    progressLayout->addWidget(m_progressBar);
    progressLayout->addWidget(m_cancelButton);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_progress->setVisible(false);

    // Matching has its own indicator: it runs after every load, step and pattern change.
    auto *matchLabel = new QLabel(tr("Matching…"), m_matchProgress);
    m_matchBar->setRange(0, 1000);
    m_matchBar->setMaximumWidth(120);
    m_matchBar->setMaximumHeight(fontMetrics().height());
    m_matchBar->setTextVisible(false);
    auto *cancelMatch = new QToolButton(m_matchProgress);
    cancelMatch->setObjectName(QStringLiteral("cancelMatch"));
    cancelMatch->setText(tr("Cancel"));
    cancelMatch->setToolTip(tr("Stop matching; the candidates shown so far stay"));
    cancelMatch->setAutoRaise(true);
    connect(cancelMatch, &QToolButton::clicked, m_document, &Document::cancelMatch);
    auto *matchLayout = new QHBoxLayout(m_matchProgress);
    matchLayout->setContentsMargins(0, 0, 0, 0);
    matchLayout->addWidget(matchLabel);
    matchLayout->addWidget(m_matchBar);
    matchLayout->addWidget(cancelMatch);
    m_matchProgress->setObjectName(QStringLiteral("matchProgress"));
    m_matchProgress->setVisible(false);
    m_matchDelay->setSingleShot(true);
    m_matchDelay->setInterval(kProgressDelayMs);
    connect(m_matchDelay, &QTimer::timeout, this, [this] { m_matchProgress->setVisible(m_document->isMatching()); });
    statusBar()->addWidget(m_matchProgress);

    m_progressDelay->setSingleShot(true);
    m_progressDelay->setInterval(kProgressDelayMs);
    connect(m_progressDelay, &QTimer::timeout, this, [this] { m_progress->setVisible(m_document->isLoading()); });

    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_warningsLabel);
    statusBar()->addPermanentWidget(m_formatLabel);
    statusBar()->addPermanentWidget(m_graphLabel);
    statusBar()->addPermanentWidget(m_countsLabel);
    m_formatLabel->setToolTip(tr("Format the file was read as"));
    m_graphLabel->setToolTip(tr("Graph shown"));
    m_countsLabel->setToolTip(tr("Nodes of the graph shown, by FX opcode"));
}

void MainWindow::connectDocument()
{
    connect(m_document, &Document::loadStarted, this, &MainWindow::onLoadStarted);
    connect(m_document, &Document::loadingChanged, this, &MainWindow::onLoadingChanged);
    connect(m_document, &Document::fileLoaded, this, &MainWindow::onFileLoaded);
    connect(m_document, &Document::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_document, &Document::loadCanceled, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Stopped loading %1").arg(displayName(path)), kStatusMessageMs);
    });
    connect(m_document, &Document::currentGraphChanged, this, &MainWindow::onCurrentGraphChanged);
    connect(m_document, &Document::loadProgress, this, [this](int permille) {
        if (permille > 0) {
            m_progressBar->setRange(0, 1000);
            m_progressBar->setValue(permille);
        }
    });
    connect(m_document, &Document::graphNotFound, this,
        [this](const QString &message) { showError(tr("Graph not found"), message); });
    connect(
        m_graphPicker, qOverload<int>(&QComboBox::currentIndexChanged), m_document, &Document::setCurrentGraphIndex);
    connect(m_document, &Document::matchStarted, this, [this] {
        m_patterns->setMatching(true);
        m_matchBar->setValue(0);
        m_matchDelay->start();
    });
    connect(m_document, &Document::matchProgress, m_matchBar, &QProgressBar::setValue);
    auto matchEnded = [this] {
        m_matchDelay->stop();
        m_matchProgress->setVisible(false);
    };
    connect(m_document, &Document::matchReportChanged, this, matchEnded);
    connect(m_document, &Document::matchFailed, this, matchEnded);
    connect(m_document, &Document::matchCanceled, this, [this, matchEnded] {
        matchEnded();
        m_patterns->setMatching(false);
        statusBar()->showMessage(tr("Matching stopped; the candidates shown are from before"), kStatusMessageMs);
    });
    connect(m_document, &Document::matchReportChanged, this, &MainWindow::onMatchReportChanged);
    connect(m_document, &Document::torchCheckStarted, this,
        [this](std::shared_ptr<const MatchReport> report) { m_patterns->setTorchRunning(report.get()); });
    connect(m_document, &Document::torchCheckFinished, this,
        [this](std::shared_ptr<const MatchReport> report, std::shared_ptr<const TorchComparison> comparison) {
            m_patterns->setTorchResult(report.get(), std::move(comparison));
        });
    connect(m_document, &Document::torchCheckFailed, this,
        [this](std::shared_ptr<const MatchReport> report, const QString &message) {
            m_patterns->setTorchFailed(report.get(), message);
        });
    connect(m_document, &Document::matchFailed, this,
        [this](const QString &message) { statusBar()->showMessage(tr("Matching failed: %1").arg(message), 0); });
    // Numerics per fusion, on request from the Patterns dock (the CPU; Profile chooses devices).
    connect(m_patterns, &PatternsWidget::numericsRequested, this, [this] { m_document->checkNumerics(); });
    connect(m_document, &Document::numericsStarted, this, [this](std::shared_ptr<const MatchReport> report) {
        m_patterns->setNumericsRunning(report.get());
        statusBar()->showMessage(tr("Running each accepted fusion against the nodes it replaces…"), kStatusMessageMs);
    });
    connect(m_document, &Document::numericsFinished, this,
        [this](std::shared_ptr<const MatchReport> report, std::shared_ptr<const CandidateNumerics> numerics) {
            const NumericsTally t = tallyNumerics(*numerics); // the refused ones' "if fused" are in the dock
            statusBar()->showMessage(t.differ ? tr("Numerics: %1 of %2 fusions differ from the nodes they replace")
                                                    .arg(t.differ)
                                                    .arg(t.fused)
                    : t.fused == 1            ? tr("Numerics: the fusion gives the numbers of the nodes it replaces")
                                              : tr("Numerics: %1 fusions give the numbers of the nodes they replace")
                                                    .arg(t.fused),
                kStatusMessageMs);
            m_patterns->setNumerics(report.get(), std::move(numerics));
        });
    connect(m_document, &Document::patternsFailed, this, [this](const QString &path, const QString &message) {
        showError(tr("Could not load patterns from %1").arg(QFileInfo(path).fileName()), message);
    });
    connect(m_document, &Document::revisionChanged, this,
        [this](std::shared_ptr<const Graph>, const QString &description, std::shared_ptr<const GraphDiff>) {
            onRevisionChanged(description);
        });
    connect(m_document, &Document::stepFailed, this,
        [this](const QString &message) { statusBar()->showMessage(message, kStatusMessageMs); });
    connect(m_document, &Document::steppingChanged, m_timeline, &TimelineWidget::setBusy);
    connect(m_document, &Document::revisionDiffReady, m_diff, &DiffWidget::setDiff);
    connect(m_document, &Document::patternsChanged, this, [this] {
        QStringList files = m_document->patternFiles();
        files.replaceInStrings(QRegularExpression(QStringLiteral("^builtin$")), tr("the built-in library"));
        statusBar()->showMessage(files.isEmpty()
                ? tr("Built-in patterns (shown until a pattern source is opened)")
                : tr("Patterns: %1, run by %2").arg(files.join(QLatin1String(", ")), m_document->patternEngine()),
            kStatusMessageMs);
    });
}

void MainWindow::connectViews()
{
    // Selection goes every way; each view's programmatic select does not echo back.
    connect(m_canvas, &GraphCanvas::nodeSelected, this, [this](const QString &name) {
        m_nodeList->selectNode(name);
        m_inspector->showNode(name);
    });
    connect(m_nodeList, &NodeListWidget::nodeSelected, this, [this](const QString &name) {
        m_canvas->selectNode(name);
        m_inspector->showNode(name);
    });
    connect(m_inspector, &NodeInspector::nodeActivated, this, &MainWindow::selectNode);
    connect(m_patterns, &PatternsWidget::candidateSelected, this, &MainWindow::showCandidate);
    connect(m_patterns, &PatternsWidget::nodeActivated, this, &MainWindow::selectNode);
    connect(m_patternGraph, &PatternGraphWidget::nodeActivated, this, &MainWindow::selectNode);
    connect(m_patternGraph, &PatternGraphWidget::closeRequested, m_patternGraph, &QWidget::hide);
    // A pattern node clicked selects the graph node it stood for.
    connect(m_patternGraph->canvas(), &GraphCanvas::nodeSelected, this, [this](const QString &name) {
        if (const PatternPair *pair = m_patternGraph->correspondence().find(name.toStdString());
            pair && !pair->isLiteral)
            selectNode(QString::fromStdString(pair->graphNode));
    });
    connect(m_timeline, &TimelineWidget::nodeActivated, this, &MainWindow::selectNode);
    connect(m_timeline, &TimelineWidget::bisectRequested, m_document, &Document::bisect);
    connect(m_diff, &DiffWidget::diffRequested, m_document, &Document::diffRevisions);
    connect(m_diff, &DiffWidget::nodeActivated, this, &MainWindow::selectNode);
    connect(m_canvas, &GraphCanvas::layoutFinished, this, [this](qint64 ms) {
        const Grouping *grouping = m_canvas->grouping();
        QString text = tr("Layout: %L1 nodes shown").arg(m_canvas->visibleNodeCount());
        if (grouping && !grouping->groups.empty()) {
            int expanded = 0;
            for (int g = 0; g < m_canvas->groupCount(); ++g)
                expanded += m_canvas->isGroupExpanded(g);
            text += tr(", %L1 of %L2 groups expanded").arg(expanded).arg(grouping->groups.size());
        }
        statusBar()->showMessage(tr("%1 (%2 ms)").arg(text).arg(ms), kStatusMessageMs);
    });
    connect(m_canvas, &GraphCanvas::layoutFailed, this,
        [this](const QString &message) { statusBar()->showMessage(tr("Layout failed: %1").arg(message), 0); });
}

void MainWindow::onLoadStarted(const QString &path)
{
    m_progressLabel->setText(tr("Loading %1…").arg(displayName(path)));
    m_progressLabel->setToolTip(path);
    m_progressBar->setRange(0, 0);
}

void MainWindow::onLoadingChanged(bool loading)
{
    if (loading) {
        m_progressDelay->start();
    } else {
        m_progressDelay->stop();
        m_progress->setVisible(false);
    }
}

void MainWindow::onFileLoaded(const QString &path)
{
    m_showSampleCandidate = m_document->isBundledSample();
    if (!m_document->isBundledSample())
        RecentFiles::add(path);
    // A file the user opened clears an earlier error; the sample opened in place of a session that failed does not.
    if (m_errorBox && !m_document->isBundledSample())
        m_errorBox->close();

    const GraphFile *file = m_document->file();
    {
        const QSignalBlocker blocker(m_graphPicker);
        m_graphPicker->clear();
        for (size_t i = 0; i < file->graphs.size(); ++i) {
            const NamedGraph &g = file->graphs[i];
            const QString name = QString::fromStdString(g.name);
            m_graphPicker->addItem(
                QStringLiteral("%1  %2").arg(QString::number(i), name.isEmpty() ? tr("(unnamed)") : name));
            QString tip = name;
            if (!g.kind.empty() && g.kind != g.name)
                tip += QLatin1Char('\n') + QString::fromStdString(g.kind);
            if (g.line > 0)
                tip += QLatin1Char('\n') + tr("from line %1").arg(g.line);
            if (g.graph)
                tip += QLatin1Char('\n') + tr("%L1 nodes").arg(g.graph->size());
            m_graphPicker->setItemData(int(i), tip, Qt::ToolTipRole);
        }
    }
    m_graphCountLabel->setText(tr("%L1 graphs in this file").arg(file->graphs.size()));
    m_graphRow->setVisible(file->graphs.size() > 1);

    statusBar()->showMessage(
        tr("Loaded %1 in %2 ms").arg(displayName(path), QLocale().toString(m_document->loadMilliseconds())),
        kStatusMessageMs);
    updateTitle();
}

void MainWindow::onLoadFailed(const QString &path, const QString &message)
{
    showError(tr("Could not open %1").arg(displayName(path)), message);
}

void MainWindow::showError(const QString &title, const QString &message)
{
    statusBar()->showMessage(message, 0);
    if (m_errorBox)
        m_errorBox->close();
    // Window-modal and opened without exec(): the event loop keeps running and nothing nests in it.
    m_errorBox = new QMessageBox(QMessageBox::Warning, tr("fxscope"), title, QMessageBox::Ok, this);
    m_errorBox->setObjectName(QStringLiteral("errorBox"));
    m_errorBox->setInformativeText(message);
    m_errorBox->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorBox->setAttribute(Qt::WA_DeleteOnClose);
    // QMessageBox sizes itself to its title line and wraps the rest; FILE:LINE:COL messages read
    // better on one line, so give the box a sensible minimum width.
    if (auto *grid = qobject_cast<QGridLayout *>(m_errorBox->layout()))
        grid->addItem(
            new QSpacerItem(fontMetrics().averageCharWidth() * 80, 0, QSizePolicy::Minimum, QSizePolicy::Expanding),
            grid->rowCount(), 0, 1, grid->columnCount());
    m_errorBox->open();
}

void MainWindow::onCurrentGraphChanged(int index)
{
    {
        const QSignalBlocker blocker(m_graphPicker);
        m_graphPicker->setCurrentIndex(index);
    }
    QElapsedTimer timer;
    timer.start();
    m_nodeList->setGraph(m_document->currentGraphShared());
    m_canvas->setGraph(m_document->currentGraphShared());
    m_inspector->setGraph(m_document->currentGraphShared());
    m_stepAdded.clear();
    m_timeline->setDiff(nullptr, {});
    m_diff->setRevisions({tr("0. Graph as loaded")});
    updateStatus();
    uiLogger()->debug("graph {} shown in {} ms", index, timer.elapsed());
}

void MainWindow::logPatternWarnings(const MatchReport &report)
{
    // Every step matches again with the same patterns: each warning goes to the log once.
    for (const std::string &w : report.warnings)
        if (!m_loggedPatternWarnings.contains(QString::fromStdString(w))) {
            m_loggedPatternWarnings.insert(QString::fromStdString(w));
            uiLogger()->warn("match: {}", w); // a pattern file's load warning, or the graph's (Dynamo-level)
        }
    for (const PatternReport &p : report.patterns)
        for (const std::string &w : p.warnings) {
            const QString key = QString::fromStdString(p.name + '\n' + w);
            if (!m_loggedPatternWarnings.contains(key)) {
                m_loggedPatternWarnings.insert(key);
                uiLogger()->warn("pattern {} ({}): {}", p.name, p.source, w);
            }
        }
}

void MainWindow::onMatchReportChanged()
{
    // The last step's additions stay marked over the new report; a candidate's marks go.
    if (m_stepAdded.isEmpty())
        m_canvas->clearMatchMarks();
    // A report for another graph than the one shown (cannot happen while stale jobs are dropped) shows nothing.
    const bool current = m_document->matchGraph() == m_document->currentGraphShared();
    m_patterns->setReport(current ? m_document->matchReport() : nullptr, m_document->matchMilliseconds());
    m_patternGraph->clear(); // its candidate belongs to the report replaced
    if (const MatchReport *report = current ? m_document->matchReport().get() : nullptr)
        logPatternWarnings(*report);
    // The bundled sample opens on its first accepted candidate, so a first look shows what fxscope is for.
    if (m_showSampleCandidate && current && m_document->isBundledSample() && m_document->revision() == 0
        && !m_restore) {
        m_showSampleCandidate = false;
        if (const MatchReport *report = m_document->matchReport().get())
            for (size_t p = 0; p < report->patterns.size(); ++p)
                for (size_t c = 0; c < report->patterns[p].candidates.size(); ++c)
                    if (report->patterns[p].candidates[c].accepted) {
                        showCandidate(int(p), int(c));
                        return;
                    }
    }
}

void MainWindow::selectNode(const QString &name)
{
    m_canvas->selectNode(name);
    m_nodeList->selectNode(name);
    m_inspector->showNode(name);
}

void MainWindow::showCandidate(int pattern, int candidate)
{
    const MatchReport *report = m_patterns->model()->report();
    if (!report || pattern < 0 || size_t(pattern) >= report->patterns.size() || candidate < 0
        || size_t(candidate) >= report->patterns[size_t(pattern)].candidates.size())
        return;
    const Verdict &v = report->patterns[size_t(pattern)].candidates[size_t(candidate)];
    m_stepAdded.clear(); // the candidate's marks replace the step's
    std::vector<std::pair<QString, CanvasMatchMark>> marks;
    // A fusion whose numbers differ from the nodes it replaces is coloured as a disagreement, the whole region (not
    // a refused candidate's: nothing was fused there).
    const FusionNumerics *numerics = m_patterns->model()->numerics(pattern, candidate);
    const bool differs = numerics && numerics->differs() && !numerics->ifAccepted;
    const CanvasMatchMark member
        = differs ? CanvasMatchMark::Disagreeing : v.accepted ? CanvasMatchMark::Matched : CanvasMatchMark::Tried;
    for (const std::string &n : v.nodes)
        marks.emplace_back(QString::fromStdString(n), member);
    marks.emplace_back(QString::fromStdString(v.anchor), member);
    if (v.failure) {
        // The path walked from the anchor ("mul_2", "args[1] mul_1", …) ends at the node that disagreed.
        for (const std::string &step : v.failure->path) {
            const QString s = QString::fromStdString(step);
            marks.emplace_back(s.section(QLatin1Char(' '), -1), CanvasMatchMark::Tried);
        }
        if (!v.failure->graphNode.empty())
            marks.emplace_back(QString::fromStdString(v.failure->graphNode), CanvasMatchMark::Disagreeing);
    }
    const QString anchor = QString::fromStdString(v.anchor);
    m_canvas->setMatchMarks(marks, anchor);
    m_nodeList->selectNode(anchor);
    m_inspector->showNode(anchor);
    m_canvas->selectNode(anchor);
    m_patterns->selectCandidate(pattern, candidate);

    const PatternReport &p = report->patterns[size_t(pattern)];
    std::shared_ptr<const Graph> search;
    if (const auto registry = m_document->patterns())
        for (const PatternEntryPtr &entry : registry->entries())
            if (entry->name == p.name && entry->source == p.source)
                search = entry->searchGraph;
    const std::shared_ptr<const Graph> graph = m_document->matchGraph();
    m_patternGraph->setCandidate(search, p, v, graph.get());
    if (!m_patternGraph->isVisible()) {
        // A third of the centre: the pattern is small, the graph it was matched on is not.
        auto *split = static_cast<QSplitter *>(m_patternGraph->parentWidget());
        const int width = split->width();
        m_patternGraph->setVisible(true);
        split->setSizes({width * 2 / 3, width - width * 2 / 3});
    }
}

QMessageBox *MainWindow::errorBox() const
{
    return m_errorBox;
}

bool MainWindow::isGraphPickerShown() const
{
    return m_graphRow->isVisibleTo(this);
}

void MainWindow::updateTitle()
{
    if (!m_document->file()) {
        setWindowTitle(tr("fxscope"));
        return;
    }
    setWindowTitle(tr("%1 — fxscope").arg(displayName(m_document->path())));
}

void MainWindow::updateStatus()
{
    const GraphFile *file = m_document->file();
    const NamedGraph *named = m_document->currentGraph();
    const std::shared_ptr<const Graph> shown = m_document->currentGraphShared(); // the session's revision
    m_formatLabel->setText(file ? tr("Format: %1").arg(QString::fromStdString(file->format)) : QString());
    m_formatLabel->setVisible(file != nullptr);
    m_graphLabel->setText(named ? tr("Graph: %1").arg(QString::fromStdString(named->name)) : QString());
    m_graphLabel->setVisible(named != nullptr);

    QString counts;
    if (named && shown) {
        std::array<size_t, std::size(kAllOpKinds)> byOp{};
        for (const auto &node : shown->nodes())
            for (size_t i = 0; i < byOp.size(); ++i)
                if (node->op() == kAllOpKinds[i])
                    ++byOp[i];
        QStringList parts;
        for (size_t i = 0; i < byOp.size(); ++i)
            if (byOp[i])
                parts << QStringLiteral("%1 %2").arg(
                    QLocale().toString(qulonglong(byOp[i])), QLatin1String(opKindName(kAllOpKinds[i])));
        counts
            = tr("%1 nodes: %2").arg(QLocale().toString(qulonglong(shown->size())), parts.join(QStringLiteral(" · ")));
        if (m_document->revision() > 0)
            counts = tr("Revision %1 · %2").arg(m_document->revision()).arg(counts);
    }
    m_countsLabel->setText(counts);
    m_countsLabel->setVisible(!counts.isEmpty());

    const size_t warnings = file ? file->warnings.size() : 0;
    m_warningsLabel->setVisible(warnings > 0);
    if (warnings > 0) {
        m_warningsLabel->setText(warnings == 1 ? tr("1 warning") : tr("%L1 warnings").arg(warnings));
        QStringList lines;
        for (size_t i = 0; i < warnings && i < 20; ++i)
            lines << QString::fromStdString(file->warnings[i].toString());
        if (warnings > 20)
            lines << tr("… %L1 more").arg(warnings - 20);
        m_warningsLabel->setToolTip(lines.join(QLatin1Char('\n')));
    }
}

void MainWindow::openFileDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastOpenDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Graph Dump"), dir, tr("Graph dumps (*.py *.txt *.log *.json *.pt2 *.pt);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastOpenDirectory"), QFileInfo(path).absolutePath());
    m_document->open(path);
}

void MainWindow::openPatternsDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastPatternDirectory")).toString();
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Pattern Files"), dir, tr("Pattern files (*.py *.json);;All files (*)"));
    if (paths.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastPatternDirectory"), QFileInfo(paths.first()).absolutePath());
    for (const QString &path : paths)
        m_document->openPatterns(path);
}

QString MainWindow::askExportPath(
    const QString &title, const QString &nameEnd, const QString &filters, QString *selectedFilter)
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastExportDirectory")).toString();
    const QString base = QFileInfo(m_document->path()).completeBaseName();
    const QString path = QFileDialog::getSaveFileName(this, title,
        QDir(dir).filePath((base.isEmpty() ? QStringLiteral("graph") : base) + nameEnd), filters, selectedFilter);
    if (!path.isEmpty())
        settings.setValue(QStringLiteral("lastExportDirectory"), QFileInfo(path).absolutePath());
    return path;
}

void MainWindow::exportDialog(bool wholeGraph)
{
    QString selected;
    const QString path = askExportPath(wholeGraph ? tr("Export Whole Graph") : tr("Export View"),
        QStringLiteral(".svg"), tr("SVG image (*.svg);;PNG image (*.png)"), &selected);
    if (path.isEmpty())
        return;
    QString target = path;
    if (QFileInfo(target).suffix().isEmpty()) // the filter chosen decides
        target += selected.contains(QLatin1String("png")) ? QLatin1String(".png") : QLatin1String(".svg");
    exportImage(target, wholeGraph);
}

bool MainWindow::exportImage(const QString &path, bool wholeGraph)
{
    const QString error = m_canvas->exportImage(path, wholeGraph);
    if (!error.isEmpty()) {
        showError(tr("Could not export"), error);
        return false;
    }
    uiLogger()->info("exported {} to {}", wholeGraph ? "the whole graph" : "the view", path.toStdString());
    statusBar()->showMessage(tr("Exported to %1").arg(path), kStatusMessageMs);
    return true;
}

void MainWindow::exportProfileDialog(ProfileWidget::ExportFormat format)
{
    const bool csv = format == ProfileWidget::ExportFormat::Csv;
    const QString suffix = csv ? QStringLiteral("csv") : QStringLiteral("json");
    QString path = askExportPath(csv ? tr("Export Profile as CSV") : tr("Export Profile Trace"),
        QLatin1String("-profile.") + suffix,
        csv ? tr("CSV (*.csv);;All files (*)") : tr("Chrome trace / Perfetto (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    exportProfile(path, format);
}

bool MainWindow::exportProfile(const QString &path, ProfileWidget::ExportFormat format)
{
    const bool csv = format == ProfileWidget::ExportFormat::Csv;
    const ProfileReport *report = m_profile->model()->report();
    if (!report || !report->json.isObject()) {
        showError(tr("Could not export the profile"), tr("%1: nothing to export: no profile is shown").arg(path));
        return false;
    }
    // A profile on ranks exports every rank: a trace process per rank and graph, a CSV row per rank and node.
    const RanksProfile *ranks = m_profile->ranksProfile();
    const std::string bytes = ranks ? (csv ? profileRanksCsv(ranks->json) : profileRanksChromeTrace(ranks->json))
                                    : (csv ? profileCsv(report->json) : profileChromeTrace(report->json));
    if (auto written = writeFileAtomically(path.toStdString(), bytes); !written) {
        showError(tr("Could not export the profile"), QString::fromStdString(written.error().toString()));
        return false;
    }
    uiLogger()->info("exported the profile as {} to {}", csv ? "CSV" : "a Chrome trace", path.toStdString());
    statusBar()->showMessage(tr("Profile exported to %1").arg(path), kStatusMessageMs);
    return true;
}

QString MainWindow::autosavePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return dir.isEmpty() ? QString() : QDir(dir).filePath(QStringLiteral("last-session.fxsession"));
}

void MainWindow::setTheme(Theme theme)
{
    m_theme = theme;
    applyTheme(theme);
    for (QAction *a : m_themeActions->actions())
        a->setChecked(a->data().toInt() == int(theme));
    m_canvas->refreshStyle();
    m_patternGraph->canvas()->refreshStyle();
    // Widgets with a style sheet resolved their palette when polished: polish them again.
    for (QWidget *w : findChildren<QWidget *>()) {
        const QString sheet = w->styleSheet();
        if (sheet.isEmpty())
            continue;
        w->setStyleSheet(QString());
        w->setStyleSheet(sheet);
    }
    QSettings().setValue(QStringLiteral("theme"), themeKey(theme));
}

void MainWindow::scheduleAutosave()
{
    if (!m_autosavePath.isEmpty() && !m_restore)
        m_autosaveTimer->start();
}

void MainWindow::autosaveNow()
{
    m_autosaveTimer->stop();
    if (m_autosavePath.isEmpty() || m_restore || !m_document->file())
        return;
    QDir().mkpath(QFileInfo(m_autosavePath).absolutePath());
    if (auto status = saveSessionFile(m_autosavePath, sessionState()); !status)
        uiLogger()->warn("autosave: {}", status.error().toString());
}

SessionState MainWindow::sessionState() const
{
    SessionState state;
    state.graphPath = m_document->path();
    if (const NamedGraph *g = m_document->currentGraph(); g && m_document->graphCount() > 1)
        state.graph
            = g->name.empty() ? QString::number(m_document->currentGraphIndex()) : QString::fromStdString(g->name);
    state.patternFiles = m_document->patternFiles();
    state.revision = m_document->revision();
    const auto [pattern, candidate] = m_patterns->currentCandidate();
    if (const MatchReport *report = m_patterns->model()->report(); report && pattern >= 0 && candidate >= 0) {
        const PatternReport &p = report->patterns[size_t(pattern)];
        state.candidatePattern = QString::fromStdString(p.name);
        state.candidateAnchor = QString::fromStdString(p.candidates[size_t(candidate)].anchor);
    }
    state.selectedNode = m_canvas->selectedNode();
    if (m_canvas->sceneLayout()) {
        state.zoom = m_canvas->zoom();
        const QPointF centre = m_canvas->viewCentre();
        state.centreX = centre.x();
        state.centreY = centre.y();
        state.expandedGroups = m_canvas->expandedGroupLabels();
    }
    state.profileDevice = m_profile->device();
    state.profileIters = m_profile->itersBox()->value();
    state.profileWarmup = m_profile->warmupBox()->value();
    state.profileSymbols = m_profile->symbolValues();
    return state;
}

bool MainWindow::saveSession(const QString &path)
{
    if (!m_document->file()) {
        showError(tr("Could not save the session"), tr("%1: nothing to save: no graph is open").arg(path));
        return false;
    }
    if (auto status = saveSessionFile(path, sessionState()); !status) {
        showError(tr("Could not save the session"), QString::fromStdString(status.error().toString()));
        return false;
    }
    statusBar()->showMessage(tr("Session saved to %1").arg(path), kStatusMessageMs);
    return true;
}

bool MainWindow::openSession(const QString &path)
{
    auto state = loadSessionFile(path);
    if (!state) {
        uiLogger()->warn("session: {}", state.error().toString());
        showError(tr("Could not open the session"), QString::fromStdString(state.error().toString()));
        return false;
    }
    restoreSession(state.value());
    return true;
}

void MainWindow::saveSessionDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastSessionDirectory")).toString();
    QString path = QFileDialog::getSaveFileName(this, tr("Save Session"),
        QDir(dir).filePath(QFileInfo(m_document->path()).completeBaseName() + QLatin1String(".fxsession")),
        tr("fxscope sessions (*.fxsession);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastSessionDirectory"), QFileInfo(path).absolutePath());
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1String(".fxsession");
    saveSession(path);
}

void MainWindow::openSessionDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastSessionDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Session"), dir, tr("fxscope sessions (*.fxsession);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastSessionDirectory"), QFileInfo(path).absolutePath());
    openSession(path);
}

void MainWindow::restoreSession(const SessionState &state)
{
    uiLogger()->info("restoring the session on {}", state.graphPath.toStdString());
    m_document->resetPatterns(); // before the restore starts: its patternsChanged belongs to no stage
    m_restore = state;
    m_restoreStage = RestoreStage::Loading;
    // Before the graph opens: its Symbols field then shows the session's values.
    if (!state.profileDevice.isEmpty())
        m_profile->setSettings(state.profileDevice, state.profileIters, state.profileWarmup, state.profileSymbols);
    m_document->open(state.graphPath, state.graph);
}

void MainWindow::advanceRestore()
{
    if (!m_restore)
        return;
    const SessionState &state = *m_restore;
    switch (m_restoreStage) {
    case RestoreStage::Loading:
        m_restorePatternsLeft = int(state.patternFiles.size());
        m_restoreStage = RestoreStage::Patterns;
        for (const QString &file : state.patternFiles)
            m_document->openPatterns(file);
        if (m_restorePatternsLeft == 0)
            m_restoreStage = RestoreStage::Matching;
        return;
    case RestoreStage::Patterns:
        if (m_restorePatternsLeft > 0)
            return;
        m_restoreStage = RestoreStage::Matching; // the match the last pattern file started comes next
        return;
    case RestoreStage::Matching:
        if (m_document->isMatching() || !m_document->matchReport())
            return;
        if (state.revision > 0) {
            m_restoreStage = RestoreStage::Stepping;
            m_document->bisect(state.revision);
            return;
        }
        break;
    case RestoreStage::Stepping:
        // The session's report for the revision arrives after the revision itself (a Diff request may already
        // be running behind it, so isStepping() says nothing here).
        if (m_document->revision() != state.revision || !m_document->matchReport()
            || m_document->matchGraph() != m_document->currentGraphShared())
            return;
        break;
    case RestoreStage::Showing: return;
    }
    m_restoreStage = RestoreStage::Showing;
    if (!state.candidatePattern.isEmpty())
        if (const MatchReport *report = m_document->matchReport().get())
            for (size_t p = 0; p < report->patterns.size(); ++p) {
                if (QString::fromStdString(report->patterns[p].name) != state.candidatePattern)
                    continue;
                for (size_t c = 0; c < report->patterns[p].candidates.size(); ++c)
                    if (QString::fromStdString(report->patterns[p].candidates[c].anchor) == state.candidateAnchor)
                        showCandidate(int(p), int(c));
            }
    if (!state.selectedNode.isEmpty())
        selectNode(state.selectedNode);
    if (state.zoom > 0)
        m_canvas->restoreView(state.zoom, QPointF(state.centreX, state.centreY), state.expandedGroups);
    finishRestore(true);
}

void MainWindow::finishRestore(bool ok, const QString &error)
{
    m_restore.reset();
    if (ok)
        statusBar()->showMessage(tr("Session restored"), kStatusMessageMs);
    else
        showError(tr("Could not restore the whole session"), error);
    Q_EMIT sessionRestored(ok);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localFileOf(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = localFileOf(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    // Shift: the dropped file is B, compared with the graph shown.
    if (event->modifiers().testFlag(Qt::ShiftModifier) && m_document->currentGraphShared())
        compareWith(path);
    else
        m_document->open(path);
}

void MainWindow::compareWithDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastOpenDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare With Graph Dump"), dir,
        tr("Graph dumps (*.py *.txt *.log *.json *.pt2 *.pt);;All files (*)"));
    if (!path.isEmpty())
        compareWith(path);
}

void MainWindow::compareWith(const QString &path, const QString &graph)
{
    std::shared_ptr<const Graph> shown = m_document->currentGraphShared();
    if (!shown)
        return;
    if (!m_compareWindow)
        m_compareWindow = new CompareWindow(this);
    QString title = QFileInfo(m_document->path()).fileName();
    if (const NamedGraph *named = m_document->currentGraph())
        title += QLatin1String(" [") + QString::fromStdString(named->name) + QLatin1Char(']');
    if (m_document->revision() > 0)
        title += tr(" after step %1").arg(m_document->revision());
    m_compareWindow->compare(shown, title, m_document->path(), m_document->currentGraphIndex(), path, graph);
    m_compareWindow->show();
    m_compareWindow->raise();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_document->cancelProfile(); // LibTorch stops instead of running on behind a closed window
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
        // First run: most of the screen, so the canvas is not squeezed between the four docks.
        const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1280, 800);
        resize(available * 0.9);
    }
    if (!restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray())) {
        resizeDocks({m_patternsDock, m_inspectorDock}, {width() * 27 / 100, width() * 21 / 100}, Qt::Horizontal);
        resizeDocks({m_patternsDock, m_timelineDock}, {height() * 58 / 100, height() * 42 / 100}, Qt::Vertical);
    }
    m_nodeList->restoreHeaderState(settings.value(QStringLiteral("nodeTable/header")).toByteArray());
    setTheme(themeFromKey(settings.value(QStringLiteral("theme")).toString()));
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("nodeTable/header"), m_nodeList->saveHeaderState());
}

} // namespace fxs
