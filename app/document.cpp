#include "document.h"

#include "logging.h"
#include "ranks_profile.h"

#include "io/fxscope_json.h"
#include "io/loader.h"
#include "ir/graph.h"
#include "match/matcher.h"
#include "match/near_miss.h"
#include "match/torch_check.h"
#include "patterns/builtin_patterns.h"
#include "patterns/host/torch_host_engine.h"
#include "patterns/op_schema_table.h"
#include "patterns/pattern_file.h"
#include "patterns/pattern_registry.h"
#include "patterns/torchair_builtins.h"
#include "rewrite/graph_diff.h"
#include "rewrite/session.h"
#include "runtime/collective_ops.h"
#include "runtime/rank_profile.h"
#include "runtime/runtime_library.h"
#include "step_command.h"
#include "util/install_layout.h"
#include "util/progress.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

// Q_INIT_RESOURCE must be used outside any namespace. The resources sit in a static archive, so
// without this reference the linker would leave them out.
static void initBundledResources()
{
    Q_INIT_RESOURCE(fxscope);
}

namespace fxs {

// What a load job hands back to the UI thread: an immutable file or an error text, never both.
struct Document::Outcome {
    std::shared_ptr<const GraphFile> file;
    QString error;
    qint64 milliseconds = 0;
};

struct Document::LoadJob {
    std::atomic<bool> cancel{false};
    std::atomic<int> permille{0};
};

// A pattern file's patterns, loaded into a registry of their own; merged into the Document's on the UI thread.
struct Document::PatternOutcome {
    std::shared_ptr<const PatternRegistry> registry;
    QString error;
    QString sandboxWhy; // set when the torch host could not start and the sandbox loaded the file instead
};

struct Document::MatchOutcome {
    std::shared_ptr<const MatchReport> report;
    std::shared_ptr<const Graph> graph;
    QString error;
    bool canceled = false;
    qint64 milliseconds = 0;
};

// What torch's check hands back: the comparison, or why there is none.
struct Document::TorchOutcome {
    std::shared_ptr<const TorchComparison> comparison;
    QString error;
    bool canceled = false;
};

// A stepping request, run on the session by a worker.
struct Document::StepOp {
    enum Kind { Step, StepOver, RunToEnd, GoTo, Bisect, Diff };
    StepOp(Kind k = Step) : kind(k) { }
    Kind kind;
    QString pattern; // StepOver
    size_t count = 0; // GoTo: the revision; Bisect: the steps; Diff: the revision to compare from
    size_t to = 0; // Diff: the revision to compare to
    quint64 id = 0;
};

// The session and what it starts from; created by the first request's worker (cloning a big graph is not for the
// UI thread) and then used by one worker at a time.
struct Document::SessionHolder {
    std::shared_ptr<const Graph> base;
    std::shared_ptr<const PatternRegistry> registry;
    std::unique_ptr<Session> session;
};

// Each rank's progress: written by the launcher's watch loop, taken by the UI thread's poll.
struct Document::RankPoll {
    std::mutex mutex;
    std::vector<RankProgress> ranks;
    bool fresh = false;
};

struct Document::StepOutcome {
    std::shared_ptr<const Graph> graph; // the session's graph after the request, copied
    std::vector<ReplayStep> steps; // the session's history, for other ranks' graphs
    std::shared_ptr<const MatchReport> report; // its report; nullptr when more requests wait
    std::shared_ptr<const GraphDiff> diff; // from the graph shown before
    std::vector<QString> history; // every step of the session, as the undo stack shows it
    int revision = 0;
    QString description;
    QString error;
    bool isDiff = false; // a Diff request: only `diff` (between the revisions asked for) and `error` are set
    int diffFrom = 0, diffTo = 0;
};

namespace {

QString stepText(const SessionStep &step, size_t number)
{
    const QString what = step.kind == "pattern"
        ? QStringLiteral("%1 @ %2").arg(QString::fromStdString(step.name), QString::fromStdString(step.anchor))
        : Document::tr("pass %1").arg(QString::fromStdString(step.name));
    return QStringLiteral("%1. %2  (%3 → %4 nodes)").arg(number).arg(what).arg(step.nodesBefore).arg(step.nodesAfter);
}

Result<GraphFile> loadPath(const QString &path)
{
    if (!path.startsWith(QLatin1String(":/")))
        return loadGraphFile(path.toStdString());
    QFile resource(path);
    if (!resource.open(QIODevice::ReadOnly))
        return Error{path.toStdString(), 0, 0, "no such embedded resource"};
    const QByteArray bytes = resource.readAll();
    return loadGraphBytes(std::string_view(bytes.constData(), size_t(bytes.size())), path.toStdString());
}

} // namespace

Document::Document(QObject *parent)
    : QObject(parent), m_progressPoll(new QTimer(this)), m_matchPoll(new QTimer(this)),
      m_undoStack(new QUndoStack(this)), m_profilePoll(new QTimer(this))
{
    initBundledResources();
    // The worker only writes an atomic; the UI thread polls it, so no signal ever outlives the Document.
    m_progressPoll->setInterval(100);
    connect(m_progressPoll, &QTimer::timeout, this, [this] {
        if (m_job)
            Q_EMIT loadProgress(m_job->permille.load());
    });
    m_matchPoll->setInterval(100);
    connect(m_matchPoll, &QTimer::timeout, this, [this] {
        if (m_matchJob)
            Q_EMIT matchProgress(m_matchJob->permille.load());
    });
    m_profilePoll->setInterval(100);
    connect(m_profilePoll, &QTimer::timeout, this, [this] {
        if (m_profileJob)
            Q_EMIT profileProgress(m_profileJob->permille.load());
        if (m_profileJob && m_rankPoll) {
            std::vector<RankProgress> ranks;
            {
                std::lock_guard<std::mutex> lock(m_rankPoll->mutex);
                if (!m_rankPoll->fresh)
                    return;
                ranks = m_rankPoll->ranks;
                m_rankPoll->fresh = false;
            }
            Q_EMIT ranksProgress(ranks);
        }
    });
    resetPatterns();
    // Every graph shown gets its candidates; the match follows the graph, never the other way round.
    connect(this, &Document::currentGraphChanged, this, [this] {
        cancelProfile(); // its graph is no longer the one shown
        resetSession(false);
        rematch();
    });
    // New patterns start a new session from the revision shown: the steps so far are kept, their undo is not.
    connect(this, &Document::patternsChanged, this, [this] { resetSession(true); });
}

Document::~Document()
{
    // A profile still running stops inside LibTorch instead of running on after the window closed.
    if (m_profileJob)
        m_profileJob->cancel = true;
    if (m_torchJob)
        m_torchJob->cancel = true; // its worker kills the Python
}

QString Document::bundledSamplePath()
{
    return QStringLiteral(":/samples/llama_block.py");
}

quint64 Document::openBundledSample()
{
    return open(bundledSamplePath());
}

quint64 Document::open(const QString &path, const QString &graph)
{
    const bool wasLoading = isLoading();
    const quint64 job = ++m_lastJob;
    m_currentJob = job;
    m_loadingPath = path;
    m_requestedGraph = graph;
    uiLogger()->debug("load #{} started: {}", job, path.toStdString());

    // The job owns copies of everything it reads and touches nothing of the Document: a dropped or
    // orphaned job (cancelled, superseded, or the window closed) runs to its end harmlessly. Parser
    // errors come back as values; an exception (out of memory) is turned into one here, so nothing
    // is ever thrown across the event loop.
    if (m_job)
        m_job->cancel = true; // the superseded job stops at its next progress report
    cancelProfile(); // the user moved on to another file
    auto loadJob = std::make_shared<LoadJob>();
    m_job = loadJob;
    m_progressPoll->start();
    auto future = QtConcurrent::run([path, loadJob]() -> Outcome {
        Outcome outcome;
        QElapsedTimer timer;
        timer.start();
        try {
            ProgressScope progress([loadJob](double fraction) {
                loadJob->permille = int(fraction * 1000);
                return !loadJob->cancel.load();
            });
            auto result = loadPath(path);
            if (result.ok()) {
                if (result->graphs.empty())
                    outcome.error = path + QLatin1String(": no graph found in the file");
                else
                    outcome.file = std::make_shared<const GraphFile>(std::move(result).value());
            } else {
                outcome.error = QString::fromStdString(result.error().toString());
            }
        } catch (const std::exception &e) {
            outcome.error = path + QLatin1String(": ") + QString::fromLocal8Bit(e.what());
        } catch (...) {
            outcome.error = path + QLatin1String(": unexpected failure while loading");
        }
        outcome.milliseconds = timer.elapsed();
        return outcome;
    });

    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        finishLoad(job, watcher->result());
    });
    watcher->setFuture(future);

    Q_EMIT loadStarted(path);
    if (!wasLoading)
        Q_EMIT loadingChanged(true);
    return job;
}

