#pragma once
// What matching one pattern at one node gives: the Match (captured args/kwargs, nodes in post-order, output
// nodes) or the MatchFailure that stopped it, which keeps Inductor's FailedMatch text and adds what fxscope
// explains: the pattern and graph node that disagreed, the values compared, external users and the path.

#include "ir/argument.h"
#include "ir/node.h"

#include <memory>
#include <string>
#include <vector>

namespace fxs {

struct PatternExpr;
struct PatternValue;

struct MatchFailure {
    std::string code; // Inductor's kind: function_mismatch, multiple_users, args_structure, constant_args,
                      // repeated pattern differs, kwarg mismatch, exclusive arg appears twice, non_list,
                      // list, no anchor found
    std::string message; // Inductor's FailedMatch text up to the pattern's repr; see messageText()
    // The full pattern repr that ends Inductor's text for function_mismatch and multiple_users: shared with the
    // matcher's repr cache, since the thousands of rejections of a large graph would each copy hundreds of bytes.
    std::shared_ptr<const std::string> messagePattern;
    std::string reason; // what went wrong, in words
    std::string patternNode; // repr of the pattern node that disagreed
    std::string graphNode; // the graph node (or literal) it was compared with
    std::string expected; // the pattern's value
    std::string actual; // the graph's value
    std::vector<std::string> externalUsers; // users outside the match (multiple_users)
    std::vector<std::string> path; // from the anchor down: "mul_2", "args[1] mul_1", ...
    bool raised = false; // Inductor raises it (kwarg mismatch), so it escapes anchor searches
    // Where in the pattern it failed, for the near-miss analysis (near_miss.h): valid only while the matched pattern
    // lives, so only the caller of PatternMatcher::match reads them, never a stored Verdict.
    const PatternExpr *atExpr = nullptr;
    const PatternValue *atValue = nullptr; // constant_args: the pattern's literal slot
    Argument graphValue; // constant_args: the graph's value in that slot

    // Inductor's FailedMatch text, e.g. "multiple_users CallFunction(aten.rsqrt.default, *)".
    std::string messageText() const { return messagePattern ? message + *messagePattern : message; }
};

struct Match {
    std::vector<Argument> args;
    Kwargs kwargs; // KeywordArg captures in capture order
    std::vector<Node *> nodes; // post-order: children first, the anchor last
    std::vector<Node *> outputs; // the graph nodes bound to the pattern outputs (nullptr when unbound)
    // The replacement traced for this match (a re-traced built-in's literals); null: the entry's replacement graph.
    std::shared_ptr<const class Graph> replaceGraph;

    const Argument *kwarg(std::string_view name) const;
    // The node PatternMatcherPass.apply tried the pattern at: the one its first output binds (a MultiOutputPattern's
    // anchor is not the last node of the match); nullptr for an empty match.
    const Node *anchor() const;
    // check_fn's _unflatten_match_kwargs(defaults=...): the specific match keeps the generic match's bindings it
    // lacks (a scalar_workaround value the re-trace burned in as a literal, e.g. eps = 0.5).
    void keepBindingsOf(const Match &generic);
};

struct MatchResult {
    bool ok = false;
    Match match;
    // Set when !ok. Held by pointer: a result is moved up through every level of the pattern, and a failure is
    // nine strings and two vectors (moving it inline was 5% of matching HRNet).
    std::unique_ptr<MatchFailure> failure;

    // The failure moved out; an empty one where none was recorded.
    MatchFailure takeFailure() { return failure ? std::move(*failure) : MatchFailure{}; }
};

} // namespace fxs
