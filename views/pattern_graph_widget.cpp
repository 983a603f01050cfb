#include "pattern_graph_widget.h"

#include "canvas_style.h"
#include "graph_canvas.h"

#include "ir/graph.h"
#include "match/match_report.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace fxs {

namespace {
enum Column { PatternColumn, GraphColumn, NoteColumn };
}

PatternGraphWidget::PatternGraphWidget(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_canvas(new GraphCanvas(this)), m_bindings(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("patternGraph"));
    m_title->setObjectName(QStringLiteral("patternGraphTitle"));
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);
    auto *close = new QToolButton(this);
    close->setObjectName(QStringLiteral("patternGraphClose"));
    close->setText(QStringLiteral("×"));
    close->setToolTip(tr("Hide the pattern view (it opens again with the next candidate)"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, this, &PatternGraphWidget::closeRequested);

    m_bindings->setObjectName(QStringLiteral("patternBindings"));
    m_bindings->setColumnCount(3);
    m_bindings->setHeaderLabels({tr("Pattern node"), tr("Graph node"), tr("")});
    m_bindings->setRootIsDecorated(false);
    m_bindings->setUniformRowHeights(true);
    m_bindings->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_bindings->setToolTip(tr("Which graph node each pattern node stood for; click a graph node to select it"));
    connect(m_bindings, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item, int) {
        if (!item->data(GraphColumn, Qt::UserRole).toBool())
            Q_EMIT nodeActivated(item->text(GraphColumn));
    });
    m_canvas->setMinimapEnabled(false);
    connect(m_canvas, &GraphCanvas::layoutFinished, m_canvas, &GraphCanvas::fitToView);

    auto *head = new QHBoxLayout;
    head->setContentsMargins(0, 0, 0, 0);
    head->addWidget(m_title, 1);
    head->addWidget(close, 0, Qt::AlignTop);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_canvas);
    split->addWidget(m_bindings);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({300, 200});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(head);
    layout->addWidget(split, 1);
    clear();
}

PatternGraphWidget::~PatternGraphWidget() = default;

void PatternGraphWidget::clear()
{
    m_correspondence = {};
    m_canvas->setGraph(nullptr);
    m_bindings->clear();
    m_title->setText(tr("Select a candidate to see its pattern."));
}

void PatternGraphWidget::setCandidate(
    std::shared_ptr<const Graph> search, const PatternReport &pattern, const Verdict &verdict, const Graph *graph)
{
    const QString verdictText = verdict.accepted
        ? tr("<span style=\"color:%1\">✓ accepted</span>").arg(canvas::matchAccepted().name())
        : tr("<span style=\"color:%1\">✗ rejected at %2</span>")
              .arg(canvas::matchDisagreeing().name(), QLatin1String(matchStageName(verdict.stage)));
    QString title = tr("<b>%1</b> at <b>%2</b> — %3")
                        .arg(QString::fromStdString(pattern.name).toHtmlEscaped(),
                            QString::fromStdString(verdict.anchor).toHtmlEscaped(), verdictText);
    m_bindings->clear();
    if (!search) {
        m_correspondence = {};
        m_canvas->setGraph(nullptr);
        m_title->setText(title + QLatin1String("<br>") + tr("This pattern has no search graph to show."));
        return;
    }
    m_correspondence = correspondPattern(*search, graph, verdict);
    if (!m_correspondence.disagreeing.empty())
        title += QLatin1String("<br>")
            + tr("pattern node <b>%1</b> disagreed").arg(QString::fromStdString(m_correspondence.disagreeing));
    // The check's own words sit beside its pattern: every step it computed, with the values.
    if (!verdict.checkTrace.empty()) {
        QStringList lines;
        for (const std::string &line : verdict.checkTrace)
            lines << QString::fromStdString(line).toHtmlEscaped();
        title += QStringLiteral("<br><span style=\"font-family:monospace\">%1</span>")
                     .arg(lines.join(QLatin1String("<br>")));
    }
    m_title->setText(title);

    if (m_canvas->graph() != search.get())
        m_canvas->setGraph(search);
    std::vector<std::pair<QString, CanvasMatchMark>> marks;
    const CanvasMatchMark member = verdict.accepted ? CanvasMatchMark::Matched : CanvasMatchMark::Tried;
    for (const PatternPair &p : m_correspondence.pairs) {
        const bool disagreeing = p.patternNode == m_correspondence.disagreeing;
        marks.emplace_back(QString::fromStdString(p.patternNode), disagreeing ? CanvasMatchMark::Disagreeing : member);
        auto *item = new QTreeWidgetItem(m_bindings);
        item->setText(PatternColumn, QString::fromStdString(p.patternNode));
        item->setText(GraphColumn, QString::fromStdString(p.graphNode));
        item->setData(GraphColumn, Qt::UserRole, p.isLiteral);
        if (p.isLiteral)
            item->setText(NoteColumn, tr("literal"));
        else if (disagreeing)
            item->setText(NoteColumn, tr("disagreed"));
        else if (!p.sameTarget)
            item->setText(NoteColumn, tr("other target"));
        if (disagreeing)
            for (int c = 0; c < m_bindings->columnCount(); ++c)
                item->setForeground(c, canvas::matchDisagreeing());
        if (!p.isLiteral) {
            QFont link = item->font(GraphColumn);
            link.setUnderline(true);
            item->setFont(GraphColumn, link);
        }
    }
    // The search-graph nodes the candidate never reached: the walk stopped above them.
    for (const auto &node : search->nodes()) {
        if (node->op() == OpKind::Output || m_correspondence.find(node->name()))
            continue;
        auto *item = new QTreeWidgetItem(m_bindings);
        item->setText(PatternColumn, QString::fromStdString(node->name()));
        item->setText(GraphColumn, QStringLiteral("—"));
        item->setData(GraphColumn, Qt::UserRole, true);
        item->setText(NoteColumn, tr("not reached"));
    }
    const QString root = m_correspondence.pairs.empty()
        ? QString()
        : QString::fromStdString(m_correspondence.pairs.front().patternNode);
    m_canvas->setMatchMarks(marks, root);
}

} // namespace fxs
