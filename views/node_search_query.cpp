#include "node_search_query.h"

#include "ir/graph.h"

namespace fxs {

namespace {

Error queryError(qsizetype column, const QString &message)
{
    return Error{"<search>", 1, int(column) + 1, message.toStdString()};
}

bool textMatches(const QString &value, const QString &text, const std::optional<QRegularExpression> &regex)
{
    return regex ? regex->match(value).hasMatch() : value.contains(text, Qt::CaseInsensitive);
}

} // namespace

Result<NodeSearchQuery> NodeSearchQuery::parse(const QString &text)
{
    NodeSearchQuery query;
    qsizetype i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i].isSpace())
            ++i;
        if (i >= text.size())
            break;
        const qsizetype start = i;
        while (i < text.size() && !text[i].isSpace())
            ++i;
        const QString term = text.mid(start, i - start);
        const qsizetype colon = term.indexOf(QLatin1Char(':'));
        const QString key = colon > 0 ? term.left(colon).toLower() : QString();
        Term field{};
        if (key == QLatin1String("name"))
            field.field = Field::Name;
        else if (key == QLatin1String("target"))
            field.field = Field::Target;
        else if (key == QLatin1String("op"))
            field.field = Field::Op;
        else if (key == QLatin1String("shape"))
            field.field = Field::Shape;
        else {
            // Any other word, colons included, searches name and target.
            query.m_words << term;
            continue;
        }
        const QString value = term.mid(colon + 1);
        const qsizetype valueColumn = start + colon + 1;
        if (value.isEmpty())
            return queryError(valueColumn, QStringLiteral("expected a value after %1:, found nothing").arg(key));
        switch (field.field) {
        case Field::Name:
        case Field::Target:
            if (value.size() >= 2 && value.startsWith(QLatin1Char('/')) && value.endsWith(QLatin1Char('/'))) {
                QRegularExpression regex(value.mid(1, value.size() - 2), QRegularExpression::CaseInsensitiveOption);
                if (!regex.isValid())
                    return queryError(valueColumn + 1 + regex.patternErrorOffset(),
                        QStringLiteral("expected a regular expression, found an error: %1").arg(regex.errorString()));
                field.regex = std::move(regex);
            } else {
                field.text = value;
            }
            break;
        case Field::Op:
            if (const std::optional<OpKind> op = opKindFromName(value.toStdString()))
                field.op = *op;
            else
                return queryError(valueColumn,
                    QStringLiteral("expected placeholder, get_attr, call_function, call_method, call_module or output, "
                                   "found '%1'")
                        .arg(value));
            break;
        case Field::Shape: {
            qsizetype dimColumn = valueColumn;
            for (const QString &dim : value.split(QLatin1Char(','))) {
                const QString d = dim.trimmed();
                if (d.isEmpty())
                    return queryError(
                        dimColumn, QStringLiteral("expected a dimension (a number, a symbol or *), found nothing"));
                field.dims.push_back(
                    d == QLatin1String("*") ? std::nullopt : std::optional<std::string>(d.toStdString()));
                dimColumn += dim.size() + 1;
            }
            break;
        }
        }
        query.m_fields.push_back(std::move(field));
    }
    return query;
}

bool NodeSearchQuery::matches(const Node &node) const
{
    const QString name = QString::fromStdString(node.name());
    const QString target = QString::fromStdString(node.target());
    for (const QString &word : m_words)
        if (!name.contains(word, Qt::CaseInsensitive) && !target.contains(word, Qt::CaseInsensitive))
            return false;
    for (const Term &term : m_fields) {
        switch (term.field) {
        case Field::Name:
            if (!textMatches(name, term.text, term.regex))
                return false;
            break;
        case Field::Target:
            if (!textMatches(target, term.text, term.regex))
                return false;
            break;
        case Field::Op:
            if (node.op() != term.op)
                return false;
            break;
        case Field::Shape: {
            const auto &val = node.meta().val;
            if (!val || val->kind != ValueMeta::Kind::Tensor || val->tensor.shape.size() != term.dims.size())
                return false;
            for (size_t d = 0; d < term.dims.size(); ++d)
                if (term.dims[d] && *term.dims[d] != val->tensor.shape[d].toString())
                    return false;
            break;
        }
        }
    }
    return true;
}

} // namespace fxs
