#include "subgraph_verdict.h"

#include "util/text.h"

namespace fxs {

const char *subgraphStageName(SubgraphStage stage)
{
    switch (stage) {
    case SubgraphStage::Structure: return "structure";
    case SubgraphStage::Contained: return "contained";
    case SubgraphStage::Cycle: return "cycle";
    case SubgraphStage::Overlap: return "overlap";
    case SubgraphStage::Filter: return "filter";
    case SubgraphStage::Accepted: return "accepted";
    }
    return "?";
}

namespace {

// Python repr of a value: node references by name, literals with their Python type, so that 1 vs 1.0 reads clearly.
std::string valueText(const Argument &v)
{
    if (v.kind() == Argument::Kind::Verbatim) // node names and op texts are kept as Verbatim
        return v.text();
    return v.toPython() + " (" + kindName(v.kind()) + ")";
}

std::string mismatchText(const StructuralMismatch &m)
{
    using K = StructuralMismatch::Kind;
    const std::string at = m.slot.empty() ? std::string() : "." + m.slot;
    switch (m.kind) {
    case K::OpDiffers:
        return "structure: pattern node " + m.patternNode + " is " + m.expected.text() + ", graph node " + m.graphNode
            + " is " + m.actual.text();
    case K::TargetDiffers:
        return "structure: pattern node " + m.patternNode + " calls " + m.expected.text() + ", graph node "
            + m.graphNode + " calls " + m.actual.text();
    case K::AttributeDiffers:
        return "structure: pattern get_attr " + m.patternNode + " holds " + m.expected.text() + ", graph get_attr "
            + m.graphNode + " holds " + m.actual.text();
    case K::PatternNodeRebound:
        return "structure: pattern node " + m.patternNode + " is already matched to " + m.other + ", here it meets "
            + m.graphNode;
    case K::GraphNodeTaken:
        return "structure: graph node " + m.graphNode + " is already matched to pattern node " + m.other
            + ", so it cannot also match " + m.patternNode;
    case K::ArgumentsDiffer:
        return "structure: " + m.patternNode + " and " + m.graphNode + " pass different arguments: pattern "
            + m.expected.text() + ", graph " + m.actual.text();
    case K::SequenceLength:
        return "structure: " + m.patternNode + at + " is a sequence of " + m.expected.text() + " items, " + m.graphNode
            + at + " has " + m.actual.text();
    case K::LiteralDiffers:
        return "structure: literal " + m.patternNode + at + " = " + valueText(m.expected) + ", graph " + m.graphNode
            + at + " = " + valueText(m.actual);
    case K::PlaceholderRebound:
        return "structure: pattern placeholder " + m.other + " is already bound to " + valueText(m.expected) + ", "
            + m.graphNode + at + " passes " + valueText(m.actual);
    case K::NodeVsLiteral:
        return "structure: " + m.patternNode + at + " is the pattern node " + m.expected.text() + ", " + m.graphNode
            + at + " is the literal " + valueText(m.actual);
    case K::LiteralVsNode:
        return "structure: " + m.patternNode + at + " is the literal " + valueText(m.expected) + ", " + m.graphNode + at
            + " is the node " + m.actual.text();
    }
    return "structure";
}

} // namespace

std::string SubgraphVerdict::anchorText() const
{
    return joinNames(anchors);
}

std::vector<std::string> SubgraphVerdict::reasons() const
{
    std::vector<std::string> out;
    switch (stage) {
    case SubgraphStage::Structure:
        out.push_back(mismatchText(mismatch));
        if (mismatch.path.size() > 1)
            out.push_back("path: " + joinNames(mismatch.path, " → "));
        break;
    case SubgraphStage::Contained: {
        std::string leak;
        for (const auto &kv : leaks)
            leak += (leak.empty() ? "" : ", ") + kv.first + " is used by " + kv.second;
        out.push_back("not fully contained: " + leak
            + " outside the match (only placeholders and returned nodes may "
              "have users outside)");
        break;
    }
    case SubgraphStage::Cycle: out.push_back("would form a cycle if fused: " + joinNames(cyclePath, " → ")); break;
    case SubgraphStage::Overlap:
        out.push_back("overlapped by match " + std::to_string(overlapMatch) + " (anchor " + overlapAnchor
            + "): " + joinNames(overlapNodes) + (overlapNodes.size() == 1 ? " is" : " are") + " already in it");
        if (overlapOwnerFiltered)
            out.push_back("note: match " + std::to_string(overlapMatch)
                + " was then rejected by a filter; replace_pattern_with_filters removes overlaps before it "
                  "filters, so this candidate is lost anyway");
        break;
    case SubgraphStage::Filter:
        out.push_back("filter " + filterName + " returned false" + (filterReason.empty() ? "" : ": " + filterReason));
        break;
    case SubgraphStage::Accepted:
        out.push_back("match " + std::to_string(matchIndex) + ": " + std::to_string(nodes.size())
            + " nodes, contained, acyclic, no overlap, every filter passed");
        break;
    }
    return out;
}

Json SubgraphVerdict::toJson() const
{
    Json nodesJson = Json::array();
    for (const auto &n : nodes)
        nodesJson.push(n);
    Json bindingsJson = Json::object();
    for (const auto &kv : bindings)
        bindingsJson.set(
            kv.first, kv.second.kind() == Argument::Kind::Verbatim ? kv.second.text() : kv.second.toPython());
    Json reasonsJson = Json::array();
    for (auto &r : reasons())
        reasonsJson.push(std::move(r));
    Json j = Json::object(
        {{"anchor", anchorText()}, {"nodes", std::move(nodesJson)}, {"bindings", std::move(bindingsJson)},
            {"accepted", accepted}, {"stage", subgraphStageName(stage)}, {"reasons", std::move(reasonsJson)}});
    if (stage == SubgraphStage::Structure)
        j.set("mismatch",
            Json::object(
                {{"pattern_node", mismatch.patternNode}, {"graph_node", mismatch.graphNode}, {"slot", mismatch.slot},
                    {"expected", mismatch.expected.toPython()}, {"actual", mismatch.actual.toPython()}}));
    if (stage == SubgraphStage::Contained) {
        Json users = Json::array();
        for (const auto &kv : leaks)
            users.push(kv.second);
        j.set("external_users", std::move(users));
    }
    if (stage == SubgraphStage::Overlap)
        j.set("overlaps", overlapMatch);
    if (matchIndex >= 0)
        j.set("match", matchIndex);
    return j;
}

size_t SubgraphReport::acceptedCount() const
{
    size_t n = 0;
    for (const auto &c : candidates)
        n += c.accepted;
    return n;
}

Json SubgraphReport::toJson() const
{
    Json list = Json::array();
    for (const auto &c : candidates)
        list.push(c.toJson());
    Json anchorsJson = Json::array();
    for (const auto &a : patternAnchors)
        anchorsJson.push(a);
    return Json::object({{"name", name}, {"source", source}, {"matcher", "subgraph"},
        {"pattern_anchors", std::move(anchorsJson)}, {"accepted", acceptedCount()}, {"candidates", std::move(list)}});
}

} // namespace fxs
