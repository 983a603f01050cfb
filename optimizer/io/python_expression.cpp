#include "python_expression.h"

#include "../ir/argument.h"

namespace fxs {

void ExprTree::clear()
{
    m_exprs.clear();
    m_children.clear();
    m_strings.clear();
    m_compareOps.clear();
}

ExprId ExprTree::add(const Expr &expr, const ExprId *children, size_t count)
{
    Expr e = expr;
    e.firstChild = uint32_t(m_children.size());
    e.childCount = uint32_t(count);
    m_children.insert(m_children.end(), children, children + count);
    m_exprs.push_back(e);
    return ExprId(m_exprs.size() - 1);
}

uint32_t ExprTree::addString(std::string value)
{
    m_strings.push_back(std::move(value));
    return uint32_t(m_strings.size() - 1);
}

uint32_t ExprTree::addCompareOperator(std::string_view op)
{
    m_compareOps.push_back(op);
    return uint32_t(m_compareOps.size() - 1);
}

bool ExprTree::isNoneConstant(ExprId id) const
{
    return id != kNoExpr && m_exprs[id].kind == ExprKind::Constant && m_exprs[id].text == "None";
}

std::string ExprTree::dottedName(ExprId id) const
{
    // Walks down the attribute chain iteratively, then joins the parts in source order.
    std::vector<std::string_view> parts;
    ExprId cur = id;
    while (cur != kNoExpr) {
        const Expr &e = m_exprs[cur];
        if (e.kind == ExprKind::Name) {
            parts.push_back(e.text);
            break;
        }
        if (e.kind != ExprKind::Attribute)
            return {};
        parts.push_back(e.text);
        cur = child(cur, 0);
    }
    std::string out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        if (!out.empty())
            out += '.';
        out += *it;
    }
    return out;
}

std::string ExprTree::toSource(ExprId id) const
{
    std::string out;
    if (id != kNoExpr)
        appendSource(out, id);
    return out;
}