void Document::cancelLoad()
{
    if (!isLoading())
        return;
    uiLogger()->info("load #{} cancelled: {}", m_currentJob, m_loadingPath.toStdString());
    const QString path = m_loadingPath;
    m_currentJob = 0;
    m_loadingPath.clear();
    m_job->cancel = true;
    m_job.reset();
    m_progressPoll->stop();
    Q_EMIT loadCanceled(path);
    Q_EMIT loadingChanged(false);
}

void Document::finishLoad(quint64 job, const Outcome &outcome)
{
    if (job != m_currentJob) {
        uiLogger()->debug("load #{} finished after being superseded or cancelled; result dropped", job);
        return;
    }
    const QString path = m_loadingPath;
    m_currentJob = 0;
    m_loadingPath.clear();
    m_job.reset();
    m_progressPoll->stop();

    if (!outcome.file) {
        uiLogger()->warn("load failed: {}", outcome.error.toStdString());
        Q_EMIT loadFailed(path, outcome.error);
        Q_EMIT loadingChanged(false);
        return;
    }

    m_file = outcome.file;
    m_loadMilliseconds = outcome.milliseconds;
    int index = 0;
    QString notFound;
    if (!m_requestedGraph.isEmpty()) {
        if (const NamedGraph *g = m_file->find(m_requestedGraph.toStdString())) {
            index = int(g - m_file->graphs.data());
        } else {
            QStringList names;
            for (size_t i = 0; i < m_file->graphs.size(); ++i)
                names << QStringLiteral("%1 %2").arg(i).arg(QString::fromStdString(m_file->graphs[i].name));
            notFound = tr("%1 has no graph '%2'; showing the first. It has: %3")
                           .arg(path, m_requestedGraph, names.join(QLatin1String(", ")));
        }
    }
    m_currentGraph = index;
    uiLogger()->info("loaded {} as {}: {} graph(s), {} warning(s), {} ms", path.toStdString(), m_file->format,
        m_file->graphs.size(), m_file->warnings.size(), outcome.milliseconds);
    for (const auto &w : m_file->warnings)
        uiLogger()->warn("{}", w.toString());

    Q_EMIT fileLoaded(path);
    Q_EMIT currentGraphChanged(m_currentGraph);
    if (!notFound.isEmpty())
        Q_EMIT graphNotFound(notFound);
    Q_EMIT loadingChanged(false);
}

QString Document::path() const
{
    return m_file ? QString::fromStdString(m_file->path) : QString();
}

bool Document::isBundledSample() const
{
    return m_file && path() == bundledSamplePath();
}

int Document::graphCount() const
{
    return m_file ? int(m_file->graphs.size()) : 0;
}

void Document::setCurrentGraphIndex(int index)
{
    if (index == m_currentGraph || index < 0 || index >= graphCount())
        return;
    m_currentGraph = index;
    Q_EMIT currentGraphChanged(index);
}

const NamedGraph *Document::currentGraph() const
{
    if (!m_file || m_currentGraph < 0 || size_t(m_currentGraph) >= m_file->graphs.size())
        return nullptr;
    return &m_file->graphs[size_t(m_currentGraph)];
}

std::shared_ptr<const Graph> Document::currentGraphShared() const
{
    if (m_revisionGraph)
        return m_revisionGraph;
    const NamedGraph *g = currentGraph();
    if (!g || !g->graph)
        return nullptr;
    // Aliasing constructor: shares ownership of the whole file, points at one of its graphs.
    return std::shared_ptr<const Graph>(m_file, g->graph.get());
}

void Document::resetPatterns()
{
    // The built-ins are a few small search graphs traced from text: cheap enough for the UI thread.
    auto registry = std::make_shared<PatternRegistry>();
    if (auto status = registerBuiltinPatterns(*registry); !status)
        uiLogger()->error("built-in patterns: {}", status.error().toString());
    m_builtinPatternCount = registry->entries().size();
    m_builtinsChosen = false;
    m_patterns = std::move(registry);
    m_patternFiles.clear();
    m_patternResetJob = m_lastPatternJob; // pattern files still loading belong to the old registry
    Q_EMIT patternsChanged();
    if (currentGraph())
        rematch();
}

namespace {

bool isPythonSource(const QString &path)
{
    if (path.endsWith(QLatin1String(".py")) || path.startsWith(QLatin1String("inductor:")))
        return true;
    return path.contains(QLatin1Char(':')) && !QFileInfo::exists(path) && !path.startsWith(QLatin1String("builtin"));
}

} // namespace

QString Document::patternEngine() const
{
    if (m_torchHost) {
        const Json hello = m_torchHost->host().hello();
        return hello.isNull() ? tr("torch (the torch host is starting)")
                              : tr("torch %1 (torch host, %2)")
                                    .arg(QString::fromStdString(hello["torch_version"].toString()),
                                        QString::fromStdString(hello["python"].toString()));
    }
    return m_sandboxWhy.isEmpty() ? tr("torch (when a Python source is opened)") : tr("sandbox: %1").arg(m_sandboxWhy);
}

