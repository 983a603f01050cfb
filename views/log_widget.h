#pragma once
// The Log dock: the records of every spdlog logger in a table, filtered by minimum level and text,
// following the newest record unless the user scrolled up.

#include <QWidget>

#include <memory>

class QComboBox;
class QLineEdit;
class QTableView;

namespace fxs {

class LogSink;
class LogModel;
class LogFilterProxyModel;

class LogWidget : public QWidget {
    Q_OBJECT
public:
    explicit LogWidget(std::shared_ptr<LogSink> sink, QWidget *parent = nullptr);

    LogModel *model() const { return m_model; }
    LogFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QComboBox *levelCombo() const { return m_level; }
    QLineEdit *filterEdit() const { return m_filter; }

private:
    LogModel *m_model;
    LogFilterProxyModel *m_proxy;
    QComboBox *m_level;
    QLineEdit *m_filter;
    QTableView *m_view;
    bool m_followNewest = true;
};

} // namespace fxs
