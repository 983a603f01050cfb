#include "sympy_repr.h"

#include "python_parser.h"

#include <optional>
#include <vector>

namespace fxs {

namespace {

// A piece of Python text and whether it must be parenthesised inside a product or a power.
struct Piece {
    std::string text;
    bool sum = false;
    bool atom = true;
};

// srepr is Python call syntax, read by PythonParser; the tree's height is bounded by the parser, so this recursion
// is too. Keyword arguments (integer=True) are assumptions, not arguments.
std::optional<Piece> convert(const ExprTree &t, ExprId id)
{
    const Expr &e = t[id];
    switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Number: return Piece{std::string(e.text)};
    case ExprKind::String: return Piece{t.stringValue(id)};
    case ExprKind::UnaryOp:
        if (e.text == "-" && t[t.child(id, 0)].kind == ExprKind::Number)
            return Piece{"-" + std::string(t[t.child(id, 0)].text)};
        return std::nullopt;
    case ExprKind::Call: break;
    default: return std::nullopt;
    }
    const std::string head = t.dottedName(t.child(id, 0));
    std::vector<Piece> args;
    for (size_t i = 1; i < t.childCount(id); ++i) {
        if (t[t.child(id, i)].kind == ExprKind::Keyword)
            continue;
        auto arg = convert(t, t.child(id, i));
        if (!arg)
            return std::nullopt;
        args.push_back(std::move(*arg));
    }
    if ((head == "Symbol" || head == "Integer") && args.size() == 1)
        return args[0];
    if (head == "Zero" && args.empty())
        return Piece{"0"};
    if (head == "One" && args.empty())
        return Piece{"1"};
    if (head == "NegativeOne" && args.empty())
        return Piece{"-1"};
    if (head == "Rational" && args.size() == 2)
        return Piece{args[0].text + "/" + args[1].text, false, false};
    if ((head == "Add" || head == "Mul") && !args.empty()) {
        Piece out{{}, head == "Add", false};
        for (const Piece &a : args) {
            if (head == "Add")
                out.text += out.text.empty() ? a.text : (a.text[0] == '-' ? " - " + a.text.substr(1) : " + " + a.text);
            else if (out.text.empty() && a.text == "-1")
                out.text = "-";
            else
                out.text += (out.text.empty() || out.text == "-" ? "" : "*") + (a.sum ? "(" + a.text + ")" : a.text);
        }
        return out;
    }
    if (head == "Pow" && args.size() == 2)
        return Piece{(args[0].atom ? args[0].text : "(" + args[0].text + ")") + "**"
                + (args[1].atom ? args[1].text : "(" + args[1].text + ")"),
            false, false};
    // FloorDiv, Max, Min, Mod, CeilToInt, ...: printed as calls, as torch prints them.
    std::string text = head + "(";
    for (size_t i = 0; i < args.size(); ++i)
        text += (i ? ", " : "") + args[i].text;
    return Piece{text + ")"};
}

} // namespace

std::string sympyReprToText(std::string_view expr)
{
    // srepr always names its atoms: no Symbol( or Integer( means the text is already Python.
    if (expr.find("Symbol(") == std::string_view::npos && expr.find("Integer(") == std::string_view::npos)
        return std::string(expr);
    PythonParser parser(expr, "sympy expression");
    const ExprId root = parser.parseExpression();
    const bool whole = parser.at(TokenKind::Newline) || parser.at(TokenKind::EndMarker);
    if (parser.failed() || root == kNoExpr || !whole)
        return std::string(expr);
    auto text = convert(parser.tree(), root);
    return text ? text->text : std::string(expr);
}

} // namespace fxs
