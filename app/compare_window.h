#pragma once
// The compare window (File ▸ Compare with…): graph A (the graph or session revision the main window shows) beside
// graph B of another file, or another graph of the same TORCH_TRACE log. It owns the background job that loads B
// and compares: one job id per request, a stale result is dropped, and the UI never waits on either.

#include <QMainWindow>

#include <memory>

namespace fxs {

class CompareWidget;
class Graph;
struct GraphComparison;
struct GraphFile;

class CompareWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget *parent = nullptr);
    ~CompareWindow() override;

    // Compares `a` with graph `graphB` (name or index; empty: the graph after A's when B is A's file, else the
    // first) of the file at `pathB`. pathA and graphIndexA say where A came from. Returns the job id.
    quint64 compare(std::shared_ptr<const Graph> a, const QString &titleA, const QString &pathA, int graphIndexA,
        const QString &pathB, const QString &graphB = {});
    CompareWidget *view() const { return m_view; }
    bool isComparing() const { return m_currentJob != 0; }

Q_SIGNALS:
    void comparisonReady(std::shared_ptr<const fxs::GraphComparison> comparison);
    void comparisonFailed(const QString &message);

private:
    struct Outcome;
    quint64 start(const QString &graphB);
    void finish(quint64 job, const Outcome &outcome);

    CompareWidget *m_view;
    std::shared_ptr<const Graph> m_a;
    QString m_titleA, m_pathA, m_pathB;
    int m_graphIndexA = -1;
    std::shared_ptr<const GraphFile> m_fileB; // kept: choosing another graph of B needs no second load
    quint64 m_lastJob = 0;
    quint64 m_currentJob = 0; // 0: none running
};

} // namespace fxs
