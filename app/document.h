#pragma once
// The GUI's hub (qrenderdoc's CaptureContext role): owns the loaded GraphFile, which of its graphs is
// current, the pattern registry, and the background jobs that load the next file, load pattern files
// and match the patterns on the current graph. Everything the views show comes from here, announced
// by signals that MainWindow connects.

#include <QObject>
#include <QString>
#include <QStringList>

#include "rank_run_request.h"
#include "runtime/fusion_numerics.h"
#include "runtime/rank_launcher.h"
#include "runtime/symbol_values.h"

class QTimer;
class QUndoStack;

#include <deque>
#include <memory>
#include <vector>

namespace fxs {

class Graph;
class PatternRegistry;
struct GraphDiff;
struct GraphFile;
struct MatchReport;
struct NamedGraph;
struct ProfileReport;
struct RanksProfile;
struct RuntimeDevices;
struct TorchComparison;

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    // Starts loading `path` off the UI thread and returns the job's id. A load still running becomes
    // stale: its result is dropped when it arrives. `graph` names the graph to show first, by name or
    // by index as `--graph NAME|INDEX`; empty shows the first. Paths starting with ":/" are read from
    // the resources embedded in the binary.
    quint64 open(const QString &path, const QString &graph = {});
    // Loads the sample embedded in the binary.
    quint64 openBundledSample();
    static QString bundledSamplePath();

    // Drops the running load; the file shown so far stays.
    void cancelLoad();
    bool isLoading() const { return m_currentJob != 0; }
    QString loadingPath() const { return m_loadingPath; }

    // Nothing is loaded until the first load finishes.
    const GraphFile *file() const { return m_file.get(); }
    QString path() const;
    bool isBundledSample() const;
    int graphCount() const;
    int currentGraphIndex() const { return m_currentGraph; }
    void setCurrentGraphIndex(int index);
    const NamedGraph *currentGraph() const;
    // The current graph; the pointer keeps its file alive, so views may hold it across reloads.
    std::shared_ptr<const Graph> currentGraphShared() const;
    // Parse time of the file shown, in milliseconds.
    qint64 loadMilliseconds() const { return m_loadMilliseconds; }

    // The registered patterns: the built-in library, then every pattern file opened, in order. Replaced
    // (never changed in place) when a file is added, so a running match job keeps the one it started with.
    std::shared_ptr<const PatternRegistry> patterns() const { return m_patterns; }
    // The pattern files added after the built-ins.
    QStringList patternFiles() const { return m_patternFiles; }
    // Loads a pattern source off the UI thread and adds its patterns; matching reruns when it is done. Returns the
    // job's id. A Python source (FILE.py, module:callable, inductor:NAME) runs in the user's torch (the torch host,
    // started in the background the first time), else in fxscope's sandbox (FXSCOPE_ENGINE=sandbox, or no Python
    // with torch: patternEngine() says why). The built-in library is shown while nothing else is loaded, and
    // stays with other sources only when chosen ("builtin"), so the patterns matched are exactly those chosen.
    quint64 openPatterns(const QString &path);
    // Back to the built-in library alone.
    void resetPatterns();
    // What runs the Python pattern sources: "torch 2.13.0 (torch host)" or "sandbox: why".
    QString patternEngine() const;

    // Matches the patterns on the current graph off the UI thread (done by itself after a graph or the
    // patterns change). A match still running becomes stale and its report is dropped. Returns the job id.
    quint64 rematch();
    bool isMatching() const { return m_currentMatch != 0; }
    // Drops the running match: the last report stays shown. matchCanceled follows.
    void cancelMatch();
    // The last report, for matchGraph(); nullptr before the first match finished or after it failed.
    std::shared_ptr<const MatchReport> matchReport() const { return m_report; }
    std::shared_ptr<const Graph> matchGraph() const { return m_reportGraph; }
    qint64 matchMilliseconds() const { return m_matchMilliseconds; }

    // Inductor's real PatternMatcherPass on each new report's graph, in a Python with torch (python -m
    // fxscope_capture.inductor_check, as fxscope-cli match --check-with-torch runs it), off the UI thread: started by
    // itself after a report when every pattern file added is a Python one and torchPython() names an interpreter.
    // torchCheckStarted, then torchCheckFinished or torchCheckFailed follows, for that report; a newer report drops
    // the check still running.
    bool isCheckingWithTorch() const { return m_torchJob != nullptr; }
    // $FXSCOPE_PYTHON, else the Python fxscope was built with; empty when neither is known.
    static QString torchPython();