void ExprTree::appendSource(std::string &out, ExprId id) const
{
    // Recursion here is bounded by the parser's expression depth limit.
    if (id == kNoExpr)
        return;
    const Expr &e = m_exprs[id];
    std::string_view span = m_source.substr(e.begin, e.end - e.begin);
    // A span includes the expression's own parentheses, so one-line source is copied as written.
    if (span.find('\n') == std::string_view::npos && !span.empty()) {
        out += span;
        return;
    }
    bool wrap = e.parenthesized;
    if (wrap)
        out += '(';
    auto children = [&](size_t from, const char *sep) {
        for (size_t i = from; i < e.childCount; ++i) {
            if (i > from)
                out += sep;
            appendSource(out, child(id, i));
        }
    };
    switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Number:
    case ExprKind::Constant: out += e.text; break;
    case ExprKind::String: out += pythonStringRepr(m_strings[e.value]); break;
    case ExprKind::Ellipsis: out += "..."; break;
    case ExprKind::Attribute:
        appendSource(out, child(id, 0));
        out += '.';
        out += e.text;
        break;
    case ExprKind::Call:
        appendSource(out, child(id, 0));
        out += '(';
        children(1, ", ");
        out += ')';
        break;
    case ExprKind::Keyword:
        out += e.text;
        out += '=';
        appendSource(out, child(id, 0));
        break;
    case ExprKind::Starred:
        out += '*';
        appendSource(out, child(id, 0));
        break;
    case ExprKind::DoubleStarred:
        out += "**";
        appendSource(out, child(id, 0));
        break;
    case ExprKind::Subscript:
        appendSource(out, child(id, 0));
        out += '[';
        appendSource(out, child(id, 1));
        out += ']';
        break;
    case ExprKind::Slice:
        appendSource(out, child(id, 0));
        out += ':';
        appendSource(out, child(id, 1));
        if (child(id, 2) != kNoExpr) {
            out += ':';
            appendSource(out, child(id, 2));
        }
        break;
    case ExprKind::Tuple: // the parentheses, when written, come from `wrap`
        children(0, ", ");
        if (e.childCount == 1)
            out += ',';
        break;
    case ExprKind::List:
        out += '[';
        children(0, ", ");
        out += ']';
        break;
    case ExprKind::Set:
        out += '{';
        children(0, ", ");
        out += '}';
        break;
    case ExprKind::Dict:
        out += '{';
        for (size_t i = 0; i + 1 < e.childCount; i += 2) {
            if (i)
                out += ", ";
            if (child(id, i) == kNoExpr) {
                out += "**";
            } else {
                appendSource(out, child(id, i));
                out += ": ";
            }
            appendSource(out, child(id, i + 1));
        }
        out += '}';
        break;
    case ExprKind::UnaryOp:
        out += e.text;
        if (e.text == "not")
            out += ' ';
        appendSource(out, child(id, 0));
        break;
    case ExprKind::BinOp:
    case ExprKind::BoolOp:
        appendSource(out, child(id, 0));
        out += ' ';
        out += e.text;
        out += ' ';
        appendSource(out, child(id, 1));
        break;
    case ExprKind::Compare:
        appendSource(out, child(id, 0));
        for (size_t i = 1; i < e.childCount; ++i) {
            out += ' ';
            out += compareOperator(id, i - 1);
            out += ' ';
            appendSource(out, child(id, i));
        }
        break;
    case ExprKind::IfExp:
        appendSource(out, child(id, 0));
        out += " if ";
        appendSource(out, child(id, 1));
        out += " else ";
        appendSource(out, child(id, 2));
        break;
    case ExprKind::ListComp:
    case ExprKind::SetComp:
    case ExprKind::DictComp:
    case ExprKind::GeneratorExp: {
        const char *open = e.kind == ExprKind::ListComp ? "[" : e.kind == ExprKind::GeneratorExp ? "(" : "{";
        const char *close = e.kind == ExprKind::ListComp ? "]" : e.kind == ExprKind::GeneratorExp ? ")" : "}";
        out += open;
        size_t i = 0;
        appendSource(out, child(id, i++));
        if (e.kind == ExprKind::DictComp) {
            out += ": ";
            appendSource(out, child(id, i++));
        }
        for (; i < e.childCount; ++i) {
            out += ' ';
            appendSource(out, child(id, i));
        }
        out += close;
        break;
    }
    case ExprKind::CompFor:
        out += "for ";
        appendSource(out, child(id, 0));
        out += " in ";
        appendSource(out, child(id, 1));
        for (size_t i = 2; i < e.childCount; ++i) {
            out += " if ";
            appendSource(out, child(id, i));
        }
        break;
    case ExprKind::FormattedString:
    case ExprKind::FormattedValue: {
        // f'...': literal parts escaped with braces doubled, fields as written (a spec's own fields included).
        std::string text;
        auto literal = [&](const std::string &s) {
            for (char c : s) {
                if (c == '\\' || c == '\'')
                    text += '\\';
                if (c == '\n') {
                    text += "\\n";
                    continue;
                }
                text += c;
                if (c == '{' || c == '}')
                    text += c;
            }
        };
        // A spec holds fields, whose specs hold none (the parser allows one level), so this recursion is shallow.
        auto field = [&](ExprId f, auto &self) -> void {
            text += '{';
            appendSource(text, child(f, 0));
            if (!m_exprs[f].text.empty())
                text += "!" + std::string(m_exprs[f].text);
            if (m_exprs[f].childCount > 1) {
                text += ':';
                const ExprId spec = child(f, 1);
                for (size_t i = 0; i < m_exprs[spec].childCount; ++i) {
                    const ExprId part = child(spec, i);
                    if (m_exprs[part].kind == ExprKind::FormattedValue)
                        self(part, self);
                    else
                        literal(m_strings[m_exprs[part].value]);
                }
            }
            text += '}';
        };
        if (e.kind == ExprKind::FormattedValue) {
            field(id, field);
        } else {
            for (size_t i = 0; i < e.childCount; ++i) {
                const ExprId part = child(id, i);
                if (m_exprs[part].kind == ExprKind::FormattedValue)
                    field(part, field);
                else
                    literal(m_strings[m_exprs[part].value]);
            }
        }
        out += "f'" + text + "'";
        break;
    }
    }
    if (wrap)
        out += ')';
}

} // namespace fxs
