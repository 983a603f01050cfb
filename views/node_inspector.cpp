#include "node_inspector.h"

#include <QEvent>

#include "ir/graph.h"
#include "patterns/op_schema.h"
#include "patterns/op_schema_table.h"

#include <QPalette>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace fxs {

namespace {

constexpr char kNodeScheme[] = "node";
constexpr size_t kMaxListedUsers = 200;

QString esc(const std::string &s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString nodeLink(const std::string &name)
{
    return QStringLiteral("<a href=\"%1\">%2</a>")
        .arg(NodeInspector::nodeUrl(QString::fromStdString(name)).toString(QUrl::FullyEncoded).toHtmlEscaped(),
            esc(name));
}

// The argument as Python prints it, with every node reference a link.
QString argumentHtml(const Argument &arg)
{
    auto join = [](const std::vector<Argument> &items) {
        QStringList parts;
        for (const Argument &item : items)
            parts << argumentHtml(item);
        return parts.join(QLatin1String(", "));
    };
    switch (arg.kind()) {
    case Argument::Kind::NodeRef: return arg.node() ? nodeLink(arg.node()->name()) : QStringLiteral("?");
    case Argument::Kind::List: return QLatin1Char('[') + join(arg.items()) + QLatin1Char(']');
    case Argument::Kind::Tuple:
        return QLatin1Char('(') + join(arg.items())
            + (arg.items().size() == 1 ? QStringLiteral(",)") : QStringLiteral(")"));
    case Argument::Kind::Dict: {
        QStringList parts;
        for (size_t i = 0; i < arg.items().size() && i < arg.keys().size(); ++i)
            parts << esc(arg.keys()[i]) + QStringLiteral(": ") + argumentHtml(arg.items()[i]);
        return QLatin1Char('{') + parts.join(QLatin1String(", ")) + QLatin1Char('}');
    }
    default: return esc(arg.toPython());
    }
}

QString row(const QString &key, const QString &valueHtml)
{
    return QStringLiteral("<tr><td class=\"key\">%1</td><td>%2</td></tr>").arg(key.toHtmlEscaped(), valueHtml);
}

QString section(const QString &title)
{
    return QStringLiteral("<h3>%1</h3>").arg(title.toHtmlEscaped());
}

QString dims(const std::vector<SymInt> &values)
{
    QStringList parts;
    for (const SymInt &v : values)
        parts << QString::fromStdString(v.toString());
    return QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
}

QString valueRows(const ValueMeta &val, const QString &prefix)
{
    QString html;
    switch (val.kind) {
    case ValueMeta::Kind::Tensor: {
        const TensorMeta &t = val.tensor;
        html += row(prefix + QStringLiteral("value"), QStringLiteral("<code>%1</code>").arg(esc(val.toAnnotation())));
        html += row(
            prefix + QStringLiteral("shape"), QStringLiteral("<code>%1</code>").arg(dims(t.shape).toHtmlEscaped()));
        if (!t.dtype.empty())
            html += row(prefix + QStringLiteral("dtype"), QStringLiteral("<code>%1</code>").arg(esc(t.dtype)));
        if (t.hasStride)
            html += row(prefix + QStringLiteral("stride"),
                QStringLiteral("<code>%1</code>").arg(dims(t.stride).toHtmlEscaped()));
        if (!t.device.empty())
            html += row(prefix + QStringLiteral("device"), QStringLiteral("<code>%1</code>").arg(esc(t.device)));
        break;
    }
    case ValueMeta::Kind::Tuple:
        for (size_t i = 0; i < val.items.size(); ++i)
            html += valueRows(val.items[i], prefix + QStringLiteral("[%1] ").arg(i));
        break;
    default:
        html += row(prefix + QStringLiteral("value"), QStringLiteral("<code>%1</code>").arg(esc(val.toAnnotation())));
    }
    return html;
}

} // namespace

NodeInspector::NodeInspector(QWidget *parent) : QWidget(parent), m_browser(new QTextBrowser(this))
{
    m_browser->setObjectName(QStringLiteral("inspectorBrowser"));
    m_browser->setOpenLinks(false); // node links select nodes; nothing is navigated to
    m_browser->setFrameShape(QFrame::NoFrame);
    applyStyle();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String(kNodeScheme))
            Q_EMIT nodeActivated(url.path());
    });
    showNode({});
}

NodeInspector::~NodeInspector() = default;

QUrl NodeInspector::nodeUrl(const QString &node)
{
    QUrl url;
    url.setScheme(QLatin1String(kNodeScheme));
    url.setPath(node);
    return url;
}

void NodeInspector::setGraph(std::shared_ptr<const Graph> graph)
{
    m_graph = std::move(graph);
    showNode({});
}

void NodeInspector::applyStyle()
{
    // From the palette, so the light and dark themes both read well.
    const QPalette p = palette();
    const bool dark = p.color(QPalette::Window).lightness() < 128;
    m_browser->document()->setDefaultStyleSheet(
        QStringLiteral("h2 { margin-bottom: 2px; } "
                       "h3 { margin-top: 12px; margin-bottom: 3px; color: %2; font-size: small; } "
                       "td.key { color: %3; padding-right: 12px; white-space: nowrap; } "
                       "td { padding-top: 1px; padding-bottom: 1px; } "
                       "code, pre { font-family: monospace; } "
                       "pre { background-color: %4; margin: 2px; } "
                       ".op { color: #ffffff; background-color: #546e7a; } "
                       ".muted { color: #78909c; } "
                       "a { color: %1; text-decoration: none; font-family: monospace; }")
            .arg(p.color(QPalette::Link).name(), dark ? QStringLiteral("#b0bec5") : QStringLiteral("#37474f"),
                dark ? QStringLiteral("#90a4ae") : QStringLiteral("#607d8b"), p.color(QPalette::AlternateBase).name()));
}

