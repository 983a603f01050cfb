#include "py_module.h"

namespace fxs {

namespace {

constexpr int kMaxBlockDepth = 50; // nested blocks; deeper files are refused before anything runs

} // namespace

Result<std::shared_ptr<PyModule>> PyModule::parse(std::string source, std::string fileName)
{
    auto m = std::shared_ptr<PyModule>(new PyModule());
    m->m_source = std::move(source);
    m->m_fileName = std::move(fileName);
    m->m_parser = std::make_unique<PythonParser>(m->m_source, m->m_fileName);
    PythonParser &p = *m->m_parser;
    while (!p.failed() && !p.at(TokenKind::EndMarker)) {
        if (p.at(TokenKind::Newline)) {
            p.advance();
            continue;
        }
        if (!m->parseStatement(m->m_body))
            break;
    }
    if (p.failed())
        return p.error();
    return m;
}

std::string_view PyModule::sourceSpan(size_t begin, size_t end) const
{
    if (begin > m_source.size() || end > m_source.size() || end < begin)
        return {};
    return std::string_view(m_source).substr(begin, end - begin);
}

bool PyModule::unsupported(const Token &at, const std::string &construct, const std::string &instead)
{
    return m_parser->failAt(at, construct + " is outside fxscope's Python subset (docs/python-subset.md); " + instead);
}

// Inside a def, a statement outside the subset is kept as an Unsupported statement instead of failing the file:
// the rest of its line (and the block it opens, and a try's clauses) is skipped. Other errors (syntax, the
// tokenizer) still fail.
bool PyModule::recoverUnsupported(std::vector<PyStmt> &out, size_t outSize, int depth, const Token &start)
{
    PythonParser &p = *m_parser;
    if (m_functionDepth == 0)
        return false;
    Error error = p.error();
    if (p.peek().isName("lambda") && error.line == p.peek().line && error.column == p.peek().column)
        error.message = "a lambda is outside fxscope's Python subset (docs/python-subset.md); write a def and pass "
                        "its name";
    if (error.message.find("outside fxscope's Python subset") == std::string::npos || !p.clearError())
        return false;
    m_depth = depth;
    out.resize(outSize);
    const bool compound = start.isName("class") || start.isName("try") || start.isName("with") || start.isName("for")
        || start.isName("while") || start.isName("if") || start.isOp("@");
    p.skipLogicalLine();
    if (compound && p.at(TokenKind::Indent))
        p.skipBlock();
    while (compound && (p.atName("elif") || p.atName("else") || p.atName("except") || p.atName("finally"))) {
        p.skipLogicalLine();
        if (p.at(TokenKind::Indent))
            p.skipBlock();
    }
    if (p.failed())
        return false;
    PyStmt s;
    s.kind = PyStmtKind::Unsupported;
    s.line = error.line;
    s.column = error.column;
    s.begin = start.offset;
    s.end = p.peek().offset;
    s.message = error.message;
    m_deferred.push_back(error.toString());
    out.push_back(std::move(s));
    return true;
}

// try: body, then `except [Type [as name]]:` clauses, an optional else and an optional finally.
bool PyModule::parseTry(PyStmt &s)
{
    PythonParser &p = *m_parser;
    if (!parseCompoundBody(s.body))
        return false;
    while (p.atName("except")) {
        PyExceptHandler h;
        h.line = p.peek().line;
        p.advance();
        if (p.atOp("*"))
            return unsupported(p.peek(), "'except*'", "catch the exception group's type with a plain except");
        if (!p.atOp(":")) {
            h.type = p.parseExpression();
            std::string_view name;
            if (p.acceptName("as")) {
                if (!p.expectName(name, "after 'as'"))
                    return false;
                h.name = std::string(name);
            }
        }
        if (!parseCompoundBody(h.body))
            return false;
        s.handlers.push_back(std::move(h));
    }
    if (!s.handlers.empty() && p.acceptName("else") && !parseCompoundBody(s.orelse))
        return false;
    if (p.acceptName("finally") && !parseCompoundBody(s.finalbody))
        return false;
    if (s.handlers.empty() && s.finalbody.empty())
        return p.failExpected("'except' or 'finally' after the try block");
    return !p.failed();
}

bool PyModule::endOfSimple()
{
    PythonParser &p = *m_parser;
    if (p.acceptOp(";")) {
        if (p.at(TokenKind::Newline))
            p.advance();
        return !p.failed();
    }
    if (p.at(TokenKind::EndMarker))
        return true;
    if (!p.at(TokenKind::Newline))
        return p.failExpected("the end of the statement");
    p.advance();
    return true;
}

bool PyModule::parseBlock(std::vector<PyStmt> &out)
{
    PythonParser &p = *m_parser;
    if (!p.at(TokenKind::Indent))
        return p.failExpected("an indented block");
    if (++m_depth > kMaxBlockDepth)
        return p.failAt(p.peek(), "blocks nest more than " + std::to_string(kMaxBlockDepth) + " levels deep");
    p.advance();
    while (!p.failed() && !p.at(TokenKind::Dedent) && !p.at(TokenKind::EndMarker)) {
        if (p.at(TokenKind::Newline)) {
            p.advance();
            continue;
        }
        const Token start = p.peek();
        const size_t outSize = out.size();
        const int depth = m_depth;
        if (!parseStatement(out) && !recoverUnsupported(out, outSize, depth, start))
            return false;
    }
    --m_depth;
    if (p.at(TokenKind::Dedent))
        p.advance();
    return !p.failed();
}

// `:` then either a simple statement on the same line or NEWLINE + an indented block.
bool PyModule::parseCompoundBody(std::vector<PyStmt> &out)
{
    PythonParser &p = *m_parser;
    if (!p.expectOp(":", "to open the block"))
        return false;
    if (p.at(TokenKind::Newline)) {
        p.advance();
        return parseBlock(out);
    }
    return parseSimple(out);
}

bool PyModule::parseDef(PyStmt &s)
{
    PythonParser &p = *m_parser;
    auto def = std::make_shared<PyFunctionDef>();
    def->line = s.line;
    def->begin = s.begin;
    std::string_view name;
    if (!p.expectName(name, "after 'def'"))
        return false;
    def->name = std::string(name);
    if (!p.expectOp("(", "opening the parameters"))
        return false;
    bool kwOnly = false;
    while (!p.failed() && !p.atOp(")")) {
        PyParam param;
        if (p.acceptOp("**"))
            param.kind = PyParam::Kind::DoubleStar;
        else if (p.acceptOp("*")) {
            if (p.atOp(",")) { // bare `*`: keyword-only parameters follow; bound like normal ones here
                kwOnly = true;
                p.advance();
                continue;
            }
            param.kind = PyParam::Kind::Star;
        } else if (p.atOp("/")) {
            p.advance();
            p.acceptOp(",");
            continue;
        }
        std::string_view pname;
        if (!p.expectName(pname, "as a parameter name"))
            return false;
        param.name = std::string(pname);
        if (p.acceptOp(":")) // annotations are read and ignored
            p.parseExpression();
        if (p.acceptOp("="))
            param.defaultValue = p.parseExpression();
        def->params.push_back(param);
        if (!p.acceptOp(","))
            break;
    }
    (void)kwOnly;
    if (!p.expectOp(")", "closing the parameters"))
        return false;
    if (p.acceptOp("->"))
        p.parseExpression();
    ++m_functionDepth;
    const bool bodyParsed = parseCompoundBody(def->body);
    --m_functionDepth;
    if (!bodyParsed)
        return false;
    def->end = s.end = p.peek().offset;
    s.def = def;
    return true;
}

bool PyModule::parseIf(PyStmt &s)
{
    PythonParser &p = *m_parser;
    s.kind = PyStmtKind::If;
    s.value = p.parseExpression();
    if (!parseCompoundBody(s.body))
        return false;
    if (p.atName("elif")) {
        PyStmt nested;
        nested.line = p.peek().line;
        nested.column = p.peek().column;
        nested.begin = p.peek().offset;
        p.advance();
        if (!parseIf(nested))
            return false;
        s.orelse.push_back(std::move(nested));
    } else if (p.acceptName("else")) {
        if (!parseCompoundBody(s.orelse))
            return false;
    }
    return true;
}

bool PyModule::parseStatement(std::vector<PyStmt> &out)
{
    PythonParser &p = *m_parser;
    const Token t = p.peek();
    PyStmt s;
    s.line = t.line;
    s.column = t.column;
    s.begin = t.offset;
    if (t.kind == TokenKind::Indent)
        return p.failAt(t, "unexpected indent");
    if (t.isOp("@")) {
        // Decorators are evaluated when the def runs; the interpreter accepts functools.lru_cache/cache and
        // functions of the file, and names anything else at its line.
        std::vector<ExprId> decorators;
        while (p.acceptOp("@")) {
            decorators.push_back(p.parseExpression());
            if (p.failed())
                return false;
            if (!p.at(TokenKind::Newline))
                return p.failExpected("the end of the decorator line");
            p.advance();
        }
        if (!p.atName("def") && !p.atName("class"))
            return p.failExpected("'def' or 'class' after the decorators");
        const size_t before = out.size();
        if (!parseStatement(out))
            return false;
        if (out.size() != before + 1 || !out.back().def)
            return p.failExpected("a function or class definition after the decorators");
        out.back().def->decorators = std::move(decorators);
        return true;
    }
    if (t.kind != TokenKind::Name || !isPythonKeyword(t.text) || t.text == "None" || t.text == "True"
        || t.text == "False" || t.text == "not" || t.text == "lambda")
        return parseSimple(out);
    const std::string_view kw = t.text;
    if (kw == "def") {
        p.advance();
        s.kind = PyStmtKind::Def;
        if (!parseDef(s))
            return false;
    } else if (kw == "if") {
        p.advance();
        if (!parseIf(s))
            return false;
    } else if (kw == "for" || kw == "while") {
        p.advance();
        if (kw == "for") {
            s.kind = PyStmtKind::For;
            s.targets.push_back(p.parseTargetList());
            if (!p.failed() && !p.acceptName("in"))
                return p.failExpected("'in' in the for statement");
            s.value = p.parseExpressionList();
        } else {
            s.kind = PyStmtKind::While;
            s.value = p.parseExpression();
        }
        if (!parseCompoundBody(s.body))
            return false;
        if (p.acceptName("else") && !parseCompoundBody(s.orelse))
            return false;
    } else if (kw == "with") {
        p.advance();
        s.kind = PyStmtKind::With;
        do {
            s.items.push_back(p.parseExpression());
            s.targets.push_back(p.acceptName("as") ? p.parseTargetList() : kNoExpr);
        } while (!p.failed() && p.acceptOp(","));
        if (!parseCompoundBody(s.body))
            return false;
    } else if (kw == "class") {
        p.advance();
        s.kind = PyStmtKind::Class;
        auto def = std::make_shared<PyFunctionDef>();
        def->line = s.line;
        def->begin = s.begin;
        std::string_view name;
        if (!p.expectName(name, "after 'class'"))
            return false;
        def->name = std::string(name);
        if (p.acceptOp("(")) {
            while (!p.failed() && !p.atOp(")")) {
                s.items.push_back(p.parseExpression());
                if (!p.acceptOp(","))
                    break;
            }
            if (!p.expectOp(")", "closing the base classes"))
                return false;
        }
        if (!parseCompoundBody(def->body))
            return false;
        def->end = p.peek().offset;
        s.def = def;
    } else if (kw == "try") {
        p.advance();
        s.kind = PyStmtKind::Try;
        if (!parseTry(s))
            return false;
    } else if (kw == "async" || kw == "await") {
        return unsupported(t, "async code", "write ordinary functions");
    } else {
        return parseSimple(out);
    }
    s.end = p.peek().offset;
    out.push_back(std::move(s));
    return !p.failed();
}

bool PyModule::parseSimple(std::vector<PyStmt> &out)
{
    PythonParser &p = *m_parser;
    const Token t = p.peek();
    PyStmt s;
    s.line = t.line;
    s.column = t.column;
    s.begin = t.offset;
    const std::string_view kw = t.kind == TokenKind::Name ? t.text : std::string_view();
    if (kw == "pass" || kw == "break" || kw == "continue") {
        s.kind = kw == "pass" ? PyStmtKind::Pass : kw == "break" ? PyStmtKind::Break : PyStmtKind::Continue;
        p.advance();
    } else if (kw == "return") {
        s.kind = PyStmtKind::Return;
        p.advance();
        if (!p.at(TokenKind::Newline) && !p.atOp(";") && !p.at(TokenKind::EndMarker))
            s.value = p.parseExpressionList();
    } else if (kw == "raise") {
        s.kind = PyStmtKind::Raise;
        p.advance();
        if (!p.at(TokenKind::Newline) && !p.at(TokenKind::EndMarker))
            s.value = p.parseExpression();
        if (p.atName("from"))
            return unsupported(p.peek(), "raise ... from", "raise the exception alone");
    } else if (kw == "assert") {
        s.kind = PyStmtKind::Assert;
        p.advance();
        s.value = p.parseExpression();
        if (p.acceptOp(","))
            s.items.push_back(p.parseExpression());
    } else if (kw == "import") {
        s.kind = PyStmtKind::Import;
        p.advance();
        do {
            PyImportName n;
            std::string_view part;
            if (!p.expectName(part, "as a module name"))
                return false;
            n.name = std::string(part);
            while (p.acceptOp(".")) {
                if (!p.expectName(part, "after '.' in the module name"))
                    return false;
                n.name += "." + std::string(part);
            }
            if (p.acceptName("as")) {
                if (!p.expectName(part, "after 'as'"))
                    return false;
                n.alias = std::string(part);
            }
            s.names.push_back(std::move(n));
        } while (p.acceptOp(","));
    } else if (kw == "from") {
        s.kind = PyStmtKind::ImportFrom;
        p.advance();
        while (p.atOp(".") || p.atOp("...")) {
            s.module += std::string(p.peek().text);
            p.advance();
        }
        std::string_view part;
        if (!p.atName("import")) {
            if (!p.expectName(part, "as a module name"))
                return false;
            s.module += std::string(part);
            while (p.acceptOp(".")) {
                if (!p.expectName(part, "after '.' in the module name"))
                    return false;
                s.module += "." + std::string(part);
            }
        }
        if (!p.acceptName("import"))
            return p.failExpected("'import'");
        bool paren = p.acceptOp("(");
        if (p.atOp("*"))
            return unsupported(p.peek(), "'from ... import *'", "import the names you use one by one");
        do {
            if (paren && p.atOp(")"))
                break;
            PyImportName n;
            if (!p.expectName(part, "as an imported name"))
                return false;
            n.name = std::string(part);
            if (p.acceptName("as")) {
                if (!p.expectName(part, "after 'as'"))
                    return false;
                n.alias = std::string(part);
            }
            s.names.push_back(std::move(n));
        } while (p.acceptOp(","));
        if (paren && !p.expectOp(")", "closing the imported names"))
            return false;
    } else if (kw == "global" || kw == "nonlocal") {
        return unsupported(
            t, "'" + std::string(kw) + "'", "return values from functions instead of rebinding outer names");
    } else if (kw == "del") {
        return unsupported(t, "'del'", "leave the name bound, or rebind it to None");
    } else if (kw == "yield") {
        return unsupported(t, "'yield'", "build and return a list");
    } else if (kw == "lambda") {
        return unsupported(t, "a lambda", "write a def and pass its name");
    } else {
        ExprId first = p.parseExpressionList();
        if (p.failed())
            return false;
        if (p.atOp("=")) {
            s.kind = PyStmtKind::Assign;
            s.targets.push_back(first);
            ExprId value = kNoExpr;
            while (p.acceptOp("=")) {
                value = p.parseExpressionList();
                if (p.atOp("="))
                    s.targets.push_back(value);
            }
            s.value = value;
        } else if (p.peek().kind == TokenKind::Op && p.peek().text.size() >= 2 && p.peek().text.back() == '='
            && p.peek().text != "==" && p.peek().text != "!=" && p.peek().text != "<=" && p.peek().text != ">=") {
            s.kind = PyStmtKind::AugAssign;
            s.op = std::string(p.peek().text.substr(0, p.peek().text.size() - 1));
            p.advance();
            s.targets.push_back(first);
            s.value = p.parseExpressionList();
        } else if (p.atOp(":")) {
            // x: int = 3 — the annotation is ignored.
            p.advance();
            p.parseExpression();
            s.kind = PyStmtKind::Assign;
            s.annotated = true; // a dataclass field
            s.targets.push_back(first);
            if (p.acceptOp("="))
                s.value = p.parseExpressionList();
            else
                s.kind = PyStmtKind::Pass;
        } else {
            s.kind = PyStmtKind::Expr;
            s.value = first;
        }
    }
    if (p.failed())
        return false;
    s.end = p.peek().offset;
    out.push_back(std::move(s));
    return endOfSimple();
}

} // namespace fxs
