#include "closest_name.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace fxs {

namespace {

std::string lowered(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Levenshtein distance with two rows: names are short, and a long typed name costs only linear memory.
size_t editDistance(const std::string &a, const std::string &b)
{
    std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        previous[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(previous, current);
    }
    return previous[b.size()];
}

bool containsEitherWay(const std::string &a, const std::string &b)
{
    constexpr size_t kShortest = 3; // "e" is in every name: too short to say which one was meant
    return (a.size() >= kShortest && b.find(a) != std::string::npos)
        || (b.size() >= kShortest && a.find(b) != std::string::npos);
}

} // namespace

std::string closestName(std::string_view typed, const std::vector<std::string> &known)
{
    const std::string name = lowered(typed);
    const size_t closeEnough = std::max<size_t>(1, name.size() / 3);
    const std::string *best = nullptr;
    bool bestContains = false;
    size_t bestDistance = std::numeric_limits<size_t>::max();
    for (const std::string &candidate : known) {
        if (candidate == typed)
            continue; // not a mistyped name: the caller rejected it for another reason
        const std::string other = lowered(candidate);
        const bool contains = containsEitherWay(name, other);
        const size_t distance = editDistance(name, other);
        if (!contains && distance > closeEnough)
            continue;
        if (!best || (contains && !bestContains) || (contains == bestContains && distance < bestDistance)) {
            best = &candidate;
            bestContains = contains;
            bestDistance = distance;
        }
    }
    return best ? *best : std::string();
}

std::string didYouMean(std::string_view typed, const std::vector<std::string> &known)
{
    const std::string name = closestName(typed, known);
    return name.empty() ? std::string() : "; did you mean '" + name + "'?";
}

} // namespace fxs
