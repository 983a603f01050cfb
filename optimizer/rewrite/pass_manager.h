#pragma once
// torch.fx.passes.infra.PassManager on a Session: an ordered list of passes with this-before-that constraints, a
// check (lint by default) before the run and optionally after each pass, and a fixed point over `steps` (the list is
// rerun until no pass changes the graph or the steps are used up). Every pass application that changes the graph is
// a Session step (Session::applyPass), so it shows in the history and can be undone like a fusion.

#include "session.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

struct NamedPass {
    std::string name;
    SessionPass fn;
};

// A check on the graph between passes; an error stops the run.
using PassCheck = std::function<Status(const Graph &graph)>;

struct PassManagerOptions {
    size_t steps = 1; // the seeds' default: one sweep over the list
    bool runChecksAfterEachPass = false;
    // The seeds store suppress_check_failures and never read it; kept for parity, it changes nothing.
    bool suppressCheckFailures = false;
    // false: a list that violates a constraint is an error (validate_constraints); true: the list is reordered by
    // the constraints first, as the seeds' __call__ does (solve_constraints).
    bool solveConstraints = false;
};

// One pass application in a run.
struct PassRun {
    std::string pass;
    size_t iteration = 0; // 0-based sweep over the list
    bool changed = false;
    size_t revision = 0; // the session's revision after it (a new step when changed)
};

// Which pass failed, after which passes of its sweep, and why.
struct PassFailure {
    std::string pass;
    std::vector<std::string> before;
    std::string cause;
};

struct PassManagerResult {
    bool modified = false;
    size_t iterations = 0; // sweeps run
    std::vector<PassRun> runs;
};

class PassManager {
public:
    explicit PassManager(std::vector<NamedPass> passes = {}, PassManagerOptions options = {});

    void addPass(std::string name, SessionPass fn);
    // this_before_that_pass_constraint(this, that): `that` may not run before `thisPass`.
    void addConstraint(std::string thisPass, std::string thatPass);
    // Checks run in the order added; without any, lint() is the check.
    void addCheck(std::string name, PassCheck check);

    const std::vector<NamedPass> &passes() const { return m_passes; }
    PassManagerOptions &options() { return m_options; }

    // "pass schedule constraint violated. Expected A before B but found A at index i and B at index j in pass list."
    Status validateConstraints() const;
    // Reorders the passes by the constraints (Kahn's algorithm, FIFO, list order among free passes);
    // "Circular dependency detected within the following passes: [...]" when they cannot all hold.
    Status solveConstraints();
    // The checks on `graph`; the error names the failing check.
    Status check(const Graph &graph) const;

    // Runs the passes on the session's current revision. An error names the failing pass and the passes that ran
    // before it in that sweep ("An error occurred when running the 'X' pass after the following passes: [...]"); the
    // steps of the passes that succeeded stay in the session's history.
    Result<PassManagerResult> run(Session &session);
    // The last run as far as it went (the passes that ran before a failure too), and its failure if it failed.
    const PassManagerResult &lastRun() const { return m_lastRun; }
    const std::optional<PassFailure> &lastFailure() const { return m_lastFailure; }

private:
    std::vector<NamedPass> m_passes;
    std::vector<std::pair<std::string, std::string>> m_constraints; // (this, that)
    std::vector<std::pair<std::string, PassCheck>> m_checks;
    PassManagerOptions m_options;
    PassManagerResult m_lastRun;
    std::optional<PassFailure> m_lastFailure;
};

// Python's repr of a list of names: ['a', 'b'].
std::string pythonNameList(const std::vector<std::string> &names);

} // namespace fxs
