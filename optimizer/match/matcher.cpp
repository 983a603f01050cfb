#include "matcher.h"

#include "graph_level.h"
#include "mutation_regions.h"
#include "pattern_matcher.h"
#include "util/progress.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace fxs {

namespace {

std::string valueText(const Argument &v)
{
    return v.isNode() ? v.node()->name() : v.toPython();
}

std::string metaKey(const Json &value)
{
    return value.isNull() ? std::string("None") : value.dump();
}

void fillFromMatch(Verdict &v, const Match &m)
{
    v.nodes.clear();
    for (const Node *n : m.nodes)
        v.nodes.push_back(n->name());
    v.bindings.clear();
    for (const auto &kv : m.kwargs)
        v.bindings.push_back({kv.first, valueText(kv.second)});
}

// Checks of register_replacement's check_fn before the specific match: every argname bound, and no integer
// input where the example input requires grad (check_fn returns False there).
bool retraceInputs(const PatternEntry &entry, const Match &m, std::vector<std::string> &reasons)
{
    for (const auto &name : entry.argnames)
        if (!m.kwarg(name)) {
            std::string bound;
            for (const auto &kv : m.kwargs)
                bound += (bound.empty() ? "" : ", ") + kv.first;
            reasons.push_back("Not all inputs to pattern found in match.kwargs. Perhaps one of the inputs is unused? "
                              "argnames="
                + joinNames(entry.argnames) + ", match.kwargs={" + bound + "}");
            return false;
        }
    for (size_t i = 0; i < entry.exampleInputs.size() && i < entry.argnames.size(); ++i) {
        const ExampleInput &ex = entry.exampleInputs[i];
        if (!ex.requiresGrad)
            continue;
        const Argument *bound = m.kwarg(entry.argnames[i]);
        if (!bound || !bound->isNode() || !bound->node()->meta().val)
            continue;
        const ValueMeta &val = *bound->node()->meta().val;
        if (val.kind != ValueMeta::Kind::Tensor)
            continue;
        const std::string &dtype = val.tensor.dtype;
        bool integer = dtype.find("int") != std::string::npos || dtype == "torch.bool";
        if (integer) {
            reasons.push_back("input '" + entry.argnames[i] + "' is " + bound->node()->name() + " of dtype " + dtype
                + " but its example input requires grad; check_fn returns False for integer inputs "
                  "that require grad");
            return false;
        }
    }
    return true;
}

} // namespace

bool checkTorchairStream(const std::vector<Node *> &nodes, std::string &reason)
{
    std::map<std::string, std::vector<std::string>> byStream;
    for (const Node *n : nodes) {
        if (n->op() != OpKind::CallFunction)
            continue;
        const Json *label = n->meta().extra.isObject() ? n->meta().extra.find("stream_label") : nullptr;
        byStream[label ? metaKey(*label) : "None"].push_back(n->name());
    }
    if (byStream.size() <= 1)
        return true;
    std::string nodesText, streams;
    for (const auto &kv : byStream) {
        streams += (streams.empty() ? "" : "; ") + kv.first + ": " + joinNames(kv.second);
        nodesText += (nodesText.empty() ? "" : ", ") + joinNames(kv.second);
    }
    reason = "Cross-stream operation detected in pattern match. Match nodes: " + nodesText
        + ". Stream distribution: " + streams + ". Fusion is not supported for cross-stream operations.";
    return false;
}