quint64 Document::openPatterns(const QString &path)
{
    const quint64 job = ++m_lastPatternJob;
    uiLogger()->debug("pattern load #{} started: {}", job, path.toStdString());
    if (path == QLatin1String("builtin"))
        m_builtinsChosen = true;
    std::shared_ptr<TorchHostEngine> host;
    if (isPythonSource(path) && m_sandboxWhy.isEmpty()) {
        if (!m_torchHost) {
            const std::string python = defaultPython();
            if (qEnvironmentVariable("FXSCOPE_ENGINE") == QLatin1String("sandbox")) {
                m_sandboxWhy = tr("FXSCOPE_ENGINE=sandbox");
            } else if (python.empty()) {
                m_sandboxWhy = tr("no Python with torch (set FXSCOPE_PYTHON)");
            } else {
                TorchHostSettings settings;
                settings.python = python;
                settings.packageDir = pythonPackageDirectory();
                m_torchHost = TorchHostEngine::create(std::move(settings)); // starts torch in the background
                uiLogger()->info("pattern sources run as your own Python code, in {} with its torch (the torch "
                                 "host); FXSCOPE_ENGINE=sandbox runs files you do not trust in fxscope's sandbox",
                    python);
            }
        }
        host = m_torchHost;
    }
    auto future = QtConcurrent::run([path, host]() -> PatternOutcome {
        PatternOutcome outcome;
        try {
            auto registry = std::make_shared<PatternRegistry>();
            Status status = Ok{};
            if (path == QLatin1String("builtin")) {
                status = registerBuiltinPatterns(*registry);
            } else if (host) {
                status = host->load({path.toStdString()}, *registry);
                if (!status && host->host().hello().isNull()) { // this Python cannot run the host: no torch
                    outcome.sandboxWhy = QString::fromStdString("the torch host did not start: "
                        + status.error().message.substr(0, 300));
                    registry = std::make_shared<PatternRegistry>();
                    status = loadPatternFile(path.toStdString(), *registry);
                }
            } else {
                status = loadPatternSpec(path.toStdString(), *registry);
            }
            if (status)
                outcome.registry = std::move(registry);
            else
                outcome.error = QString::fromStdString(status.error().toString());
        } catch (const std::exception &e) {
            outcome.error = path + QLatin1String(": ") + QString::fromLocal8Bit(e.what());
        }
        return outcome;
    });
    auto *watcher = new QFutureWatcher<PatternOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, path] {
        watcher->deleteLater();
        finishPatterns(job, path, watcher->result());
    });
    watcher->setFuture(future);
    return job;
}

void Document::finishPatterns(quint64 job, const QString &path, const PatternOutcome &outcome)
{
    if (job <= m_patternResetJob)
        return; // the registry was reset after this file was asked for
    if (!outcome.sandboxWhy.isEmpty() && m_sandboxWhy.isEmpty()) {
        m_sandboxWhy = outcome.sandboxWhy;
        m_torchHost.reset();
        uiLogger()->warn("{}; fxscope's sandbox runs the pattern files instead", m_sandboxWhy.toStdString());
    }
    if (!outcome.registry) {
        uiLogger()->warn("patterns failed: {}", outcome.error.toStdString());
        Q_EMIT patternsFailed(path, outcome.error);
        return;
    }
    // Merged here, on the UI thread, into a copy: loads finishing in any order all land, and a running match
    // keeps the registry it started with. Names may repeat (two files' `search`); the report tells them
    // apart by source, as the CLI does. The built-ins shown while nothing was loaded leave when a chosen source
    // arrives, unless they were chosen too: torch's pass holds exactly what the user registered.
    const bool dropBuiltins = !m_builtinsChosen && m_builtinPatternCount > 0 && path != QLatin1String("builtin");
    auto merged = std::make_shared<PatternRegistry>();
    if (path == QLatin1String("builtin")) {
        if (m_builtinPatternCount > 0) { // shown already: nothing to add
            m_patternFiles << path;
            Q_EMIT patternsChanged();
            return;
        }
        m_builtinPatternCount = outcome.registry->entries().size(); // first, as they stand in the CLI's order
        auto first = std::make_shared<PatternRegistry>(*outcome.registry);
        for (const auto &entry : m_patterns->entries())
            if (auto status = first->add(entry); !status) {
                Q_EMIT patternsFailed(path, QString::fromStdString(status.error().toString()));
                return;
            }
        m_patterns = std::move(first);
        m_patternFiles << path;
        Q_EMIT patternsChanged();
        if (currentGraph())
            rematch();
        return;
    }
    for (size_t i = dropBuiltins ? m_builtinPatternCount : 0; i < m_patterns->entries().size(); ++i)
        if (auto status = merged->add(m_patterns->entries()[i]); !status) {
            Q_EMIT patternsFailed(path, QString::fromStdString(status.error().toString()));
            return;
        }
    for (const std::string &warning : m_patterns->warnings())
        merged->addWarning(warning);
    if (dropBuiltins)
        m_builtinPatternCount = 0;
    for (const auto &entry : outcome.registry->entries()) {
        if (auto status = merged->add(entry); !status) {
            Q_EMIT patternsFailed(path, QString::fromStdString(status.error().toString()));
            return;
        }
    }
    for (const std::string &warning : outcome.registry->warnings()) // the file's own: the match report carries them
        merged->addWarning(warning);
    // TorchAir's own built-ins stay after every file's patterns, as TorchAir registers them.
    auto arranged = TorchairBuiltins::arrange(*merged);
    if (!arranged) {
        Q_EMIT patternsFailed(path, QString::fromStdString(arranged.error().toString()));
        return;
    }
    merged = std::move(arranged.value());
    uiLogger()->info("added {} pattern(s) from {}", outcome.registry->entries().size(), path.toStdString());
    m_patterns = std::move(merged);
    m_patternFiles << path;
    Q_EMIT patternsChanged();
    if (currentGraph())
        rematch();
}

quint64 Document::rematch()
{
    if (m_matchJob)
        m_matchJob->cancel = true;
    const quint64 job = ++m_lastMatch;
    std::shared_ptr<const Graph> graph = currentGraphShared();
    if (!graph) {
        m_currentMatch = 0;
        m_matchJob.reset();
        m_matchPoll->stop();
        m_report.reset();
        m_reportGraph.reset();
        cancelTorchCheck();
        Q_EMIT matchReportChanged(nullptr);
        return job;
    }
    m_currentMatch = job;
    auto state = std::make_shared<LoadJob>();
    m_matchJob = state;
    m_matchPoll->start();
    // The job holds the graph (and through it the file) and the registry it started with: both immutable.
    auto future = QtConcurrent::run([graph, registry = m_patterns, state]() -> MatchOutcome {
        MatchOutcome outcome;
        outcome.graph = graph;
        // LibTorch's schemas load here, off the UI thread, once: the inspector's schema lookups then never wait.
        OpSchemaTable::instance().addLibTorchSchemas();
        QElapsedTimer timer;
        timer.start();
        try {
            ProgressScope progress([state](double fraction) {
                state->permille = int(fraction * 1000);
                return !state->cancel.load();
            });
            auto report = Matcher(*registry).run(*graph);
            if (report.ok()) {
                // What would make the rejected patterns match (near_miss.h): bounded per pattern, verified.
                addNearMissHints(report.value(), *registry, *graph);
                outcome.report = std::make_shared<const MatchReport>(std::move(report).value());
            } else {
                outcome.canceled = isCanceled(report.error());
                outcome.error = QString::fromStdString(report.error().toString());
            }
        } catch (const std::exception &e) {
            outcome.error = tr("matching failed: %1").arg(QString::fromLocal8Bit(e.what()));
        }
        outcome.milliseconds = timer.elapsed();
        return outcome;
    });
    auto *watcher = new QFutureWatcher<MatchOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        finishMatch(job, watcher->result());
    });
    watcher->setFuture(future);
    Q_EMIT matchStarted();
    return job;
}

