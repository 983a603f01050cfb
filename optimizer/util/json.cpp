#include "json.h"

#include "text_position.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace fxs {

Json Json::array(std::vector<Json> items)
{
    Json j;
    j.m_type = Type::Array;
    j.m_items = std::move(items);
    return j;
}

Json Json::object(std::vector<Member> members)
{
    Json j;
    j.m_type = Type::Object;
    j.m_members = std::move(members);
    return j;
}

int64_t Json::toInt(int64_t fallback) const
{
    if (isInt())
        return m_int;
    // Converting a float outside int64's range is undefined behaviour; such values give the fallback.
    if (isFloat() && m_float >= -9.2e18 && m_float <= 9.2e18)
        return int64_t(m_float);
    return fallback;
}

double Json::toDouble(double fallback) const
{
    if (isFloat())
        return m_float;
    if (isInt())
        return double(m_int);
    return fallback;
}

const std::string &Json::toString() const
{
    static const std::string empty;
    return isString() ? m_string : empty;
}

const std::vector<Json> &Json::items() const
{
    static const std::vector<Json> empty;
    return isArray() ? m_items : empty;
}

std::vector<Json> &Json::items()
{
    return m_items;
}

void Json::push(Json value)
{
    if (m_type == Type::Null)
        m_type = Type::Array;
    m_items.push_back(std::move(value));
}

size_t Json::size() const
{
    return isArray() ? m_items.size() : isObject() ? m_members.size() : 0;
}

const std::vector<Json::Member> &Json::members() const
{
    static const std::vector<Member> empty;
    return isObject() ? m_members : empty;
}

const Json *Json::find(std::string_view key) const
{
    for (const auto &m : members())
        if (m.first == key)
            return &m.second;
    return nullptr;
}

const Json &Json::operator[](std::string_view key) const
{
    static const Json null;
    const Json *j = find(key);
    return j ? *j : null;
}

void Json::set(std::string key, Json value)
{
    if (m_type == Type::Null)
        m_type = Type::Object;
    for (auto &m : m_members)
        if (m.first == key) {
            m.second = std::move(value);
            return;
        }
    m_members.emplace_back(std::move(key), std::move(value));
}

bool operator==(const Json &a, const Json &b)
{
    if (a.isNumber() && b.isNumber() && a.m_type != b.m_type)
        return false;
    if (a.m_type != b.m_type)
        return false;
    switch (a.m_type) {
    case Json::Type::Null: return true;
    case Json::Type::Bool: return a.m_bool == b.m_bool;
    case Json::Type::Int: return a.m_int == b.m_int;
    case Json::Type::Float: return a.m_float == b.m_float || (std::isnan(a.m_float) && std::isnan(b.m_float));
    case Json::Type::String: return a.m_string == b.m_string;
    case Json::Type::Array: return a.m_items == b.m_items;
    case Json::Type::Object: return a.m_members == b.m_members;
    }
    return false;
}

void appendJsonString(std::string &out, std::string_view s)
{
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    out += '"';
}

std::string formatDouble(double d)
{
    if (std::isnan(d))
        return "nan";
    if (std::isinf(d))
        return d > 0 ? "inf" : "-inf";
    // Shortest round-trip digits, laid out the way Python's repr(float) does.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    bool negative = sci[0] == '-';
    size_t ePos = sci.find('e');
    std::string digits;
    for (size_t i = negative ? 1 : 0; i < ePos; ++i)
        if (sci[i] != '.')
            digits += sci[i];
    int exponent = std::stoi(sci.substr(ePos + 1));
    std::string out = negative ? "-" : "";
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out += "0." + std::string(size_t(-exponent - 1), '0') + digits;
        } else if (size_t(exponent) + 1 >= digits.size()) {
            out += digits + std::string(size_t(exponent) + 1 - digits.size(), '0') + ".0";
        } else {
            out += digits.substr(0, size_t(exponent) + 1) + "." + digits.substr(size_t(exponent) + 1);
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1)
        out += "." + digits.substr(1);
    char exp[16];
    snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    return out + exp;
}

