#pragma once
// Maps byte offsets in a text to 1-based line and column numbers, for error messages.

#include <string_view>
#include <vector>

namespace fxs {

class TextPosition {
public:
    explicit TextPosition(std::string_view text);
    // Line and column (1-based) of the byte at offset.
    std::pair<int, int> lineColumn(size_t offset) const;

private:
    std::vector<size_t> m_lineStarts;
};

} // namespace fxs
