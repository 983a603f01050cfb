#include "symbol_values.h"

#include "ir/graph.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

namespace fxs {

std::string noValueMessage(const std::vector<std::string> &symbols)
{
    std::string names, flags;
    for (const auto &name : symbols) {
        names += (names.empty() ? "" : ", ") + name;
        flags += (flags.empty() ? "--sym " : " --sym ") + name + "=N";
    }
    return (symbols.size() == 1 ? "symbol " + names + " has no value (give one with "
                                : "symbols " + names + " have no value (give them with ")
        + flags + ")";
}

namespace {

// Recursive descent over one short expression; nesting is capped so no input can exhaust the stack.
class SymbolicParser {
public:
    SymbolicParser(const std::string &text, const SymbolValues &values) : m_text(text), m_values(values) { }

    Result<int64_t> parse()
    {
        auto v = sum(0);
        if (v && (skipSpace(), m_pos != m_text.size()))
            return fail("an operator", m_text.substr(m_pos, 1));
        return v;
    }

private:
    static constexpr int kMaxDepth = 64;

    Result<int64_t> sum(int depth)
    {
        auto left = product(depth);
        while (left) {
            skipSpace();
            char op = peek();
            if (op != '+' && op != '-')
                break;
            ++m_pos;
            auto right = product(depth);
            if (!right)
                return right;
            left = op == '+' ? left.value() + right.value() : left.value() - right.value();
        }
        return left;
    }

    Result<int64_t> product(int depth)
    {
        auto left = unary(depth);
        while (left) {
            skipSpace();
            std::string op;
            if (m_text.compare(m_pos, 2, "//") == 0)
                op = "//";
            else if (peek() == '*' || peek() == '%')
                op = std::string(1, peek());
            else
                break;
            m_pos += op.size();
            auto right = unary(depth);
            if (!right)
                return right;
            if (op == "*") {
                left = left.value() * right.value();
            } else {
                if (right.value() == 0)
                    return fail("a non-zero divisor", "0");
                left = op == "//" ? floorDiv(left.value(), right.value())
                                  : left.value() - floorDiv(left.value(), right.value()) * right.value();
            }
        }
        return left;
    }

    Result<int64_t> unary(int depth)
    {
        skipSpace();
        if (peek() == '-') {
            ++m_pos;
            auto v = unary(depth + 1);
            if (!v || depth + 1 > kMaxDepth)
                return depth + 1 > kMaxDepth ? fail("a shallower expression", "deeper nesting") : v;
            return -v.value();
        }
        return primary(depth);
    }

    Result<int64_t> primary(int depth)
    {
        if (depth > kMaxDepth)
            return fail("a shallower expression", "deeper nesting");
        skipSpace();
        if (peek() == '(') {
            ++m_pos;
            auto v = sum(depth + 1);
            if (v && !consume(')'))
                return fail("')'", m_pos < m_text.size() ? m_text.substr(m_pos, 1) : "the end");
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(peek()))) {
            int64_t v = 0;
            while (std::isdigit(static_cast<unsigned char>(peek())))
                v = v * 10 + (m_text[m_pos++] - '0');
            return v;
        }
        if (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_') {
            size_t start = m_pos;
            while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_')
                ++m_pos;
            std::string name = m_text.substr(start, m_pos - start);
            skipSpace();
            if (peek() == '(')
                return call(name, depth);
            auto it = m_values.find(name);
            if (it == m_values.end())
                return Error{{}, 0, 0, noValueMessage({name})};
            return it->second;
        }
        return fail("a number, symbol or '('", m_pos < m_text.size() ? m_text.substr(m_pos, 1) : "the end");
    }

    Result<int64_t> call(const std::string &name, int depth)
    {
        if (name != "FloorDiv" && name != "Max" && name != "Min")
            return fail("FloorDiv, Max or Min", name);
        ++m_pos; // '('
        auto a = sum(depth + 1);
        if (!a)
            return a;
        if (!consume(','))
            return fail("','", m_pos < m_text.size() ? m_text.substr(m_pos, 1) : "the end");
        auto b = sum(depth + 1);
        if (!b)
            return b;
        if (!consume(')'))
            return fail("')'", m_pos < m_text.size() ? m_text.substr(m_pos, 1) : "the end");
        if (name == "Max")
            return std::max(a.value(), b.value());
        if (name == "Min")
            return std::min(a.value(), b.value());
        if (b.value() == 0)
            return fail("a non-zero divisor", "0");
        return floorDiv(a.value(), b.value());
    }