    // Numerics per fusion (issue 25): each accepted candidate of the report shown, its fusion as the sweep applies
    // it run against the nodes it replaces on the same seeded inputs on `device` (fusion_numerics.h), off the UI
    // thread. numericsStarted, then numericsFinished for that report; a newer report or another check drops it.
    quint64 checkNumerics(const QString &device = QStringLiteral("cpu"));
    bool isCheckingNumerics() const { return m_numericsJob != nullptr; }

    // Stepping: an optimizer Session over the current graph, created at the first request after a graph
    // loads or the patterns change. Requests run one after another off the UI thread (each with a job id);
    // every result announces revisionChanged, and matchReportChanged with the session's report for the new
    // revision. The undo stack mirrors the session's history (one command per step, its pattern and anchor);
    // its undo/redo/setIndex move the session.
    QUndoStack *undoStack() const { return m_undoStack; }
    quint64 step();
    quint64 stepOver(const QString &pattern);
    quint64 runToEnd();
    void undo();
    void redo();
    void reset();
    // Only the first `steps` steps applied: replayed from the history, or matched afresh beyond it.
    quint64 bisect(int steps);
    // Moves the session to `revision` (0 = the graph as loaded); what the undo stack's commands call.
    quint64 goToRevision(int revision);
    // Compares two revisions of the session (0 = the graph as loaded) off the UI thread, queued behind the
    // stepping requests; revisionDiffReady announces the result. The revision shown does not change.
    quint64 diffRevisions(int from, int to);
    // The steps of the session's history, as the undo stack shows them; revision i is the graph after i of them.
    QStringList historyTexts() const;
    bool isStepping() const { return m_stepRunning != 0; }

    // Profiling through the LibTorch runtime (loaded on first use), off the UI thread: the graph as loaded
    // ("unfused") and, when steps were applied, the revision shown ("fused"), with the same inputs on `device`;
    // `symbols` give the symbolic dims of generated inputs their values. Returns the job id; profileProgress
    // reports, then profileFinished, profileFailed or profileCanceled follows. A run still going is stopped. A graph
    // with collectives runs as profileRanks on one rank (they need a process group).
    quint64 profile(const QString &device, int iters, int warmup, const SymbolValues &symbols = {});
    // The same on request.ranks worker processes, each a rank of a real process group (docs/ranks.md), through the
    // core fxscope-cli profile --ranks uses. Each rank runs its own graph (request.graphs with {r} for the rank; the
    // graph of the same name, with the steps applied here replayed on it) or, without, the graph shown; inputs and
    // expected outputs likewise. ranksProfileStarted, ranksProgress (each rank), then ranksProfileFinished,
    // profileFailed (the launcher's message: the rank, its node, the cause) or profileCanceled follows; cancelProfile
    // kills every rank.
    quint64 profileRanks(const QString &device, int iters, int warmup, const SymbolValues &symbols,
        const RankRunRequest &request);
    // Stops the running profile inside LibTorch (within a few hundred nodes); profileCanceled follows when it has
    // stopped. Opening another file, showing another graph and destroying the Document cancel too.
    void cancelProfile();
    bool isProfiling() const { return m_profileJob != nullptr; }
    // Cancel was asked for and the run has not stopped yet.
    bool isCancelingProfile() const;
    // The symbols (s0, s1, ...) in the current graph's input shapes and SymInt inputs: what profile() needs values
    // for to generate its inputs, in natural order.
    QStringList profileSymbols() const;
    // The sizes the current graph's dump gives its symbols (torch.export hints, TORCH_TRACE create_symbol): the
    // Symbols field starts from them.
    SymbolValues profileSymbolHints() const;
    // Lists the LibTorch runtime's devices off the UI thread (loading the runtime on first use), after loading
    // `plugins` into it: device plugins register a LibTorch backend (torch_npu's library for an Ascend NPU as
    // PrivateUse1, or fxscope's emulated NPU). devicesListed or devicesFailed follows. Loading a plugin waits for
    // no profile: it fails while one runs (a backend registering under a running graph is not safe).
    void listDevices(const QStringList &plugins = {});
    bool isListingDevices() const { return m_listingDevices; }
    // The last list, nullptr before the first.
    std::shared_ptr<const RuntimeDevices> devices() const { return m_devices; }
    // True while the Document rebuilds the undo stack to mirror the session: commands must not move it then.
    bool isSyncingUndoStack() const { return m_syncingStack; }
    // Steps applied to the graph shown; 0 before any step.
    int revision() const { return m_revision; }
    std::shared_ptr<const GraphDiff> lastDiff() const { return m_lastDiff; }

Q_SIGNALS:
    void loadStarted(const QString &path);
    // A new file replaced the previous one; currentGraphChanged follows.
    void fileLoaded(const QString &path);
    // `message` is FILE:LINE:COL: what was expected, what was found.
    void loadFailed(const QString &path, const QString &message);
    void loadCanceled(const QString &path);
    // true from loadStarted until fileLoaded, loadFailed or loadCanceled.
    void loadingChanged(bool loading);
    void currentGraphChanged(int index);
    // Parsing progress of the running load, in thousandths.
    void loadProgress(int permille);
    // The file loaded but the graph asked for is not in it; the first graph is shown instead.
    void graphNotFound(const QString &message);

