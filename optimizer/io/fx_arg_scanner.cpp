#include "fx_arg_scanner.h"

#include "../util/text.h"

#include "../ir/tensor_meta.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace fxs {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

const char *const kLayouts[] = {"torch.strided", "torch.sparse_coo", "torch.sparse_csr", "torch.sparse_csc",
    "torch.sparse_bsr", "torch.sparse_bsc", "torch._mkldnn", "torch.jagged"};
const char *const kMemoryFormats[]
    = {"torch.contiguous_format", "torch.channels_last", "torch.channels_last_3d", "torch.preserve_format"};
// str(torch.device) gives the bare type, optionally with ':index'.
const char *const kDeviceTypes[]
    = {"cpu", "cuda", "meta", "npu", "mps", "xpu", "hpu", "xla", "mtia", "lazy", "privateuseone"};
// sympy functions that appear inside printed symbolic expressions.
const char *const kSympyFunctions[] = {"Max", "Min", "floor", "ceiling", "FloorDiv", "CeilDiv", "Mod", "PythonMod",
    "sqrt", "Abs", "TruncToInt", "IntTrueDiv", "ToFloat", "CleanDiv", "Pow", "OpaqueUnaryFn_sqrt", "floordiv"};

template <size_t N>
bool inList(const char *const (&list)[N], std::string_view word)
{
    for (const char *entry : list)
        if (word == entry)
            return true;
    return false;
}

} // namespace

struct FxArgScanner::Frame {
    enum class Kind { List, Tuple, Dict, Slice };
    Kind kind = Kind::List;
    char close = ']';
    size_t open = 0;
    bool trailingComma = false;
    std::vector<Argument> items;
    std::vector<std::string> keys;
};

FxArgScanner::FxArgScanner(std::string_view text, Syntax syntax, Resolver resolver)
    : m_text(text), m_syntax(syntax), m_resolver(std::move(resolver))
{
}

void FxArgScanner::skipSpaces()
{
    while (m_pos < m_text.size() && isBlank(m_text[m_pos]))
        ++m_pos;
}

bool FxArgScanner::consume(std::string_view token)
{
    if (m_text.substr(m_pos, token.size()) != token)
        return false;
    m_pos += token.size();
    return true;
}

bool FxArgScanner::expect(std::string_view token, std::string_view what)
{
    if (consume(token))
        return true;
    return fail(m_pos, what.empty() ? "'" + std::string(token) + "'" : std::string(what));
}

std::string FxArgScanner::describeAt(size_t offset) const
{
    if (offset >= m_text.size() || m_text[offset] == '\n')
        return "end of line";
    size_t end = offset;
    // A word, or else one character, keeps messages short and precise.
    while (end < m_text.size() && end - offset < 24 && isIdentChar(m_text[end]))
        ++end;
    if (end == offset)
        end = offset + 1;
    std::string found(m_text.substr(offset, end - offset));
    std::string out = "'";
    for (char c : found)
        out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
    return out + "'";
}

bool FxArgScanner::fail(size_t offset, std::string_view expected)
{
    return failMessage(offset, "expected " + std::string(expected) + ", found " + describeAt(offset));
}

bool FxArgScanner::failMessage(size_t offset, std::string message)
{
    m_errorOffset = offset;
    m_errorMessage = std::move(message);
    return false;
}

bool FxArgScanner::isSymbolName(std::string_view word)
{
    if (word.size() < 2 || (word[0] != 's' && word[0] != 'u'))
        return false;
    for (size_t i = 1; i < word.size(); ++i)
        if (!isDigit(word[i]))
            return false;
    return true;
}

bool FxArgScanner::isIdentifier(std::string_view word)
{
    if (word.empty() || !isIdentStart(word[0]))
        return false;
    for (char c : word)
        if (!isIdentChar(c))
            return false;
    return true;
}

