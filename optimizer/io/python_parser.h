#pragma once
// A recursive-descent parser for Python expressions over PythonTokenizer, plus the token cursor that
// statement-level parsers (readable FX code, pattern files) drive themselves. Nesting is bounded
// (kMaxNesting brackets or prefix operators, kMaxExprDepth tree levels), so hostile input gets an error
// rather than a stack overflow. Errors read FILE:LINE:COL: expected X, found Y; the first one sticks.

#include "python_expression.h"
#include "python_tokenizer.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace fxs {

class PythonParser {
public:
    // FX dumps nest a handful of levels; these limits keep the stack small (about 0.7 KiB per nesting level)
    // so parsing is safe on worker threads with small stacks.
    static constexpr int kMaxNesting = 100; // brackets, conditionals and powers inside one another
    static constexpr int kMaxExprDepth = 256; // height of one expression tree (also bounds a.b.c... and a+b+c...)

    PythonParser(std::string_view text, std::string fileName, int firstLine = 1, int firstColumn = 1);

    // The current significant token. COMMENT and NL tokens are skipped; comments that fill their own line
    // are kept for comments().
    const Token &peek() const { return m_token; }
    void advance();
    bool atOp(std::string_view op) const { return m_token.isOp(op); }
    bool atName(std::string_view name) const { return m_token.isName(name); }
    bool at(TokenKind kind) const { return m_token.kind == kind; }
    bool acceptOp(std::string_view op);
    bool acceptName(std::string_view name);
    // Consumes the operator, or fails with "expected 'op' <context>, found ...".
    bool expectOp(std::string_view op, std::string_view context = {});
    // Consumes a NAME (not a keyword) into `name`, or fails.
    bool expectName(std::string_view &name, std::string_view context);

    // Full-line comments seen since the last call, oldest first.
    const std::vector<Token> &comments() const { return m_comments; }
    void clearComments() { m_comments.clear(); }

    // One expression (Python's `test`, or a starred one when allowStar), or kNoExpr after an error.
    ExprId parseExpression(bool allowStar = false);
    // `a, b, *c` with an optional trailing comma: a Tuple unless it is a single expression without a comma.
    ExprId parseExpressionList();
    // Assignment / for targets: `a`, `a, b`, `(a, b), c`, parsed above comparisons so `for x in y` stops at `in`.
    ExprId parseTargetList();
    ExprTree &tree() { return m_tree; }
    const ExprTree &tree() const { return m_tree; }

    // Skips tokens up to and including the NEWLINE that ends the current logical line.
    void skipLogicalLine();
    // Skips an indented block: the current token must be INDENT; consumes through its matching DEDENT.
    void skipBlock();

    bool failed() const { return m_failed; }
    // Forgets a recorded error so parsing can resume (statement-level recovery); not after a tokenizer error.
    bool clearError();
    const Error &error() const { return m_error; }
    const std::string &fileName() const { return m_fileName; }
    // Records an error at a token (the first error wins) and returns false.
    bool failAt(const Token &token, std::string message);
    // "expected <what>, found <current token>".
    bool failExpected(std::string_view what);

private:
    // Where an expression starts; kept small because recursive frames hold it.
    struct Mark {
        int line = 0;
        int column = 0;
        size_t offset = 0;
    };
    Mark mark() const { return {m_token.line, m_token.column, m_token.offset}; }
    Mark markOf(ExprId id) const;

    // One frame per precedence level climbed; brackets re-enter through parseExpression, which counts nesting.
    ExprId parseOperators(int minPrecedence);
    ExprId parseComparisonChain(ExprId left);
    ExprId parseUnary(int minPrecedence);
    ExprId parseNot();
    ExprId parseSigns();
    ExprId parsePower();
    ExprId parsePostfix();
    ExprId parseAtom();
    ExprId parseLeaf(ExprKind kind);
    ExprId parseStrings();
    // The body of one f-string (or of a format spec inside one): literal chunks and {fields} appended to
    // m_scratch as parts. bodyOffset: the body's offset in the tokenized text. nesting: 1 for a string, 2 for
    // a spec (Python allows fields in specs, but not deeper).
    bool parseFStringBody(std::string_view body, size_t bodyOffset, bool raw, int nesting);
    ExprId addFStringLiteral(std::string_view chunk, size_t offset, bool raw);
    ExprId parseFStringField(std::string_view field, size_t offset);
    // Copies every expression of another parser's tree (one field) into this tree; returns the root's id.
    ExprId graft(const ExprTree &from, ExprId root, size_t offsetShift);
    Token tokenAt(size_t offset) const; // the current token moved to a position inside it, for errors
    ExprId parseAttribute(ExprId value);
    ExprId parseCallArguments(ExprId callee);
    ExprId parseSubscript(ExprId value);
    ExprId parseSliceItem();
    ExprId parseParenthesized();
    ExprId parseList();
    ExprId parseBraces();
    // After the element of a comprehension: one or more `for T in I [if C]...` clauses (the current token is `for`).
    ExprId parseComprehension(ExprKind kind, Mark start, size_t scratchMark);
    bool enterNesting();
    // Builds a node from `start` to the last consumed token; children from the list, or from m_scratch[scratchMark..].
    ExprId make(ExprKind kind, Mark start, std::string_view text, std::initializer_list<ExprId> children);
    ExprId makeFromScratch(ExprKind kind, Mark start, std::string_view text, size_t scratchMark, uint32_t value = 0);

    PythonTokenizer m_tokenizer;
    std::string m_fileName;
    Token m_token;
    TokenKind m_previousRaw = TokenKind::Newline;
    size_t m_previousEnd = 0; // end offset of the last significant token consumed
    std::vector<Token> m_comments;
    ExprTree m_tree;
    std::vector<ExprId> m_scratch;
    int m_nesting = 0;
    bool m_failed = false;
    Error m_error;
};

} // namespace fxs
