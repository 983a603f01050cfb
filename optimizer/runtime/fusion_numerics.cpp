#include "fusion_numerics.h"

#include "io/fxscope_json.h"
#include "ir/graph.h"
#include "match/match_report.h"
#include "rewrite/fusion_region.h"
#include "patterns/pattern_registry.h"
#include "rewrite/session.h"

#include <spdlog/spdlog.h>
#include "util/json.h"

#include <chrono>
#include <cctype>
#include <cstdio>

namespace fxs {

namespace {

// The runtime names a region output by its position ("output 1 differs first at ..."): name the replaced node.
std::string nameOutputs(std::string detail, const std::vector<std::string> &outputs)
{
    const std::string prefix = "output ";
    if (detail.rfind(prefix, 0) != 0)
        return detail;
    size_t end = prefix.size();
    while (end < detail.size() && std::isdigit(static_cast<unsigned char>(detail[end])))
        ++end;
    if (end == prefix.size())
        return detail;
    const size_t k = std::stoul(detail.substr(prefix.size(), end - prefix.size()));
    if (k >= outputs.size())
        return detail;
    detail = outputs[k] + detail.substr(end);
    // "...: A against B" compares the replacement's value (A) with the replaced nodes' (B): say so.
    const size_t colon = detail.rfind(": "), against = detail.rfind(" against ");
    if (colon != std::string::npos && against != std::string::npos && against > colon)
        detail = detail.substr(0, colon) + ": the replacement gives " + detail.substr(colon + 2, against - colon - 2)
            + ", the replaced nodes " + detail.substr(against + 9);
    return detail;
}

std::string shortNumber(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2g", v);
    return buffer;
}

} // namespace

std::string FusionNumerics::text() const
{
    const std::string prefix = ifAccepted ? "if extra_check accepted: " : "";
    if (!ran)
        return prefix + "not run: " + detail;
    const std::string where = inTorchHost ? " (run in the torch host: LibTorch could not run it)" : "";
    if (equal)
        return prefix + "equal (max |Δ| " + shortNumber(maxAbsDiff) + ")" + where;
    return prefix + (detail.empty() ? "differs (max |Δ| " + shortNumber(maxAbsDiff) + ")" : detail) + where;
}

Json FusionNumerics::toJson() const
{
    Json out = Json::object({{"ran", ran}});
    if (ran) {
        out.set("equal", equal);
        out.set("max_abs_diff", maxAbsDiff);
        out.set("inputs", static_cast<int64_t>(inputs));
        out.set("outputs", static_cast<int64_t>(outputs));
    }
    if (!detail.empty())
        out.set(ran ? "detail" : "error", detail);
    if (inTorchHost)
        out.set("in_torch_host", true);
    if (ifAccepted)
        out.set("if_accepted", true);
    out.set("text", text());
    out.set("ms", ms);
    return out;
}

FusionNumerics checkFusionNumerics(const Graph &before, const Graph &after, const std::vector<std::string> &removed,
    const std::vector<std::string> &added, const ProfileOptions &options, const PythonNumerics &python)
{
    const auto start = std::chrono::steady_clock::now();
    FusionNumerics result;
    auto finish = [&]() {
        result.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return result;
    };
    auto region = fusionRegion(before, after, removed, added);
    if (!region) {
        result.detail = region.error().message;
        return finish();
    }
    result.inputs = region.value().inputs.size();
    result.outputs = region.value().outputs.size();
    auto unfused = parseGraphJson(region.value().before, "the replaced part");
    auto fused = parseGraphJson(region.value().after, "its replacement");
    if (!unfused || !fused) {
        result.detail = (!unfused ? unfused.error() : fused.error()).toString();
        return finish();
    }
    ProfileOptions once = options;
    once.iters = 1;
    once.warmup = 0;
    once.nodeTimes = false;
    once.returnOutputs = false;
    once.expectedOutputsPath.clear();
    once.referenceDevice.clear();
    once.progress = {};
    auto report = runtimeProfile(*unfused.value(), fused.value().get(), once);
    if (!report && python && options.inputsPath.empty() && options.device == "cpu") {
        // What LibTorch cannot run (an op the pattern sources define in Python with torch.library) the torch host,
        // where those sources ran, can.
        auto reply = python(region.value().before, region.value().after, options.seed);
        if (!reply) {
            result.detail = report.error().message + "; in the torch host: " + reply.error().message;
            return finish();
        }
        result.ran = true;
        result.inTorchHost = true;
        result.equal = reply.value()["equal"].toBool();
        // null where the outputs cannot be compared (their shapes differ): 0, as the runtime's compare() leaves it
        result.maxAbsDiff = reply.value()["max_abs_diff"].toDouble(0);
        if (!result.equal)
            result.detail = nameOutputs(reply.value()["detail"].toString(), region.value().outputs);
        return finish();
    }
    if (!report) {
        result.detail = report.error().message;
        return finish();
    }
    result.ran = true;
    result.equal = report.value().outputsMatch;
    result.maxAbsDiff = report.value().maxAbsDiff;
    if (!result.equal)
        result.detail = nameOutputs(report.value().outputsDetail, region.value().outputs);
    return finish();
}

std::vector<std::optional<FusionNumerics>> sessionNumerics(
    const Session &session, const ProfileOptions &options, const PythonNumerics &python)
{
    std::vector<std::optional<FusionNumerics>> out(session.revision());
    auto graph = session.graphAt(0);
    for (size_t i = 0; i < session.revision(); ++i) {
        const SessionStep &step = session.history()[i];
        FusionNumerics failed;
        if (!graph) {
            failed.detail = graph.error().message;
            out[i] = failed;
            continue;
        }
        std::unique_ptr<Graph> before = graph.value()->clone();
        if (auto st = step.edits.redo(*graph.value()); !st) {
            graph = st.error();
            failed.detail = st.error().message;
            out[i] = failed;
            continue;
        }
        if (step.kind == "pattern")
            out[i] = checkFusionNumerics(*before, *graph.value(), step.removed, step.added, options, python);
    }
    return out;
}

CandidateNumerics candidateNumerics(const PatternRegistry &registry, const Graph &graph, const std::string &onlyPattern,
    const ProfileOptions &options, const PythonNumerics &python)
{
    // The session only borrows the registry, which outlives it here.
    Session session(graph.clone(), std::shared_ptr<const PatternRegistry>(&registry, [](const PatternRegistry *) {}));
    if (!onlyPattern.empty())
        for (const auto &e : registry.entries())
            session.setPatternEnabled(e->name, e->name == onlyPattern);
    if (auto applied = session.runToEnd(); !applied)
        spdlog::warn("numerics: the sweep stopped: {}", applied.error().toString());
    CandidateNumerics out;
    const auto numerics = sessionNumerics(session, options, python);
    for (size_t i = 0; i < numerics.size(); ++i)
        if (numerics[i])
            out.emplace(std::make_pair(session.history()[i].name, session.history()[i].anchor), *numerics[i]);
    return out;
}

NumericsTally tallyNumerics(const CandidateNumerics &numerics)
{
    NumericsTally t;
    for (const auto &kv : numerics) {
        (kv.second.ifAccepted ? t.refused : t.fused) += 1;
        (kv.second.ifAccepted ? t.refusedDiffer : t.differ) += kv.second.differs();
    }
    return t;
}

FusionNumerics refusedCandidateNumerics(const PatternRegistry &registry, const Graph &graph, const std::string &pattern,
    const std::string &anchor, const ProfileOptions &options, const PythonNumerics &python)
{
    FusionNumerics out;
    out.ifAccepted = true;
    const PatternEntry *entry = registry.find(pattern);
    if (!entry) {
        out.detail = "no pattern " + pattern;
        return out;
    }
    // The pattern alone, its check let through at `anchor` and nowhere else: the sweep fuses that candidate only.
    auto at = [anchor](const Match &m) { return m.anchor() && m.anchor()->name() == anchor; };
    auto forced = std::make_shared<PatternEntry>(*entry);
    forced->extraCheck = [at](const Match &m) {
        CheckVerdict v;
        v.ok = at(m);
        return v;
    };
    if (entry->forcedRetrace)
        forced->retrace = [at, retrace = entry->forcedRetrace](const Match &m) {
            if (at(m))
                return retrace(m);
            Retrace r;
            r.error = "not the candidate asked for";
            return r;
        };
    auto alone = std::make_shared<PatternRegistry>();
    if (auto st = alone->add(forced); !st) {
        out.detail = st.error().message;
        return out;
    }
    Session session(graph.clone(), alone);
    if (auto applied = session.runToEnd(); !applied) {
        out.detail = "the sweep stopped: " + applied.error().toString();
        return out;
    }
    const auto numerics = sessionNumerics(session, options, python);
    for (size_t i = 0; i < numerics.size(); ++i)
        if (numerics[i] && session.history()[i].anchor == anchor) {
            out = *numerics[i];
            out.ifAccepted = true;
            return out;
        }
    out.detail = "the pattern did not fuse at " + anchor + " with its check let through";
    return out;
}

CandidateNumerics refusedCandidatesNumerics(const MatchReport &report, const PatternRegistry &registry,
    const Graph &graph, const ProfileOptions &options, const PythonNumerics &python)
{
    CandidateNumerics out;
    for (const auto &p : report.patterns)
        for (const auto &c : p.candidates) {
            if (c.stage != MatchStage::ExtraCheck)
                continue;
            if (options.progress && !options.progress(0)) // a newer check (the GUI's) stops this one between fusions
                return out;
            out.emplace(std::make_pair(p.name, c.anchor),
                refusedCandidateNumerics(registry, graph, p.name, c.anchor, options, python));
        }
    return out;
}

} // namespace fxs
