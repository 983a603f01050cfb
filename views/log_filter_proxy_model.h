#pragma once
// Filters the Log dock's rows by minimum level and by text in the logger or message (case-insensitive).

#include <QSortFilterProxyModel>

namespace fxs {

class LogFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LogFilterProxyModel(QObject *parent = nullptr);

    void setMinimumLevel(int level);
    int minimumLevel() const { return m_minimumLevel; }
    void setText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    int m_minimumLevel = 0;
    QString m_text;
};

} // namespace fxs
