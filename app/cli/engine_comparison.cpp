#include "engine_comparison.h"

#include "util/text.h"

#include <map>

namespace fxs::cli {

namespace {

// What an engine decided for a candidate, in a few words: "ACCEPTED (5 nodes)", "rejected at extra_check: ...".
std::string verdictText(const Verdict &v)
{
    if (v.accepted)
        return "ACCEPTED (" + std::to_string(v.nodes.size()) + " nodes)";
    const std::vector<std::string> reasons = v.reasonTexts();
    std::string text = std::string("rejected at ") + matchStageName(v.stage);
    if (!reasons.empty())
        text += ": " + (reasons.front().size() > 160 ? reasons.front().substr(0, 157) + "..." : reasons.front());
    return text;
}

bool sameDecision(const Verdict &a, const Verdict &b)
{
    return a.accepted == b.accepted && a.stage == b.stage && (!a.accepted || a.nodes == b.nodes);
}

} // namespace

std::string EngineDifference::toString() const
{
    return pattern + (anchor.empty() ? "" : " at " + anchor) + ": torch " + torch + "; sandbox " + sandbox;
}

Json EngineDifference::toJson() const
{
    return Json::object({{"pattern", pattern}, {"anchor", anchor}, {"torch", torch}, {"sandbox", sandbox}});
}

std::vector<EngineDifference> compareEngines(const MatchReport &torch, const MatchReport &sandbox)
{
    std::map<std::string, const PatternReport *> sandboxPatterns;
    for (const auto &p : sandbox.patterns)
        sandboxPatterns[p.name] = &p;
    std::vector<EngineDifference> out;
    for (const auto &p : torch.patterns) {
        // The host names a file's pattern after its module too ("linear_t.linear" for the sandbox's "linear").
        auto found = sandboxPatterns.find(p.name);
        if (found == sandboxPatterns.end() && p.name.find('.') != std::string::npos)
            found = sandboxPatterns.find(p.name.substr(p.name.rfind('.') + 1));
        if (found == sandboxPatterns.end()) {
            out.push_back({p.name, {}, "registers it", "has no pattern of this name"});
            continue;
        }
        const PatternReport &other = *found->second;
        sandboxPatterns.erase(found);
        std::map<std::string, const Verdict *> sandboxCandidates;
        for (const auto &c : other.candidates)
            sandboxCandidates[c.anchor] = &c;
        for (const auto &c : p.candidates) {
            auto s = sandboxCandidates.find(c.anchor);
            if (s == sandboxCandidates.end())
                out.push_back({p.name, c.anchor, verdictText(c), "has no candidate here"});
            else if (!sameDecision(c, *s->second))
                out.push_back({p.name, c.anchor, verdictText(c), verdictText(*s->second)});
            if (s != sandboxCandidates.end())
                sandboxCandidates.erase(s);
        }
        for (const auto &c : other.candidates)
            if (sandboxCandidates.count(c.anchor))
                out.push_back({p.name, c.anchor, "has no candidate here", verdictText(c)});
    }
    for (const auto &[name, p] : sandboxPatterns)
        out.push_back({name, {}, "has no pattern of this name", "registers it"});
    return out;
}

} // namespace fxs::cli