void Document::cancelMatch()
{
    if (!isMatching())
        return;
    uiLogger()->info("match #{} cancelled", m_currentMatch);
    if (m_matchJob)
        m_matchJob->cancel = true; // the matcher stops at its next progress report
    m_matchJob.reset();
    m_currentMatch = 0;
    m_matchPoll->stop();
    Q_EMIT matchCanceled();
}

void Document::finishMatch(quint64 job, const MatchOutcome &outcome)
{
    if (job != m_currentMatch) {
        uiLogger()->debug("match #{} finished after being superseded; report dropped", job);
        return;
    }
    m_currentMatch = 0;
    m_matchJob.reset();
    m_matchPoll->stop();
    if (!outcome.report) {
        if (outcome.canceled)
            return;
        uiLogger()->warn("{}", outcome.error.toStdString());
        m_report.reset();
        m_reportGraph.reset();
        Q_EMIT matchFailed(outcome.error);
        cancelTorchCheck();
        Q_EMIT matchReportChanged(nullptr);
        return;
    }
    m_report = outcome.report;
    m_reportGraph = outcome.graph;
    m_matchMilliseconds = outcome.milliseconds;
    uiLogger()->debug("match #{}: {} pattern(s) in {} ms", job, m_report->patterns.size(), outcome.milliseconds);
    Q_EMIT matchReportChanged(m_report);
    startTorchCheck();
}

QString Document::torchPython()
{
    return QString::fromStdString(defaultPython()); // FXSCOPE_PYTHON, the build's, or python3 (util/install_layout.h)
}

void Document::cancelTorchCheck()
{
    if (m_torchJob)
        m_torchJob->cancel = true;
    m_torchJob.reset();
    m_currentTorch = 0;
}

void Document::startTorchCheck()
{
    cancelTorchCheck();
    const QString python = torchPython();
    if (!m_report || !m_reportGraph || python.isEmpty() || m_patternFiles.isEmpty())
        return;
    QStringList sources; // what torch's pass registers: the Python sources (the built-ins are fxscope's own)
    for (const QString &f : m_patternFiles) {
        if (f == QLatin1String("builtin"))
            continue;
        if (!isPythonSource(f) || f.startsWith(QLatin1Char(':')))
            return; // torch registers Python sources (register_replacement), from disk
        sources << f;
    }
    if (sources.isEmpty())
        return;
    // torch's pass registers the pattern files alone: fxscope matches them alone too, for a like comparison.
    auto alone = std::make_shared<PatternRegistry>();
    for (size_t i = m_builtinPatternCount; i < m_patterns->entries().size(); ++i)
        if (!alone->add(m_patterns->entries()[i]))
            return;
    const quint64 job = ++m_lastTorch;
    m_currentTorch = job;
    auto state = std::make_shared<LoadJob>();
    m_torchJob = state;
    std::shared_ptr<const MatchReport> report = m_report;
    std::shared_ptr<const Graph> graph = m_reportGraph;
    const NamedGraph *named = currentGraph();
    const std::string name = named ? named->name : std::string("graph");
    const std::string format = m_file ? m_file->format : std::string();
    const QStringList files = sources;
    const size_t first = m_builtinPatternCount;
    uiLogger()->debug("torch check #{}: {} -m fxscope_capture.inductor_check", job, python.toStdString());
    auto future = QtConcurrent::run([=]() -> TorchOutcome {
        TorchOutcome out;
        QTemporaryDir dir;
        if (!dir.isValid()) {
            out.error = tr("cannot make a temporary folder for the graph: %1").arg(dir.errorString());
            return out;
        }
        const QString graphPath = dir.filePath(QStringLiteral("graph.json"));
        {
            GraphFile file;
            file.format = format;
            NamedGraph g;
            g.name = name;
            g.graph = graph->clone();
            file.graphs.push_back(std::move(g));
            QFile f(graphPath);
            if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(writeFxscopeJson(file))) < 0) {
                out.error = tr("cannot write %1: %2").arg(graphPath, f.errorString());
                return out;
            }
        }
        QProcess proc;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (const QString pkg = QString::fromStdString(pythonPackageDirectory()); !pkg.isEmpty()) {
            const QString old = env.value(QStringLiteral("PYTHONPATH"));
            env.insert(QStringLiteral("PYTHONPATH"), old.isEmpty() ? pkg : pkg + QLatin1Char(':') + old);
        }
        proc.setProcessEnvironment(env);
        QStringList args = {QStringLiteral("-m"), QStringLiteral("fxscope_capture.inductor_check"), graphPath,
            QStringLiteral("--graph"), QStringLiteral("0"), QStringLiteral("--no-run"), QStringLiteral("--json"),
            QStringLiteral("--patterns")};
        args << files;
        proc.start(python, args);
        if (!proc.waitForStarted(30000)) {
            out.error = tr("cannot run %1: %2").arg(python, proc.errorString());
            return out;
        }
        while (proc.state() != QProcess::NotRunning) {
            if (state->cancel) {
                proc.kill();
                proc.waitForFinished(5000);
                out.canceled = true;
                return out;
            }
            proc.waitForFinished(100);
        }
        const QString err = QString::fromLocal8Bit(proc.readAllStandardError()).trimmed();
        if (proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0) {
            // The first line says why: the last line of a Python traceback is the exception.
            const QString last = err.section(QLatin1Char('\n'), -1).trimmed();
            out.error = tr("%1 -m fxscope_capture.inductor_check failed (exit status %2)%3\n%4")
                            .arg(python)
                            .arg(proc.exitCode())
                            .arg(last.isEmpty() ? QString() : QStringLiteral(": ") + last, err.right(4000));
            return out;
        }
        const QByteArray output = proc.readAllStandardOutput();
        auto parsed = Json::parse(std::string_view(output.constData(), size_t(output.size())), "inductor_check output");
        if (!parsed) {
            out.error = tr("cannot read inductor_check's JSON: %1")
                            .arg(QString::fromStdString(parsed.error().toString()));
            return out;
        }
        auto aloneReport = Matcher(*alone).run(*graph);
        if (!aloneReport) {
            out.error = tr("matching the pattern files alone failed: %1")
                            .arg(QString::fromStdString(aloneReport.error().toString()));
            return out;
        }
        out.comparison = std::make_shared<const TorchComparison>(
            compareReportWithTorch(*report, first, aloneReport.value(), parsed.value()));
        return out;
    });
    auto *watcher = new QFutureWatcher<TorchOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, report] {
        watcher->deleteLater();
        const TorchOutcome outcome = watcher->result();
        if (job != m_currentTorch || outcome.canceled)
            return; // a newer report's check replaced it
        m_currentTorch = 0;
        m_torchJob.reset();
        if (!outcome.comparison) {
            uiLogger()->warn("torch check: {}", outcome.error.toStdString());
            Q_EMIT torchCheckFailed(report, outcome.error);
            return;
        }
        uiLogger()->info("torch {} checked the match: {}", outcome.comparison->torchVersion,
            outcome.comparison->disagreements.empty()
                ? std::string("agrees on every candidate")
                : std::to_string(outcome.comparison->disagreements.size()) + " disagreement(s)");
        for (const std::string &d : outcome.comparison->disagreements)
            uiLogger()->warn("torch disagrees: {}", d);
        Q_EMIT torchCheckFinished(report, outcome.comparison);
    });
    watcher->setFuture(future);
    Q_EMIT torchCheckStarted(report);
}

