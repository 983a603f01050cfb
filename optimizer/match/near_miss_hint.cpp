#include "near_miss_hint.h"

namespace fxs {

std::string NearMissHint::text() const
{
    std::string out = checked ? "would accept " + std::to_string(acceptedAnchors.size())
                                : "would match " + std::to_string(wouldMatch);
    out += " of " + std::to_string(candidates) + " candidates (found at " + foundAt;
    if (checked && acceptedAnchors.size() < wouldMatch)
        out += "; the changed pattern matches " + std::to_string(wouldMatch) + ", and extra_check refuses "
            + std::to_string(wouldMatch - acceptedAnchors.size()) + (refusal.empty() ? "" : ": " + refusal);
    out += "):";
    for (const auto &c : changes) {
        out += " " + c.what;
        if (c.line > 0)
            out += " [" + c.file + ":" + std::to_string(c.line) + (c.code.empty() ? "" : " `" + c.code + "`") + "]";
        out += ";";
    }
    out.pop_back();
    return out;
}

Json NearMissHint::toJson() const
{
    Json changeList = Json::array();
    for (const auto &c : changes)
        changeList.push(Json::object({{"kind", c.kind}, {"what", c.what}, {"file", c.file}, {"line", c.line},
            {"code", c.code}}));
    Json anchors = Json::array();
    for (const auto &a : matchedAnchors)
        anchors.push(a);
    Json hint = Json::object({{"stage", stage}, {"found_at", foundAt}, {"would_match", wouldMatch},
        {"candidates", candidates}, {"matched", std::move(anchors)}, {"changes", std::move(changeList)},
        {"text", text()}});
    if (checked) {
        Json accepted = Json::array();
        for (const auto &a : acceptedAnchors)
            accepted.push(a);
        hint.set("would_accept", acceptedAnchors.size());
        hint.set("accepted", std::move(accepted));
        if (!refusal.empty())
            hint.set("refusal", refusal);
    }
    return hint;
}

} // namespace fxs
