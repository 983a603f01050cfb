#include "node_table_model.h"

#include "ir/graph.h"

#include <QFontDatabase>

namespace fxs {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// dtype and shape only ("f16[1, 128, 4096]"): strides and device go to the tool tip, because the
// column is read down a long list and the short form is what differs from row to row.
QString shortValue(const ValueMeta &val)
{
    switch (val.kind) {
    case ValueMeta::Kind::Tensor: {
        std::string abbr = dtypeAbbreviation(val.tensor.dtype);
        QString out = qs(abbr.empty() ? val.tensor.dtype : abbr) + QLatin1Char('[');
        for (size_t i = 0; i < val.tensor.shape.size(); ++i) {
            if (i)
                out += QLatin1String(", ");
            out += qs(val.tensor.shape[i].toString());
        }
        return out + QLatin1Char(']');
    }
    case ValueMeta::Kind::Tuple: {
        QStringList items;
        for (const auto &item : val.items)
            items << shortValue(item);
        return QLatin1Char('(') + items.join(QLatin1String(", ")) + QLatin1Char(')');
    }
    default: return qs(val.toAnnotation());
    }
}

QString fullValue(const ValueMeta &val)
{
    if (val.kind != ValueMeta::Kind::Tuple)
        return qs(val.toAnnotation());
    QStringList items;
    for (const auto &item : val.items)
        items << fullValue(item);
    return QLatin1Char('(') + items.join(QLatin1String(", ")) + QLatin1Char(')');
}

QString baseName(const std::string &path)
{
    auto slash = path.find_last_of("/\\");
    return qs(slash == std::string::npos ? path : path.substr(slash + 1));
}

QString inputNames(const Node &node, int limit)
{
    const auto inputs = node.inputNodes();
    QStringList names;
    for (const Node *in : inputs) {
        if (names.size() == limit) {
            names << NodeTableModel::tr("… %1 more").arg(inputs.size() - size_t(limit));
            break;
        }
        names << qs(in->name());
    }
    return names.join(QLatin1String(", "));
}

bool isMonospaced(int column)
{
    return column == NodeTableModel::NameColumn || column == NodeTableModel::TargetColumn
        || column == NodeTableModel::ValueColumn || column == NodeTableModel::InputsColumn;
}

} // namespace

NodeTableModel::NodeTableModel(QObject *parent)
    : QAbstractTableModel(parent), m_fixedFont(QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
}

NodeTableModel::~NodeTableModel() = default;

void NodeTableModel::setGraph(std::shared_ptr<const Graph> graph)
{
    beginResetModel();
    m_graph = std::move(graph);
    endResetModel();
}

const Node *NodeTableModel::node(const QModelIndex &index) const
{
    if (!m_graph || !index.isValid() || index.model() != this || size_t(index.row()) >= m_graph->size())
        return nullptr;
    return m_graph->nodes()[size_t(index.row())].get();
}

int NodeTableModel::rowOfNode(const QString &name) const
{
    if (!m_graph)
        return -1;
    const Node *n = m_graph->find(name.toStdString());
    return n ? int(n->index()) : -1;
}

int NodeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_graph ? 0 : int(m_graph->size());
}

int NodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeTableModel::data(const QModelIndex &index, int role) const
{
    const Node *n = node(index);
    if (!n)
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return display(*n, column);
    case Qt::ToolTipRole: return toolTip(*n, column);
    case SortRole:
        switch (column) {
        case IndexColumn: return qulonglong(n->index());
        case UsersColumn: return qulonglong(n->users().size());
        case InputsColumn: return qulonglong(n->inputNodes().size());
        case SourceColumn:
            // file, then line as a zero-padded number, so model.py:9 sorts before model.py:10
            if (const auto &src = n->meta().source)
                return baseName(src->file) + QStringLiteral(":%1").arg(src->line, 9, 10, QLatin1Char('0'));
            return QString();
        default: return display(*n, column);
        }
    case FilterRole: return qs(n->name()) + QLatin1Char(' ') + qs(n->target());
    case NodeNameRole: return qs(n->name());
    case Qt::TextAlignmentRole:
        if (column == IndexColumn || column == UsersColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (isMonospaced(column))
            return m_fixedFont;
        return {};
    default: return {};
    }
}

QVariant NodeTableModel::display(const Node &n, int column) const
{
    switch (column) {
    case IndexColumn: return qulonglong(n.index());
    case NameColumn: return qs(n.name());
    case OpColumn: return QLatin1String(opKindName(n.op()));
    case TargetColumn: return qs(n.target());
    case ValueColumn:
        if (n.meta().val)
            return shortValue(*n.meta().val);
        return qs(n.meta().typeAnnotation);
    case UsersColumn: return qulonglong(n.users().size());
    case InputsColumn: return inputNames(n, 8);
    case SourceColumn:
        if (const auto &src = n.meta().source)
            return src->line > 0 ? baseName(src->file) + QLatin1Char(':') + QString::number(src->line)
                                 : baseName(src->file);
        return {};
    default: return {};
    }
}

QVariant NodeTableModel::toolTip(const Node &n, int column) const
{
    switch (column) {
    case ValueColumn:
        if (n.meta().val)
            return fullValue(*n.meta().val);
        return {};
    case UsersColumn: {
        QStringList names;
        for (const Node *u : n.users()) {
            if (names.size() == 32) {
                names << tr("… %1 more").arg(n.users().size() - 32);
                break;
            }
            names << qs(u->name());
        }
        return names.join(QLatin1Char('\n'));
    }
    case InputsColumn: return inputNames(n, 32);
    case SourceColumn: {
        const auto &src = n.meta().source;
        if (!src)
            return n.meta().stackTrace.empty() ? QVariant() : QVariant(qs(n.meta().stackTrace));
        QString where = qs(src->file);
        if (src->line > 0)
            where += QLatin1Char(':') + QString::number(src->line);
        if (!src->function.empty())
            where += tr(" in %1").arg(qs(src->function));
        if (!src->code.empty())
            where += QLatin1Char('\n') + qs(src->code);
        return where;
    }
    default: {
        QVariant text = display(n, column);
        return text.toString().isEmpty() ? QVariant() : text;
    }
    }
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IndexColumn: return tr("#");
        case NameColumn: return tr("Name");
        case OpColumn: return tr("Op");
        case TargetColumn: return tr("Target");
        case ValueColumn: return tr("Value");
        case UsersColumn: return tr("Users");
        case InputsColumn: return tr("Inputs");
        case SourceColumn: return tr("Source");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case IndexColumn: return tr("Position in the graph's node order");
        case NameColumn: return tr("Node name");
        case OpColumn: return tr("FX opcode: placeholder, get_attr, call_function, call_method, call_module, output");
        case TargetColumn: return tr("What the node calls (an op overload, a method, a module path or an attribute)");
        case ValueColumn: return tr("dtype and shape of meta[\"val\"]; the tool tip adds strides and device");
        case UsersColumn: return tr("Number of nodes that use this node's value");
        case InputsColumn: return tr("Nodes this node reads, in argument order");
        case SourceColumn: return tr("Where the node came from in the user's program");
        default: return {};
        }
    }
    return {};
}

} // namespace fxs