    // The registry changed: built-ins reset or a pattern file added.
    void patternsChanged();
    // `message` is FILE:LINE:COL: what was expected, what was found.
    void patternsFailed(const QString &path, const QString &message);
    void matchStarted();
    // Matching progress, in thousandths.
    void matchProgress(int permille);
    // A new report for the current graph; nullptr when there is no graph.
    void matchReportChanged(std::shared_ptr<const fxs::MatchReport> report);
    void matchFailed(const QString &message);
    void matchCanceled();
    void torchCheckStarted(std::shared_ptr<const fxs::MatchReport> report);
    void torchCheckFinished(
        std::shared_ptr<const fxs::MatchReport> report, std::shared_ptr<const fxs::TorchComparison> comparison);
    // `message`: its first line says why (no torch, the Python's error); torch's stderr follows.
    void torchCheckFailed(std::shared_ptr<const fxs::MatchReport> report, const QString &message);
    void numericsStarted(std::shared_ptr<const fxs::MatchReport> report);
    void numericsFinished(
        std::shared_ptr<const fxs::MatchReport> report, std::shared_ptr<const fxs::CandidateNumerics> numerics);

    // The graph shown is another revision of the session: `description` says how it got there, `diff` what
    // changed from the revision shown before (removed and added nodes, per-op counts).
    void revisionChanged(std::shared_ptr<const fxs::Graph> graph, const QString &description,
        std::shared_ptr<const fxs::GraphDiff> diff);
    // true while stepping requests are running.
    void steppingChanged(bool busy);
    // What differs between revisions `from` and `to`, as diffRevisions asked.
    void revisionDiffReady(int from, int to, std::shared_ptr<const fxs::GraphDiff> diff);
    void profileStarted(bool withFused);
    // Profiling progress of the running job, in thousandths.
    void profileProgress(int permille);
    // With a fused graph, the report's regions pair what each fusion added with what it replaced.
    void profileFinished(std::shared_ptr<const fxs::ProfileReport> report);
    // `partial` holds what ran before the failing node (nullptr when nothing ran): its nodes and failedNode.
    void profileFailed(const QString &message, std::shared_ptr<const fxs::ProfileReport> partial);
    void profileCanceled();
    // A run on `ranks` ranks started (after profileStarted).
    void ranksProfileStarted(int ranks);
    // Each rank's progress and what it is doing, by rank, while a run on ranks goes.
    void ranksProgress(const std::vector<fxs::RankProgress> &ranks);
    void ranksProfileFinished(std::shared_ptr<const fxs::RanksProfile> profile);
    void devicesListed(std::shared_ptr<const fxs::RuntimeDevices> devices);
    // `message` names the plugin and why it did not load, or why the runtime is missing.
    void devicesFailed(const QString &message);
    // A step failed (lint broke, or nothing matched); the session stays where it got to.
    void stepFailed(const QString &message);

private:
    struct Outcome;
    struct LoadJob;
    struct PatternOutcome;
    struct MatchOutcome;
    void finishLoad(quint64 job, const Outcome &outcome);
    void finishPatterns(quint64 job, const QString &path, const PatternOutcome &outcome);
    void finishMatch(quint64 job, const MatchOutcome &outcome);
    struct TorchOutcome;
    void startTorchCheck();
    void cancelTorchCheck();