Argument FxArgScanner::classifyWord(std::string_view word)
{
    if (word == "None")
        return Argument::none();
    if (word == "True" || word == "False")
        return Argument::ofBool(word == "True");
    if (word == "Ellipsis")
        return Argument::ellipsis();
    if (word == "inf")
        return Argument::ofFloat(std::numeric_limits<double>::infinity());
    if (word == "nan")
        return Argument::ofFloat(std::numeric_limits<double>::quiet_NaN());
    if (isDtypeName(word))
        return Argument::ofText(Argument::Kind::Dtype, std::string(word));
    if (inList(kLayouts, word))
        return Argument::ofText(Argument::Kind::Layout, std::string(word));
    if (inList(kMemoryFormats, word))
        return Argument::ofText(Argument::Kind::MemoryFormat, std::string(word));
    size_t colon = word.find(':');
    std::string_view base = word.substr(0, colon);
    if (inList(kDeviceTypes, base)) {
        bool indexOk = colon == std::string_view::npos || colon + 1 < word.size();
        for (size_t i = colon == std::string_view::npos ? word.size() : colon + 1; i < word.size(); ++i)
            indexOk = indexOk && isDigit(word[i]);
        if (indexOk)
            return Argument::ofText(Argument::Kind::Device, std::string(word));
    }
    if (isSymbolName(word))
        return Argument::ofText(Argument::Kind::SymExpr, std::string(word));
    if (word.find('.') != std::string_view::npos || word.find(':') != std::string_view::npos)
        return Argument::ofText(Argument::Kind::Verbatim, std::string(word));
    return Argument::ofString(std::string(word));
}

std::string_view FxArgScanner::scanWord()
{
    size_t start = m_pos;
    while (m_pos < m_text.size() && (isIdentChar(m_text[m_pos]) || m_text[m_pos] == '.'))
        ++m_pos;
    return m_text.substr(start, m_pos - start);
}

bool FxArgScanner::parseQuoted(std::string &out)
{
    size_t start = m_pos;
    char quote = m_text[m_pos++];
    out.clear();
    while (m_pos < m_text.size()) {
        char c = m_text[m_pos++];
        if (c == quote)
            return true;
        if (c == '\n')
            break;
        if (c != '\\' || m_pos >= m_text.size()) {
            out += c;
            continue;
        }
        char e = m_text[m_pos++];
        auto hexValue = [&](size_t digits, uint32_t &value) {
            value = 0;
            for (size_t i = 0; i < digits; ++i) {
                if (m_pos >= m_text.size())
                    return false;
                char h = m_text[m_pos];
                int d = isDigit(h)           ? h - '0'
                    : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                    : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                             : -1;
                if (d < 0)
                    return false;
                value = value * 16 + uint32_t(d);
                ++m_pos;
            }
            return true;
        };
        uint32_t cp = 0;
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '0': out += '\0'; break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'x':
            if (!hexValue(2, cp))
                return failMessage(m_pos, "expected two hex digits after '\\x'");
            out += char(cp);
            break;
        case 'u':
        case 'U':
            if (!hexValue(e == 'u' ? 4 : 8, cp) || cp > 0x10FFFF)
                return failMessage(m_pos, "expected a unicode escape");
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
            break;
        default: out += '\\'; out += e;
        }
    }
    return failMessage(start,
        std::string("expected a closing ") + quote + " for the string starting here, found "
            + describeAt(m_pos > 0 ? m_pos - 1 : m_pos));
}

bool FxArgScanner::scanBalanced(size_t start, char open, char close, size_t &end)
{
    size_t depth = 0;
    for (size_t i = start; i < m_text.size() && m_text[i] != '\n'; ++i) {
        char c = m_text[i];
        if (c == '\'' || c == '"') {
            size_t j = i + 1;
            while (j < m_text.size() && m_text[j] != c && m_text[j] != '\n')
                j += m_text[j] == '\\' ? 2 : 1;
            if (j >= m_text.size() || m_text[j] != c)
                break;
            i = j;
        } else if (c == open) {
            ++depth;
        } else if (c == close && --depth == 0) {
            end = i + 1;
            return true;
        }
    }
    size_t stop = start;
    while (stop < m_text.size() && m_text[stop] != '\n')
        ++stop;
    size_t lineStart = start == 0 ? 0 : m_text.rfind('\n', start - 1);
    lineStart = lineStart == std::string_view::npos || start == 0 ? 0 : lineStart + 1;
    return fail(stop,
        std::string("'") + close + "' to close the '" + open + "' opened at column "
            + std::to_string(start - lineStart + 1));
}

