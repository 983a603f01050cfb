#pragma once
// A parsed pattern file: statements of the supported Python subset over one ExprTree. Constructs outside the
// subset (lambda, global, yield, unknown decorators, ...) fail here with FILE:LINE:COL, the construct and what to
// write instead, before anything runs -- except inside a def, where such a statement becomes an Unsupported one
// that raises that error only if it runs (helper code a registration never reaches does not stop the file), and
// is listed in deferred() for the load warnings.

#include "io/python_parser.h"
#include "util/result.h"

#include <memory>
#include <string>
#include <vector>

namespace fxs {

struct PyStmt;

struct PyParam {
    std::string name;
    ExprId defaultValue = kNoExpr;
    enum class Kind { Normal, Star, DoubleStar } kind = Kind::Normal;
};

struct PyFunctionDef {
    std::string name;
    std::vector<PyParam> params;
    std::vector<PyStmt> body;
    std::vector<ExprId> decorators; // outermost first, as written above the def
    int line = 0;
    size_t begin = 0; // source span of the whole def (shown as the extra_check's source)
    size_t end = 0;
};

struct PyImportName {
    std::string name; // dotted for `import a.b`
    std::string alias; // empty: none
};

enum class PyStmtKind {
    Expr,
    Assign,
    AugAssign,
    If,
    For,
    While,
    Break,
    Continue,
    Return,
    Pass,
    Def,
    Import,
    ImportFrom,
    With,
    Raise,
    Assert,
    Try,
    Class, // def: name and body (the class namespace); items: base class expressions
    Unsupported, // a construct outside the subset inside a def: raises SubsetError(message) when run
};

struct PyExceptHandler {
    ExprId type = kNoExpr; // kNoExpr: a bare except
    std::string name; // `as name`; empty: none
    int line = 0;
    std::vector<PyStmt> body;
};

struct PyStmt {
    PyStmtKind kind = PyStmtKind::Pass;
    int line = 0;
    int column = 0;
    size_t begin = 0;
    size_t end = 0;
    ExprId value = kNoExpr; // Expr/Assign/AugAssign/Return value, If/While test, For iterable, Raise, Assert
    std::vector<ExprId> targets; // Assign (a = b = v), AugAssign, For target, With `as` targets (kNoExpr: none)
    std::vector<ExprId> items; // With context expressions
    std::string op; // AugAssign operator without '='
    std::vector<PyStmt> body;
    std::vector<PyStmt> orelse; // If (elif is a nested If), For/While/Try else
    std::vector<PyExceptHandler> handlers; // Try
    std::vector<PyStmt> finalbody; // Try
    std::string message; // Unsupported: the error (construct and what to write instead)
    bool annotated = false; // Assign/Pass written `x: T [= v]` (the fields of a dataclass)
    std::shared_ptr<PyFunctionDef> def;
    std::string module; // ImportFrom
    std::vector<PyImportName> names; // Import / ImportFrom
};

// Owns the source text, the parser (and so the ExprTree) and the statements.
class PyModule {
public:
    static Result<std::shared_ptr<PyModule>> parse(std::string source, std::string fileName);

    const std::vector<PyStmt> &body() const { return m_body; }
    const ExprTree &tree() const { return m_parser->tree(); }
    const std::string &fileName() const { return m_fileName; }
    const std::string &source() const { return m_source; }
    std::string_view sourceSpan(size_t begin, size_t end) const;
    // "FILE:LINE:COL: message" of every Unsupported statement, in source order.
    const std::vector<std::string> &deferred() const { return m_deferred; }

private:
    bool parseBlock(std::vector<PyStmt> &out);
    bool parseStatement(std::vector<PyStmt> &out);
    bool parseSimple(std::vector<PyStmt> &out);
    bool parseCompoundBody(std::vector<PyStmt> &out);
    bool parseDef(PyStmt &s);
    bool parseIf(PyStmt &s);
    bool parseTry(PyStmt &s);
    bool recoverUnsupported(std::vector<PyStmt> &out, size_t outSize, int depth, const Token &start);
    bool unsupported(const Token &at, const std::string &construct, const std::string &instead);
    bool endOfSimple();

    std::string m_source;
    std::string m_fileName;
    std::unique_ptr<PythonParser> m_parser;
    std::vector<PyStmt> m_body;
    int m_depth = 0;
    int m_functionDepth = 0;
    std::vector<std::string> m_deferred;
};

} // namespace fxs
