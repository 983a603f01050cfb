#include "diff_widget.h"

#include "graph_diff_model.h"

#include "rewrite/graph_diff.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace fxs {

DiffWidget::DiffWidget(QWidget *parent)
    : QWidget(parent), m_from(new QComboBox(this)), m_to(new QComboBox(this)),
      m_allOps(new QCheckBox(tr("All ops"), this)), m_summary(new QLabel(this)), m_tree(new QTreeView(this)),
      m_model(new GraphDiffModel(this))
{
    setObjectName(QStringLiteral("diffWidget"));
    m_from->setObjectName(QStringLiteral("diffFrom"));
    m_to->setObjectName(QStringLiteral("diffTo"));
    m_from->setToolTip(tr("The revision to compare from"));
    m_to->setToolTip(tr("The revision to compare to"));
    m_allOps->setToolTip(tr("List the ops whose count did not change too"));
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    m_summary->setWordWrap(true);
    m_tree->setObjectName(QStringLiteral("diffTree"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    // Names and counts are short; the target (or the changed field) gets the rest of a narrow dock.
    m_tree->header()->setSectionResizeMode(GraphDiffModel::NameColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(GraphDiffModel::WhatColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(GraphDiffModel::BeforeColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(GraphDiffModel::AfterColumn, QHeaderView::ResizeToContents);

    auto *swap = new QToolButton(this);
    swap->setText(QStringLiteral("⇄"));
    swap->setToolTip(tr("Swap the two revisions"));
    connect(swap, &QToolButton::clicked, this, [this] { compare(toRevision(), fromRevision()); });

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("From"), this));
    row->addWidget(m_from, 1);
    row->addWidget(swap);
    row->addWidget(new QLabel(tr("to"), this));
    row->addWidget(m_to, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(row);
    auto *row2 = new QHBoxLayout;
    row2->addWidget(m_summary, 1);
    row2->addWidget(m_allOps);
    layout->addLayout(row2);
    layout->addWidget(m_tree, 1);

    connect(m_from, qOverload<int>(&QComboBox::activated), this, &DiffWidget::request);
    connect(m_to, qOverload<int>(&QComboBox::activated), this, &DiffWidget::request);
    connect(m_allOps, &QCheckBox::toggled, this, [this](bool all) {
        m_model->setShowUnchangedOps(all);
        m_tree->expandAll();
    });
    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex &index) {
        const QString name = index.data(GraphDiffModel::NodeNameRole).toString();
        if (!name.isEmpty())
            Q_EMIT nodeActivated(name);
    });
    connect(m_tree, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        const QString name = index.data(GraphDiffModel::NodeNameRole).toString();
        if (!name.isEmpty())
            Q_EMIT nodeActivated(name);
    });
    setRevisions({tr("0. Graph as loaded")});
}

int DiffWidget::fromRevision() const
{
    return m_from->currentIndex();
}

int DiffWidget::toRevision() const
{
    return m_to->currentIndex();
}

void DiffWidget::setRevisions(const QStringList &names)
{
    const int from = fromRevision(), to = toRevision();
    const bool grew = names.size() > m_to->count();
    for (QComboBox *box : {m_from, m_to}) {
        const QSignalBlocker blocker(box);
        box->clear();
        box->addItems(names);
    }
    const int last = int(names.size()) - 1;
    // A history that grew compares the graph as loaded with its newest revision; otherwise the choice stays.
    const int newFrom = grew || from < 0 ? 0 : std::min(from, last);
    const int newTo = grew || to < 0 ? last : std::min(to, last);
    m_from->setCurrentIndex(newFrom);
    m_to->setCurrentIndex(newTo);
    if (newFrom != m_shownFrom || newTo != m_shownTo || grew)
        request();
}

void DiffWidget::compare(int from, int to)
{
    m_from->setCurrentIndex(from);
    m_to->setCurrentIndex(to);
    request();
}

void DiffWidget::request()
{
    if (fromRevision() < 0 || toRevision() < 0)
        return;
    if (fromRevision() == toRevision()) {
        m_shownFrom = m_shownTo = fromRevision();
        m_model->setDiff(nullptr);
        m_summary->setText(m_to->count() > 1 ? tr("Pick two different revisions to compare")
                                             : tr("No steps yet: step to compare revisions"));
        return;
    }
    m_summary->setText(tr("Comparing…"));
    Q_EMIT diffRequested(fromRevision(), toRevision());
}

void DiffWidget::setBusy(bool busy)
{
    m_from->setEnabled(!busy);
    m_to->setEnabled(!busy);
}

void DiffWidget::setDiff(int from, int to, std::shared_ptr<const GraphDiff> diff)
{
    if (from != fromRevision() || to != toRevision())
        return; // the user has moved on; the request for the new pair is on its way
    m_shownFrom = from;
    m_shownTo = to;
    m_model->setDiff(diff);
    m_tree->expandAll();
    if (!diff) {
        m_summary->setText(tr("No diff"));
        return;
    }
    m_summary->setText(tr("Revision %1 → %2: %L3 → %L4 nodes · %L5 removed, %L6 added, %L7 changed")
                           .arg(from)
                           .arg(to)
                           .arg(diff->nodesBefore)
                           .arg(diff->nodesAfter)
                           .arg(diff->removed.size())
                           .arg(diff->added.size())
                           .arg(diff->changed.size()));
}

} // namespace fxs