bool FxArgScanner::parseNumber(Argument &out)
{
    size_t start = m_pos;
    size_t i = m_pos;
    if (i < m_text.size() && (m_text[i] == '-' || m_text[i] == '+'))
        ++i;
    if (m_text.substr(i, 3) == "inf" && (i + 3 >= m_text.size() || !isIdentChar(m_text[i + 3]))) {
        m_pos = i + 3;
        double inf = std::numeric_limits<double>::infinity();
        out = Argument::ofFloat(m_text[start] == '-' ? -inf : inf);
        return true;
    }
    if (m_text.substr(i, 3) == "nan" && (i + 3 >= m_text.size() || !isIdentChar(m_text[i + 3]))) {
        m_pos = i + 3;
        out = Argument::ofFloat(std::numeric_limits<double>::quiet_NaN());
        return true;
    }
    bool isFloat = false;
    size_t digitsStart = i;
    while (i < m_text.size() && isDigit(m_text[i]))
        ++i;
    if (i < m_text.size() && m_text[i] == '.') {
        isFloat = true;
        ++i;
        while (i < m_text.size() && isDigit(m_text[i]))
            ++i;
    }
    if (i == digitsStart || (i == digitsStart + 1 && isFloat))
        return fail(start, "a value");
    if (i < m_text.size() && (m_text[i] == 'e' || m_text[i] == 'E')) {
        size_t j = i + 1;
        if (j < m_text.size() && (m_text[j] == '-' || m_text[j] == '+'))
            ++j;
        if (j < m_text.size() && isDigit(m_text[j])) {
            isFloat = true;
            while (j < m_text.size() && isDigit(m_text[j]))
                ++j;
            i = j;
        }
    }
    if (i < m_text.size() && isIdentChar(m_text[i]))
        return fail(i, "a number");
    // from_chars does not take a leading '+'.
    size_t parseFrom = m_text[start] == '+' ? start + 1 : start;
    const char *first = m_text.data() + parseFrom;
    const char *last = m_text.data() + i;
    m_pos = i;
    if (!isFloat) {
        int64_t v = 0;
        auto res = std::from_chars(first, last, v);
        if (res.ec == std::errc() && res.ptr == last) {
            out = Argument::ofInt(v);
            return true;
        }
        // Python ints are unbounded; keep a too-large one as printed rather than rounding it.
        out = Argument::ofText(Argument::Kind::Verbatim, std::string(m_text.substr(start, i - start)));
        return true;
    }
    double d = 0;
    auto res = std::from_chars(first, last, d);
    if (res.ptr != last)
        return fail(start, "a number");
    if (res.ec == std::errc::result_out_of_range)
        d = std::strtod(std::string(first, last).c_str(), nullptr);
    out = Argument::ofFloat(d);
    return true;
}

bool FxArgScanner::scanSymExpr(Argument &out)
{
    // An expression over symbolic sizes as sympy prints it (s0, 2*s0, s0 + 1, ((-u1)//3) + 5). Anything
    // else leaves pos() unchanged and returns false without an error, so the caller reads it normally.
    size_t start = m_pos;
    size_t i = m_pos;
    std::vector<bool> callParens; // per open paren: is it a function call's (commas allowed inside)?
    bool sawSymbol = false;
    bool sawOperator = false;
    bool lastWasFunction = false;
    size_t lastSolid = start;
    while (i < m_text.size()) {
        char c = m_text[i];
        if (isBlank(c)) {
            ++i;
            continue;
        }
        if (c == '(') {
            if (callParens.size() >= size_t(kMaxDepth))
                return false;
            callParens.push_back(lastWasFunction);
            lastWasFunction = false;
            lastSolid = ++i;
            continue;
        }
        lastWasFunction = false;
        if (c == ')') {
            if (callParens.empty())
                break;
            callParens.pop_back();
            lastSolid = ++i;
            continue;
        }
        if (c == ',' || c == ']' || c == '}' || c == '\n') {
            if (!callParens.empty() && !(c == ',' && callParens.back()))
                return false;
            if (callParens.empty())
                break;
            lastSolid = ++i;
            continue;
        }
        if (isDigit(c)) {
            while (i < m_text.size() && (isDigit(m_text[i]) || m_text[i] == '.'))
                ++i;
            lastSolid = i;
            continue;
        }
        if (isIdentStart(c)) {
            size_t w = i;
            while (i < m_text.size() && isIdentChar(m_text[i]))
                ++i;
            std::string_view word = m_text.substr(w, i - w);
            if (isSymbolName(word)) {
                sawSymbol = true;
            } else if (inList(kSympyFunctions, word)) {
                lastWasFunction = true;
                sawOperator = true;
            } else {
                return false;
            }
            lastSolid = i;
            continue;
        }
        if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '<' || c == '>' || c == '=' || c == '!') {
            // A lone '=' is a keyword argument, not part of an expression; '==', '<=', '>=', '!=' are.
            if (c == '=') {
                bool nextIsEq = i + 1 < m_text.size() && m_text[i + 1] == '=';
                bool prevIsCmp = i > start && std::string_view("<>!=").find(m_text[i - 1]) != std::string_view::npos;
                if (!nextIsEq && !prevIsCmp)
                    return false;
            }
            sawOperator = true;
            lastSolid = ++i;
            continue;
        }
        return false;
    }
    if (!callParens.empty() || !sawSymbol)
        return false;
    std::string_view expr = m_text.substr(start, lastSolid - start);
    while (!expr.empty() && isBlank(expr.back()))
        expr.remove_suffix(1);
    if (expr.empty() || (!sawOperator && !isSymbolName(expr) && expr.front() != '('))
        return false;
    out = Argument::ofText(Argument::Kind::SymExpr, std::string(expr));
    m_pos = start + expr.size();
    return true;
}

