#include "python_parser.h"

#include <algorithm>
#include <tuple>

namespace fxs {

namespace {

// Binding strength of infix operators, weakest first (Python's grammar); 0 for anything else.
enum Precedence {
    kNone = 0,
    kOr = 1,
    kAnd = 2,
    kNot = 3,
    kCompare = 4,
    kBitOr = 5,
    kXor = 6,
    kBitAnd = 7,
    kShift = 8,
    kArith = 9,
    kTerm = 10,
    kUnary = 11,
};

int infixPrecedence(const Token &t)
{
    if (t.kind == TokenKind::Name) {
        if (t.text == "or")
            return kOr;
        if (t.text == "and")
            return kAnd;
        if (t.text == "in" || t.text == "not" || t.text == "is")
            return kCompare;
        return kNone;
    }
    if (t.kind != TokenKind::Op)
        return kNone;
    const std::string_view op = t.text;
    switch (op.size()) {
    case 1:
        switch (op[0]) {
        case '<':
        case '>': return kCompare;
        case '|': return kBitOr;
        case '^': return kXor;
        case '&': return kBitAnd;
        case '+':
        case '-': return kArith;
        case '*':
        case '/':
        case '%':
        case '@': return kTerm;
        default: return kNone;
        }
    case 2:
        if (op == "==" || op == "!=" || op == "<=" || op == ">=")
            return kCompare;
        if (op == "<<" || op == ">>")
            return kShift;
        if (op == "//")
            return kTerm;
        return kNone;
    default: return kNone;
    }
}

bool startsExpression(const Token &t)
{
    switch (t.kind) {
    case TokenKind::Name:
        return !isPythonKeyword(t.text) || t.text == "None" || t.text == "True" || t.text == "False" || t.text == "not"
            || t.text == "lambda" || t.text == "await";
    case TokenKind::Number:
    case TokenKind::String: return true;
    case TokenKind::Op:
        return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" || t.text == "~"
            || t.text == "*" || t.text == "..." || t.text == "**";
    default: return false;
    }
}

} // namespace

PythonParser::PythonParser(std::string_view text, std::string fileName, int firstLine, int firstColumn)
    : m_tokenizer(text, firstLine, firstColumn), m_fileName(std::move(fileName))
{
    m_tree.setSource(text);
    m_token.kind = TokenKind::Newline;
    advance();
    m_previousEnd = 0;
}

void PythonParser::advance()
{
    if (m_failed)
        return;
    m_previousEnd = m_token.end();
    while (true) {
        Token t = m_tokenizer.next();
        if (t.kind == TokenKind::Comment) {
            if (m_previousRaw == TokenKind::Newline || m_previousRaw == TokenKind::NL
                || m_previousRaw == TokenKind::Indent || m_previousRaw == TokenKind::Dedent)
                m_comments.push_back(t);
            m_previousRaw = t.kind;
            continue;
        }
        m_previousRaw = t.kind;
        if (t.kind == TokenKind::NL)
            continue;
        m_token = t;
        if (t.kind == TokenKind::Error)
            failAt(t, m_tokenizer.errorMessage());
        return;
    }
}

bool PythonParser::acceptOp(std::string_view op)
{
    if (m_failed || !m_token.isOp(op))
        return false;
    advance();
    return true;
}

bool PythonParser::acceptName(std::string_view name)
{
    if (m_failed || !m_token.isName(name))
        return false;
    advance();
    return true;
}

bool PythonParser::expectOp(std::string_view op, std::string_view context)
{
    if (m_failed)
        return false;
    if (m_token.isOp(op)) {
        advance();
        return true;
    }
    std::string what = "'" + std::string(op) + "'";
    if (!context.empty())
        what += " " + std::string(context);
    return failExpected(what);
}

bool PythonParser::expectName(std::string_view &name, std::string_view context)
{
    if (m_failed)
        return false;
    if (m_token.kind == TokenKind::Name && !isPythonKeyword(m_token.text)) {
        name = m_token.text;
        advance();
        return true;
    }
    return failExpected("a name " + std::string(context));
}

bool PythonParser::failAt(const Token &token, std::string message)
{
    if (!m_failed) {
        m_failed = true;
        m_error = Error{m_fileName, token.line, token.column, std::move(message)};
    }
    return false;
}

bool PythonParser::failExpected(std::string_view what)
{
    return failAt(m_token, "expected " + std::string(what) + ", found " + m_token.describe());
}

bool PythonParser::clearError()
{
    if (m_token.kind == TokenKind::Error)
        return false;
    m_failed = false;
    m_error = Error{};
    return true;
}

void PythonParser::skipLogicalLine()
{
    while (!m_failed && !at(TokenKind::EndMarker)) {
        bool newline = at(TokenKind::Newline);
        advance();
        if (newline)
            return;
    }
}

void PythonParser::skipBlock()
{
    if (!at(TokenKind::Indent))
        return;
    int depth = 0;
    while (!m_failed && !at(TokenKind::EndMarker)) {
        if (at(TokenKind::Indent))
            ++depth;
        else if (at(TokenKind::Dedent))
            --depth;
        advance();
        if (depth == 0)
            return;
    }
}

PythonParser::Mark PythonParser::markOf(ExprId id) const
{
    if (id == kNoExpr)
        return mark();
    const Expr &e = m_tree[id];
    return {e.line, e.column, e.begin};
}

bool PythonParser::enterNesting()
{
    if (++m_nesting <= kMaxNesting)
        return true;
    --m_nesting;
    failAt(m_token,
        "expected at most " + std::to_string(kMaxNesting) + " nested brackets or operators, found deeper nesting");
    return false;
}

ExprId PythonParser::makeFromScratch(
    ExprKind kind, Mark start, std::string_view text, size_t scratchMark, uint32_t value)
{
    if (m_failed) {
        m_scratch.resize(scratchMark);
        return kNoExpr;
    }
    int depth = 0;
    for (size_t i = scratchMark; i < m_scratch.size(); ++i)
        if (m_scratch[i] != kNoExpr)
            depth = std::max<int>(depth, m_tree[m_scratch[i]].depth);
    if (depth + 1 > kMaxExprDepth) {
        m_scratch.resize(scratchMark);
        failAt(m_token,
            "expected an expression at most " + std::to_string(kMaxExprDepth) + " levels deep, found a deeper one");
        return kNoExpr;
    }
    Expr e;
    e.kind = kind;
    e.text = text;
    e.value = value;
    e.line = start.line;
    e.column = start.column;
    e.begin = start.offset;
    e.end = std::max(m_previousEnd, start.offset);
    e.depth = uint16_t(depth + 1);
    ExprId id = m_tree.add(e, m_scratch.data() + scratchMark, m_scratch.size() - scratchMark);
    m_scratch.resize(scratchMark);
    return id;
}

ExprId PythonParser::make(ExprKind kind, Mark start, std::string_view text, std::initializer_list<ExprId> children)
{
    if (m_failed)
        return kNoExpr;
    size_t scratchMark = m_scratch.size();
    for (ExprId c : children) {
        if (c == kNoExpr && kind != ExprKind::Slice)
            return kNoExpr; // only after an error, which is already recorded
        m_scratch.push_back(c);
    }
    return makeFromScratch(kind, start, text, scratchMark);
}

ExprId PythonParser::parseExpression(bool allowStar)
{
    if (m_failed || !enterNesting())
        return kNoExpr;
    ExprId result;
    if (allowStar && (atOp("*") || atOp("**"))) {
        Mark start = mark();
        ExprKind kind = m_token.text.size() == 1 ? ExprKind::Starred : ExprKind::DoubleStarred;
        advance();
        ExprId value = parseOperators(kBitOr);
        result = make(kind, start, {}, {value});
    } else {
        result = parseOperators(kOr);
        if (!m_failed && atName("if")) {
            advance();
            ExprId test = parseOperators(kOr);
            if (!m_failed && !acceptName("else"))
                failExpected("'else' in the conditional expression");
            ExprId orelse = parseExpression(); // counted: a chain of conditionals nests
            result = make(ExprKind::IfExp, markOf(result), {}, {result, test, orelse});
        }
    }
    --m_nesting;
    return result;
}

ExprId PythonParser::parseExpressionList()
{
    ExprId first = parseExpression(true);
    if (m_failed || !atOp(","))
        return first;
    size_t scratchMark = m_scratch.size();
    m_scratch.push_back(first);
    while (acceptOp(",")) {
        if (!startsExpression(m_token))
            break;
        ExprId e = parseExpression(true);
        if (e == kNoExpr)
            break;
        m_scratch.push_back(e);
    }
    return makeFromScratch(ExprKind::Tuple, markOf(first), {}, scratchMark);
}

ExprId PythonParser::parseOperators(int minPrecedence)
{
    ExprId left = parseUnary(minPrecedence);
    while (!m_failed) {
        int precedence = infixPrecedence(m_token);
        if (precedence == kNone || precedence < minPrecedence)
            break;
        if (precedence == kCompare) {
            left = parseComparisonChain(left);
            continue;
        }
        std::string_view op = m_token.text;
        advance();
        // Recursion only climbs to stronger levels (a few frames); a chain of one level loops here.
        ExprId right = parseOperators(precedence + 1);
        left = make(precedence <= kAnd ? ExprKind::BoolOp : ExprKind::BinOp, markOf(left), op, {left, right});
    }
    return left;
}

ExprId PythonParser::parseComparisonChain(ExprId left)
{
    // a < b <= c is one Compare with two operators.
    size_t scratchMark = m_scratch.size();
    m_scratch.push_back(left);
    uint32_t firstOp = 0;
    bool haveOp = false;
    while (!m_failed && infixPrecedence(m_token) == kCompare) {
        std::string_view op = m_token.text;
        if (m_token.isName("not")) {
            advance();
            if (!atName("in")) {
                failExpected("'in' after 'not' in a comparison");
                break;
            }
            op = "not in";
            advance();
        } else if (m_token.isName("is")) {
            advance();
            op = "is";
            if (acceptName("not"))
                op = "is not";
        } else {
            advance();
        }
        uint32_t index = m_tree.addCompareOperator(op);
        if (!haveOp)
            firstOp = index;
        haveOp = true;
        ExprId right = parseOperators(kBitOr);
        if (right == kNoExpr)
            break;
        m_scratch.push_back(right);
    }
    return makeFromScratch(ExprKind::Compare, markOf(left), {}, scratchMark, firstOp);
}

ExprId PythonParser::parseUnary(int minPrecedence)
{
    if (minPrecedence <= kNot && atName("not"))
        return parseNot();
    if (atOp("-") || atOp("+") || atOp("~"))
        return parseSigns();
    return parsePower();
}

ExprId PythonParser::parseNot()
{
    // `not not not x` is collected iteratively; the tree height limit bounds the chain.
    std::vector<Mark> nots;
    while (!m_failed && atName("not")) {
        nots.push_back(mark());
        advance();
    }
    ExprId operand = parseOperators(kCompare);
    for (auto it = nots.rbegin(); it != nots.rend() && operand != kNoExpr; ++it)
        operand = make(ExprKind::UnaryOp, *it, "not", {operand});
    return operand;
}

ExprId PythonParser::parseSigns()
{
    // `- - - x` likewise: one frame however many signs.
    std::vector<std::pair<Mark, std::string_view>> signs;
    while (!m_failed && (atOp("-") || atOp("+") || atOp("~"))) {
        signs.emplace_back(mark(), m_token.text);
        advance();
    }
    ExprId operand = parsePower();
    for (auto it = signs.rbegin(); it != signs.rend() && operand != kNoExpr; ++it)
        operand = make(ExprKind::UnaryOp, it->first, it->second, {operand});
    return operand;
}

ExprId PythonParser::parsePower()
{
    ExprId base = parsePostfix();
    if (m_failed || !atOp("**"))
        return base;
    advance();
    if (!enterNesting()) // 2 ** 2 ** 2 ... is right-recursive
        return kNoExpr;
    ExprId exponent = parseUnary(kUnary);
    --m_nesting;
    return make(ExprKind::BinOp, markOf(base), "**", {base, exponent});
}

ExprId PythonParser::parsePostfix()
{
    ExprId e = parseAtom();
    while (!m_failed && e != kNoExpr) {
        if (atOp("."))
            e = parseAttribute(e);
        else if (atOp("("))
            e = parseCallArguments(e);
        else if (atOp("["))
            e = parseSubscript(e);
        else
            break;
    }
    return e;
}

ExprId PythonParser::parseAttribute(ExprId value)
{
    advance(); // .
    if (m_token.kind != TokenKind::Name) {
        failExpected("an attribute name after '.'");
        return kNoExpr;
    }
    std::string_view name = m_token.text;
    advance();
    return make(ExprKind::Attribute, markOf(value), name, {value});
}

ExprId PythonParser::parseCallArguments(ExprId callee)
{
    advance(); // (
    size_t scratchMark = m_scratch.size();
    m_scratch.push_back(callee);
    while (!m_failed && !atOp(")")) {
        ExprId arg;
        if (atOp("*") || atOp("**")) {
            arg = parseExpression(true);
        } else {
            Mark start = mark();
            arg = parseExpression();
            if (arg != kNoExpr && atOp("=") && m_tree[arg].kind == ExprKind::Name && !m_tree[arg].parenthesized) {
                std::string_view keyword = m_tree[arg].text;
                advance();
                ExprId value = parseExpression();
                arg = make(ExprKind::Keyword, start, keyword, {value});
            } else if (arg != kNoExpr && atName("for")) {
                size_t mark0 = m_scratch.size();
                m_scratch.push_back(arg);
                arg = parseComprehension(ExprKind::GeneratorExp, start, mark0);
            }
        }
        if (arg == kNoExpr)
            break;
        m_scratch.push_back(arg);
        if (!acceptOp(","))
            break;
    }
    expectOp(")", "closing the call's arguments");
    return makeFromScratch(ExprKind::Call, markOf(callee), {}, scratchMark);
}

ExprId PythonParser::parseSliceItem()
{
    Mark start = mark();
    ExprId lower = kNoExpr;
    if (!atOp(":")) {
        lower = parseExpression(true);
        if (m_failed || !atOp(":"))
            return lower;
    }
    advance(); // :
    ExprId upper = kNoExpr;
    ExprId step = kNoExpr;
    if (!atOp(":") && !atOp("]") && !atOp(","))
        upper = parseExpression();
    if (acceptOp(":") && !atOp("]") && !atOp(","))
        step = parseExpression();
    return make(ExprKind::Slice, start, {}, {lower, upper, step});
}

ExprId PythonParser::parseSubscript(ExprId value)
{
    advance(); // [
    Mark start = mark();
    ExprId index = parseSliceItem();
    if (!m_failed && atOp(",")) {
        // x[a, b:c] indexes with a tuple written without parentheses.
        size_t scratchMark = m_scratch.size();
        m_scratch.push_back(index);
        while (acceptOp(",")) {
            if (atOp("]"))
                break;
            ExprId item = parseSliceItem();
            if (item == kNoExpr)
                break;
            m_scratch.push_back(item);
        }
        index = makeFromScratch(ExprKind::Tuple, start, {}, scratchMark);
    }
    expectOp("]", "closing the subscript");
    return make(ExprKind::Subscript, markOf(value), {}, {value, index});
}

ExprId PythonParser::parseLeaf(ExprKind kind)
{
    Mark start = mark();
    std::string_view text = m_token.text;
    advance();
    return make(kind, start, text, {});
}

ExprId PythonParser::parseStrings()
{
    // Adjacent literals concatenate: 'a' "b" is 'ab'; with an f-string among them the result is a FormattedString.
    Mark start = mark();
    std::string value;
    const size_t scratchMark = m_scratch.size();
    bool formatted = false;
    size_t pendingOffset = m_token.offset;
    auto flush = [&] {
        if (!value.empty()) {
            Expr e;
            e.kind = ExprKind::String;
            e.value = m_tree.addString(std::move(value));
            std::tie(e.line, e.column) = m_tokenizer.position(pendingOffset);
            e.begin = e.end = pendingOffset;
            m_scratch.push_back(m_tree.add(e));
            value.clear();
        }
    };
    while (!m_failed && at(TokenKind::String)) {
        const std::string_view text = m_token.text;
        size_t q = 0;
        bool f = false, raw = false;
        while (q < text.size() && text[q] != '\'' && text[q] != '"') {
            f = f || (text[q] | 0x20) == 'f';
            raw = raw || (text[q] | 0x20) == 'r';
            ++q;
        }
        if (!f) {
            auto decoded = decodeStringLiteral(text);
            if (!decoded) {
                failAt(m_token, decoded.error().message);
                m_scratch.resize(scratchMark);
                return kNoExpr;
            }
            if (value.empty())
                pendingOffset = m_token.offset;
            value += decoded.value();
            advance();
            continue;
        }
        formatted = true;
        flush();
        const size_t quoteLen = text.size() >= q + 6 && text[q + 1] == text[q] && text[q + 2] == text[q] ? 3 : 1;
        const std::string_view body = text.substr(q + quoteLen, text.size() - q - 2 * quoteLen);
        if (!parseFStringBody(body, m_token.offset + q + quoteLen, raw, 1)) {
            m_scratch.resize(scratchMark);
            return kNoExpr;
        }
        advance();
    }
    if (!formatted) {
        uint32_t index = m_tree.addString(std::move(value));
        return makeFromScratch(ExprKind::String, start, {}, m_scratch.size(), index);
    }
    flush();
    return makeFromScratch(ExprKind::FormattedString, start, {}, scratchMark);
}

Token PythonParser::tokenAt(size_t offset) const
{
    Token t = m_token;
    std::tie(t.line, t.column) = m_tokenizer.position(offset);
    return t;
}

ExprId PythonParser::addFStringLiteral(std::string_view chunk, size_t offset, bool raw)
{
    std::string quoted = std::string(raw ? "r\"" : "\"") + std::string(chunk) + "\"";
    auto decoded = decodeStringLiteral(quoted);
    if (!decoded) {
        failAt(tokenAt(offset), decoded.error().message);
        return kNoExpr;
    }
    Expr e;
    e.kind = ExprKind::String;
    e.value = m_tree.addString(std::move(decoded.value()));
    std::tie(e.line, e.column) = m_tokenizer.position(offset);
    e.begin = offset;
    e.end = offset + chunk.size();
    return m_tree.add(e);
}

bool PythonParser::parseFStringBody(std::string_view body, size_t bodyOffset, bool raw, int nesting)
{
    std::string chunk; // literal text with {{ and }} already undoubled, escapes still raw
    size_t chunkStart = bodyOffset;
    auto flushChunk = [&]() -> bool {
        if (chunk.empty())
            return true;
        ExprId id = addFStringLiteral(chunk, chunkStart, raw);
        chunk.clear();
        if (id == kNoExpr)
            return false;
        m_scratch.push_back(id);
        return true;
    };
    for (size_t i = 0; i < body.size();) {
        const char c = body[i];
        if ((c == '{' || c == '}') && i + 1 < body.size() && body[i + 1] == c) {
            if (chunk.empty())
                chunkStart = bodyOffset + i;
            chunk += c;
            i += 2;
            continue;
        }
        if (c == '}')
            return failAt(
                tokenAt(bodyOffset + i), "expected '}}' for a literal brace in the f-string, found a single '}'");
        if (c != '{') {
            if (chunk.empty())
                chunkStart = bodyOffset + i;
            chunk += c;
            if (c == '\\' && !raw && i + 1 < body.size() && body[i + 1] != '{' && body[i + 1] != '}')
                chunk += body[++i]; // an escape is copied whole, so \' or \\ never ends a chunk early
            ++i;
            continue;
        }
        if (!flushChunk())
            return false;
        if (nesting > 2)
            return failAt(tokenAt(bodyOffset + i), "expected at most one level of {fields} inside a format spec");
        // The field's expression ends at a top-level '}', '!' (not '!=') or ':'.
        const size_t exprStart = i + 1;
        size_t j = exprStart;
        int depth = 0;
        char quote = 0;
        for (; j < body.size(); ++j) {
            const char d = body[j];
            if (quote) {
                if (d == quote)
                    quote = 0;
            } else if (d == '\'' || d == '"') {
                quote = d;
            } else if (d == '(' || d == '[' || d == '{') {
                ++depth;
            } else if (d == ')' || d == ']' || (d == '}' && depth > 0)) {
                --depth;
            } else if (depth == 0
                && (d == '}' || d == ':' || (d == '!' && (j + 1 >= body.size() || body[j + 1] != '=')))) {
                break;
            }
        }
        if (j >= body.size())
            return failAt(
                tokenAt(bodyOffset + i), "expected '}' to close the f-string field, found the end of the string");
        std::string_view expr = body.substr(exprStart, j - exprStart);
        // {x=}: the expression's text, then its repr (or its format).
        std::string_view trimmed = expr;
        while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t'))
            trimmed.remove_suffix(1);
        bool selfDocumenting = trimmed.size() >= 2 && trimmed.back() == '='
            && std::string_view("=!<>").find(trimmed[trimmed.size() - 2]) == std::string_view::npos;
        if (selfDocumenting) {
            chunk = std::string(expr);
            chunkStart = bodyOffset + exprStart;
            if (!flushChunk())
                return false;
            expr = trimmed.substr(0, trimmed.size() - 1);
        }
        ExprId value = parseFStringField(expr, bodyOffset + exprStart);
        if (value == kNoExpr)
            return false;
        std::string_view conversion;
        if (body[j] == '!') {
            if (j + 2 >= body.size() || std::string_view("rsa").find(body[j + 1]) == std::string_view::npos
                || (body[j + 2] != '}' && body[j + 2] != ':'))
                return failAt(tokenAt(bodyOffset + j), "expected !r, !s or !a after the f-string field's expression");
            conversion = body.substr(j + 1, 1);
            j += 2;
        }
        ExprId spec = kNoExpr;
        if (body[j] == ':') {
            size_t k = j + 1;
            int braces = 0;
            for (; k < body.size(); ++k) {
                if (body[k] == '{')
                    ++braces;
                else if (body[k] == '}' && braces-- == 0)
                    break;
            }
            if (k >= body.size())
                return failAt(
                    tokenAt(bodyOffset + j), "expected '}' after the format spec, found the end of the string");
            const size_t specMark = m_scratch.size();
            if (!parseFStringBody(body.substr(j + 1, k - j - 1), bodyOffset + j + 1, raw, nesting + 1))
                return false;
            Mark at{0, 0, bodyOffset + j + 1};
            std::tie(at.line, at.column) = m_tokenizer.position(at.offset);
            spec = makeFromScratch(ExprKind::FormattedString, at, {}, specMark);
            if (spec == kNoExpr)
                return false;
            j = k;
        }
        if (conversion.empty() && spec == kNoExpr && selfDocumenting)
            conversion = "r";
        Mark at{0, 0, bodyOffset + i};
        std::tie(at.line, at.column) = m_tokenizer.position(at.offset);
        const size_t fieldMark = m_scratch.size();
        m_scratch.push_back(value);
        if (spec != kNoExpr)
            m_scratch.push_back(spec);
        ExprId field = makeFromScratch(ExprKind::FormattedValue, at, conversion, fieldMark);
        if (field == kNoExpr)
            return false;
        m_scratch.push_back(field);
        i = j + 1;
    }
    return flushChunk();
}

ExprId PythonParser::parseFStringField(std::string_view field, size_t offset)
{
    size_t lead = 0;
    while (lead < field.size() && (field[lead] == ' ' || field[lead] == '\t' || field[lead] == '\n'))
        ++lead;
    if (lead == field.size()) {
        failAt(tokenAt(offset - 1), "expected an expression inside the f-string's {}, found nothing");
        return kNoExpr;
    }
    auto [line, column] = m_tokenizer.position(offset + lead);
    const std::string_view inner = field.substr(lead);
    PythonParser sub(inner, m_fileName, line, column);
    ExprId root = sub.parseExpressionList();
    if (!sub.failed() && !sub.at(TokenKind::Newline) && !sub.at(TokenKind::EndMarker))
        sub.failExpected("the end of the f-string field");
    if (sub.failed()) {
        if (!m_failed) {
            m_failed = true;
            m_error = sub.error();
        }
        return kNoExpr;
    }
    const size_t shift = size_t(inner.data() - m_tokenizer.text().data());
    return graft(sub.tree(), root, shift);
}

ExprId PythonParser::graft(const ExprTree &from, ExprId root, size_t offsetShift)
{
    // Children are always added before their parent, so one pass in id order maps every child first.
    std::vector<ExprId> ids(from.size(), kNoExpr);
    std::vector<ExprId> children;
    for (ExprId i = 0; i < from.size(); ++i) {
        Expr e = from[i];
        children.clear();
        for (size_t c = 0; c < from.childCount(i); ++c) {
            ExprId child = from.child(i, c);
            children.push_back(child == kNoExpr ? kNoExpr : ids[child]);
        }
        if (e.kind == ExprKind::String)
            e.value = m_tree.addString(from.stringValue(i));
        if (e.kind == ExprKind::Compare)
            for (size_t k = 0; k + 1 < from.childCount(i); ++k) {
                uint32_t op = m_tree.addCompareOperator(from.compareOperator(i, k));
                if (k == 0)
                    e.value = op;
            }
        e.begin += offsetShift;
        e.end += offsetShift;
        ids[i] = m_tree.add(e, children.data(), children.size());
    }
    return ids[root];
}

ExprId PythonParser::parseAtom()
{
    if (m_failed)
        return kNoExpr;
    switch (m_token.kind) {
    case TokenKind::Name:
        if (!isPythonKeyword(m_token.text))
            return parseLeaf(ExprKind::Name);
        if (m_token.text == "None" || m_token.text == "True" || m_token.text == "False")
            return parseLeaf(ExprKind::Constant);
        break;
    case TokenKind::Number: return parseLeaf(ExprKind::Number);
    case TokenKind::String: return parseStrings();
    case TokenKind::Op:
        if (m_token.text == "...")
            return parseLeaf(ExprKind::Ellipsis);
        if (m_token.text == "(")
            return parseParenthesized();
        if (m_token.text == "[")
            return parseList();
        if (m_token.text == "{")
            return parseBraces();
        break;
    default: break;
    }
    failExpected("an expression");
    return kNoExpr;
}

ExprId PythonParser::parseParenthesized()
{
    Mark open = mark();
    advance();
    if (atOp(")")) {
        advance();
        ExprId empty = makeFromScratch(ExprKind::Tuple, open, {}, m_scratch.size());
        if (empty != kNoExpr)
            m_tree.at(empty).parenthesized = true;
        return empty;
    }
    ExprId first = parseExpression(true);
    if (m_failed)
        return kNoExpr;
    if (atName("for")) {
        size_t mark0 = m_scratch.size();
        m_scratch.push_back(first);
        ExprId comp = parseComprehension(ExprKind::GeneratorExp, open, mark0);
        expectOp(")", "closing the generator expression");
        return comp;
    }
    if (atOp(")")) {
        advance();
        // The span of a parenthesized expression includes its parentheses, so `(a + b).sum()` keeps them.
        Expr &inner = m_tree.at(first);
        inner.parenthesized = true;
        inner.begin = open.offset;
        inner.end = m_previousEnd;
        inner.line = open.line;
        inner.column = open.column;
        return first;
    }
    size_t scratchMark = m_scratch.size();
    m_scratch.push_back(first);
    while (acceptOp(",")) {
        if (atOp(")"))
            break;
        ExprId e = parseExpression(true);
        if (e == kNoExpr)
            break;
        m_scratch.push_back(e);
    }
    expectOp(")", "closing the parenthesis");
    ExprId tuple = makeFromScratch(ExprKind::Tuple, open, {}, scratchMark);
    if (tuple != kNoExpr)
        m_tree.at(tuple).parenthesized = true;
    return tuple;
}

ExprId PythonParser::parseList()
{
    Mark open = mark();
    advance();
    size_t scratchMark = m_scratch.size();
    while (!m_failed && !atOp("]")) {
        ExprId e = parseExpression(true);
        if (e == kNoExpr)
            break;
        m_scratch.push_back(e);
        if (atName("for") && m_scratch.size() == scratchMark + 1) {
            ExprId comp = parseComprehension(ExprKind::ListComp, open, scratchMark);
            expectOp("]", "closing the list comprehension");
            return comp;
        }
        if (!acceptOp(","))
            break;
    }
    expectOp("]", "closing the list");
    return makeFromScratch(ExprKind::List, open, {}, scratchMark);
}

ExprId PythonParser::parseBraces()
{
    Mark open = mark();
    advance();
    size_t scratchMark = m_scratch.size();
    bool isDict = true;
    bool first = true;
    while (!m_failed && !atOp("}")) {
        if (atOp("**")) {
            if (!isDict) {
                failExpected("a set element");
                break;
            }
            advance();
            ExprId value = parseOperators(kBitOr);
            if (value == kNoExpr)
                break;
            m_scratch.push_back(kNoExpr);
            m_scratch.push_back(value);
        } else {
            ExprId key = parseExpression(!isDict || first);
            if (key == kNoExpr)
                break;
            if (first && !atOp(":"))
                isDict = false;
            if (isDict) {
                if (!expectOp(":", "between a dict key and its value"))
                    break;
                ExprId value = parseExpression();
                if (value == kNoExpr)
                    break;
                m_scratch.push_back(key);
                m_scratch.push_back(value);
                if (first && atName("for")) {
                    ExprId comp = parseComprehension(ExprKind::DictComp, open, scratchMark);
                    expectOp("}", "closing the dict comprehension");
                    return comp;
                }
            } else {
                m_scratch.push_back(key);
                if (first && atName("for")) {
                    ExprId comp = parseComprehension(ExprKind::SetComp, open, scratchMark);
                    expectOp("}", "closing the set comprehension");
                    return comp;
                }
            }
        }
        first = false;
        if (!acceptOp(","))
            break;
    }
    expectOp("}", isDict ? "closing the dict" : "closing the set");
    return makeFromScratch(isDict ? ExprKind::Dict : ExprKind::Set, open, {}, scratchMark);
}

ExprId PythonParser::parseTargetList()
{
    Mark start = mark();
    size_t scratchMark = m_scratch.size();
    bool sawComma = false;
    while (!m_failed) {
        ExprId e = atOp("*") ? parseExpression(true) : parseOperators(kBitOr);
        if (e == kNoExpr)
            return kNoExpr;
        m_scratch.push_back(e);
        if (!atOp(","))
            break;
        sawComma = true;
        advance();
        if (!startsExpression(m_token))
            break;
    }
    if (m_failed)
        return kNoExpr;
    if (m_scratch.size() == scratchMark + 1 && !sawComma) {
        ExprId single = m_scratch.back();
        m_scratch.pop_back();
        return single;
    }
    return makeFromScratch(ExprKind::Tuple, start, {}, scratchMark);
}

ExprId PythonParser::parseComprehension(ExprKind kind, Mark start, size_t scratchMark)
{
    // The element(s) are already on the scratch stack; each clause becomes a CompFor child.
    while (!m_failed && atName("for")) {
        Mark clause = mark();
        advance();
        size_t clauseMark = m_scratch.size();
        ExprId target = parseTargetList();
        if (m_failed || !acceptName("in")) {
            failExpected("'in' in the comprehension");
            return kNoExpr;
        }
        ExprId iter = parseOperators(kOr);
        if (iter == kNoExpr)
            return kNoExpr;
        m_scratch.push_back(target);
        m_scratch.push_back(iter);
        while (!m_failed && acceptName("if")) {
            ExprId cond = parseOperators(kOr);
            if (cond == kNoExpr)
                return kNoExpr;
            m_scratch.push_back(cond);
        }
        ExprId compFor = makeFromScratch(ExprKind::CompFor, clause, {}, clauseMark);
        if (compFor == kNoExpr)
            return kNoExpr;
        m_scratch.push_back(compFor);
    }
    return makeFromScratch(kind, start, {}, scratchMark);
}

} // namespace fxs
