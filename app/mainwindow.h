#pragma once
// The main window: menus, the graph picker, the graph canvas in the centre, the node list in a dock
// and the status bar. It is the only place
// that connects the Document's signals to views, and the views' requests back to the Document.

#include "profile_widget.h"
#include "session_state.h"
#include "theme.h"

#include <QMainWindow>
#include <QPointer>
#include <QSet>

#include <optional>

class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QTimer;
class QToolBar;
class QToolButton;
class QWidget;

namespace fxs {

class CompareWindow;
class RecordingWidget;
class DiffWidget;
struct MatchReport;
class Document;
class GraphCanvas;
class NodeInspector;
class NodeListWidget;
class PatternGraphWidget;
class LogWidget;
class PatternsWidget;
class TimelineWidget;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `document` must outlive the window.
    explicit MainWindow(Document *document, QWidget *parent = nullptr);
    ~MainWindow() override;

    Document *document() const { return m_document; }
    NodeListWidget *nodeList() const { return m_nodeList; }
    GraphCanvas *canvas() const { return m_canvas; }
    QDockWidget *nodesDock() const { return m_nodesDock; }
    PatternsWidget *patternsView() const { return m_patterns; }
    QDockWidget *patternsDock() const { return m_patternsDock; }
    NodeInspector *inspector() const { return m_inspector; }
    QDockWidget *inspectorDock() const { return m_inspectorDock; }
    QComboBox *graphPicker() const { return m_graphPicker; }
    TimelineWidget *timeline() const { return m_timeline; }
    // The candidate's pattern beside the canvas; hidden until a candidate is shown.
    PatternGraphWidget *patternGraph() const { return m_patternGraph; }
    DiffWidget *diffView() const { return m_diff; }
    ProfileWidget *profileView() const { return m_profile; }
    QDockWidget *profileDock() const { return m_profileDock; }
    LogWidget *logView() const { return m_log; }
    QDockWidget *logDock() const { return m_logDock; }
    QDockWidget *diffDock() const { return m_diffDock; }
    QDockWidget *timelineDock() const { return m_timelineDock; }
    RecordingWidget *recordingView() const { return m_recording; }
    QDockWidget *recordingDock() const { return m_recordingDock; }
    QToolBar *steppingToolBar() const { return m_steppingBar; }
    // The status bar's "Matching… [bar] Cancel", shown while a match takes longer than a moment.
    QWidget *matchProgress() const { return m_matchProgress; }
    // The pattern "step over" applies: the current candidate's, else the first with an accepted candidate.
    QString stepOverPattern() const;
    // True when the picker is shown: the file holds more than one graph.
    bool isGraphPickerShown() const;
    // The box reporting the last load error while it is open, else nullptr.
    QMessageBox *errorBox() const;

public Q_SLOTS:
    void openFileDialog();
    void openPatternsDialog();
    // Asks where, then writes the view (or the whole graph as laid out) to an SVG or PNG file.
    void exportDialog(bool wholeGraph);
    // Writes the export without asking; false (and the error shown) when it failed.
    bool exportImage(const QString &path, bool wholeGraph);
    // Asks where, then writes the profile shown as a Chrome trace or CSV.
    void exportProfileDialog(ProfileWidget::ExportFormat format);
    // Writes the profile shown without asking (atomically); false (and the error shown) when it failed.
    bool exportProfile(const QString &path, ProfileWidget::ExportFormat format);

