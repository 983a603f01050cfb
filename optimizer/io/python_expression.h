#pragma once
// The expression trees PythonParser builds: flat arrays of nodes and child indices rather than one heap
// object per node, so parsing a statement costs a few vector appends and the storage is reused from one
// statement to the next.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxs {

enum class ExprKind : uint8_t {
    Name, // text: the identifier
    Number, // text: the literal as written
    String, // value: index of the decoded text (adjacent literals concatenated)
    Constant, // text: None, True or False
    Ellipsis, // ...
    Attribute, // children: value; text: the attribute name
    Call, // children: callee, then arguments (Keyword, Starred and DoubleStarred among them)
    Keyword, // children: value; text: the keyword
    Starred, // children: value (*x)
    DoubleStarred, // children: value (**x)
    Subscript, // children: value, index (the index may be a Slice or a Tuple of them)
    Slice, // children: lower, upper, step; each may be kNoExpr
    Tuple, // children: elements
    List, // children: elements
    Set, // children: elements
    Dict, // children: key, value, key, value, ...; a key is kNoExpr for **mapping
    UnaryOp, // children: operand; text: -, +, ~ or not
    BinOp, // children: left, right; text: the operator
    BoolOp, // children: left, right; text: and / or
    Compare, // children: left, then one comparand per operator; value: index of the first operator
    IfExp, // children: body, test, orelse
    // Comprehensions: children: the element (a DictComp: key, value), then one CompFor per `for` clause.
    ListComp,
    SetComp,
    DictComp,
    GeneratorExp,
    CompFor, // children: target, iterable, then one condition per `if`
    // f-strings (with any adjacent literals): children: String parts and FormattedValues, in order.
    FormattedString,
    // One {field} of an f-string: children: the value, then the format spec (a String or FormattedString) if any;
    // text: the conversion (r, s or a), empty without one.
    FormattedValue,
};

using ExprId = uint32_t;
constexpr ExprId kNoExpr = UINT32_MAX;

struct Expr {
    ExprKind kind = ExprKind::Name;
    bool parenthesized = false; // written inside its own parentheses
    uint16_t depth = 1; // height of the subtree, bounded by the parser
    std::string_view text;
    uint32_t firstChild = 0;
    uint32_t childCount = 0;
    uint32_t value = 0;
    int line = 0; // where the expression starts
    int column = 0;
    size_t begin = 0; // source span (offsets into the parsed text), its own parentheses included
    size_t end = 0;
};

class ExprTree {
public:
    void setSource(std::string_view source) { m_source = source; }
    std::string_view source() const { return m_source; }
    // Forgets every expression; capacity is kept for the next statement.
    void clear();

    ExprId add(const Expr &expr, const ExprId *children = nullptr, size_t count = 0);
    const Expr &operator[](ExprId id) const { return m_exprs[id]; }
    Expr &at(ExprId id) { return m_exprs[id]; }
    size_t size() const { return m_exprs.size(); }

    size_t childCount(ExprId id) const { return m_exprs[id].childCount; }
    ExprId child(ExprId id, size_t i) const { return m_children[m_exprs[id].firstChild + i]; }

    uint32_t addString(std::string value);
    const std::string &stringValue(ExprId id) const { return m_strings[m_exprs[id].value]; }
    uint32_t addCompareOperator(std::string_view op);
    std::string_view compareOperator(ExprId id, size_t i) const { return m_compareOps[m_exprs[id].value + i]; }

    // The expression as Python source: its own text when it sits on one line, otherwise rebuilt in a
    // canonical one-line spelling (black splits calls over many lines).
    std::string toSource(ExprId id) const;
    // The dotted name an expression spells (torch.ops.aten.add.Tensor), or "" when it is not one.
    std::string dottedName(ExprId id) const;
    // True for the constant None, however many parentheses surround it (parentheses are not nodes).
    bool isNoneConstant(ExprId id) const;

private:
    void appendSource(std::string &out, ExprId id) const;

    std::string_view m_source;
    std::vector<Expr> m_exprs;
    std::vector<ExprId> m_children;
    std::vector<std::string> m_strings;
    std::vector<std::string_view> m_compareOps;
};

} // namespace fxs
