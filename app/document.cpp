#include "document.h"

#include "logging.h"

#include "io/loader.h"
#include "util/progress.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>

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

namespace {

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

Document::Document(QObject *parent) : QObject(parent), m_progressPoll(new QTimer(this))
{
    initBundledResources();
    // The worker only writes an atomic; the UI thread polls it, so no signal ever outlives the Document.
    m_progressPoll->setInterval(100);
    connect(m_progressPoll, &QTimer::timeout, this, [this] {
        if (m_job)
            Q_EMIT loadProgress(m_job->permille.load());
    });
}

Document::~Document() = default;

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
    const NamedGraph *g = currentGraph();
    if (!g || !g->graph)
        return nullptr;
    // Aliasing constructor: shares ownership of the whole file, points at one of its graphs.
    return std::shared_ptr<const Graph>(m_file, g->graph.get());
}

} // namespace fxs