    struct StepOp;
    struct StepOutcome;
    // A step as another rank's graph replays it (pattern and anchor; passes cannot be replayed).
    struct ReplayStep {
        std::string kind, name, anchor;
    };
    struct RankPoll;
    struct SessionHolder;
    quint64 enqueue(StepOp op);
    void startNextStep();
    // The end of a profile job, single-rank or on ranks: false when its result is dropped (a newer job took its
    // place) or it was cancelled (reported here); true when the caller reports the result.
    bool finishProfileJob(quint64 job, const std::shared_ptr<LoadJob> &state, bool canceled, const char *where);
    void finishStep(quint64 job, const StepOutcome &outcome);
    void resetSession(bool keepRevision);
    void syncUndoStack(const std::vector<QString> &history, int revision);
    // The history's texts with a mark on each step whose fusion a numerics check found differing.
    std::vector<QString> markedHistory() const;

    std::shared_ptr<const GraphFile> m_file;
    int m_currentGraph = -1;
    qint64 m_loadMilliseconds = 0;

    // Job ids grow with every request; only the result of m_currentJob is used (0: none running).
    quint64 m_lastJob = 0;
    quint64 m_currentJob = 0;
    // Shared with the running job's thread: its progress and its cancel request.
    std::shared_ptr<LoadJob> m_job;
    QTimer *m_progressPoll = nullptr;
    QString m_loadingPath;
    QString m_requestedGraph;

    std::shared_ptr<const PatternRegistry> m_patterns;
    QStringList m_patternFiles;
    quint64 m_lastPatternJob = 0;
    quint64 m_patternResetJob = 0; // pattern loads up to this id were asked for before the last reset

    // Same scheme as loads: only m_currentMatch's report is kept.
    quint64 m_lastMatch = 0;
    quint64 m_currentMatch = 0;
    std::shared_ptr<LoadJob> m_matchJob;
    QTimer *m_matchPoll = nullptr;
    std::shared_ptr<const MatchReport> m_report;
    std::shared_ptr<const Graph> m_reportGraph;
    qint64 m_matchMilliseconds = 0;
    size_t m_builtinPatternCount = 0; // the registry's first entries, which torch's check does not register
    bool m_builtinsChosen = false; // "builtin" was opened: the built-ins stay when other sources join
    // The torch host, shared by every Python source this document loads (created at the first one).
    std::shared_ptr<class TorchHostEngine> m_torchHost;
    QString m_sandboxWhy; // why the sandbox runs Python sources; empty while the host does
    quint64 m_lastTorch = 0;
    quint64 m_currentTorch = 0; // only its outcome is used; 0: none running
    std::shared_ptr<LoadJob> m_torchJob; // its cancel flag: the worker kills the Python
    quint64 m_lastNumerics = 0;
    std::shared_ptr<LoadJob> m_numericsJob; // the running numerics check's cancel flag

    // Only the worker of the running request touches the session; requests wait their turn in m_stepQueue.
    std::shared_ptr<SessionHolder> m_session;
    std::deque<StepOp> m_stepQueue;
    quint64 m_lastStep = 0;
    quint64 m_stepRunning = 0; // the running request's id; 0: none
    std::shared_ptr<const Graph> m_revisionGraph; // the session's graph shown; nullptr: the loaded graph
    std::shared_ptr<const GraphDiff> m_lastDiff;
    int m_revision = 0;
    QUndoStack *m_undoStack;
    bool m_syncingStack = false; // the stack is being made to mirror the session: its commands do nothing

    quint64 m_lastProfile = 0; // the id of the last profile started, for the log
    // The running profile's progress and cancel flag, shared with its worker; null when none runs.
    std::shared_ptr<LoadJob> m_profileJob;
    QTimer *m_profilePoll = nullptr;
    std::shared_ptr<RankPoll> m_rankPoll; // a run on ranks: each rank's progress, shared with its worker
    std::vector<ReplayStep> m_steps; // the session's history
    std::vector<QString> m_historyTexts; // its texts as the session gives them, before numerics marks
    CandidateNumerics m_numericsSeen; // every numerics check's results since the graph or patterns changed
    std::vector<ReplayStep> m_replayBase; // the steps that made the graph the session started from
    bool m_listingDevices = false;
    std::shared_ptr<const RuntimeDevices> m_devices;
};

} // namespace fxs
