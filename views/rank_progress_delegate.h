#pragma once
// Draws the rank table's status cell as a progress bar while its rank runs (RankTableModel::ProgressRole), with what
// the rank is doing as the bar's text; other cells as usual.

#include <QStyledItemDelegate>

namespace fxs {

class RankProgressDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace fxs