quint64 Document::checkNumerics(const QString &device)
{
    if (m_numericsJob)
        m_numericsJob->cancel = true;
    m_numericsJob.reset();
    const quint64 job = ++m_lastNumerics;
    if (!m_report || !m_reportGraph)
        return job;
    auto state = std::make_shared<LoadJob>();
    m_numericsJob = state;
    std::shared_ptr<const MatchReport> report = m_report;
    std::shared_ptr<const Graph> graph = m_reportGraph;
    std::shared_ptr<const PatternRegistry> registry = m_patterns;
    ProfileOptions options;
    options.device = device.toStdString();
    options.progress = [state](double) { return !state->cancel; }; // a newer check stops this one's runs
    // Fusions into ops the pattern files define with torch.library run in the torch host, which has them.
    const PythonNumerics python = m_torchHost ? m_torchHost->numericsRunner() : PythonNumerics{};
    auto future = QtConcurrent::run([=]() {
        // The accepted fusions as the sweep applies them, and each candidate an extra_check refused, fused alone as
        // if the check had accepted: does the check keep a wrong fusion out, or a right one?
        CandidateNumerics numerics = candidateNumerics(*registry, *graph, {}, options, python);
        numerics.merge(refusedCandidatesNumerics(*report, *registry, *graph, options, python));
        return std::make_shared<const CandidateNumerics>(std::move(numerics));
    });
    auto *watcher = new QFutureWatcher<std::shared_ptr<const CandidateNumerics>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, state, report] {
        watcher->deleteLater();
        if (state != m_numericsJob || report != m_report)
            return; // replaced by a newer check or report
        m_numericsJob.reset();
        auto numerics = watcher->result();
        for (const auto &kv : *numerics)
            if (!kv.second.ifAccepted) // a refused candidate is no step: nothing of the history to mark
                m_numericsSeen[kv.first] = kv.second;
        const NumericsTally t = tallyNumerics(*numerics);
        uiLogger()->info("numerics: {} fusion(s) checked, {} differ; {} refused by their extra_check, fused as if "
                         "accepted, {} of them differ", t.fused, t.differ, t.refused, t.refusedDiffer);
        if (!isStepping()) // a step running re-syncs when it ends
            syncUndoStack(markedHistory(), m_undoStack->index());
        Q_EMIT numericsFinished(report, std::move(numerics));
    });
    watcher->setFuture(future);
    Q_EMIT numericsStarted(report);
    return job;
}

void Document::resetSession(bool keepRevision)
{
    m_session.reset();
    m_stepQueue.clear();
    const bool wasStepping = isStepping();
    m_stepRunning = 0; // a running request's result is dropped
    if (!keepRevision)
        m_revisionGraph.reset();
    // The next session starts from the revision shown: what made it is replayed before its own steps.
    if (keepRevision && m_revisionGraph)
        m_replayBase.insert(m_replayBase.end(), m_steps.begin(),
            m_steps.begin() + std::min(m_steps.size(), size_t(std::max(0, m_revision))));
    else
        m_replayBase.clear();
    m_steps.clear();
    m_historyTexts.clear();
    if (!keepRevision)
        m_numericsSeen.clear(); // another graph or other patterns: the anchors name other fusions
    m_lastDiff.reset();
    m_revision = 0;
    m_syncingStack = true;
    m_undoStack->clear();
    m_syncingStack = false;
    if (wasStepping)
        Q_EMIT steppingChanged(false);
}

quint64 Document::step()
{
    return enqueue({StepOp::Step});
}

quint64 Document::stepOver(const QString &pattern)
{
    StepOp op{StepOp::StepOver};
    op.pattern = pattern;
    return enqueue(std::move(op));
}

quint64 Document::runToEnd()
{
    return enqueue({StepOp::RunToEnd});
}

void Document::undo()
{
    m_undoStack->undo();
}

void Document::redo()
{
    m_undoStack->redo();
}

void Document::reset()
{
    m_undoStack->setIndex(0);
}

quint64 Document::bisect(int steps)
{
    StepOp op{StepOp::Bisect};
    op.count = size_t(std::max(0, steps));
    return enqueue(std::move(op));
}

quint64 Document::goToRevision(int revision)
{
    // Undo and redo come in bursts (setIndex, a held key): only where the last one goes matters.
    if (!m_stepQueue.empty() && m_stepQueue.back().kind == StepOp::GoTo) {
        m_stepQueue.back().count = size_t(std::max(0, revision));
        return m_stepQueue.back().id;
    }
    StepOp op{StepOp::GoTo};
    op.count = size_t(std::max(0, revision));
    return enqueue(std::move(op));
}

quint64 Document::diffRevisions(int from, int to)
{
    StepOp op{StepOp::Diff};
    op.count = size_t(std::max(0, from));
    op.to = size_t(std::max(0, to));
    return enqueue(std::move(op));
}

QStringList Document::historyTexts() const
{
    QStringList texts;
    for (int i = 0; i < m_undoStack->count(); ++i)
        texts << m_undoStack->text(i);
    return texts;
}

quint64 Document::enqueue(StepOp op)
{
    if (!currentGraph())
        return 0;
    op.id = ++m_lastStep;
    const quint64 id = op.id;
    m_stepQueue.push_back(std::move(op));
    if (!isStepping())
        startNextStep();
    return id;
}