Result<MatchReport> Matcher::run(const Graph &graph, const MatcherOptions &options) const
{
    MatchReport report;
    report.graphNodes = graph.size();
    report.warnings = m_registry.warnings();
    if (std::string level = dynamoLevelWarning(graph, m_registry); !level.empty())
        report.warnings.push_back(std::move(level));
    std::unordered_map<const PatternEntry *, size_t> reportIndex;
    for (const auto &e : m_registry.entries()) {
        if (!options.onlyPattern.empty() && e->name != options.onlyPattern)
            continue;
        reportIndex[e.get()] = report.patterns.size();
        PatternReport pr;
        pr.name = e->name;
        pr.source = e->source;
        pr.pattern = e->pattern->repr(4000);
        pr.extraCheckSource = e->extraCheckSource;
        pr.warnings = e->warnings;
        report.patterns.push_back(std::move(pr));
    }

    // Anchors: collected once, visited in reverse graph order.
    std::vector<Node *> anchors;
    std::vector<std::string> targets(graph.size());
    std::unordered_map<std::string_view, std::string> canonical; // once per distinct target text
    for (const auto &n : graph.nodes()) {
        auto [it, added] = canonical.emplace(n->target(), std::string());
        if (added)
            it->second = canonicalTarget(n->target());
        targets[n->index()] = it->second;
        if (n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod)
            if (m_registry.entriesFor(n->op(), targets[n->index()]))
                anchors.push_back(n.get());
    }
    std::reverse(anchors.begin(), anchors.end());
    report.anchorsVisited = anchors.size();

    std::vector<int> regions;
    if (options.mutationFilter)
        regions = computeMutationRegions(graph, m_schemas);
    // Nodes consumed by accepted matches -> "<pattern> at <anchor>".
    std::unordered_map<const Node *, std::string> consumed;
    PatternMatcher matcher(m_schemas);

    for (size_t ai = 0; ai < anchors.size(); ++ai) {
        if (!reportProgress(ai, anchors.size()))
            return canceledError("");
        Node *anchor = anchors[ai];
        const auto *entries = m_registry.entriesFor(anchor->op(), targets[anchor->index()]);
        for (const auto &entryPtr : *entries) {
            const PatternEntry &entry = *entryPtr;
            auto reportIt = reportIndex.find(&entry);
            Verdict v;
            v.anchor = anchor->name();
            std::vector<std::string> retraceNotes; // after the deciding reasons: context, not the verdict
            auto record = [&](Verdict &&verdict) {
                verdict.reasons.insert(verdict.reasons.end(), retraceNotes.begin(), retraceNotes.end());
                if (reportIt != reportIndex.end())
                    report.patterns[reportIt->second].candidates.push_back(std::move(verdict));
            };
            if (auto it = consumed.find(anchor); it != consumed.end()) {
                // Inductor stops trying entries once the anchor is erased.
                v.stage = MatchStage::Overlap;
                v.overlapWith = it->second;
                v.reasons.push_back("not tried: anchor " + anchor->name()
                    + " was already replaced by the accepted match " + it->second);
                record(std::move(v));
                continue;
            }

            // Stage 1: the generic pattern.
            MatchResult generic = matcher.match(*entry.pattern, anchor);
            if (!generic.ok) {
                v.stage = MatchStage::Generic; // its reason is rendered from `failure` when shown
                v.failure = generic.takeFailure();
                v.externalUsers = v.failure->externalUsers;
                record(std::move(v));
                continue;
            }
            fillFromMatch(v, generic.match);

            // Nodes an earlier accepted match replaced are gone in Inductor's graph.
            std::vector<std::string> taken;
            std::string takenBy;
            for (const Node *n : generic.match.nodes)
                if (auto it = consumed.find(n); it != consumed.end()) {
                    taken.push_back(n->name());
                    takenBy = it->second;
                }
            if (!taken.empty()) {
                v.stage = MatchStage::Overlap;
                v.overlapWith = takenBy;
                v.reasons.push_back("overlaps the accepted match " + takenBy + ": " + joinNames(taken)
                    + (taken.size() == 1 ? " was" : " were") + " already replaced");
                record(std::move(v));
                continue;
            }

            // PatternMatcherPass.apply's filters.
            if (options.mutationFilter) {
                std::set<int> ids;
                std::string detail;
                for (const Node *n : generic.match.nodes) {
                    ids.insert(regions[n->index()]);
                    detail += (detail.empty() ? "" : ", ") + n->name() + "=" + std::to_string(regions[n->index()]);
                }
                if (ids.size() != 1) {
                    v.stage = MatchStage::MutationStream;
                    v.reasons.push_back(
                        "pattern match crosses mutation barrier - discard (mutation regions: " + detail + ")");
                    record(std::move(v));
                    continue;
                }
            }
            if (options.streamFilter) {
                std::map<std::string, std::vector<std::string>> streams;
                for (const Node *n : generic.match.nodes) {
                    const Json *custom = n->meta().extra.isObject() ? n->meta().extra.find("custom") : nullptr;
                    const Json *stream = custom && custom->isObject() ? custom->find("stream") : nullptr;
                    streams[stream ? metaKey(*stream) : "0"].push_back(n->name());
                }
                if (streams.size() != 1) {
                    std::string detail;
                    for (const auto &kv : streams)
                        detail += (detail.empty() ? "" : "; ") + kv.first + ": " + joinNames(kv.second);
                    v.stage = MatchStage::MutationStream;
                    v.reasons.push_back(
                        "pattern match crosses stream boundary (meta['custom']['stream']: " + detail + ")");
                    record(std::move(v));
                    continue;
                }
            }

            Match finalMatch = generic.match;
            if (entry.specificPattern) {
                // register_replacement's check_fn.
                if (!retraceInputs(entry, generic.match, v.reasons)) {
                    v.stage = MatchStage::Retrace;
                    record(std::move(v));
                    continue;
                }
                Node *output = nullptr;
                for (Node *o : generic.match.outputs)
                    if (o) {
                        output = o;
                        break;
                    }
                PatternPtr specificPattern = entry.specificPattern;
                if (entry.retrace) {
                    Retrace retraced = entry.retrace(generic.match);
                    retraceNotes = std::move(retraced.notes);
                    if (!retraced.error.empty()) {
                        v.stage = MatchStage::Retrace;
                        v.reasons.push_back("re-tracing search_fn with this match's values raised " + retraced.error
                            + "; Inductor's check_fn rejects the match");
                        record(std::move(v));
                        continue;
                    }
                    if (retraced.pattern) // none with a search_fn_pattern
                        specificPattern = retraced.pattern;
                }
                MatchResult specific = output ? matcher.match(*specificPattern, output) : MatchResult{};
                if (!specific.ok) {
                    v.stage = MatchStage::Specific;
                    v.failure = specific.takeFailure();
                    v.externalUsers = v.failure->externalUsers;
                    record(std::move(v));
                    continue;
                }
                finalMatch = std::move(specific.match);
                fillFromMatch(v, finalMatch);
                if (entry.torchairStreamCheck) {
                    std::string reason;
                    if (!checkTorchairStream(finalMatch.nodes, reason)) {
                        v.stage = MatchStage::MutationStream;
                        v.reasons.push_back(reason);
                        record(std::move(v));
                        continue;
                    }
                }
            }
            if (entry.extraCheck) {
                CheckVerdict check = entry.extraCheck(finalMatch);
                v.checkTrace = check.trace;
                if (!check.ok) {
                    v.stage = MatchStage::ExtraCheck;
                    v.reasons.push_back("extra_check returned False");
                    for (const auto &t : check.trace)
                        v.reasons.push_back("extra_check: " + t);
                    record(std::move(v));
                    continue;
                }
            }

            v.accepted = true;
            v.stage = MatchStage::Accepted;
            v.reasons.push_back("generic pattern matched " + std::to_string(generic.match.nodes.size()) + " nodes");
            if (entry.retrace)
                v.reasons.push_back("search_fn re-traced with this match's values; the specific pattern matched");
            else if (entry.specificPattern)
                v.reasons.push_back("specific pattern matched with the real literals");
            if (entry.extraCheck)
                for (const auto &t : v.checkTrace)
                    v.reasons.push_back("extra_check: " + t);
            else if (!entry.extraCheckSource.empty() && !entry.extraCheckEvaluated)
                v.reasons.push_back("extra_check NOT evaluated (Python source only; fxscope cannot run it yet): "
                                    "the verdict assumes it returns True");
            const std::string label = "'" + entry.name + "' at " + anchor->name();
            for (const Node *n : generic.match.nodes)
                consumed.emplace(n, label);
            record(std::move(v));
        }
    }
    return report;
}

} // namespace fxs