    static int64_t floorDiv(int64_t a, int64_t b)
    {
        int64_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    void skipSpace()
    {
        while (peek() == ' ')
            ++m_pos;
    }
    bool consume(char c)
    {
        skipSpace();
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    Error fail(const std::string &expected, const std::string &found) const
    {
        return Error{
            {}, 0, int(m_pos) + 1, "in dim expression '" + m_text + "': expected " + expected + ", found " + found};
    }

    const std::string &m_text;
    const SymbolValues &m_values;
    size_t m_pos = 0;
};

} // namespace

Result<int64_t> evaluateSymbolic(const std::string &expr, const SymbolValues &values)
{
    return SymbolicParser(expr, values).parse();
}

Status parseSymbolAssignments(const std::string &text, SymbolValues &values)
{
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(',', start);
        std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        size_t eq = item.find('=');
        std::string name = eq == std::string::npos ? item : item.substr(0, eq);
        std::string value = eq == std::string::npos ? std::string() : item.substr(eq + 1);
        bool validName = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
        for (char c : name)
            validName = validName && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        bool validValue = !value.empty() && value.size() < 19;
        for (char c : value)
            validValue = validValue && std::isdigit(static_cast<unsigned char>(c));
        if (!validName || !validValue)
            return Error{
                {}, 0, 0, "--sym: expected SYMBOL=N (a name and a non-negative integer), found '" + item + "'"};
        values[name] = std::stoll(value);
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return Ok{};
}

std::vector<std::string> inputSymbols(const Graph &graph)
{
    std::set<std::string> names;
    auto collect = [&names](const std::string &expr) {
        // Identifiers not called as functions (FloorDiv, Max, Min): the symbols.
        auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
        for (size_t i = 0; i < expr.size();) {
            if (!word(expr[i])) {
                ++i;
                continue;
            }
            size_t end = i;
            while (end < expr.size() && word(expr[end]))
                ++end;
            // Numbers (digit first) and calls are not symbols.
            if (!std::isdigit(static_cast<unsigned char>(expr[i])) && (end >= expr.size() || expr[end] != '('))
                names.insert(expr.substr(i, end - i));
            i = end;
        }
    };
    for (const Node *node : graph.placeholders()) {
        // Tuples nest: walked with a stack of our own.
        std::vector<const ValueMeta *> pending;
        if (node->meta().val)
            pending.push_back(&*node->meta().val);
        while (!pending.empty()) {
            const ValueMeta *v = pending.back();
            pending.pop_back();
            if (v->kind == ValueMeta::Kind::Tensor) {
                for (const SymInt &d : v->tensor.shape)
                    collect(d.expr);
            } else if (v->kind == ValueMeta::Kind::Tuple) {
                for (const ValueMeta &item : v->items)
                    pending.push_back(&item);
            } else if (v->kind == ValueMeta::Kind::SymInt) {
                collect(v->expr); // SymFloat and SymBool inputs take no value from the user
            }
        }
    }
    // s2 before s10: by the name without its trailing digits, then by their value.
    std::vector<std::string> sorted(names.begin(), names.end());
    auto split = [](const std::string &name) {
        size_t digits = name.find_last_not_of("0123456789") + 1;
        const std::string number = name.substr(digits);
        return std::make_tuple(name.substr(0, digits), number.size(), number);
    };
    std::sort(
        sorted.begin(), sorted.end(), [&](const std::string &a, const std::string &b) { return split(a) < split(b); });
    return sorted;
}

std::vector<std::string> missingSymbols(const Graph &graph, const SymbolValues &values)
{
    std::vector<std::string> missing;
    for (const std::string &name : inputSymbols(graph))
        if (!values.count(name) && !graph.symbolHints().count(name))
            missing.push_back(name);
    return missing;
}

} // namespace fxs
