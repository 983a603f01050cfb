#include "compare_inspector.h"

#include "compare/field_changes.h"
#include "compare/value_fields.h"
#include "ir/node.h"
#include "rewrite/graph_diff.h"

#include <QHeaderView>

namespace fxs {

namespace {

QString argsText(const Node &n)
{
    QStringList parts;
    for (const auto &a : n.args())
        parts << QString::fromStdString(a.toFxText());
    return QLatin1Char('(') + parts.join(QLatin1String(", ")) + QLatin1Char(')');
}

QString kwargsText(const Node &n)
{
    QStringList parts;
    for (const auto &[key, value] : n.kwargs())
        parts << QString::fromStdString(key + ": " + value.toFxText());
    return parts.join(QLatin1String(", "));
}

QString valueField(const Node &n, ValueField field)
{
    return n.meta().val ? QString::fromStdString(valueFieldText(*n.meta().val, field)) : QString();
}

} // namespace

CompareInspector::CompareInspector(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(3);
    setHeaderLabels({tr("Field"), tr("A"), tr("B")});
    setRootIsDecorated(false);
    setAlternatingRowColors(true);
    setWordWrap(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    setColumnWidth(0, 80);
    setColumnWidth(1, 260);
}

void CompareInspector::showNodes(const Node *a, const Node *b, const NodeChange *change)
{
    clear();
    auto row = [&](const QString &field, const QString &key, auto text) {
        const QString none = tr("(no partner)");
        auto *item = new QTreeWidgetItem(this, {field, a ? text(*a) : none, b ? text(*b) : none});
        bool changed = false;
        if (change)
            for (const FieldChange &f : change->fields)
                changed = changed || QString::fromStdString(f.field) == key;
        if (changed || !a || !b) {
            QFont bold = item->font(0);
            bold.setBold(true);
            for (int c = 0; c < 3; ++c)
                item->setFont(c, bold);
        }
        item->setData(0, Qt::UserRole, key);
        item->setData(0, Qt::UserRole + 1, changed);
        for (int c = 1; c < 3; ++c)
            item->setToolTip(c, item->text(c));
    };
    if (!a && !b)
        return;
    row(tr("name"), QStringLiteral("name"), [](const Node &n) { return QString::fromStdString(n.name()); });
    row(tr("op"), QStringLiteral("op"), [](const Node &n) { return QString::fromUtf8(opKindName(n.op())); });
    row(tr("target"), QStringLiteral("target"), [](const Node &n) { return QString::fromStdString(opKey(n)); });
    row(tr("args"), QStringLiteral("args"), argsText);
    row(tr("kwargs"), QStringLiteral("kwargs"), kwargsText);
    for (ValueField field : kAllValueFields) {
        const QString key = QString::fromUtf8(valueFieldName(field));
        row(key, key, [field](const Node &n) { return valueField(n, field); });
    }
}

QString CompareInspector::fieldText(const QString &field, int side) const
{
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->data(0, Qt::UserRole).toString() == field)
            return topLevelItem(i)->text(1 + side);
    return {};
}

bool CompareInspector::isFieldChanged(const QString &field) const
{
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->data(0, Qt::UserRole).toString() == field)
            return topLevelItem(i)->data(0, Qt::UserRole + 1).toBool();
    return false;
}

} // namespace fxs
