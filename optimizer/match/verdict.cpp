#include "verdict.h"

#include "match_report.h"

namespace fxs {

const char *matchStageName(MatchStage stage)
{
    switch (stage) {
    case MatchStage::Generic: return "generic";
    case MatchStage::MutationStream: return "mutation_stream";
    case MatchStage::Retrace: return "retrace";
    case MatchStage::Specific: return "specific";
    case MatchStage::ExtraCheck: return "extra_check";
    case MatchStage::Overlap: return "overlap";
    case MatchStage::Error: return "error";
    case MatchStage::Accepted: return "accepted";
    }
    return "?";
}

namespace {

Json strings(const std::vector<std::string> &v)
{
    Json a = Json::array();
    for (const auto &s : v)
        a.push(s);
    return a;
}

} // namespace

std::string failureReason(const MatchFailure &f)
{
    std::string path;
    for (const auto &p : f.path)
        path += (path.empty() ? "" : " → ") + p;
    std::string where = path.empty() ? std::string() : " (path: " + path + ")";
    return f.code + ": " + f.reason + where;
}

std::vector<std::string> Verdict::reasonTexts() const
{
    std::vector<std::string> out;
    if (failure && stage == MatchStage::Generic)
        out.push_back(failureReason(*failure));
    else if (failure && stage == MatchStage::Specific)
        out.push_back("specific pattern (real literals): " + failureReason(*failure));
    out.insert(out.end(), reasons.begin(), reasons.end());
    return out;
}

Json Verdict::toJson() const
{
    Json bindingsJson = Json::object();
    for (const auto &kv : bindings)
        bindingsJson.set(kv.first, kv.second);
    Json j = Json::object({{"anchor", anchor}, {"nodes", strings(nodes)}, {"bindings", std::move(bindingsJson)},
        {"accepted", accepted}, {"stage", matchStageName(stage)}, {"reasons", strings(reasonTexts())}});
    if (failure) {
        j.set("failure",
            Json::object(
                {{"code", failure->code}, {"message", failure->messageText()}, {"pattern_node", failure->patternNode},
                    {"graph_node", failure->graphNode}, {"expected", failure->expected}, {"actual", failure->actual},
                    {"external_users", strings(failure->externalUsers)}, {"path", strings(failure->path)}}));
    }
    if (!checkTrace.empty())
        j.set("extra_check_trace", strings(checkTrace));
    if (!overlapWith.empty())
        j.set("overlaps", overlapWith);
    if (!externalUsers.empty())
        j.set("external_users", strings(externalUsers));
    return j;
}

size_t PatternReport::acceptedCount() const
{
    size_t n = 0;
    for (const auto &c : candidates)
        n += c.accepted ? 1 : 0;
    return n;
}

const PatternReport *MatchReport::find(std::string_view name) const
{
    for (const auto &p : patterns)
        if (p.name == name)
            return &p;
    return nullptr;
}

Json MatchReport::toJson() const
{
    Json list = Json::array();
    for (const auto &p : patterns) {
        Json candidates = Json::array();
        for (const auto &c : p.candidates)
            candidates.push(c.toJson());
        list.push(Json::object({{"name", p.name}, {"source", p.source}, {"api", p.api}, {"pattern", p.pattern},
            {"extra_check", p.extraCheckSource}, {"warnings", strings(p.warnings)}, {"accepted", p.acceptedCount()},
            {"candidates", std::move(candidates)}}));
        if (!p.hints.empty()) {
            Json hints = Json::array();
            for (const auto &h : p.hints)
                hints.push(h.toJson());
            list.items().back().set("hints", std::move(hints));
        }
    }
    Json out = Json::object({{"graph_nodes", graphNodes}, {"anchors", anchorsVisited},
        {"warnings", strings(warnings)}, {"patterns", std::move(list)}});
    Json passes = Json::array();
    for (const auto &p : pipelinePasses)
        passes.push(Json::object({{"name", p.name}, {"when", p.beforePatterns ? "before" : "after"},
            {"removed", strings(p.removed)}, {"added", strings(p.added)}, {"changed", strings(p.changed)}}));
    out.set("pipeline", Json::object({{"follows", pipeline}, {"why", pipelineWhy}, {"passes", std::move(passes)}}));
    if (!stoppedBy.empty())
        out.set("stopped_by", stoppedBy);
    return out;
}

} // namespace fxs