void Document::startNextStep()
{
    if (m_stepQueue.empty())
        return;
    StepOp op = std::move(m_stepQueue.front());
    m_stepQueue.pop_front();
    if (!m_session) {
        m_session = std::make_shared<SessionHolder>();
        m_session->base = currentGraphShared();
        m_session->registry = m_patterns;
    }
    const bool wasStepping = isStepping();
    m_stepRunning = op.id;
    // The report is what the next step matches against anyway; only the last request moving the session needs it.
    bool wantReport = true;
    for (const StepOp &waiting : m_stepQueue)
        wantReport &= waiting.kind == StepOp::Diff;
    auto future = QtConcurrent::run([holder = m_session, shown = currentGraphShared(), op, wantReport]() {
        StepOutcome out;
        try {
            if (!holder->session)
                holder->session = std::make_unique<Session>(holder->base->clone(), holder->registry);
            Session &session = *holder->session;
            if (op.kind == StepOp::Diff) {
                out.isDiff = true;
                out.diffFrom = int(op.count);
                out.diffTo = int(op.to);
                auto from = session.graphAt(op.count);
                auto to = from ? session.graphAt(op.to) : Result<std::unique_ptr<Graph>>(from.error());
                if (!to)
                    out.error = QString::fromStdString(to.error().toString());
                else
                    out.diff = std::make_shared<const GraphDiff>(diffGraphs(*from.value(), *to.value()));
                return out;
            }
            const size_t before = session.revision();
            Status status = Ok{};
            switch (op.kind) {
            case StepOp::Step: {
                auto r = session.step();
                if (!r)
                    status = r.error();
                else if (!r.value())
                    out.error = tr("Nothing left to fuse: no pattern accepts a candidate");
                break;
            }
            case StepOp::StepOver: {
                auto r = session.stepOver(op.pattern.toStdString());
                if (!r)
                    status = r.error();
                else if (r.value() == 0)
                    out.error = tr("%1 has no accepted candidate").arg(op.pattern);
                break;
            }
            case StepOp::RunToEnd: {
                auto r = session.runToEnd();
                if (!r)
                    status = r.error();
                break;
            }
            case StepOp::GoTo: status = session.goTo(std::min(op.count, session.history().size())); break;
            case StepOp::Bisect: {
                auto r = session.bisect(op.count);
                if (!r)
                    status = r.error();
                break;
            }
            case StepOp::Diff: break; // answered above
            }
            if (!status)
                out.error = QString::fromStdString(status.error().toString());
            const size_t after = session.revision();
            const auto &history = session.history();
            for (size_t i = 0; i < history.size(); ++i) {
                out.history.push_back(stepText(history[i], i + 1));
                out.steps.push_back({history[i].kind, history[i].name, history[i].anchor});
            }
            out.revision = int(after);
            if (after == before)
                out.description = tr("Revision %1").arg(after);
            else if (after == before + 1 && op.kind != StepOp::GoTo)
                out.description = tr("Step %1").arg(out.history[before]);
            else if (after < before)
                out.description = tr("Back to revision %1 of %2").arg(after).arg(history.size());
            else
                out.description
                    = tr("Revision %1 of %2 (%3 step(s) on)").arg(after).arg(history.size()).arg(after - before);
            out.graph = session.graph().clone();
            out.diff = std::make_shared<const GraphDiff>(diffGraphs(*shown, *out.graph));
            if (wantReport) {
                auto report = session.report();
                if (report)
                    out.report = std::make_shared<const MatchReport>(*report.value());
            }
        } catch (const std::exception &e) {
            out.error = tr("stepping failed: %1").arg(QString::fromLocal8Bit(e.what()));
        }
        return out;
    });
    auto *watcher = new QFutureWatcher<StepOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job = op.id] {
        watcher->deleteLater();
        finishStep(job, watcher->result());
    });
    watcher->setFuture(future);
    if (!wasStepping)
        Q_EMIT steppingChanged(true);
}

void Document::finishStep(quint64 job, const StepOutcome &outcome)
{
    if (job != m_stepRunning) {
        uiLogger()->debug("step #{} finished after the session was reset; dropped", job);
        return;
    }
    m_stepRunning = 0;
    if (outcome.isDiff) {
        if (outcome.diff)
            Q_EMIT revisionDiffReady(outcome.diffFrom, outcome.diffTo, outcome.diff);
        else
            Q_EMIT stepFailed(outcome.error);
    } else if (!outcome.graph) {
        Q_EMIT stepFailed(outcome.error);
    } else {
        m_steps = outcome.steps;
        m_historyTexts = outcome.history;
        syncUndoStack(markedHistory(), outcome.revision);
        m_revision = outcome.revision;
        m_revisionGraph = outcome.graph;
        m_lastDiff = outcome.diff;
        uiLogger()->info("{}: {} nodes", outcome.description.toStdString(), outcome.graph->size());
        Q_EMIT revisionChanged(outcome.graph, outcome.description, outcome.diff);
        if (outcome.report) {
            // The session's report replaces any match still running for an older revision.
            if (m_matchJob)
                m_matchJob->cancel = true;
            m_matchJob.reset();
            m_currentMatch = 0;
            m_matchPoll->stop();
            m_report = outcome.report;
            m_reportGraph = outcome.graph;
            Q_EMIT matchReportChanged(m_report);
            startTorchCheck();
        }
        if (!outcome.error.isEmpty())
            Q_EMIT stepFailed(outcome.error);
    }
    if (isStepping())
        return; // a slot connected above queued a request, and it started
    if (!m_stepQueue.empty())
        startNextStep();
    else
        Q_EMIT steppingChanged(false);
}

quint64 Document::profile(const QString &device, int iters, int warmup, const SymbolValues &symbols)
{
    const NamedGraph *loaded = currentGraph();
    if (!loaded || !loaded->graph)
        return 0;
    // Collectives need a process group: such a graph runs as the one rank of a group, in a worker process.
    if (collectiveUse(*loaded->graph).nodes > 0) {
        RankRunRequest one;
        one.ranks = 1;
        return profileRanks(device, iters, warmup, symbols, one);
    }
    // One run at a time: a run still going is stopped and its result dropped.
    if (m_profileJob)
        m_profileJob->cancel = true;
    const quint64 job = ++m_lastProfile;
    auto state = std::make_shared<LoadJob>();
    m_profileJob = state;
    m_rankPoll.reset(); // one process: no ranks to report
    // Both graphs are immutable and kept alive by the job: the file's graph and the session's revision copy.
    std::shared_ptr<const Graph> unfused(m_file, loaded->graph.get());
    std::shared_ptr<const Graph> fused = m_revisionGraph && m_revision > 0 ? m_revisionGraph : nullptr;
    ProfileOptions options;
    options.device = device.toStdString();
    options.iters = std::max(1, iters);
    options.warmup = std::max(0, warmup);
    options.symbols = symbols;
    options.sourceFile = m_file->path;
    // The runtime calls this from the worker every few hundred nodes: it publishes the fraction done (the UI
    // polls it) and stops LibTorch once Cancel, another file or the window's end set the flag.
    options.progress = [state](double fraction) {
        state->permille = int(fraction * 1000);
        return !state->cancel.load();
    };
    struct Outcome {
        std::shared_ptr<const ProfileReport> report;
        std::shared_ptr<const ProfileReport> partial; // a failed run: what ran before the failing node
        QString error;
        bool canceled = false;
    };
    auto future = QtConcurrent::run([unfused, fused, options]() -> Outcome {
        Outcome out;
        try {
            ProfileReport partial;
            auto report = runtimeProfile(*unfused, fused.get(), options, &partial);
            if (!report) {
                out.canceled = isCanceled(report.error());
                out.error = QString::fromStdString(report.error().toString());
                if (!partial.unfused.failedNode.empty() || (partial.fused && !partial.fused->failedNode.empty()))
                    out.partial = std::make_shared<const ProfileReport>(std::move(partial));
                return out;
            }
            out.report = std::make_shared<const ProfileReport>(std::move(report).value());
        } catch (const std::exception &e) {
            out.error = tr("profiling failed: %1").arg(QString::fromLocal8Bit(e.what()));
        }
        return out;
    });
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, state] {
        watcher->deleteLater();
        const Outcome out = watcher->result();
        if (!finishProfileJob(job, state, out.canceled, ""))
            return;
        if (!out.report) {
            uiLogger()->warn("profile failed: {}", out.error.toStdString());
            Q_EMIT profileFailed(out.error, out.partial);
            return;
        }
        uiLogger()->info("profiled on {}: unfused {:.3f} ms{}", out.report->device, out.report->unfused.medianMs,
            out.report->fused
                ? fmt::format(", fused {:.3f} ms, speedup {:.2f}x", out.report->fused->medianMs, out.report->speedup)
                : std::string());
        Q_EMIT profileFinished(out.report);
    });
    watcher->setFuture(future);
    m_profilePoll->start();
    uiLogger()->info("profile #{} started on {} ({} fused graph)", job, options.device, fused ? "with a" : "without a");
    Q_EMIT profileStarted(fused != nullptr);
    return job;
}