bool FxArgScanner::parseDeviceCall(Argument &out)
{
    // device(type='cuda', index=0) as Python's repr prints a torch.device.
    size_t save = m_pos;
    auto bail = [&]() {
        m_pos = save;
        return false;
    };
    if (!consume("("))
        return bail();
    skipSpaces();
    consume("type=");
    if (peek() != '\'' && peek() != '"')
        return bail();
    std::string type;
    if (!parseQuoted(type)) {
        m_errorMessage.clear();
        return bail();
    }
    if (!isIdentifier(type))
        return bail(); // not a device type; kept verbatim instead
    skipSpaces();
    std::string text = type;
    if (consume(",")) {
        skipSpaces();
        consume("index=");
        size_t digits = m_pos;
        while (m_pos < m_text.size() && isDigit(m_text[m_pos]))
            ++m_pos;
        if (digits == m_pos)
            return bail();
        text += ":" + std::string(m_text.substr(digits, m_pos - digits));
        skipSpaces();
    }
    if (!consume(")"))
        return bail();
    out = Argument::ofText(Argument::Kind::Device, std::move(text));
    return true;
}

bool FxArgScanner::scanAnnotation(std::string_view &out)
{
    size_t start = m_pos;
    char c = peek();
    if (c == '"' || c == '\'') {
        size_t end = m_text.find(c, start + 1);
        size_t newline = m_text.find('\n', start + 1);
        if (end == std::string_view::npos || (newline != std::string_view::npos && newline < end))
            return fail(start, "a quoted annotation");
        out = m_text.substr(start + 1, end - start - 1);
        m_pos = end + 1;
        return true;
    }
    int depth = 0;
    size_t i = start;
    for (; i < m_text.size(); ++i) {
        char ch = m_text[i];
        if (ch == '\n')
            break;
        if (ch == '[' || ch == '(') {
            ++depth;
        } else if (ch == ']' || ch == ')') {
            if (depth == 0)
                break;
            --depth;
        } else if (ch == ',' && depth == 0) {
            break;
        }
    }
    size_t end = i;
    while (end > start && isBlank(m_text[end - 1]))
        --end;
    if (end == start)
        return fail(start, "an annotation");
    out = m_text.substr(start, end - start);
    m_pos = end;
    return true;
}

bool FxArgScanner::parseDictKey(std::string &key)
{
    skipSpaces();
    char c = peek();
    if (c == '\'' || c == '"')
        return parseQuoted(key);
    size_t start = m_pos;
    while (m_pos < m_text.size()) {
        char ch = m_text[m_pos];
        if (ch == ':' || ch == ',' || ch == '}' || ch == '\n')
            break;
        ++m_pos;
    }
    size_t end = m_pos;
    while (end > start && isBlank(m_text[end - 1]))
        --end;
    if (end == start)
        return fail(start, "a dict key");
    key = std::string(m_text.substr(start, end - start));
    return true;
}

