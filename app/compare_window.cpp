#include "compare_window.h"

#include "compare/graph_comparison.h"
#include "io/loader.h"
#include "ir/graph_file.h"
#include "logging.h"
#include "compare_widget.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace fxs {

struct CompareWindow::Outcome {
    std::shared_ptr<const GraphFile> file;
    int graphIndex = -1;
    std::shared_ptr<const GraphComparison> comparison;
    QString error;
    qint64 milliseconds = 0;
};

CompareWindow::CompareWindow(QWidget *parent) : QMainWindow(parent), m_view(new CompareWidget(this))
{
    setWindowTitle(tr("Compare — fxscope"));
    setCentralWidget(m_view);
    resize(1600, 1000);
    connect(m_view, &CompareWidget::graphBChosen, this, [this](int index) { start(QString::number(index)); });
}

CompareWindow::~CompareWindow() = default;

quint64 CompareWindow::compare(std::shared_ptr<const Graph> a, const QString &titleA, const QString &pathA,
    int graphIndexA, const QString &pathB, const QString &graphB)
{
    m_a = std::move(a);
    m_titleA = titleA;
    m_pathA = pathA;
    m_graphIndexA = graphIndexA;
    if (pathB != m_pathB)
        m_fileB.reset();
    m_pathB = pathB;
    return start(graphB);
}

quint64 CompareWindow::start(const QString &graphB)
{
    const quint64 job = ++m_lastJob;
    m_currentJob = job;
    m_view->setStatus(tr("Comparing…"));
    uiLogger()->debug("compare #{} started: {}", job, m_pathB.toStdString());
    const bool sameFile = QFileInfo(m_pathA) == QFileInfo(m_pathB);
    // The job owns copies of what it reads; errors come back as values and nothing is thrown across the event loop.
    const int next = sameFile ? m_graphIndexA + 1 : 0;
    auto future = QtConcurrent::run(
        [a = m_a, file = m_fileB, path = m_pathB, graphB, next]() mutable -> Outcome {
            Outcome outcome;
            QElapsedTimer timer;
            timer.start();
            try {
                if (!file) {
                    auto loaded = loadGraphFile(path.toStdString());
                    if (!loaded) {
                        outcome.error = QString::fromStdString(loaded.error().toString());
                        return outcome;
                    }
                    file = std::make_shared<const GraphFile>(std::move(loaded).value());
                }
                outcome.file = file;
                if (file->graphs.empty()) {
                    outcome.error = path + QLatin1String(": no graph found in the file");
                    return outcome;
                }
                const NamedGraph *named = graphB.isEmpty()
                    ? &file->graphs[size_t(std::min<int>(next, int(file->graphs.size()) - 1))]
                    : file->find(graphB.toStdString());
                if (!named) {
                    outcome.error = path + QLatin1String(": no graph '") + graphB + QLatin1String("'");
                    return outcome;
                }
                outcome.graphIndex = int(named - file->graphs.data());
                outcome.comparison = std::make_shared<const GraphComparison>(compareGraphs(*a, *named->graph));
            } catch (const std::exception &e) {
                outcome.error = path + QLatin1String(": ") + QString::fromLocal8Bit(e.what());
            }
            outcome.milliseconds = timer.elapsed();
            return outcome;
        });
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        finish(job, watcher->result());
    });
    watcher->setFuture(future);
    return job;
}

void CompareWindow::finish(quint64 job, const Outcome &outcome)
{
    if (job != m_currentJob) {
        uiLogger()->debug("compare #{} finished after a newer request; dropped", job);
        return;
    }
    m_currentJob = 0;
    if (outcome.file)
        m_fileB = outcome.file;
    if (!outcome.comparison) {
        m_view->setStatus(outcome.error);
        uiLogger()->error("compare failed: {}", outcome.error.toStdString());
        Q_EMIT comparisonFailed(outcome.error);
        return;
    }
    QStringList names;
    for (const NamedGraph &g : m_fileB->graphs)
        names << QString::fromStdString(g.name);
    m_view->setGraphChoicesB(names, outcome.graphIndex);
    const NamedGraph &named = m_fileB->graphs[size_t(outcome.graphIndex)];
    // Aliasing: the graph keeps its whole file alive.
    std::shared_ptr<const Graph> b(m_fileB, named.graph.get());
    const QString titleB = QFileInfo(m_pathB).fileName() + QLatin1String(" [") + QString::fromStdString(named.name)
        + QLatin1Char(']');
    m_view->setComparison(m_a, b, outcome.comparison, m_titleA, titleB);
    m_view->setStatus(tr("compared in %L1 ms").arg(outcome.milliseconds));
    uiLogger()->info("compare #{}: {} regions in {} ms", job, outcome.comparison->regions.size(), outcome.milliseconds);
    Q_EMIT comparisonReady(outcome.comparison);
}

} // namespace fxs