void Json::dumpTo(std::string &out, int indent, int level) const
{
    auto newline = [&](int lvl) {
        if (indent >= 0) {
            out += '\n';
            out.append(size_t(indent * lvl), ' ');
        }
    };
    switch (m_type) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += m_bool ? "true" : "false"; break;
    case Type::Int: out += std::to_string(m_int); break;
    case Type::Float:
        // JSON has no non-finite numbers; write them as PyTorch's serializer does.
        if (std::isnan(m_float))
            out += "\"NaN\"";
        else if (std::isinf(m_float))
            out += m_float > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        else
            out += formatDouble(m_float);
        break;
    case Type::String: appendJsonString(out, m_string); break;
    case Type::Array:
        out += '[';
        for (size_t i = 0; i < m_items.size(); ++i) {
            if (i)
                out += ',';
            newline(level + 1);
            m_items[i].dumpTo(out, indent, level + 1);
        }
        if (!m_items.empty())
            newline(level);
        out += ']';
        break;
    case Type::Object:
        out += '{';
        for (size_t i = 0; i < m_members.size(); ++i) {
            if (i)
                out += ',';
            newline(level + 1);
            appendJsonString(out, m_members[i].first);
            out += indent >= 0 ? ": " : ":";
            m_members[i].second.dumpTo(out, indent, level + 1);
        }
        if (!m_members.empty())
            newline(level);
        out += '}';
        break;
    }
}

std::string Json::dump(int indent) const
{
    std::string out;
    dumpTo(out, indent, 0);
    return out;
}

namespace {

class Parser {
public:
    Parser(std::string_view text, const std::string &file, int maxDepth)
        : m_text(text), m_file(file), m_maxDepth(maxDepth)
    {
    }

    Result<Json> run()
    {
        Json value;
        if (!parseValue(value, 0))
            return m_error;
        skipSpace();
        if (m_pos != m_text.size())
            return fail("expected end of JSON, found " + describe());
        return value;
    }

private:
    Error fail(std::string message)
    {
        if (m_error.message.empty()) {
            auto [line, col] = TextPosition(m_text).lineColumn(m_pos);
            m_error = Error{m_file, line, col, std::move(message)};
        }
        return m_error;
    }

    std::string describe() const
    {
        if (m_pos >= m_text.size())
            return "end of input";
        unsigned char c = m_text[m_pos];
        if (c >= 0x20 && c < 0x7f)
            return std::string("'") + char(c) + "'";
        char buf[16];
        snprintf(buf, sizeof buf, "byte 0x%02x", c);
        return buf;
    }

