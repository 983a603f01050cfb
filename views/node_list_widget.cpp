#include "node_list_widget.h"

#include "node_filter_proxy_model.h"
#include "node_table_model.h"

#include <QAction>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace fxs {

namespace {
// Above this many rows, filtering waits for a pause in typing instead of running per keystroke.
constexpr int kDeferredFilterRows = 20000;
constexpr int kColumnFitSampleRows = 2000;
} // namespace

NodeListWidget::NodeListWidget(QWidget *parent)
    : QWidget(parent), m_model(new NodeTableModel(this)), m_proxy(new NodeFilterProxyModel(this)),
      m_filter(new QLineEdit(this)), m_count(new QLabel(this)), m_table(new QTableView(this)),
      m_filterDelay(new QTimer(this))
{
    m_proxy->setSourceModel(m_model);

    m_filter->setPlaceholderText(tr("Search: words, op:call_function, target:/regex/, shape:*,4096, name:"));
    m_filter->setToolTip(tr("All terms must match. A word matches the name or target; op: the op kind; name: and "
                            "target: a text or a /regex/; shape: the dimensions, * for any one. Enter goes to the "
                            "next match, Shift+Enter to the previous."));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("nodeFilter"));
    auto *clear = new QAction(m_filter);
    clear->setShortcut(Qt::Key_Escape);
    clear->setShortcutContext(Qt::WidgetShortcut);
    connect(clear, &QAction::triggered, m_filter, &QLineEdit::clear);
    m_filter->addAction(clear);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            findPrevious();
        else
            findNext();
    });

    m_count->setObjectName(QStringLiteral("nodeCount"));
    m_count->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_table->setObjectName(QStringLiteral("nodeTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(NodeTableModel::IndexColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    // Without a grid, right-aligned numbers would touch the text of the next column.
    m_table->setStyleSheet(QStringLiteral("QTableView::item { padding-left: 4px; padding-right: 10px; }"));
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->verticalHeader()->hide();
    // Fixed row heights keep scrolling through 100k-node graphs cheap.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);

    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(200);
    connect(m_filterDelay, &QTimer::timeout, this, &NodeListWidget::applyFilter);
    connect(m_filter, &QLineEdit::textChanged, this, [this] {
        if (m_model->rowCount() > kDeferredFilterRows)
            m_filterDelay->start();
        else
            applyFilter();
    });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &NodeListWidget::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &NodeListWidget::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &NodeListWidget::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &NodeListWidget::updateCount);

    auto *filterRow = new QHBoxLayout;
    filterRow->setContentsMargins(6, 6, 6, 0);
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_count);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addLayout(filterRow);
    layout->addWidget(m_table, 1);

    setFocusProxy(m_table);
    updateCount();
    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
            updateCount();
            if (m_selecting || !current.isValid())
                return;
            Q_EMIT nodeSelected(current.data(NodeTableModel::NodeNameRole).toString());
        });
}

bool NodeListWidget::selectNode(const QString &name)
{
    const int row = m_model->rowOfNode(name);
    if (row < 0)
        return false;
    QModelIndex index = m_proxy->mapFromSource(m_model->index(row, NodeTableModel::NameColumn));
    if (!index.isValid()) {
        m_filter->clear();
        applyFilter();
        index = m_proxy->mapFromSource(m_model->index(row, NodeTableModel::NameColumn));
    }
    m_selecting = true;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_selecting = false;
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

QString NodeListWidget::currentNode() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? current.data(NodeTableModel::NodeNameRole).toString() : QString();
}

NodeListWidget::~NodeListWidget() = default;

void NodeListWidget::setGraph(std::shared_ptr<const Graph> graph)
{
    const bool first = !m_model->graph();
    m_model->setGraph(std::move(graph));
    // Size columns to their content once; after that the user's widths (or restored ones) stay.
    if (first && !m_headerRestored && m_model->rowCount() > 0)
        fitColumnsToSample();
    updateCount();
}