quint64 Document::profileRanks(const QString &device, int iters, int warmup, const SymbolValues &symbols,
    const RankRunRequest &request)
{
    const NamedGraph *loaded = currentGraph();
    if (!loaded || !loaded->graph)
        return 0;
    if (m_profileJob)
        m_profileJob->cancel = true;
    const quint64 job = ++m_lastProfile;
    auto state = std::make_shared<LoadJob>();
    m_profileJob = state;
    auto poll = std::make_shared<RankPoll>();
    m_rankPoll = poll;
    std::shared_ptr<const Graph> unfused(m_file, loaded->graph.get());
    std::shared_ptr<const Graph> fused = m_revisionGraph && m_revision > 0 ? m_revisionGraph : nullptr;
    std::vector<ReplayStep> steps = m_replayBase;
    steps.insert(steps.end(), m_steps.begin(), m_steps.begin() + std::min(m_steps.size(), size_t(m_revision)));
    ProfileOptions options;
    options.device = device.toStdString();
    options.iters = std::max(1, iters);
    options.warmup = std::max(0, warmup);
    options.symbols = symbols;
    options.sourceFile = m_file->path;
    if (m_devices) // the workers load the plugins this process loaded
        options.devicePlugins = m_devices->plugins;
    const int ranks = std::clamp(request.ranks, 1, 64);
    const std::string graphs = request.graphs.trimmed().toStdString();
    const std::string inputs = request.inputs.trimmed().toStdString();
    const std::string expected = request.expected.trimmed().toStdString();
    const std::string graphName = loaded->name;
    const int graphIndex = m_currentGraph;
    const std::string openedPath = m_file->path;
    const auto registry = m_patterns;
    RankLauncher::Options launch;
    launch.timeout = std::chrono::milliseconds(int64_t(std::max(0.1, request.timeoutSeconds) * 1000));
    // Called from the launcher's watch loop: the fraction of the slowest rank, and false once Cancel, another file
    // or the window's end set the flag (the launcher then kills every rank).
    launch.progress = [state](double fraction) {
        state->permille = int(fraction * 1000);
        return !state->cancel.load();
    };
    launch.rankProgress = [poll](const std::vector<RankProgress> &each) {
        std::lock_guard<std::mutex> lock(poll->mutex);
        poll->ranks = each;
        poll->fresh = true;
    };
    struct Outcome {
        std::shared_ptr<const RanksProfile> profile;
        QString error;
        bool canceled = false;
    };
    auto future = QtConcurrent::run([=]() -> Outcome {
        Outcome out;
        RankLauncher::Options launchOptions = launch; // group names are added per rank
        auto fail = [&out](const std::string &message) {
            out.error = QString::fromStdString(message);
            return out;
        };
        try {
            // Kept alive until the launcher returns: the jobs point into them.
            std::vector<std::unique_ptr<GraphFile>> files;
            std::vector<std::unique_ptr<Graph>> fusedCopies;
            std::vector<RankJob> jobs(size_t(ranks), RankJob{});
            const QString opened = QFileInfo(QString::fromStdString(openedPath)).canonicalFilePath();
            for (int r = 0; r < ranks; ++r) {
                const Graph *u = unfused.get();
                const Graph *f = fused.get();
                std::string source = openedPath;
                if (!graphs.empty()) {
                    auto path = rankFilePath(graphs, r);
                    if (!path)
                        return fail(path.error().toString());
                    source = path.value();
                }
                if (source != openedPath && QFileInfo(QString::fromStdString(source)).canonicalFilePath() != opened) {
                    auto file = loadGraphFile(source);
                    if (!file)
                        return fail("rank " + std::to_string(r) + ": " + file.error().toString());
                    files.push_back(std::make_unique<GraphFile>(std::move(file.value())));
                    const GraphFile &gf = *files.back();
                    const NamedGraph *named = gf.find(graphName);
                    if (!named && graphIndex >= 0 && size_t(graphIndex) < gf.graphs.size())
                        named = &gf.graphs[size_t(graphIndex)];
                    if (!named || !named->graph)
                        return fail("rank " + std::to_string(r) + ": " + source + " has no graph '" + graphName + "'");
                    u = named->graph.get();
                    if (fused) {
                        // The steps applied here, again on this rank's shard: the same nodes, the same anchors.
                        Session session(u->clone(), registry);
                        for (size_t i = 0; i < steps.size(); ++i) {
                            const ReplayStep &step = steps[i];
                            const std::string where = "rank " + std::to_string(r) + " (" + source + "): step "
                                + std::to_string(i + 1);
                            if (step.kind != "pattern")
                                return fail(where + " is the pass '" + step.name
                                    + "', which is not replayed on another rank's graph; leave Graphs empty to run "
                                      "the graph shown on every rank");
                            if (auto applied = session.applyCandidate(step.name, step.anchor); !applied)
                                return fail(where + " (" + step.name + " @ " + step.anchor
                                    + ") does not apply: " + applied.error().message);
                        }
                        fusedCopies.push_back(session.graph().clone());
                        f = fusedCopies.back().get();
                    }
                }
                const CollectiveUse use = collectiveUse(*u);
                if (use.groupSize && *use.groupSize != ranks)
                    return fail(source + ": the graph's collectives were captured on "
                        + std::to_string(*use.groupSize) + " ranks (group_size of node '" + use.groupSizeNode
                        + "'); set Ranks to " + std::to_string(*use.groupSize));
                for (const auto &name : use.groupNames)
                    if (std::find(launchOptions.groupNames.begin(), launchOptions.groupNames.end(), name)
                        == launchOptions.groupNames.end())
                        launchOptions.groupNames.push_back(name);
                RankJob &rankJob = jobs[size_t(r)];
                rankJob.unfused = u;
                rankJob.fused = f;
                rankJob.options = options;
                rankJob.options.sourceFile = source;
                rankJob.options.seed = options.seed + uint64_t(r); // generated inputs differ per rank, as shards do
                const std::pair<const std::string *, std::string *> perRank[]
                    = {{&inputs, &rankJob.options.inputsPath}, {&expected, &rankJob.options.expectedOutputsPath}};
                for (const auto &[pattern, into] : perRank) {
                    if (pattern->empty())
                        continue;
                    auto path = rankFilePath(*pattern, r);
                    if (!path)
                        return fail(path.error().toString());
                    *into = path.value();
                }
            }
            auto report = runtimeProfileRanks(jobs, launchOptions);
            if (!report) {
                out.canceled = isCanceled(report.error());
                return fail(report.error().toString());
            }
            auto profile = std::make_shared<RanksProfile>();
            for (ProfileReport &rank : report->ranks)
                profile->ranks.push_back(std::make_shared<const ProfileReport>(std::move(rank)));
            auto over = profileReportFromJson(report->json, openedPath);
            if (!over)
                return fail(over.error().toString());
            // The merged nodes say nothing of reference kernels: rank 0 ran the same ops.
            if (over->fused && !profile->ranks.empty() && profile->ranks.front()->fused)
                for (NodeProfile &n : over->fused->nodes)
                    for (const NodeProfile &m : profile->ranks.front()->fused->nodes)
                        if (m.name == n.name)
                            n.referenceKernel = m.referenceKernel;
            profile->overRanks = std::make_shared<const ProfileReport>(std::move(over).value());
            profile->json = std::move(report->json);
            profile->json.set("graph", graphName);
            profile->json.set("fused_steps", int64_t(fused ? steps.size() : 0));
            out.profile = std::move(profile);
        } catch (const std::exception &e) {
            out.error = tr("profiling on ranks failed: %1").arg(QString::fromLocal8Bit(e.what()));
        }
        return out;
    });
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, state] {
        watcher->deleteLater();
        const Outcome out = watcher->result();
        if (!finishProfileJob(job, state, out.canceled, " on ranks"))
            return;
        if (!out.profile) {
            uiLogger()->warn("profile on ranks failed: {}", out.error.toStdString());
            Q_EMIT profileFailed(out.error, nullptr);
            return;
        }
        const Json &merged = out.profile->json;
        uiLogger()->info("profiled on {} ranks ({}): unfused {:.3f} ms (slowest rank){}", out.profile->ranks.size(),
            merged["backend"].toString(), merged["unfused"]["median_ms"].toDouble(),
            merged["fused"].isObject() ? fmt::format(", fused {:.3f} ms", merged["fused"]["median_ms"].toDouble())
                                       : std::string());
        Q_EMIT ranksProfileFinished(out.profile);
    });
    watcher->setFuture(future);
    m_profilePoll->start();
    uiLogger()->info("profile #{} started on {} ranks on {} ({} fused graph)", job, ranks, options.device,
        fused ? "with a" : "without a");
    Q_EMIT profileStarted(fused != nullptr);
    Q_EMIT ranksProfileStarted(ranks);
    return job;
}