bool FxArgScanner::parseAtom(Argument &out, bool &opened, std::vector<Frame> &stack)
{
    opened = false;
    size_t start = m_pos;
    char c = peek();
    auto push = [&](Frame::Kind kind, char close) {
        if (stack.size() >= size_t(kMaxDepth))
            return failMessage(
                start, "expected at most " + std::to_string(kMaxDepth) + " levels of nesting, found more");
        Frame f;
        f.kind = kind;
        f.close = close;
        f.open = start;
        stack.push_back(std::move(f));
        opened = true;
        return true;
    };
    if (atEnd() || c == '\n')
        return fail(start, "a value");
    if (c == '(') {
        if (scanSymExpr(out))
            return true;
        ++m_pos;
        return push(Frame::Kind::Tuple, ')');
    }
    if (c == '[') {
        ++m_pos;
        return push(Frame::Kind::List, ']');
    }
    if (c == '{') {
        ++m_pos;
        return push(Frame::Kind::Dict, '}');
    }
    if (c == '%') {
        ++m_pos;
        size_t nameStart = m_pos;
        while (m_pos < m_text.size() && isIdentChar(m_text[m_pos]))
            ++m_pos;
        if (m_pos == nameStart)
            return fail(nameStart, "a node name after '%'");
        NameRef ref;
        ref.name = m_text.substr(nameStart, m_pos - nameStart);
        ref.offset = nameStart;
        ref.percent = true;
        Node *node = nullptr;
        std::string message;
        Resolution r = m_resolver ? m_resolver(ref, node, message) : Resolution::NotNode;
        if (r == Resolution::Node) {
            out = Argument::ofNode(node);
            return true;
        }
        if (r == Resolution::Failed)
            return failMessage(start, std::move(message));
        return failMessage(
            start, "expected a node defined on an earlier line, found undefined '%" + std::string(ref.name) + "'");
    }
    if (c == '\'' || c == '"') {
        std::string s;
        if (!parseQuoted(s))
            return false;
        out = Argument::ofString(std::move(s));
        return true;
    }
    if (c == '<') {
        size_t end = 0;
        if (!scanBalanced(start, '<', '>', end))
            return false;
        m_pos = end;
        out = Argument::ofText(Argument::Kind::Verbatim, std::string(m_text.substr(start, end - start)));
        return true;
    }
    if (c == '.' && m_text.substr(m_pos, 3) == "...") {
        m_pos += 3;
        out = Argument::ellipsis();
        return true;
    }
    if (isDigit(c) || c == '-' || c == '+' || c == '.') {
        if (scanSymExpr(out))
            return true;
        return parseNumber(out);
    }
    if (!isIdentStart(c))
        return fail(start, "a value");

    // A word: a node name (Python syntax asks the resolver first), a symbolic expression, a call or a literal.
    size_t identEnd = m_pos;
    while (identEnd < m_text.size() && isIdentChar(m_text[identEnd]))
        ++identEnd;
    char after = identEnd < m_text.size() ? m_text[identEnd] : '\0';
    bool deviceIndex = after == ':' && identEnd + 1 < m_text.size() && isDigit(m_text[identEnd + 1]);
    bool annotated = m_annotations && after == ':' && identEnd + 1 < m_text.size() && m_text[identEnd + 1] == ' ';
    if (m_resolver && (m_syntax == Syntax::Python || annotated) && after != '.' && after != '(' && !deviceIndex) {
        NameRef ref;
        ref.name = m_text.substr(start, identEnd - start);
        ref.offset = start;
        m_pos = identEnd;
        if (annotated) {
            m_pos += 2;
            skipSpaces();
            if (!scanAnnotation(ref.annotation))
                return false;
            ref.annotated = true;
        }
        Node *node = nullptr;
        std::string message;
        Resolution r = m_resolver(ref, node, message);
        if (r == Resolution::Node) {
            out = Argument::ofNode(node);
            return true;
        }
        if (r == Resolution::Failed)
            return failMessage(start, std::move(message));
        if (annotated) {
            out = classifyWord(ref.name);
            return true;
        }
        m_pos = start;
    }
    if (isSymbolName(m_text.substr(start, identEnd - start)) && scanSymExpr(out))
        return true;
    std::string_view word = scanWord();
    if (peek() == ':' && m_pos + 1 < m_text.size() && isDigit(m_text[m_pos + 1])) {
        // str(torch.device('cuda', 0)) is 'cuda:0'.
        ++m_pos;
        while (m_pos < m_text.size() && isDigit(m_text[m_pos]))
            ++m_pos;
        out = classifyWord(m_text.substr(start, m_pos - start));
        return true;
    }
    if (peek() == '(') {
        if (word == "slice") {
            ++m_pos;
            return push(Frame::Kind::Slice, ')');
        }
        if (word == "device" && parseDeviceCall(out))
            return true;
        size_t end = 0;
        if (!scanBalanced(m_pos, '(', ')', end))
            return false;
        m_pos = end;
        out = Argument::ofText(Argument::Kind::Verbatim, std::string(m_text.substr(start, end - start)));
        return true;
    }
    out = classifyWord(word);
    return true;
}

