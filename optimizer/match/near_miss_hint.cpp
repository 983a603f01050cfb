#include "near_miss_hint.h"

namespace fxs {

std::string NearMissHint::text() const
{
    std::string out = "would match " + std::to_string(wouldMatch) + " of " + std::to_string(candidates)
        + " candidates (found at " + foundAt + "):";
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
    return Json::object({{"stage", stage}, {"found_at", foundAt}, {"would_match", wouldMatch},
        {"candidates", candidates}, {"matched", std::move(anchors)}, {"changes", std::move(changeList)},
        {"text", text()}});
}

} // namespace fxs
