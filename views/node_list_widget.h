#pragma once
// The node list: a search line over a sortable table of one graph's nodes. It shows the graph it is
// given and reports the rows the user selects or steps to (Enter, findNext, findPrevious).

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace fxs {

class Graph;
class NodeFilterProxyModel;
class NodeTableModel;

class NodeListWidget : public QWidget {
    Q_OBJECT
public:
    explicit NodeListWidget(QWidget *parent = nullptr);
    ~NodeListWidget() override;

    void setGraph(std::shared_ptr<const Graph> graph);

    NodeTableModel *model() const { return m_model; }
    NodeFilterProxyModel *proxyModel() const { return m_proxy; }
    QTableView *tableView() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }

    // Column widths, order and sort column, for QSettings.
    QByteArray saveHeaderState() const;
    void restoreHeaderState(const QByteArray &state);

    // Makes `name` the current row and scrolls to it, without emitting nodeSelected. A node hidden by
    // the filter clears the filter first. False when the graph has no such node.
    bool selectNode(const QString &name);
    QString currentNode() const;

    // "3 of 17 matches", "17 of 1,234 nodes", or the filter's parse error.
    QString countText() const;

public Q_SLOTS:
    void focusFilter();
    // Makes the next (previous) row the current one, wrapping at the ends, and emits nodeSelected so the
    // canvas and inspector follow. Nothing happens when no row is shown.
    void findNext();
    void findPrevious();

Q_SIGNALS:
    // The user made another node the current row.
    void nodeSelected(const QString &name);

private:
    void applyFilter();
    void step(int delta);
    void fitColumnsToSample();
    void updateCount();

    NodeTableModel *m_model;
    NodeFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QLabel *m_count;
    QTableView *m_table;
    QTimer *m_filterDelay;
    bool m_headerRestored = false;
    bool m_selecting = false; // set while selectNode() moves the current row
};

} // namespace fxs