    void skipSpace()
    {
        while (m_pos < m_text.size()
            && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t' || m_text[m_pos] == '\r'))
            ++m_pos;
    }

    bool literal(const char *word)
    {
        size_t n = strlen(word);
        if (m_text.substr(m_pos, n) != word)
            return false;
        m_pos += n;
        return true;
    }

    bool parseValue(Json &out, int depth)
    {
        if (depth > m_maxDepth) {
            fail("JSON nested deeper than " + std::to_string(m_maxDepth) + " levels");
            return false;
        }
        skipSpace();
        if (m_pos >= m_text.size()) {
            fail("expected a JSON value, found end of input");
            return false;
        }
        size_t start = m_pos;
        bool ok = parseValueAt(out, depth);
        out.setOffset(start);
        return ok;
    }

    bool parseValueAt(Json &out, int depth)
    {
        char c = m_text[m_pos];
        if (c == '{')
            return parseObject(out, depth);
        if (c == '[')
            return parseArray(out, depth);
        if (c == '"') {
            std::string s;
            if (!parseString(s))
                return false;
            out = Json(std::move(s));
            return true;
        }
        if (c == '-' || (c >= '0' && c <= '9'))
            return parseNumber(out);
        if (literal("true")) {
            out = Json(true);
            return true;
        }
        if (literal("false")) {
            out = Json(false);
            return true;
        }
        if (literal("null")) {
            out = Json();
            return true;
        }
        // Python's json module writes these; accept them.
        if (literal("NaN")) {
            out = Json(std::nan(""));
            return true;
        }
        if (literal("Infinity")) {
            out = Json(HUGE_VAL);
            return true;
        }
        fail("expected a JSON value, found " + describe());
        return false;
    }

    bool parseObject(Json &out, int depth)
    {
        ++m_pos;
        out = Json::object();
        std::vector<Json::Member> members;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
                fail("expected '\"' starting an object key, found " + describe());
                return false;
            }
            std::string key;
            if (!parseString(key))
                return false;
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
                fail("expected ':' after object key, found " + describe());
                return false;
            }
            ++m_pos;
            Json value;
            if (!parseValue(value, depth + 1))
                return false;
            members.emplace_back(std::move(key), std::move(value));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                out = Json::object(std::move(members));
                return true;
            }
            fail("expected ',' or '}' in object, found " + describe());
            return false;
        }
    }

    bool parseArray(Json &out, int depth)
    {
        ++m_pos;
        std::vector<Json> items;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            out = Json::array();
            return true;
        }
        while (true) {
            Json value;
            if (!parseValue(value, depth + 1))
                return false;
            items.push_back(std::move(value));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                out = Json::array(std::move(items));
                return true;
            }
            fail("expected ',' or ']' in array, found " + describe());
            return false;
        }
    }

    static void appendUtf8(std::string &s, uint32_t cp)
    {
        if (cp < 0x80) {
            s += char(cp);
        } else if (cp < 0x800) {
            s += char(0xC0 | (cp >> 6));
            s += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            s += char(0xE0 | (cp >> 12));
            s += char(0x80 | ((cp >> 6) & 0x3F));
            s += char(0x80 | (cp & 0x3F));
        } else {
            s += char(0xF0 | (cp >> 18));
            s += char(0x80 | ((cp >> 12) & 0x3F));
            s += char(0x80 | ((cp >> 6) & 0x3F));
            s += char(0x80 | (cp & 0x3F));
        }
    }

    bool hex4(uint32_t &cp)
    {
        if (m_pos + 4 > m_text.size()) {
            fail("expected 4 hex digits after \\u, found end of input");
            return false;
        }
        cp = 0;
        for (int i = 0; i < 4; ++i) {
            char h = m_text[m_pos++];
            cp <<= 4;
            if (h >= '0' && h <= '9')
                cp |= uint32_t(h - '0');
            else if (h >= 'a' && h <= 'f')
                cp |= uint32_t(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                cp |= uint32_t(h - 'A' + 10);
            else {
                --m_pos;
                fail("expected a hex digit in \\u escape, found " + describe());
                return false;
            }
        }
        return true;
    }

    bool parseString(std::string &out)
    {
        ++m_pos; // opening quote
        while (m_pos < m_text.size()) {
            size_t run = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] != '"' && m_text[m_pos] != '\\'
                && (unsigned char)m_text[m_pos] >= 0x20)
                ++m_pos;
            out.append(m_text.data() + run, m_pos - run);
            if (m_pos >= m_text.size())
                break;
            char c = m_text[m_pos];
            if (c == '"') {
                ++m_pos;
                return true;
            }
            if (c != '\\') {
                fail("expected a string character, found control " + describe());
                return false;
            }
            ++m_pos;
            if (m_pos >= m_text.size())
                break;
            char e = m_text[m_pos++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                uint32_t cp;
                if (!hex4(cp))
                    return false;
                if (cp >= 0xD800 && cp < 0xDC00 && m_text.substr(m_pos, 2) == "\\u") {
                    m_pos += 2;
                    uint32_t low;
                    if (!hex4(low))
                        return false;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                --m_pos;
                fail(std::string("expected an escape character, found ") + describe());
                return false;
            }
        }
        fail("expected '\"' closing the string, found end of input");
        return false;
    }

    bool parseNumber(Json &out)
    {
        size_t start = m_pos;
        if (m_text[m_pos] == '-') {
            ++m_pos;
            if (literal("Infinity")) {
                out = Json(-HUGE_VAL);
                return true;
            }
        }
        bool isFloat = false;
        while (m_pos < m_text.size()) {
            char c = m_text[m_pos];
            if (c >= '0' && c <= '9') {
                ++m_pos;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                isFloat = true;
                ++m_pos;
            } else {
                break;
            }
        }
        const char *b = m_text.data() + start;
        const char *e = m_text.data() + m_pos;
        if (!isFloat) {
            int64_t v;
            auto r = std::from_chars(b, e, v);
            if (r.ec == std::errc() && r.ptr == e) {
                out = Json(v);
                return true;
            }
        }
        double d;
        auto r = std::from_chars(b, e, d);
        if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) {
            m_pos = start;
            fail("expected a number, found " + describe());
            return false;
        }
        if (r.ptr != e) {
            m_pos = size_t(r.ptr - m_text.data());
            fail("expected a number, found " + describe());
            return false;
        }
        out = Json(d);
        return true;
    }

    std::string_view m_text;
    const std::string &m_file;
    int m_maxDepth;
    size_t m_pos = 0;
    Error m_error;
};

} // namespace

Result<Json> Json::parse(std::string_view text, const std::string &fileName, int maxDepth)
{
    return Parser(text, fileName, maxDepth).run();
}

} // namespace fxs
