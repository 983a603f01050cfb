#include "compare_widget.h"

#include "canvas_node_item.h"
#include "compare/graph_comparison.h"
#include "compare_inspector.h"
#include "compare_marks.h"
#include "compare_region_model.h"
#include "graph_canvas.h"
#include "ir/graph.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QVBoxLayout>

namespace fxs {

namespace {

QLabel *legendChip(const QColor &color, const QString &text, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setText(QStringLiteral("<span style='color:%1'>&#9632;</span> %2").arg(color.name(), text));
    return label;
}

const CanvasNodeItem *nodeNearestCentre(GraphCanvas *canvas)
{
    const QPoint centre = canvas->viewport()->rect().center();
    const QPointF scenePoint = canvas->mapToScene(centre);
    const CanvasNodeItem *best = nullptr;
    qreal bestDistance = 0;
    for (QGraphicsItem *item : canvas->items(canvas->viewport()->rect()))
        if (const auto *node = dynamic_cast<const CanvasNodeItem *>(item); node && node->isVisible()) {
            const qreal d = QLineF(node->sceneBoundingRect().center(), scenePoint).length();
            if (!best || d < bestDistance) {
                best = node;
                bestDistance = d;
            }
        }
    return best;
}

} // namespace

CompareWidget::CompareWidget(QWidget *parent)
    : QWidget(parent), m_canvasA(new GraphCanvas(this)), m_canvasB(new GraphCanvas(this)), m_titleA(new QLabel(this)),
      m_titleB(new QLabel(this)), m_graphB(new QComboBox(this)), m_summary(new QLabel(this)),
      m_status(new QLabel(this)), m_regionList(new QListView(this)), m_regionModel(new CompareRegionModel(this)),
      m_inspector(new CompareInspector(this))
{
    m_canvasA->setObjectName(QStringLiteral("compareCanvasA"));
    m_canvasB->setObjectName(QStringLiteral("compareCanvasB"));
    m_graphB->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_graphB->hide();
    m_regionList->setModel(m_regionModel);
    m_regionList->setUniformItemSizes(true);

    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(legendChip(regionColor(RegionKind::Removed), tr("only in A"), this));
    top->addWidget(legendChip(regionColor(RegionKind::Added), tr("only in B"), this));
    top->addWidget(legendChip(regionColor(RegionKind::Changed), tr("changed"), this));
    top->addWidget(m_status);

    auto side = [this](QLabel *title, QWidget *extra, GraphCanvas *canvas) {
        auto *box = new QWidget(this);
        auto *header = new QHBoxLayout;
        header->addWidget(title, 1);
        if (extra)
            header->addWidget(extra);
        auto *layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addLayout(header);
        layout->addWidget(canvas, 1);
        return box;
    };
    auto *canvases = new QSplitter(Qt::Horizontal, this);
    canvases->addWidget(side(m_titleA, nullptr, m_canvasA));
    canvases->addWidget(side(m_titleB, m_graphB, m_canvasB));
    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_regionList);
    bottom->addWidget(m_inspector);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    auto *main = new QSplitter(Qt::Vertical, this);
    main->addWidget(canvases);
    main->addWidget(bottom);
    main->setStretchFactor(0, 1);
    main->setSizes({760, 200}); // the canvases get most of the height
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(main, 1);

    auto *next = new QAction(tr("Next Region"), this);
    next->setShortcut(QKeySequence::FindNext); // F3
    next->setShortcutContext(Qt::WindowShortcut);
    connect(next, &QAction::triggered, this, &CompareWidget::nextRegion);
    auto *previous = new QAction(tr("Previous Region"), this);
    previous->setShortcut(QKeySequence::FindPrevious); // Shift+F3
    previous->setShortcutContext(Qt::WindowShortcut);
    connect(previous, &QAction::triggered, this, &CompareWidget::previousRegion);
    addActions({next, previous});

