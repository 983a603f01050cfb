#pragma once
// Small character and string helpers shared by the dump parsers.

#include <string>
#include <string_view>
#include <vector>

namespace fxs {

// Blanks inside a line; newlines are structure to the line-based parsers.
inline bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

inline bool isSpace(char c)
{
    return isBlank(c) || c == '\n' || c == '\f' || c == '\v';
}

inline bool isIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

inline bool isIdentChar(char c)
{
    return isIdentStart(c) || (c >= '0' && c <= '9');
}

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

inline bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

// "a, b, c": names listed in a message.
inline std::string joinNames(const std::vector<std::string> &names, std::string_view separator = ", ")
{
    std::string out;
    for (const auto &n : names) {
        if (!out.empty())
            out += separator;
        out += n;
    }
    return out;
}

} // namespace fxs