void NodeListWidget::fitColumnsToSample()
{
    // Measures rows spread over the whole graph rather than the first screenful (what
    // resizeColumnsToContents looks at): graphs open with hundreds of placeholders, whose targets
    // and inputs are short, and the call_function rows below them would be cut off.
    const int rows = m_model->rowCount();
    const int step = std::max(1, rows / kColumnFitSampleRows);
    QHeaderView *header = m_table->horizontalHeader();
    const int padding = 2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 12;
    // Caps in characters, so that together the columns fit a normal window: long input lists and
    // targets elide (their tool tips have the whole text) rather than push Source off screen.
    const int charWidth = QFontMetrics(m_model->index(0, NodeTableModel::NameColumn).data(Qt::FontRole).value<QFont>())
                              .horizontalAdvance(QLatin1Char('m'));
    auto maxWidth = [&](int column) {
        switch (column) {
        case NodeTableModel::NameColumn: return 32 * charWidth + padding;
        case NodeTableModel::TargetColumn: return 46 * charWidth + padding;
        case NodeTableModel::ValueColumn: return 30 * charWidth + padding;
        case NodeTableModel::InputsColumn: return 36 * charWidth + padding;
        default: return 30 * charWidth + padding;
        }
    };
    for (int c = 0; c < NodeTableModel::ColumnCount; ++c) {
        int width = header->sectionSizeHint(c);
        for (int r = 0; r < rows; r += step) {
            const QModelIndex index = m_model->index(r, c);
            const QVariant font = index.data(Qt::FontRole);
            const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : m_table->font());
            width = std::max(width, metrics.horizontalAdvance(index.data().toString()) + padding);
        }
        m_table->setColumnWidth(c, std::min(width, maxWidth(c)));
    }
}

QByteArray NodeListWidget::saveHeaderState() const
{
    return m_table->horizontalHeader()->saveState();
}

void NodeListWidget::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty() && m_table->horizontalHeader()->restoreState(state))
        m_headerRestored = true;
}

void NodeListWidget::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void NodeListWidget::applyFilter()
{
    m_filterDelay->stop();
    m_proxy->setFilterText(m_filter->text());
    const QString error = m_proxy->filterError();
    m_filter->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #d33; }"));
    m_count->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLabel { color: #d33; }"));
    updateCount();
}

void NodeListWidget::findNext()
{
    step(1);
}

void NodeListWidget::findPrevious()
{
    step(-1);
}

void NodeListWidget::step(int delta)
{
    if (m_filterDelay->isActive())
        applyFilter();
    const int rows = m_proxy->rowCount();
    if (rows == 0)
        return;
    const QModelIndex current = m_table->currentIndex();
    // Without a current row, next starts at the first match and previous at the last.
    const int row = current.isValid() ? (current.row() + delta + rows) % rows : (delta > 0 ? 0 : rows - 1);
    const QModelIndex index = m_proxy->index(row, NodeTableModel::NameColumn);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    // Not under m_selecting: the step is the user's, so nodeSelected drives the canvas and inspector.
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QString NodeListWidget::countText() const
{
    return m_count->text();
}

void NodeListWidget::updateCount()
{
    const QString error = m_proxy->filterError();
    m_count->setToolTip(error);
    if (!error.isEmpty()) {
        // The label has little room; the tool tip and the field's red border carry the rest.
        m_count->setText(error.section(QLatin1String(": "), 1));
        return;
    }
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    const QString nodes = total == 1 ? tr("1 node") : tr("%L1 nodes").arg(total);
    const QModelIndex current = m_table->currentIndex();
    if (shown == total)
        m_count->setText(nodes);
    else if (current.isValid())
        m_count->setText(tr("%L1 of %L2 matches").arg(current.row() + 1).arg(shown));
    else
        m_count->setText(tr("%L1 of %2").arg(shown).arg(nodes));
}

} // namespace fxs
