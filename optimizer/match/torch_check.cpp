#include "torch_check.h"

#include "match_report.h"

#include <map>
#include <set>

namespace fxs {

std::vector<std::string> compareWithTorch(Json &root, const Json &torch)
{
    std::vector<std::string> disagreements;
    std::vector<const Json *> torchPatterns;
    for (const auto &p : torch["patterns"].items())
        if (p["registered"].toBool())
            torchPatterns.push_back(&p);
    Json patternsJson = root["patterns"];
    std::vector<Json> &patterns = patternsJson.items();
    if (patterns.size() != torchPatterns.size())
        disagreements.push_back("fxscope registers " + std::to_string(patterns.size()) + " patterns, torch "
            + std::to_string(torchPatterns.size()));
    const bool torchError = !torch["error"].isNull();
    for (size_t i = 0; i < patterns.size() && i < torchPatterns.size(); ++i) {
        Json &p = patterns[i];
        std::map<std::string, const Json *> byAnchor;
        for (const auto &c : (*torchPatterns[i])["candidates"].items())
            byAnchor[c["anchor"].toString()] = &c;
        std::set<std::string> seen;
        Json candidates = Json::array();
        for (const auto &c0 : p["candidates"].items()) {
            Json c = c0;
            const std::string anchor = c["anchor"].toString();
            seen.insert(anchor);
            const bool accepted = c["accepted"].toBool();
            const std::string stage = c["stage"].toString();
            auto it = byAnchor.find(anchor);
            bool agrees;
            std::string why;
            if (it == byAnchor.end()) {
                agrees = !accepted;
                why = "not an anchor torch visits";
                c.set("torch", Json::object({{"replaced", false}, {"stage", "not_an_anchor"}, {"reason", why}}));
            } else {
                const Json &t = *it->second;
                const bool replaced = t["replaced"].toBool();
                const std::string tstage = t["stage"].toString();
                // torch's pass stops at an exception (an extra_check that raised): fxscope must report an error there
                agrees = accepted == replaced
                    && (tstage != "error" || stage.find("error") != std::string::npos || c.find("error") != nullptr);
                if (torchError && tstage == "not_visited")
                    agrees = true; // torch never got there
                why = replaced ? "replaced" : tstage + (t["reason"].toString().empty() ? "" : ": " + t["reason"].toString());
                c.set("torch", Json::object({{"replaced", replaced}, {"stage", tstage}, {"reason", t["reason"]}}));
            }
            c.set("torch_agrees", agrees);
            if (!agrees)
                disagreements.push_back(p["name"].toString() + " @ " + anchor + ": fxscope "
                    + (accepted ? std::string("accepted") : "rejected (" + stage + ")") + ", torch " + why);
            candidates.push(std::move(c));
        }
        for (const auto &kv : byAnchor)
            if (!seen.count(kv.first) && (*kv.second)["replaced"].toBool())
                disagreements.push_back(p["name"].toString() + " @ " + kv.first
                    + ": fxscope has no candidate there, torch replaced it");
        p.set("candidates", std::move(candidates));
    }
    root.set("patterns", std::move(patternsJson));
    if (torchError && disagreements.empty()) {
        const Json &e = torch["error"];
        bool fxscopeError = false;
        for (const auto &p : root["patterns"].items())
            for (const auto &c : p["candidates"].items())
                fxscopeError = fxscopeError || c.find("error") != nullptr || c["stage"].toString().find("error") != std::string::npos;
        if (!fxscopeError)
            disagreements.push_back("torch's pass raised " + e["type"].toString() + ": " + e["message"].toString()
                + (e["where"].isString() ? " (" + e["where"].toString() + ")" : std::string())
                + "; fxscope reports no error");
    }
    return disagreements;
}

std::string TorchVerdict::text() const
{
    if (!known)
        return {};
    if (agrees)
        return "agrees";
    std::string why = replaced ? std::string("replaced") : stage + (reason.empty() ? std::string() : ": " + reason);
    return "disagrees: " + why;
}

TorchComparison compareReportWithTorch(
    const MatchReport &shown, size_t firstPattern, const MatchReport &alone, const Json &torch)
{
    TorchComparison out;
    out.verdicts.resize(shown.patterns.size());
    out.torchVersion = torch["torch_version"].toString();
    Json root = alone.toJson();
    out.disagreements = compareWithTorch(root, torch);
    const std::vector<Json> &patterns = root["patterns"].items();
    for (size_t i = 0; i < patterns.size() && firstPattern + i < shown.patterns.size(); ++i) {
        std::map<std::string, TorchVerdict> byAnchor;
        for (const auto &c : patterns[i]["candidates"].items()) {
            const Json *t = c.find("torch");
            if (!t)
                break; // torch registered fewer patterns: compareWithTorch left these alone
            TorchVerdict v;
            v.known = true;
            v.agrees = c["torch_agrees"].toBool();
            v.fxscopeAccepted = c["accepted"].toBool();
            v.replaced = (*t)["replaced"].toBool();
            v.stage = (*t)["stage"].toString();
            v.reason = (*t)["reason"].toString();
            byAnchor[c["anchor"].toString()] = std::move(v);
        }
        const PatternReport &p = shown.patterns[firstPattern + i];
        std::vector<TorchVerdict> &row = out.verdicts[firstPattern + i];
        row.resize(p.candidates.size());
        std::set<std::string> acceptedShown;
        for (size_t c = 0; c < p.candidates.size(); ++c) {
            if (p.candidates[c].accepted)
                acceptedShown.insert(p.candidates[c].anchor);
            if (auto it = byAnchor.find(p.candidates[c].anchor); it != byAnchor.end())
                row[c] = it->second;
        }
        for (const auto &[anchor, v] : byAnchor)
            if (v.fxscopeAccepted && !acceptedShown.count(anchor))
                out.acceptedAloneOnly.push_back(patterns[i]["name"].toString() + " @ " + anchor);
    }
    return out;
}

} // namespace fxs
