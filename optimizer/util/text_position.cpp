#include "text_position.h"

#include <algorithm>

namespace fxs {

TextPosition::TextPosition(std::string_view text)
{
    m_lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n')
            m_lineStarts.push_back(i + 1);
}

std::pair<int, int> TextPosition::lineColumn(size_t offset) const
{
    auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    size_t line = size_t(it - m_lineStarts.begin());
    return {int(line), int(offset - m_lineStarts[line - 1] + 1)};
}

} // namespace fxs
