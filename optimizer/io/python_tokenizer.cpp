#include "python_tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace fxs {

namespace {

bool isNameStart(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

bool isNameChar(unsigned char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

bool isDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

bool isStringPrefix(std::string_view word)
{
    if (word.empty() || word.size() > 2)
        return false;
    std::string lower;
    for (char c : word)
        lower += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    static const char *const prefixes[] = {"r", "u", "b", "f", "br", "rb", "fr", "rf"};
    for (const char *p : prefixes)
        if (lower == p)
            return true;
    return false;
}

char closerOf(char open)
{
    return open == '(' ? ')' : open == '[' ? ']' : '}';
}

std::string quoteChar(unsigned char c)
{
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + char(c) + "'";
    char buf[16];
    snprintf(buf, sizeof buf, "byte 0x%02x", c);
    return buf;
}

void appendUtf8(std::string &out, uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

const char *tokenKindName(TokenKind kind)
{
    switch (kind) {
    case TokenKind::Name: return "NAME";
    case TokenKind::Number: return "NUMBER";
    case TokenKind::String: return "STRING";
    case TokenKind::Op: return "OP";
    case TokenKind::Comment: return "COMMENT";
    case TokenKind::Newline: return "NEWLINE";
    case TokenKind::NL: return "NL";
    case TokenKind::Indent: return "INDENT";
    case TokenKind::Dedent: return "DEDENT";
    case TokenKind::EndMarker: return "ENDMARKER";
    case TokenKind::Error: return "ERRORTOKEN";
    }
    return "?";
}

std::string Token::describe() const
{
    switch (kind) {
    case TokenKind::Newline:
    case TokenKind::NL: return "end of line";
    case TokenKind::Indent: return "an indented block";
    case TokenKind::Dedent: return "the end of the indented block";
    case TokenKind::EndMarker: return "end of file";
    case TokenKind::Comment: return "a comment";
    case TokenKind::String:
        if (text.size() > 40)
            return "the string " + std::string(text.substr(0, 37)) + "...";
        return "the string " + std::string(text);
    default: break;
    }
    if (text.size() == 1)
        return quoteChar((unsigned char)text[0]);
    if (text.size() > 40)
        return "'" + std::string(text.substr(0, 37)) + "...'";
    return "'" + std::string(text) + "'";
}

PythonTokenizer::PythonTokenizer(std::string_view text, int firstLine, int firstColumn)
    : m_text(text), m_firstLine(firstLine), m_firstColumnShift(firstColumn - 1)
{
    // A UTF-8 byte order mark is not part of the code.
    if (m_text.size() >= 3 && std::memcmp(m_text.data(), "\xEF\xBB\xBF", 3) == 0) {
        m_pos = 3;
        m_lineStart = 3;
    }
}

std::pair<int, int> PythonTokenizer::position(size_t offset) const
{
    // Only used for error messages, so a linear scan is fine.
    offset = std::min(offset, m_text.size());
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < offset; ++i)
        if (m_text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    int column = int(offset - lineStart) + 1 + (line == 1 ? m_firstColumnShift : 0);
    return {line + m_firstLine - 1, column};
}

Token PythonTokenizer::make(TokenKind kind, size_t begin, size_t end) const
{
    Token t;
    t.kind = kind;
    t.text = m_text.substr(begin, end - begin);
    t.offset = begin;
    t.line = m_line + m_firstLine - 1;
    t.column = int(begin - m_lineStart) + 1 + (m_line == 1 ? m_firstColumnShift : 0);
    return t;
}

Token PythonTokenizer::fail(size_t at, std::string message)
{
    at = std::min(at, m_text.size());
    m_failed = true;
    m_errorMessage = std::move(message);
    Token t;
    t.kind = TokenKind::Error;
    t.offset = at;
    t.text = m_text.substr(at, at < m_text.size() ? 1 : 0);
    auto [line, column] = position(at);
    t.line = line;
    t.column = column;
    m_errorToken = t;
    return t;
}

Token PythonTokenizer::next()
{
    if (m_failed)
        return m_errorToken;
    if (m_pendingDedents > 0) {
        --m_pendingDedents;
        return make(TokenKind::Dedent, m_pos, m_pos);
    }
    if (m_done)
        return make(TokenKind::EndMarker, m_pos, m_pos);
    if (m_atLineStart) {
        m_atLineStart = false;
        bool logicalStart = m_brackets.empty() && !m_continuation;
        m_continuation = false;
        if (logicalStart) {
            size_t p = m_pos;
            int column = 0;
            while (p < m_text.size()) {
                char c = m_text[p];
                if (c == ' ')
                    ++column;
                else if (c == '\t')
                    column = (column / 8 + 1) * 8;
                else if (c == '\f')
                    column = 0;
                else
                    break;
                ++p;
            }
            bool blank = p >= m_text.size() || m_text[p] == '#' || m_text[p] == '\n'
                || (m_text[p] == '\r' && (p + 1 >= m_text.size() || m_text[p + 1] == '\n'));
            if (!blank) {
                size_t lineBegin = m_pos;
                m_pos = p;
                if (column > m_indents.back()) {
                    m_indents.push_back(column);
                    return make(TokenKind::Indent, lineBegin, p);
                }
                if (column < m_indents.back()) {
                    int popped = 0;
                    while (column < m_indents.back()) {
                        m_indents.pop_back();
                        ++popped;
                    }
                    if (column != m_indents.back())
                        return fail(p,
                            "expected an indentation matching an enclosing block, found an unindent to column "
                                + std::to_string(column + 1));
                    m_pendingDedents = popped - 1;
                    return make(TokenKind::Dedent, p, p);
                }
            }
        }
    }
    return scanToken();
}

Token PythonTokenizer::finish()
{
    if (m_continuation)
        return fail(m_pos, "expected a line after the '\\' continuation, found end of file");
    if (!m_brackets.empty()) {
        const Bracket &b = m_brackets.back();
        return fail(m_pos,
            std::string("expected '") + closerOf(b.open) + "' closing '" + b.open + "' opened at "
                + std::to_string(b.line) + ":" + std::to_string(b.column) + ", found end of file");
    }
    if (m_lineHasTokens) {
        // Like CPython: a last line without a line break still ends its logical line.
        m_lineHasTokens = false;
        return make(TokenKind::Newline, m_pos, m_pos);
    }
    if (m_indents.size() > 1) {
        m_pendingDedents = int(m_indents.size()) - 2;
        m_indents.resize(1);
        return make(TokenKind::Dedent, m_pos, m_pos);
    }
    m_done = true;
    return make(TokenKind::EndMarker, m_pos, m_pos);
}

Token PythonTokenizer::scanToken()
{
    const size_t size = m_text.size();
    while (true) {
        while (m_pos < size) {
            char c = m_text[m_pos];
            if (c == ' ' || c == '\t' || c == '\f' || (c == '\r' && (m_pos + 1 >= size || m_text[m_pos + 1] != '\n')))
                ++m_pos;
            else
                break;
        }
        if (m_pos >= size)
            return finish();
        char c = m_text[m_pos];
        if (c == '\\') {
            size_t p = m_pos + 1;
            if (p < size && m_text[p] == '\r')
                ++p;
            if (p >= size)
                return fail(m_pos, "expected a line after the '\\' continuation, found end of file");
            if (m_text[p] != '\n')
                return fail(p, "expected a line break after '\\', found " + quoteChar((unsigned char)m_text[p]));
            m_pos = p + 1;
            ++m_line;
            m_lineStart = m_pos;
            m_continuation = true;
            m_atLineStart = true;
            if (m_pos >= size)
                return finish();
            // The continuation line has no indentation of its own: keep scanning it.
            m_atLineStart = false;
            m_continuation = false;
            continue;
        }
        break;
    }

    const size_t begin = m_pos;
    const unsigned char c = (unsigned char)m_text[begin];

    if (c == '#') {
        size_t end = m_text.find('\n', begin);
        if (end == std::string_view::npos)
            end = size;
        size_t textEnd = end;
        if (textEnd > begin && m_text[textEnd - 1] == '\r')
            --textEnd;
        m_pos = textEnd;
        return make(TokenKind::Comment, begin, textEnd);
    }
    if (c == '\n' || c == '\r') {
        size_t end = begin + (c == '\r' ? 2 : 1);
        bool logical = m_brackets.empty() && m_lineHasTokens;
        Token t = make(logical ? TokenKind::Newline : TokenKind::NL, begin, end);
        if (logical)
            m_lineHasTokens = false;
        m_pos = end;
        ++m_line;
        m_lineStart = end;
        m_atLineStart = true;
        return t;
    }

    m_lineHasTokens = true;

    if (isNameStart(c)) {
        size_t p = begin + 1;
        while (p < size && isNameChar((unsigned char)m_text[p]))
            ++p;
        if (p < size && (m_text[p] == '\'' || m_text[p] == '"') && isStringPrefix(m_text.substr(begin, p - begin)))
            return scanString(begin, p);
        m_pos = p;
        return make(TokenKind::Name, begin, p);
    }
    if (isDigit(c) || (c == '.' && begin + 1 < size && isDigit((unsigned char)m_text[begin + 1])))
        return scanNumber(begin);
    if (c == '\'' || c == '"')
        return scanString(begin, begin);

    const char c1 = begin + 1 < size ? m_text[begin + 1] : '\0';
    const char c2 = begin + 2 < size ? m_text[begin + 2] : '\0';
    auto oneOf = [](char ch, const char *set) { return ch != '\0' && std::strchr(set, ch) != nullptr; };
    size_t n = 0;
    if (c2 == '=' && c1 == char(c) && oneOf(char(c), "*/<>"))
        n = 3; // **= //= <<= >>=
    else if (c == '.' && c1 == '.' && c2 == '.')
        n = 3;
    else if (c1 == '=' && oneOf(char(c), "!=<>+-*/%&|^@:"))
        n = 2;
    else if ((c == '-' && c1 == '>') || (c1 == char(c) && oneOf(char(c), "*/<>")))
        n = 2;
    else if (oneOf(char(c), "()[]{}:,;.+-*/%&|^~<>=@!"))
        n = 1;
    if (n > 0) {
        if (n == 1 && (c == '(' || c == '[' || c == '{')) {
            Token t = make(TokenKind::Op, begin, begin + 1);
            m_brackets.push_back({char(c), t.line, t.column});
        } else if (n == 1 && (c == ')' || c == ']' || c == '}')) {
            if (m_brackets.empty())
                return fail(
                    begin, std::string("expected an expression or a statement, found unmatched '") + char(c) + "'");
            const Bracket b = m_brackets.back();
            if (closerOf(b.open) != char(c))
                return fail(begin,
                    std::string("expected '") + closerOf(b.open) + "' closing '" + b.open + "' opened at "
                        + std::to_string(b.line) + ":" + std::to_string(b.column) + ", found '" + char(c) + "'");
            m_brackets.pop_back();
        }
        m_pos = begin + n;
        return make(TokenKind::Op, begin, begin + n);
    }
    return fail(begin, "expected a Python token, found " + quoteChar(c));
}

Token PythonTokenizer::scanNumber(size_t begin)
{
    const size_t size = m_text.size();
    size_t p = begin;
    auto isHex = [](unsigned char ch) { return hexValue(char(ch)) >= 0 || ch == '_'; };
    if (m_text[p] == '0' && p + 1 < size && std::strchr("xXoObB", m_text[p + 1])) {
        char base = char(m_text[p + 1] | 0x20);
        p += 2;
        size_t digits = p;
        while (p < size && isHex((unsigned char)m_text[p])) {
            char ch = m_text[p];
            if ((base == 'o' && ch != '_' && (ch < '0' || ch > '7'))
                || (base == 'b' && ch != '_' && ch != '0' && ch != '1'))
                return fail(p,
                    std::string("expected a digit of the base-") + (base == 'o' ? "8" : "2") + " number, found "
                        + quoteChar((unsigned char)ch));
            ++p;
        }
        if (p == digits)
            return fail(p,
                "expected digits after the number prefix, found "
                    + (p < size ? quoteChar((unsigned char)m_text[p]) : std::string("end of file")));
    } else {
        while (p < size && (isDigit((unsigned char)m_text[p]) || m_text[p] == '_'))
            ++p;
        if (p < size && m_text[p] == '.') {
            ++p;
            while (p < size && (isDigit((unsigned char)m_text[p]) || m_text[p] == '_'))
                ++p;
        }
        if (p < size && (m_text[p] == 'e' || m_text[p] == 'E')) {
            size_t q = p + 1;
            if (q < size && (m_text[q] == '+' || m_text[q] == '-'))
                ++q;
            if (q < size && isDigit((unsigned char)m_text[q])) {
                p = q;
                while (p < size && (isDigit((unsigned char)m_text[p]) || m_text[p] == '_'))
                    ++p;
            }
        }
        if (p < size && (m_text[p] == 'j' || m_text[p] == 'J'))
            ++p;
    }
    if (p < size && isNameChar((unsigned char)m_text[p]))
        return fail(
            p, "expected an operator or a delimiter after the number, found " + quoteChar((unsigned char)m_text[p]));
    m_pos = p;
    return make(TokenKind::Number, begin, p);
}

Token PythonTokenizer::scanString(size_t begin, size_t quotePos)
{
    const size_t size = m_text.size();
    const char quote = m_text[quotePos];
    const bool triple = quotePos + 2 < size && m_text[quotePos + 1] == quote && m_text[quotePos + 2] == quote;
    // The token starts here even when a triple-quoted string runs over several lines.
    Token start = make(TokenKind::String, begin, begin);
    size_t p = quotePos + (triple ? 3 : 1);
    auto unterminated = [&](size_t at, const char *where) {
        return fail(at,
            std::string("expected ") + (triple ? std::string(3, quote) : std::string(1, quote))
                + " closing the string opened at " + std::to_string(start.line) + ":" + std::to_string(start.column)
                + ", found " + where);
    };
    while (true) {
        if (p >= size)
            return unterminated(p, "end of file");
        char c = m_text[p];
        if (c == '\\') {
            if (p + 1 >= size)
                return unterminated(p + 1, "end of file");
            size_t skip = 2;
            if (m_text[p + 1] == '\r' && p + 2 < size && m_text[p + 2] == '\n')
                skip = 3;
            if (m_text[p + skip - 1] == '\n') {
                ++m_line;
                m_lineStart = p + skip;
            }
            p += skip;
            continue;
        }
        if (c == '\n') {
            if (!triple)
                return unterminated(p, "end of line");
            ++m_line;
            m_lineStart = p + 1;
            ++p;
            continue;
        }
        if (c == quote) {
            if (!triple) {
                ++p;
                break;
            }
            if (p + 2 < size && m_text[p + 1] == quote && m_text[p + 2] == quote) {
                p += 3;
                break;
            }
        }
        ++p;
    }
    m_pos = p;
    start.text = m_text.substr(begin, p - begin);
    return start;
}

Result<std::vector<Token>> PythonTokenizer::tokenizeAll(std::string_view text, int firstLine, int firstColumn)
{
    PythonTokenizer tokenizer(text, firstLine, firstColumn);
    std::vector<Token> tokens;
    while (true) {
        Token t = tokenizer.next();
        if (t.kind == TokenKind::Error)
            return Error{{}, t.line, t.column, tokenizer.errorMessage()};
        tokens.push_back(t);
        if (t.kind == TokenKind::EndMarker)
            return tokens;
    }
}

Result<std::string> decodeStringLiteral(std::string_view tokenText)
{
    size_t q = 0;
    bool raw = false;
    bool bytes = false;
    while (q < tokenText.size() && tokenText[q] != '\'' && tokenText[q] != '"') {
        char c = char(tokenText[q] | 0x20);
        raw = raw || c == 'r';
        bytes = bytes || c == 'b';
        ++q;
    }
    if (q >= tokenText.size())
        return Error{{}, 0, 0, "expected a quoted string, found " + std::string(tokenText)};
    const char quote = tokenText[q];
    size_t quoteLen = (tokenText.size() >= q + 6 && tokenText[q + 1] == quote && tokenText[q + 2] == quote) ? 3 : 1;
    if (tokenText.size() < q + 2 * quoteLen)
        return Error{{}, 0, 0, "expected a closing quote, found end of the string"};
    std::string_view body = tokenText.substr(q + quoteLen, tokenText.size() - q - 2 * quoteLen);
    if (raw)
        return std::string(body);
    std::string out;
    out.reserve(body.size());
    for (size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c != '\\' || i + 1 >= body.size()) {
            out += c;
            continue;
        }
        char e = body[++i];
        switch (e) {
        case '\n': break;
        case '\r':
            if (i + 1 < body.size() && body[i + 1] == '\n')
                ++i;
            break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'v': out += '\v'; break;
        case 'x':
        case 'u':
        case 'U': {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            if (bytes && e != 'x') {
                out += '\\';
                out += e;
                break;
            }
            uint32_t value = 0;
            for (int k = 0; k < digits; ++k) {
                if (i + 1 >= body.size() || hexValue(body[i + 1]) < 0)
                    return Error{{}, 0, 0,
                        std::string("expected ") + std::to_string(digits) + " hex digits after \\" + e + ", found "
                            + (i + 1 < body.size() ? quoteChar((unsigned char)body[i + 1]) : "end of the string")};
                value = value * 16 + uint32_t(hexValue(body[++i]));
            }
            if (e == 'x' && bytes)
                out += char(value);
            else if (value > 0x10FFFF)
                return Error{{}, 0, 0,
                    "expected a code point up to \\U0010ffff, found \\U" + std::string(body.substr(i - 7, 8))};
            else
                appendUtf8(out, value);
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                uint32_t value = uint32_t(e - '0');
                for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
                    value = value * 8 + uint32_t(body[++i] - '0');
                if (bytes)
                    out += char(value & 0xFF);
                else
                    appendUtf8(out, value);
            } else {
                // Unknown escapes (and \N{...}) stay as written, as Python keeps them.
                out += '\\';
                out += e;
            }
        }
    }
    return out;
}

bool isPythonKeyword(std::string_view word)
{
    // string_view literals compare by length first, so this costs little per identifier.
    using namespace std::string_view_literals;
    static constexpr std::string_view keywords[] = {
        "False"sv,
        "None"sv,
        "True"sv,
        "and"sv,
        "as"sv,
        "assert"sv,
        "async"sv,
        "await"sv,
        "break"sv,
        "class"sv,
        "continue"sv,
        "def"sv,
        "del"sv,
        "elif"sv,
        "else"sv,
        "except"sv,
        "finally"sv,
        "for"sv,
        "from"sv,
        "global"sv,
        "if"sv,
        "import"sv,
        "in"sv,
        "is"sv,
        "lambda"sv,
        "nonlocal"sv,
        "not"sv,
        "or"sv,
        "pass"sv,
        "raise"sv,
        "return"sv,
        "try"sv,
        "while"sv,
        "with"sv,
        "yield"sv,
    };
    if (word.empty() || word.size() > 8)
        return false;
    for (std::string_view k : keywords)
        if (word == k)
            return true;
    return false;
}

} // namespace fxs