bool Document::finishProfileJob(
    quint64 job, const std::shared_ptr<LoadJob> &state, bool canceled, const char *where)
{
    if (state != m_profileJob) {
        uiLogger()->debug("profile #{}{} ended after being superseded; dropped", job, where);
        return false;
    }
    m_profileJob.reset();
    m_rankPoll.reset();
    m_profilePoll->stop();
    // A run that finished just before it saw the flag was still cancelled by the user (on ranks: every rank killed).
    if (canceled || state->cancel.load()) {
        uiLogger()->info("profile #{}{} stopped", job, where);
        Q_EMIT profileCanceled();
        return false;
    }
    return true;
}

void Document::cancelProfile()
{
    if (!m_profileJob || m_profileJob->cancel.load())
        return;
    uiLogger()->info("profile #{} cancelling", m_lastProfile); // the running one: profile() supersedes
    m_profileJob->cancel = true; // the runtime stops at its next progress report; profileCanceled follows
}

void Document::listDevices(const QStringList &plugins)
{
    if (m_listingDevices) {
        Q_EMIT devicesFailed(tr("The device list is still being read; try again in a moment"));
        return;
    }
    if (!plugins.isEmpty() && isProfiling()) {
        Q_EMIT devicesFailed(tr("Load device plugins when no profile is running"));
        return;
    }
    m_listingDevices = true;
    std::vector<std::string> paths;
    for (const QString &p : plugins)
        paths.push_back(p.toStdString());
    struct Outcome {
        std::shared_ptr<const RuntimeDevices> devices;
        QString error;
    };
    auto future = QtConcurrent::run([paths]() -> Outcome {
        Outcome out;
        try {
            auto devices = runtimeDevices(paths);
            if (devices)
                out.devices = std::make_shared<const RuntimeDevices>(std::move(devices).value());
            else
                out.error = QString::fromStdString(devices.error().toString());
        } catch (const std::exception &e) {
            out.error = tr("listing devices failed: %1").arg(QString::fromLocal8Bit(e.what()));
        }
        return out;
    });
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_listingDevices = false;
        const Outcome out = watcher->result();
        if (!out.devices) {
            uiLogger()->warn("devices: {}", out.error.toStdString());
            Q_EMIT devicesFailed(out.error);
            return;
        }
        m_devices = out.devices;
        for (const std::string &plugin : m_devices->plugins)
            uiLogger()->info("device plugin loaded: {}", plugin);
        Q_EMIT devicesListed(m_devices);
    });
    watcher->setFuture(future);
}

SymbolValues Document::profileSymbolHints() const
{
    const NamedGraph *named = currentGraph();
    return named && named->graph ? named->graph->symbolHints() : SymbolValues{};
}

QStringList Document::profileSymbols() const
{
    const NamedGraph *named = currentGraph();
    QStringList out;
    if (named && named->graph)
        for (const std::string &name : inputSymbols(*named->graph))
            out << QString::fromStdString(name);
    return out;
}

bool Document::isCancelingProfile() const
{
    return m_profileJob && m_profileJob->cancel.load();
}

std::vector<QString> Document::markedHistory() const
{
    std::vector<QString> texts = m_historyTexts;
    for (size_t i = 0; i < texts.size() && i < m_steps.size(); ++i) {
        auto it = m_numericsSeen.find({m_steps[i].name, m_steps[i].anchor});
        if (m_steps[i].kind == "pattern" && it != m_numericsSeen.end() && it->second.differs())
            texts[i] += tr("  ≠ numerics differ");
    }
    return texts;
}

void Document::syncUndoStack(const std::vector<QString> &history, int revision)
{
    m_syncingStack = true;
    // Keep the commands the session still has; replace the rest (a step after undo drops the redo tail).
    int same = 0;
    while (same < m_undoStack->count() && size_t(same) < history.size()
        && m_undoStack->text(same) == history[size_t(same)])
        ++same;
    if (same < m_undoStack->count()) {
        m_undoStack->setIndex(same);
        // push() drops the commands after the index; with none to push, an empty macro would be needed.
        if (size_t(same) == history.size()) {
            if (same == 0)
                m_undoStack->clear();
            else {
                std::vector<QString> keep(history.begin(), history.begin() + same);
                m_undoStack->clear();
                for (int i = 0; i < same; ++i)
                    m_undoStack->push(new StepCommand(this, i, keep[size_t(i)]));
            }
        }
    } else {
        m_undoStack->setIndex(m_undoStack->count());
    }
    for (size_t i = size_t(m_undoStack->index()); i < history.size(); ++i)
        m_undoStack->push(new StepCommand(this, int(i), history[i]));
    m_undoStack->setIndex(revision);
    m_syncingStack = false;
}

} // namespace fxs
