#pragma once
// The inspector of the compare window: one node and its partner side by side (name, target, args, kwargs, and
// the shape, dtype, stride and device of its value), the fields that differ in bold, or the one side a node
// without partner has.

#include <QTreeWidget>

namespace fxs {

class Node;
struct NodeChange;

class CompareInspector : public QTreeWidget {
    Q_OBJECT
public:
    explicit CompareInspector(QWidget *parent = nullptr);

    // Either node may be null (unpaired); change lists the fields that differ (nullptr: none).
    void showNodes(const Node *a, const Node *b, const NodeChange *change);
    // The text of `field` on side 0 (A) or 1 (B), for tests; empty when absent.
    QString fieldText(const QString &field, int side) const;
    bool isFieldChanged(const QString &field) const;
};

} // namespace fxs
