#include "recording.h"

#include <algorithm>

namespace fxs {

int64_t RecordedStep::replaced() const
{
    int64_t total = 0;
    for (const auto &p : patternPasses)
        total += p.replaced;
    return total;
}

std::vector<int> Recording::ranks() const
{
    std::vector<int> out;
    for (const auto &s : streams)
        if (std::find(out.begin(), out.end(), s.rank) == out.end())
            out.push_back(s.rank);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace fxs
