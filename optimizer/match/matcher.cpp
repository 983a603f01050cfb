#include "matcher.h"

#include "graph_level.h"
#include "mutation_regions.h"
#include "pattern_matcher.h"
#include "rewrite/passes/torchair_pipeline.h"
#include "rewrite/replacement.h"
#include "util/progress.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <optional>
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

// Checks of register_replacement's check_fn before the specific match: every parameter of search_fn bound (else
// _unflatten_match_kwargs raises, which the pass does not catch: `raised`), and no integer input where the example
// input requires grad (check_fn returns False there).
bool retraceInputs(const PatternEntry &entry, const Match &m, std::vector<std::string> &reasons, std::string &raised)
{
    for (const auto &name : entry.requiredArgnames)
        if (!m.kwarg(name)) {
            std::string bound;
            for (const auto &kv : m.kwargs)
                bound += (bound.empty() ? "" : ", ") + kv.first;
            raised = "RuntimeError: Not all inputs to pattern found in match.kwargs. Perhaps one of the inputs is "
                     "unused? argnames="
                + joinNames(entry.requiredArgnames) + ", match.kwargs={" + bound + "}";
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

namespace {

// Mutation region per node name. Names, not nodes: the sweep erases nodes and a new node may take an erased one's
// name (never a live one's). A node the sweep created takes the region of the nearest earlier node that has one,
// as get_mutation_region_id does for nodes without meta["mutation_region_id"].
class RegionIds {
public:
    RegionIds(const Graph &graph, const OpSchemaTable &schemas)
    {
        std::vector<int> byIndex = computeMutationRegions(graph, schemas);
        for (const auto &n : graph.nodes())
            m_byName.emplace(n->name(), byIndex[n->index()]);
    }
    int of(const Node *n) const
    {
        for (const Node *p = n; p; p = Graph::prev(p))
            if (auto it = m_byName.find(p->name()); it != m_byName.end())
                return it->second;
        return 0;
    }
    void forget(const std::string &name) { m_byName.erase(name); }

private:
    std::unordered_map<std::string, int> m_byName;
};

// fallback_node_due_to_unsupported_type: PatternMatcherPass.apply skips an anchor that reads or writes a complex
// or meta tensor (Inductor cannot lower it), before any entry is tried. (Sparse too; dumps carry no layout.)
std::string unsupportedTensor(const Node &anchor)
{
    auto check = [](const Node &n) -> std::string {
        if (!n.meta().val)
            return {};
        std::vector<const ValueMeta *> stack{&*n.meta().val};
        while (!stack.empty()) {
            const ValueMeta *v = stack.back();
            stack.pop_back();
            for (const auto &item : v->items)
                stack.push_back(&item);
            if (v->kind != ValueMeta::Kind::Tensor)
                continue;
            const TensorMeta &t = v->tensor;
            if (t.dtype.find("complex") != std::string::npos)
                return n.name() + " is " + t.dtype;
            if (t.device == "meta")
                return n.name() + " is on the meta device";
        }
        return {};
    };
    if (anchor.op() == OpKind::Placeholder)
        return {};
    for (const Node *in : anchor.inputNodes())
        if (auto why = check(*in); !why.empty())
            return why;
    if (anchor.target() == "aten.view_as_complex.default" || anchor.target() == "prims.convert_element_type.default"
        || anchor.target() == "aten.view.dtype")
        return {}; // complex outputs Inductor supports as views
    return check(anchor);
}

// TorchAir's add_stream_label_to_node_meta, run before its pattern pass: every node gets meta["stream_label"] of
// the innermost air.scope_enter that names a '_user_stream_label' (null: the default stream). A graph without scope
// ops keeps the labels it has.
int scopeOp(const Node &n)
{
    const std::string t = n.op() == OpKind::CallFunction ? canonicalTarget(n.target()) : std::string();
    return t.rfind("air.scope_enter", 0) == 0 ? 1 : t.rfind("air.scope_exit", 0) == 0 ? -1 : 0;
}

bool hasScopeOps(const Graph &graph)
{
    return std::any_of(graph.nodes().begin(), graph.nodes().end(), [](const auto &n) { return scopeOp(*n) != 0; });
}

void addTorchairStreamLabels(Graph &graph)
{
    std::vector<Json> stack{Json()};
    for (const auto &n : graph.nodes()) {
        if (int op = scopeOp(*n); op > 0) {
            Json label = stack.back();
            if (n->args().size() >= 2 && n->args()[0].isSequence() && n->args()[1].isSequence())
                for (size_t i = 0; i < n->args()[0].items().size() && i < n->args()[1].items().size(); ++i)
                    if (n->args()[0].items()[i].text() == "_user_stream_label")
                        label = Json(n->args()[1].items()[i].text());
            stack.push_back(label);
        } else if (op < 0 && stack.size() > 1) {
            stack.pop_back();
        }
        const Json *had = n->meta().extra.isObject() ? n->meta().extra.find("stream_label") : nullptr;
        if (had && *had == stack.back())
            continue;
        NodeMeta meta = n->meta();
        if (!meta.extra.isObject())
            meta.extra = Json::object();
        meta.extra.set("stream_label", stack.back());
        graph.setMeta(n.get(), std::move(meta));
    }
}

// TorchAir's pattern pass sees the graph its earlier passes left (the session runs them as steps of their own).
// graph: the matcher's copy, or nullptr where they would change nothing (no copy made for them).
Status runTorchairPassesBefore(
    Graph *graph, const PatternEntry &why, const PatternRegistry &registry, MatchReport &report)
{
    report.pipeline = "torchair";
    report.pipelineWhy = "'" + why.name + "' (" + why.source
        + ") is registered through TorchAir, so the patterns run in TorchAir's pipeline: its graph passes before "
          "and after one PatternMatcherPass.apply";
    report.pipelineWhy += registry.torchairBuiltinsFrom().empty()
        ? "; TorchAir's built-in patterns, which it registers after yours on an NPU machine, were not found beside "
          "this torch (FXSCOPE_TORCHAIR_PATTERNS names their folder, torch_npu/dynamo/torchair/patterns)"
        : "; TorchAir's built-in patterns from " + registry.torchairBuiltinsFrom() + " follow yours, as TorchAir "
          "registers them";
    for (const GraphPass &p : TorchairPipeline::before()) {
        if (!graph) {
            report.pipelinePasses.push_back({p.name, true, {}, {}, {}});
            continue;
        }
        GraphEditor editor(*graph);
        auto changed = p.run(editor);
        if (!changed)
            return Error{"", 0, 0, std::string("TorchAir's ") + p.name + " failed: " + changed.error().message};
        PipelinePass done{p.name, true, {}, {}, {}};
        for (const EditOp &op : editor.record().ops()) {
            auto &names = op.kind == EditOp::Kind::Erase ? done.removed
                : op.kind == EditOp::Kind::Insert        ? done.added
                                                         : done.changed;
            if (std::find(names.begin(), names.end(), op.name) == names.end())
                names.push_back(op.name);
        }
        for (const std::string &name : done.removed) // a node both changed and removed was removed
            done.changed.erase(std::remove(done.changed.begin(), done.changed.end(), name), done.changed.end());
        report.pipelinePasses.push_back(std::move(done));
    }
    for (const GraphPass &p : TorchairPipeline::after())
        report.pipelinePasses.push_back({p.name, false, {}, {}, {}});
    return Ok{};
}

} // namespace

Result<MatchReport> Matcher::run(const Graph &input, const MatcherOptions &options) const
{
    MatchReport report;
    report.graphNodes = input.size();
    report.warnings = m_registry.warnings();
    if (std::string level = dynamoLevelWarning(input, m_registry); !level.empty())
        report.warnings.push_back(std::move(level));
    std::unordered_map<const PatternEntry *, size_t> reportIndex;
    for (const auto &e : m_registry.entries()) {
        if (!options.onlyPattern.empty() && e->name != options.onlyPattern)
            continue;
        reportIndex[e.get()] = report.patterns.size();
        PatternReport pr;
        pr.name = e->name;
        pr.source = e->source;
        pr.api = patternApiName(e->api);
        pr.pattern = e->pattern->repr(4000);
        pr.extraCheckSource = e->extraCheckSource;
        pr.warnings = e->warnings;
        report.patterns.push_back(std::move(pr));
    }

    // One PatternMatcherPass.apply on a copy: accepted matches are replaced as they are found, so every later
    // candidate sees the graph Inductor's would (user counts after a replacement, nodes it created or erased).
    // The copy is made at the first replacement (most graphs have none), or at once where TorchAir's graph passes
    // run first or stream labels are added.
    std::unique_ptr<Graph> work;
    if (const PatternEntry *torchair = m_registry.torchairEntry()) {
        if (TorchairPipeline::changesBefore(input))
            work = input.clone();
        if (auto st = runTorchairPassesBefore(work.get(), *torchair, m_registry, report); !st)
            return st.error();
    }
    if (hasScopeOps(input)) {
        if (!work)
            work = input.clone();
        addTorchairStreamLabels(*work);
    }
    const Graph &graph = work ? *work : input;

    // Anchors: the nodes present when the sweep starts, visited in reverse graph order; nodes the sweep creates
    // are never anchors.
    std::vector<Node *> anchors;
    std::vector<std::string> anchorTargets;
    std::unordered_map<std::string_view, std::string> canonical; // once per distinct target text
    for (const auto &n : graph.nodes()) {
        if (n->op() != OpKind::CallFunction && n->op() != OpKind::CallMethod)
            continue;
        auto [it, added] = canonical.emplace(n->target(), std::string());
        if (added)
            it->second = canonicalTarget(n->target());
        if (m_registry.entriesFor(n->op(), it->second)) {
            anchors.push_back(n.get());
            anchorTargets.push_back(it->second);
        }
    }
    std::reverse(anchors.begin(), anchors.end());
    std::reverse(anchorTargets.begin(), anchorTargets.end());
    report.anchorsVisited = anchors.size();
    // An erased anchor's node is gone; its name and op stay here.
    std::vector<std::string> anchorNames;
    std::vector<OpKind> anchorOps;
    std::unordered_map<std::string, size_t> anchorByName;
    for (size_t i = 0; i < anchors.size(); ++i) {
        anchorNames.push_back(anchors[i]->name());
        anchorOps.push_back(anchors[i]->op());
        anchorByName.emplace(anchors[i]->name(), i);
    }
    // Anchor index -> the accepted match that erased it ("'<pattern>' at <anchor>").
    std::unordered_map<size_t, std::string> erasedBy;

    std::optional<RegionIds> regions; // made at the first generic match, before any replacement
    // Nodes kept by an accepted entry that has no replacement graph (a plain PatternEntry): later candidates that
    // need them overlap it, as if it had replaced them. By name, dropped when the name leaves the graph.
    std::unordered_map<std::string, std::string> consumed;
    PatternMatcher matcher(m_schemas);

    for (size_t ai = 0; ai < anchors.size(); ++ai) {
        if (!reportProgress(ai, anchors.size()))
            return canceledError("");
        if (!report.stoppedBy.empty())
            break;
        const auto *entries = m_registry.entriesFor(anchorOps[ai], anchorTargets[ai]);
        const std::string skipReason = erasedBy.count(ai) ? std::string() : unsupportedTensor(*anchors[ai]);
        for (const auto &entryPtr : *entries) {
            const PatternEntry &entry = *entryPtr;
            auto reportIt = reportIndex.find(&entry);
            Verdict v;
            v.anchor = anchorNames[ai];
            std::vector<std::string> retraceNotes; // after the deciding reasons: context, not the verdict
            auto record = [&](Verdict &&verdict) {
                verdict.reasons.insert(verdict.reasons.end(), retraceNotes.begin(), retraceNotes.end());
                if (reportIt != reportIndex.end())
                    report.patterns[reportIt->second].candidates.push_back(std::move(verdict));
            };
            // What Inductor does not catch (an exception in check_fn's re-trace or in the user's check) ends the pass,
            // and the compile.
            auto stopPass = [&](const std::string &what, const std::string &raised) {
                v.stage = MatchStage::Error;
                v.reasons.push_back(
                    what + " raised " + raised + "; Inductor does not catch it, so torch.compile fails here");
                report.stoppedBy = "'" + entry.name + "' at " + v.anchor + ": " + what + " raised " + raised;
                record(std::move(v));
            };
            // Inductor stops trying entries once the anchor is erased (`if node._erased: break`).
            std::string erasedLabel;
            if (auto it = erasedBy.find(ai); it != erasedBy.end())
                erasedLabel = it->second;
            else if (auto it = consumed.find(anchorNames[ai]); it != consumed.end())
                erasedLabel = it->second;
            if (!erasedLabel.empty()) {
                v.stage = MatchStage::Overlap;
                v.overlapWith = erasedLabel;
                v.reasons.push_back(
                    "not tried: anchor " + v.anchor + " was already replaced by the accepted match " + erasedLabel);
                record(std::move(v));
                continue;
            }
            Node *anchor = anchors[ai];
            if (!skipReason.empty()) {
                v.stage = MatchStage::MutationStream;
                v.reasons.push_back("not tried: " + skipReason
                    + ", and PatternMatcherPass skips anchors that read or write complex, sparse or meta tensors "
                      "(fallback_node_due_to_unsupported_type)");
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

            std::vector<std::string> taken;
            std::string takenBy;
            for (const Node *n : generic.match.nodes)
                if (auto it = consumed.find(n->name()); it != consumed.end()) {
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
                if (!regions)
                    regions.emplace(graph, m_schemas);
                std::set<int> ids;
                std::string detail;
                for (const Node *n : generic.match.nodes) {
                    int id = regions->of(n);
                    ids.insert(id);
                    detail += (detail.empty() ? "" : ", ") + n->name() + "=" + std::to_string(id);
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
            std::shared_ptr<const Graph> replaceGraph;
            bool retracedSearch = false;
            if (entry.specificPattern) {
                // register_replacement's check_fn.
                std::string raised;
                if (!retraceInputs(entry, generic.match, v.reasons, raised)) {
                    if (!raised.empty()) {
                        v.stage = MatchStage::Error;
                        v.reasons.push_back("check_fn raised " + raised
                            + "; Inductor's pass does not catch it, so torch.compile fails here");
                        report.stoppedBy = "'" + entry.name + "' at " + v.anchor + ": check_fn raised " + raised;
                        record(std::move(v));
                        break;
                    }
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
                    if (!retraced.raised.empty()) {
                        stopPass("re-tracing with this match's values", retraced.raised);
                        break;
                    }
                    if (!retraced.error.empty()) {
                        v.stage = MatchStage::Retrace;
                        v.reasons.push_back("re-tracing search_fn with this match's values raised " + retraced.error
                            + "; Inductor's check_fn rejects the match");
                        record(std::move(v));
                        continue;
                    }
                    if (retraced.pattern) { // none with a search_fn_pattern
                        specificPattern = retraced.pattern;
                        retracedSearch = true;
                    }
                    replaceGraph = retraced.replace;
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
                finalMatch.keepBindingsOf(generic.match);
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
                if (!check.raised.empty()) {
                    stopPass("extra_check", check.raised);
                    break;
                }
                if (!check.ok) {
                    v.stage = MatchStage::ExtraCheck;
                    v.reasons.push_back("extra_check returned False");
                    for (const auto &t : check.trace)
                        v.reasons.push_back("extra_check: " + t);
                    record(std::move(v));
                    continue;
                }
            }

            if (entry.specificPattern) {
                // Inductor replaces the generic match (its nodes and bindings) once check_fn accepted the specific
                // one; the specific match adds what only it binds (the symbols of a re-trace).
                Match replaced = generic.match;
                replaced.keepBindingsOf(finalMatch);
                finalMatch = std::move(replaced);
                fillFromMatch(v, finalMatch);
            }
            v.accepted = true;
            v.stage = MatchStage::Accepted;
            v.reasons.push_back("generic pattern matched " + std::to_string(generic.match.nodes.size()) + " nodes");
            if (retracedSearch)
                v.reasons.push_back("search_fn re-traced with this match's values; the specific pattern matched");
            else if (entry.specificPattern)
                v.reasons.push_back("specific pattern matched with the real literals");
            if (entry.extraCheck)
                for (const auto &t : v.checkTrace)
                    v.reasons.push_back("extra_check: " + t);
            else if (!entry.extraCheckSource.empty() && !entry.extraCheckEvaluated)
                v.reasons.push_back("extra_check NOT evaluated (Python source only; fxscope cannot run it yet): "
                                    "the verdict assumes it returns True");
            const std::string label = "'" + entry.name + "' at " + v.anchor;
            record(std::move(v));

            if (!entry.replaceGraph && !replaceGraph) {
                for (const Node *n : generic.match.nodes)
                    consumed.emplace(n->name(), label);
                continue;
            }
            if (!work) {
                // The first replacement: the sweep goes on in a copy, and this match is made again there.
                work = input.clone();
                for (size_t k = ai; k < anchors.size(); ++k)
                    if (!erasedBy.count(k))
                        anchors[k] = work->find(anchorNames[k]);
                auto again = matchAt(entry, anchors[ai], matcher);
                if (!again)
                    return Error{"", 0, 0, label + ": " + again.error().message};
                finalMatch = std::move(again.value());
            } else {
                finalMatch.replaceGraph = std::move(replaceGraph);
            }
            GraphEditor editor(*work);
            auto replaced = applyReplacement(editor, entry, finalMatch, anchorNames[ai]);
            if (!replaced)
                return Error{"", 0, 0, label + ": " + replaced.error().message};
            for (const std::string &name : replaced->removed) {
                if (auto it = anchorByName.find(name); it != anchorByName.end() && !erasedBy.count(it->second))
                    erasedBy.emplace(it->second, label);
                consumed.erase(name);
                if (regions)
                    regions->forget(name);
            }
            if (erasedBy.count(ai))
                break; // the anchor is gone: Inductor tries no further entry here
        }
    }
    return report;
}

} // namespace fxs
