#pragma once
// Finds where values sit in a JSON text, by path, so that errors about a parsed document's structure
// (a node without "target") can still name a line and column. Json keeps no positions; this re-scans.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace fxs {

// Paths are written as keys joined with '.' and array indices in brackets:
// "graph_module.graph.nodes[3].inputs[0]". The root value's path is "".
class JsonLocator {
public:
    static constexpr size_t npos = size_t(-1);

    explicit JsonLocator(std::string_view text) : m_text(text) { }

    // Byte offset of the first character of the value at path, or npos when absent.
    size_t find(std::string_view path) const;
    // Calls visit(path, offset) for every value in document order; stops when visit returns false.
    // One linear scan; nesting is tracked on an explicit stack, so depth costs no recursion.
    void scan(const std::function<bool(const std::string &path, size_t offset)> &visit) const;

private:
    std::string_view m_text;
};

} // namespace fxs