    // Sessions: what is shown now, to save; restoring opens the graph, adds the pattern files, replays the steps,
    // shows the candidate and the view, one after another as each finishes (sessionRestored at the end).
    SessionState sessionState() const;
    void restoreSession(const SessionState &state);
    bool isRestoringSession() const { return m_restore.has_value(); }
    bool saveSession(const QString &path);
    bool openSession(const QString &path);
    void saveSessionDialog();
    void openSessionDialog();
    // Where the session is saved after every change (atomically), so a kill loses nothing; empty turns it off.
    static QString autosavePath();
    // The light or dark palette (or the platform's), applied to the whole window and kept in QSettings.
    void setTheme(Theme theme);
    Theme theme() const { return m_theme; }
    void setAutosavePath(const QString &path) { m_autosavePath = path; }
    // Saves now what the timer would save shortly.
    void autosaveNow();
    // Makes `name` the selected node of the canvas, the node list and the inspector.
    void selectNode(const QString &name);
    // Shows one candidate of the current match report: its nodes marked on the canvas, its anchor selected.
    void showCandidate(int pattern, int candidate);
    // Opens the compare window on the graph shown (A, a session revision too) and graph `graph` of `path` (B).
    void compareWith(const QString &path, const QString &graph = {});
    void compareWithDialog();
    CompareWindow *compareWindow() const { return m_compareWindow; }

Q_SIGNALS:
    // A restoreSession finished (`ok`) or stopped on an error (shown).
    void sessionRestored(bool ok);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void createStatusBar();
    void createStepping();
    void onRevisionChanged(const QString &description);
    void applyStepMarks();
    void createProfiling();
    void createLogDock();
    void createRecordingDock();
    void applyProfileOverlay();
    void connectViews();
    void connectDocument();
    void restoreSettings();
    void saveSettings() const;
    void rebuildRecentMenu();
    void advanceRestore();
    void finishRestore(bool ok, const QString &error = {});
    void scheduleAutosave();

    void onLoadStarted(const QString &path);
    void onLoadingChanged(bool loading);
    void onFileLoaded(const QString &path);
    void onLoadFailed(const QString &path, const QString &message);
    void onCurrentGraphChanged(int index);
    void logPatternWarnings(const MatchReport &report);
    // Asks where to save an export: in the last export folder, named after the file shown (else "graph") and
    // `nameEnd`; remembers the folder. Empty when the user cancelled.
    QString askExportPath(
        const QString &title, const QString &nameEnd, const QString &filters, QString *selectedFilter = nullptr);
    void onMatchReportChanged();
    void showError(const QString &title, const QString &message);
    void updateTitle();
    void updateStatus();

    Document *m_document;
    NodeListWidget *m_nodeList;
    GraphCanvas *m_canvas;
    QDockWidget *m_nodesDock;
    PatternsWidget *m_patterns;
    QDockWidget *m_patternsDock;
    NodeInspector *m_inspector;
    QDockWidget *m_inspectorDock;
    TimelineWidget *m_timeline;
    QDockWidget *m_timelineDock;
    PatternGraphWidget *m_patternGraph;
    DiffWidget *m_diff;
    CompareWindow *m_compareWindow = nullptr; // created at the first comparison
    QDockWidget *m_diffDock;
    ProfileWidget *m_profile = nullptr;
    QDockWidget *m_profileDock = nullptr;
    LogWidget *m_log = nullptr;
    RecordingWidget *m_recording = nullptr;
    QDockWidget *m_recordingDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    QToolBar *m_steppingBar = nullptr;
    QStringList m_stepAdded; // the nodes the last step added, marked on the canvas until a candidate is shown
    QWidget *m_graphRow;
    QComboBox *m_graphPicker;
    QLabel *m_graphCountLabel;
    QMenu *m_recentMenu = nullptr;

    QWidget *m_progress;
    QLabel *m_progressLabel;
    QProgressBar *m_progressBar;
    QToolButton *m_cancelButton;
    QWidget *m_matchProgress;
    QProgressBar *m_matchBar;
    QTimer *m_matchDelay;
    QTimer *m_progressDelay;
    QLabel *m_formatLabel;
    QLabel *m_graphLabel;
    QLabel *m_countsLabel;
    QLabel *m_warningsLabel;
    QPointer<QMessageBox> m_errorBox;

    // A session being restored and how far it got.
    enum class RestoreStage { Loading, Patterns, Matching, Stepping, Showing };
    std::optional<SessionState> m_restore;
    RestoreStage m_restoreStage = RestoreStage::Loading;
    int m_restorePatternsLeft = 0;
    QString m_autosavePath;
    QSet<QString> m_loggedPatternWarnings; // pattern load warnings already in the log
    Theme m_theme = Theme::System;
    bool m_showSampleCandidate = false; // the bundled sample just loaded: show its first accepted candidate
    class QActionGroup *m_themeActions = nullptr;
    QTimer *m_autosaveTimer = nullptr;
};

} // namespace fxs
