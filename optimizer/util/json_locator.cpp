#include "json_locator.h"

#include <vector>

namespace fxs {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

// Offset just past the string literal that starts at pos (a '"'); text.size() when unterminated.
size_t skipString(std::string_view text, size_t pos)
{
    for (++pos; pos < text.size(); ++pos) {
        if (text[pos] == '\\')
            ++pos;
        else if (text[pos] == '"')
            return pos + 1;
    }
    return text.size();
}

} // namespace

void JsonLocator::scan(const std::function<bool(const std::string &path, size_t offset)> &visit) const
{
    struct Frame {
        bool object;
        size_t index;
        size_t pathLength; // length of the container's own path
    };
    enum class State { Value, ObjectFirst, ObjectKey, ArrayFirst, AfterValue };

    std::vector<Frame> stack;
    std::string path;
    State state = State::Value;
    size_t pos = 0;
    const size_t n = m_text.size();
    auto appendIndex = [&](const Frame &f) {
        path.resize(f.pathLength);
        path += '[';
        path += std::to_string(f.index);
        path += ']';
    };

    while (true) {
        while (pos < n && isSpace(m_text[pos]))
            ++pos;
        if (pos >= n)
            return;
        char c = m_text[pos];
        switch (state) {
        case State::Value:
            if (!visit(path, pos))
                return;
            if (c == '{' || c == '[') {
                stack.push_back(Frame{c == '{', 0, path.size()});
                state = c == '{' ? State::ObjectFirst : State::ArrayFirst;
                ++pos;
            } else if (c == '"') {
                pos = skipString(m_text, pos);
                state = State::AfterValue;
            } else {
                while (
                    pos < n && !isSpace(m_text[pos]) && m_text[pos] != ',' && m_text[pos] != ']' && m_text[pos] != '}')
                    ++pos;
                state = State::AfterValue;
            }
            break;
        case State::ObjectFirst:
        case State::ObjectKey: {
            if (c == '}' && state == State::ObjectFirst) {
                ++pos;
                path.resize(stack.back().pathLength);
                stack.pop_back();
                state = State::AfterValue;
                break;
            }
            if (c != '"')
                return; // not JSON we can follow; callers fall back to less precise positions
            size_t end = skipString(m_text, pos);
            std::string_view key = m_text.substr(pos + 1, end > pos + 1 ? end - pos - 2 : 0);
            pos = end;
            while (pos < n && isSpace(m_text[pos]))
                ++pos;
            if (pos >= n || m_text[pos] != ':')
                return;
            ++pos;
            path.resize(stack.back().pathLength);
            if (!path.empty())
                path += '.';
            path.append(key.data(), key.size());
            state = State::Value;
            break;
        }
        case State::ArrayFirst:
            if (c == ']') {
                ++pos;
                path.resize(stack.back().pathLength);
                stack.pop_back();
                state = State::AfterValue;
                break;
            }
            appendIndex(stack.back());
            state = State::Value;
            break;
        case State::AfterValue: {
            if (stack.empty())
                return;
            Frame &top = stack.back();
            if (c == ',') {
                ++pos;
                ++top.index;
                if (top.object) {
                    state = State::ObjectKey;
                } else {
                    appendIndex(top);
                    state = State::Value;
                }
            } else if ((c == '}' && top.object) || (c == ']' && !top.object)) {
                ++pos;
                path.resize(top.pathLength);
                stack.pop_back();
            } else {
                return;
            }
            break;
        }
        }
    }
}

size_t JsonLocator::find(std::string_view path) const
{
    size_t found = npos;
    scan([&](const std::string &p, size_t offset) {
        if (p == path) {
            found = offset;
            return false;
        }
        return true;
    });
    return found;
}

} // namespace fxs