bool FxArgScanner::parseValue(Argument &out)
{
    m_errorMessage.clear();
    std::vector<Frame> stack;
    while (true) {
        skipSpaces();
        Argument value;
        bool haveValue = false;
        if (!stack.empty()) {
            Frame &top = stack.back();
            // An empty container, or a trailing comma before the closing bracket.
            if (peek() == top.close && top.kind != Frame::Kind::Slice && (top.items.empty() || top.trailingComma)) {
                ++m_pos;
                haveValue = true;
            } else if (top.kind == Frame::Kind::Dict) {
                std::string key;
                if (!parseDictKey(key))
                    return false;
                skipSpaces();
                if (!expect(":", "':' after the dict key"))
                    return false;
                skipSpaces();
                top.keys.push_back(std::move(key));
            }
        }
        if (!haveValue) {
            bool opened = false;
            if (!parseAtom(value, opened, stack))
                return false;
            if (opened)
                continue;
        }
        // Fold completed values into their containers.
        while (true) {
            if (haveValue) {
                // The top frame just closed: turn it into a value.
                Frame &top = stack.back();
                switch (top.kind) {
                case Frame::Kind::List: value = Argument::list(std::move(top.items)); break;
                case Frame::Kind::Tuple:
                    // In Python '(x)' is x itself; print(gm.graph) never writes a 1-tuple without the comma.
                    if (m_syntax == Syntax::Python && top.items.size() == 1 && !top.trailingComma)
                        value = std::move(top.items[0]);
                    else
                        value = Argument::tuple(std::move(top.items));
                    break;
                case Frame::Kind::Dict: {
                    std::vector<std::pair<std::string, Argument>> entries;
                    entries.reserve(top.items.size());
                    for (size_t i = 0; i < top.items.size(); ++i)
                        entries.emplace_back(std::move(top.keys[i]), std::move(top.items[i]));
                    value = Argument::dict(std::move(entries));
                    break;
                }
                case Frame::Kind::Slice:
                    if (top.items.size() != 3)
                        return failMessage(top.open,
                            "expected slice(start, stop, step) with 3 items, found "
                                + std::to_string(top.items.size()));
                    value = Argument::slice(std::move(top.items[0]), std::move(top.items[1]), std::move(top.items[2]));
                    break;
                }
                stack.pop_back();
                haveValue = false;
            }
            if (stack.empty()) {
                out = std::move(value);
                return true;
            }
            Frame &top = stack.back();
            top.items.push_back(std::move(value));
            top.trailingComma = false;
            skipSpaces();
            char c = peek();
            if (c == ',') {
                ++m_pos;
                top.trailingComma = true;
                break;
            }
            if (c == top.close) {
                ++m_pos;
                haveValue = true;
                continue;
            }
            return fail(m_pos, std::string("',' or '") + top.close + "'");
        }
    }
}

bool FxArgScanner::parseCallArguments(std::vector<Argument> &args, Kwargs &kwargs, char close)
{
    m_errorMessage.clear();
    while (true) {
        skipSpaces();
        if (consume(std::string_view(&close, 1)))
            return true;
        std::string_view key;
        if (isIdentStart(peek())) {
            size_t w = m_pos;
            while (w < m_text.size() && isIdentChar(m_text[w]))
                ++w;
            if (w < m_text.size() && m_text[w] == '=' && (w + 1 >= m_text.size() || m_text[w + 1] != '=')) {
                key = m_text.substr(m_pos, w - m_pos);
                m_pos = w + 1;
            }
        }
        Argument value;
        if (!parseValue(value))
            return false;
        if (key.empty())
            args.push_back(std::move(value));
        else
            kwargs.emplace_back(std::string(key), std::move(value));
        skipSpaces();
        if (consume(","))
            continue;
        if (consume(std::string_view(&close, 1)))
            return true;
        return fail(m_pos, std::string("',' or '") + close + "'");
    }
}

} // namespace fxs