void NodeInspector::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
        showNode(m_node); // the page again, in the new colours
    }
}

void NodeInspector::showNode(const QString &name)
{
    const Node *node = m_graph && !name.isEmpty() ? m_graph->find(name.toStdString()) : nullptr;
    m_node = node ? name : QString();
    if (!node) {
        m_browser->setHtml(
            QStringLiteral("<p class=\"muted\">%1</p>")
                .arg(m_graph ? tr("Select a node on the canvas or in the node list.") : tr("No graph loaded.")));
        return;
    }
    m_browser->setHtml(render(*node));
}

QString NodeInspector::render(const Node &node) const
{
    QString html;
    html += QStringLiteral("<h2><code>%1</code></h2>").arg(esc(node.name()));
    html += QStringLiteral("<table cellspacing=\"0\">");
    html += row(tr("op"), QStringLiteral("<code>%1</code>").arg(QLatin1String(opKindName(node.op()))));
    html += row(tr("target"), QStringLiteral("<code>%1</code>").arg(esc(node.target())));
    if (node.meta().dumpLine > 0)
        html += row(tr("dump line"), QString::number(node.meta().dumpLine));
    html += QStringLiteral("</table>");

    const OpSchema *schema
        = node.op() == OpKind::CallFunction ? OpSchemaTable::instance().find(node.target()) : nullptr;
    if (schema) {
        html += section(tr("Schema"));
        html += QStringLiteral("<pre>%1</pre>").arg(esc(schema->text));
    }

    if (!node.args().empty() || !node.kwargs().empty()) {
        html += section(tr("Arguments"));
        html += QStringLiteral("<table cellspacing=\"0\">");
        // Positional arguments are named after the schema when it is known: self, other, dim …
        std::vector<std::string> positional;
        if (schema)
            for (const SchemaArgument &a : schema->arguments)
                if (!a.kwargOnly)
                    positional.push_back(a.name);
        for (size_t i = 0; i < node.args().size(); ++i) {
            const QString key
                = i < positional.size() ? QString::fromStdString(positional[i]) : QStringLiteral("args[%1]").arg(i);
            html += row(key, argumentHtml(node.args()[i]));
        }
        for (const auto &[key, value] : node.kwargs())
            html += row(QString::fromStdString(key) + QLatin1Char('='), argumentHtml(value));
        html += QStringLiteral("</table>");
    }

    html += section(tr("Users (%1)").arg(node.users().size()));
    if (node.users().empty()) {
        html += QStringLiteral("<p class=\"muted\">%1</p>").arg(tr("none"));
    } else {
        QStringList users;
        for (size_t i = 0; i < node.users().size() && i < kMaxListedUsers; ++i)
            users << nodeLink(node.users()[i]->name());
        if (node.users().size() > kMaxListedUsers)
            users << tr("… %L1 more").arg(node.users().size() - kMaxListedUsers);
        html += QStringLiteral("<p>%1</p>").arg(users.join(QLatin1String(", ")));
    }

    const NodeMeta &meta = node.meta();
    if (meta.val || !meta.typeAnnotation.empty()) {
        html += section(tr("Value"));
        html += QStringLiteral("<table cellspacing=\"0\">");
        if (meta.val)
            html += valueRows(*meta.val, QString());
        if (!meta.typeAnnotation.empty())
            html += row(tr("type"), QStringLiteral("<code>%1</code>").arg(esc(meta.typeAnnotation)));
        html += QStringLiteral("</table>");
    }

    if (meta.source) {
        const SourceLocation &src = *meta.source;
        html += section(tr("Source"));
        QString where = QStringLiteral("<code>%1:%2</code>").arg(esc(src.file)).arg(src.line);
        if (!src.function.empty())
            where += tr(" in <code>%1</code>").arg(esc(src.function));
        html += QStringLiteral("<p>%1</p>").arg(where);
        if (!src.code.empty())
            html += QStringLiteral("<pre>%1</pre>").arg(esc(src.code));
    } else if (!meta.stackTrace.empty()) {
        html += section(tr("Stack trace"));
        html += QStringLiteral("<pre>%1</pre>").arg(esc(meta.stackTrace));
    }

    if (!meta.nnModuleStack.empty()) {
        html += section(tr("nn_module_stack"));
        html += QStringLiteral("<table cellspacing=\"0\">");
        for (const ModuleStackEntry &m : meta.nnModuleStack)
            html += row(QString::fromStdString(m.path.empty() ? m.key : m.path),
                QStringLiteral("<span class=\"muted\">%1</span>").arg(esc(m.type)));
        html += QStringLiteral("</table>");
    }

    if (const Json *provenance = meta.extra.isObject() ? meta.extra.find("fxscope_provenance") : nullptr) {
        html += section(tr("Provenance"));
        html += QStringLiteral("<pre>%1</pre>").arg(esc(provenance->dump(2)));
    }
    if (meta.extra.isObject() && meta.extra.size() > 0) {
        html += section(tr("Other meta"));
        html += QStringLiteral("<pre>%1</pre>").arg(esc(meta.extra.dump(2)));
    }
    return html;
}

} // namespace fxs
