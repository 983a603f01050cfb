#pragma once
// A fusion session: one graph, a pattern registry and a history of steps (pattern replacements and passes), each
// kept as an EditRecord so undo/redo cost and memory follow the size of the step, not the graph. Steps follow
// Inductor's PatternMatcherPass.apply: one sweep, whose accepted candidates (the matcher replays the pass on a copy,
// anchors last to first, patterns in registration order) are applied in order; the sweep ends the run, as one
// application of the pass does. lint() runs after every step; a failing step stays in the history (to inspect or
// undo) and stops the session.

#include "edit_record.h"
#include "graph_editor.h"
#include "match/matcher.h"
#include "session_sweep.h"

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fxs {

struct SessionStep {
    std::string kind; // "pattern" or "pass"
    std::string name; // the pattern or pass
    std::string anchor; // the match's anchor; empty for a pass
    std::vector<std::string> removed, added;
    Json provenance; // added node -> its provenance when the step made it ({"pattern"|"pass", "replaced", ...})
    size_t nodesBefore = 0, nodesAfter = 0;
    EditRecord edits;
    // Where the sweep stood before and after the step, so undo/redo need no matcher run.
    SweepCursor sweepBefore, sweepAfter;
};

struct SessionOptions {
    MatcherOptions matcher;
    bool lintEachStep = true; // off only for bulk runs that lint once at the end (benchmarks, huge graphs)
};

// A pass run as a session step: changes the graph through the editor, returns whether it changed anything.
using SessionPass = std::function<Result<bool>(GraphEditor &editor)>;

class Session {
public:
    Session(std::unique_ptr<Graph> graph, std::shared_ptr<const PatternRegistry> registry, SessionOptions options = {});

    const Graph &graph() const { return *m_graph; }
    size_t revision() const { return m_position; } // steps applied
    const std::vector<SessionStep> &history() const { return m_history; } // from revision() on: redoable
    bool canUndo() const { return m_position > 0; }
    bool canRedo() const { return m_position < m_history.size(); }
    // Why the session stopped (a step broke lint); empty while it runs. Undo clears it.
    const std::string &stoppedReason() const { return m_stopped; }

    // The matcher's verdicts on the current revision: computed when asked after a change (undo back to where the
    // current sweep began hands back the verdicts it was built from).
    Result<const MatchReport *> report();

    // The next accepted match of the sweep; false when the sweep is done.
    Result<bool> step();
    // The pass applied again: the next step starts a fresh sweep over the graph as it is now.
    void startNewSweep() { m_sweep = {}; }
    // Steps over one pattern: applies its matches until it has none; returns how many.
    Result<size_t> stepOver(const std::string &pattern);
    // Applies the candidate of `pattern` at `anchor`, which the current report must accept.
    Status applyCandidate(const std::string &pattern, const std::string &anchor);
    // Up to maxSteps steps; returns how many were applied.
    Result<size_t> run(size_t maxSteps);
    Result<size_t> runToEnd() { return run(std::numeric_limits<size_t>::max()); }
    // Runs `pass` as one step (recorded only when it changed the graph); returns whether it did.
    Result<bool> applyPass(const std::string &name, const SessionPass &pass);

    Status undo();
    Status redo();
    Status reset(); // undo everything
    Status goTo(size_t revision); // undo or redo to that revision
    // Only the first `steps` steps applied: the recorded ones replayed, more matched afresh; returns the revision.
    Result<size_t> bisect(size_t steps);

    void setPatternEnabled(const std::string &pattern, bool enabled);
    bool isPatternEnabled(const std::string &pattern) const { return !m_disabled.count(pattern); }

    // A copy of the graph at `revision` (0 = the graph the session started with), built by replaying edits.
    Result<std::unique_ptr<Graph>> graphAt(size_t revision) const;

private:
    Status refill();
    Result<bool> advance(const std::string *onlyPattern);
    // In TorchAir's pipeline (a pattern registered through TorchAir), its graph passes before the pattern pass,
    // where a sweep starts: each one that changes the graph is a step of its own (they are idempotent, so once
    // done they find nothing). all: every pending one; else up to the first that changes something.
    Result<bool> runPassesBefore(bool all);
    // keepSweep: the step leaves the sweep where it is (a pass after the pattern pass, not an edit inside it).
    Result<bool> runPass(const std::string &name, const SessionPass &pass, bool keepSweep);
    Status applyMatch(const PatternEntry &entry, Node *anchor, const Match &match, const SweepCursor &before);
    Status push(SessionStep step);
    Status lintStep(const SessionStep &step);
    Status checkRunning() const;
    void invalidate();
    const PatternRegistry &activeRegistry();

    std::unique_ptr<Graph> m_graph;
    std::shared_ptr<const PatternRegistry> m_registry;
    SessionOptions m_options;
    std::set<std::string> m_disabled;
    std::unique_ptr<PatternRegistry> m_active; // m_registry without the disabled patterns
    std::vector<SessionStep> m_history;
    size_t m_position = 0;
    std::string m_stopped;
    std::shared_ptr<const MatchReport> m_report;
    SweepCursor m_sweep;
    uint64_t m_patternsVersion = 0; // bumped when a pattern is enabled or disabled
    void restoreSweep(const SweepCursor &cursor);
};

} // namespace fxs
