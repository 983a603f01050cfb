#pragma once
// The GUI's hub (qrenderdoc's CaptureContext role): owns the loaded GraphFile, which of its graphs is
// current, and the background job that loads the next file. Everything the views show comes from
// here, announced by signals that MainWindow connects.

#include <QObject>
#include <QString>

class QTimer;

#include <memory>

namespace fxs {

class Graph;
struct GraphFile;
struct NamedGraph;

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

private:
    struct Outcome;
    struct LoadJob;
    void finishLoad(quint64 job, const Outcome &outcome);

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
};

} // namespace fxs