    connect(m_regionList, &QListView::clicked, this, [this](const QModelIndex &index) { showRegion(index.row()); });
    connect(m_canvasA, &GraphCanvas::nodeSelected, this, [this](const QString &name) { selectNode(0, name); });
    connect(m_canvasB, &GraphCanvas::nodeSelected, this, [this](const QString &name) { selectNode(1, name); });
    connect(m_canvasA, &GraphCanvas::viewChanged, this, [this] { followView(0); });
    connect(m_canvasB, &GraphCanvas::viewChanged, this, [this] { followView(1); });
    for (GraphCanvas *canvas : {m_canvasA, m_canvasB})
        connect(canvas, &GraphCanvas::layoutFinished, this, [this] {
            // Marks survive relayouts; the first region is shown once both sides have their first picture.
            if (m_pendingLayouts > 0 && --m_pendingLayouts == 0) {
                applyMarks(-1);
                showRegion(m_comparison && !m_comparison->regions.empty() ? 0 : -1);
            }
        });
    connect(m_graphB, qOverload<int>(&QComboBox::activated), this, &CompareWidget::graphBChosen);
}

CompareWidget::~CompareWidget() = default;

void CompareWidget::setComparison(std::shared_ptr<const Graph> a, std::shared_ptr<const Graph> b,
    std::shared_ptr<const GraphComparison> comparison, const QString &titleA, const QString &titleB)
{
    m_a = std::move(a);
    m_b = std::move(b);
    m_comparison = std::move(comparison);
    m_currentRegion = -1;
    m_titleA->setText(QStringLiteral("<b>A</b> ") + titleA.toHtmlEscaped());
    m_titleB->setText(QStringLiteral("<b>B</b> ") + titleB.toHtmlEscaped());
    m_regionModel->setComparison(m_comparison);
    m_inspector->showNodes(nullptr, nullptr, nullptr);
    const GraphComparison &c = *m_comparison;
    m_summary->setText(
        tr("<b>%1</b>: paired %L2 of %L3 / %L4 nodes, %L5 changed, %L6 only in A, %L7 only in B, %L8 %9")
            .arg(c.equal() ? tr("equal") : tr("different"))
            .arg(c.pairedCount())
            .arg(c.a.names.size())
            .arg(c.b.names.size())
            .arg(c.changes.size())
            .arg(c.onlyInA())
            .arg(c.onlyInB())
            .arg(c.regions.size())
            .arg(c.regions.size() == 1 ? tr("region") : tr("regions")));
    m_pendingLayouts = 2;
    m_canvasA->setGraph(m_a);
    m_canvasB->setGraph(m_b);
}

void CompareWidget::setGraphChoicesB(const QStringList &names, int current)
{
    m_graphB->clear();
    m_graphB->addItems(names);
    m_graphB->setCurrentIndex(current);
    m_graphB->setVisible(names.size() > 1);
}

void CompareWidget::setStatus(const QString &text) { m_status->setText(text); }

void CompareWidget::applyMarks(int centreRegion)
{
    if (!m_comparison)
        return;
    std::vector<std::pair<QString, CanvasMatchMark>> marksA, marksB;
    for (const CompareRegion &r : m_comparison->regions) {
        for (uint32_t i : r.a)
            marksA.emplace_back(QString::fromStdString(m_comparison->a.names[i]), compareMark(r.kind, true));
        for (uint32_t j : r.b)
            marksB.emplace_back(QString::fromStdString(m_comparison->b.names[j]), compareMark(r.kind, false));
    }
    QString centreA, centreB;
    if (const CompareRegion *r = centreRegion >= 0 ? &m_comparison->regions[size_t(centreRegion)] : nullptr) {
        // An added region has no A node: A centres on the first paired node it reads, or that reads it.
        auto firstA = !r->a.empty() ? r->a.front() : !r->inputs.empty() ? r->inputs.back()
            : !r->users.empty()                                       ? r->users.front()
                                                                      : uint32_t(-1);
        if (firstA != uint32_t(-1))
            centreA = QString::fromStdString(m_comparison->a.names[firstA]);
        if (!r->b.empty())
            centreB = QString::fromStdString(m_comparison->b.names[r->b.front()]);
        else if (!centreA.isEmpty())
            centreB = partnerOf(0, centreA);
    }
    QScopedValueRollback following(m_following, true); // each side centres on its own part of the region
    m_canvasA->setMatchMarks(marksA, centreA);
    m_canvasB->setMatchMarks(marksB, centreB);
}

