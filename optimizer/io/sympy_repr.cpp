#include "sympy_repr.h"

#include <cctype>
#include <optional>
#include <vector>

namespace fxs {

namespace {

// Recursive descent over one call tree; nesting is capped so no input can exhaust the stack.
class SreprReader {
public:
    explicit SreprReader(std::string_view text) : m_text(text) { }

    std::optional<std::string> read()
    {
        auto out = expression(0);
        skipSpace();
        if (!out || m_pos != m_text.size())
            return std::nullopt;
        return out->text;
    }

private:
    static constexpr int kMaxDepth = 64;

    // A piece of Python text and whether it must be parenthesised inside a product or a power.
    struct Piece {
        std::string text;
        bool sum = false;
        bool atom = true;
    };

    std::optional<Piece> expression(int depth)
    {
        if (depth > kMaxDepth)
            return std::nullopt;
        skipSpace();
        if (m_pos < m_text.size() && (m_text[m_pos] == '\'' || m_text[m_pos] == '"'))
            return quoted();
        const size_t start = m_pos;
        while (m_pos < m_text.size()
            && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_' || m_text[m_pos] == '.'
                || (m_pos == start && m_text[m_pos] == '-')))
            ++m_pos;
        if (m_pos == start)
            return std::nullopt;
        std::string head(m_text.substr(start, m_pos - start));
        skipSpace();
        if (m_pos >= m_text.size() || m_text[m_pos] != '(')
            return Piece{head}; // a number, True, or a symbol's bare name
        ++m_pos;
        std::vector<Piece> args;
        for (;;) {
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ')') {
                ++m_pos;
                break;
            }
            auto arg = expression(depth + 1);
            if (!arg)
                return std::nullopt;
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == '=') { // integer=True: an assumption, not an argument
                ++m_pos;
                if (!expression(depth + 1))
                    return std::nullopt;
            } else {
                args.push_back(std::move(*arg));
            }
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',')
                ++m_pos;
            else if (m_pos >= m_text.size() || m_text[m_pos] != ')')
                return std::nullopt;
        }
        return call(head, args);
    }

    std::optional<Piece> quoted()
    {
        const char quote = m_text[m_pos++];
        const size_t start = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != quote)
            ++m_pos;
        if (m_pos >= m_text.size())
            return std::nullopt;
        return Piece{std::string(m_text.substr(start, m_pos++ - start))};
    }

    static std::string inProduct(const Piece &p) { return p.sum ? "(" + p.text + ")" : p.text; }

    static std::optional<Piece> call(const std::string &head, const std::vector<Piece> &args)
    {
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
                    out.text += (out.text.empty() || out.text == "-" ? "" : "*") + inProduct(a);
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

    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }

    std::string_view m_text;
    size_t m_pos = 0;
};

} // namespace

std::string sympyReprToText(std::string_view expr)
{
    // srepr always names its atoms: no Symbol( or Integer( means the text is already Python.
    if (expr.find("Symbol(") == std::string_view::npos && expr.find("Integer(") == std::string_view::npos)
        return std::string(expr);
    auto text = SreprReader(expr).read();
    return text ? *text : std::string(expr);
}

} // namespace fxs