void CompareWidget::showRegion(int row)
{
    if (!m_comparison || row < 0 || row >= int(m_comparison->regions.size()))
        return;
    m_currentRegion = row;
    m_regionList->setCurrentIndex(m_regionModel->index(row));
    applyMarks(row);
    const CompareRegion &r = m_comparison->regions[size_t(row)];
    if (!r.a.empty())
        selectNode(0, QString::fromStdString(m_comparison->a.names[r.a.front()]));
    else if (!r.b.empty())
        selectNode(1, QString::fromStdString(m_comparison->b.names[r.b.front()]));
}

void CompareWidget::nextRegion()
{
    if (m_comparison && !m_comparison->regions.empty())
        showRegion((m_currentRegion + 1) % int(m_comparison->regions.size()));
}

void CompareWidget::previousRegion()
{
    if (m_comparison && !m_comparison->regions.empty()) {
        const int n = int(m_comparison->regions.size());
        showRegion((m_currentRegion - 1 + n) % n);
    }
}

QString CompareWidget::partnerOf(int side, const QString &name) const
{
    const Graph *graph = side == 0 ? m_a.get() : m_b.get();
    const Node *node = graph ? graph->find(name.toStdString()) : nullptr;
    if (!node || !m_comparison)
        return {};
    const auto &partners = side == 0 ? m_comparison->pairing.partnerOfA : m_comparison->pairing.partnerOfB;
    const int32_t partner = partners[node->index()];
    if (partner < 0)
        return {};
    return QString::fromStdString((side == 0 ? m_comparison->b : m_comparison->a).names[size_t(partner)]);
}

bool CompareWidget::selectNode(int side, const QString &name)
{
    const Graph *graph = side == 0 ? m_a.get() : m_b.get();
    const Node *node = graph ? graph->find(name.toStdString()) : nullptr;
    if (!node)
        return false;
    const QString partner = partnerOf(side, name);
    const Node *other = partner.isEmpty() ? nullptr : (side == 0 ? m_b : m_a)->find(partner.toStdString());
    GraphCanvas *here = side == 0 ? m_canvasA : m_canvasB;
    GraphCanvas *there = side == 0 ? m_canvasB : m_canvasA;
    {
        QScopedValueRollback following(m_following, true);
        if (here->selectedNode() != name)
            here->selectNode(name);
        if (other)
            there->selectNode(partner);
    }
    const Node *a = side == 0 ? node : other;
    const Node *b = side == 0 ? other : node;
    m_inspector->showNodes(a, b, a && b ? m_comparison->changeOfA(uint32_t(a->index())) : nullptr);
    return true;
}

// The other canvas takes the same zoom and centres on the partner of the node nearest this one's centre, at the
// same offset; without one in sight, on the same relative point of its picture.
void CompareWidget::followView(int fromSide)
{
    if (m_following || !m_comparison)
        return;
    QScopedValueRollback following(m_following, true);
    GraphCanvas *from = fromSide == 0 ? m_canvasA : m_canvasB;
    GraphCanvas *to = fromSide == 0 ? m_canvasB : m_canvasA;
    if (!to->sceneLayout() || to->isLayoutRunning())
        return;
    const QPointF centre = from->viewCentre();
    QPointF target;
    const CanvasNodeItem *near = nodeNearestCentre(from);
    const CanvasNodeItem *partner = near ? to->nodeItem(partnerOf(fromSide, near->name())) : nullptr;
    if (partner) {
        target = partner->sceneBoundingRect().center() + (centre - near->sceneBoundingRect().center());
    } else {
        const QRectF f = from->sceneRect(), t = to->sceneRect();
        const qreal x = f.width() > 0 ? (centre.x() - f.left()) / f.width() : 0.5;
        const qreal y = f.height() > 0 ? (centre.y() - f.top()) / f.height() : 0.5;
        target = QPointF(t.left() + x * t.width(), t.top() + y * t.height());
    }
    to->restoreView(from->zoom(), target, to->expandedGroupLabels());
}

} // namespace fxs
