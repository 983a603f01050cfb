#include "pass_manager.h"

#include "ir/lint.h"

#include <deque>

namespace fxs {

namespace {

Error managerError(std::string message)
{
    return Error{"", 0, 0, std::move(message)};
}

} // namespace

std::string pythonNameList(const std::vector<std::string> &names)
{
    std::string out = "[";
    for (size_t i = 0; i < names.size(); ++i)
        out += (i ? ", " : "") + pythonStringRepr(names[i]);
    return out + "]";
}

PassManager::PassManager(std::vector<NamedPass> passes, PassManagerOptions options)
    : m_passes(std::move(passes)), m_options(options)
{
}

void PassManager::addPass(std::string name, SessionPass fn)
{
    m_passes.push_back({std::move(name), std::move(fn)});
}

void PassManager::addConstraint(std::string thisPass, std::string thatPass)
{
    m_constraints.emplace_back(std::move(thisPass), std::move(thatPass));
}

void PassManager::addCheck(std::string name, PassCheck check)
{
    m_checks.emplace_back(std::move(name), std::move(check));
}

Status PassManager::validateConstraints() const
{
    // As the seeds do: every ordered pair (i < j) where the earlier pass must not precede the later one.
    for (const auto &[thisPass, thatPass] : m_constraints)
        for (size_t i = 0; i < m_passes.size(); ++i) {
            if (m_passes[i].name != thatPass)
                continue;
            for (size_t j = i + 1; j < m_passes.size(); ++j)
                if (m_passes[j].name == thisPass)
                    return managerError("pass schedule constraint violated. Expected " + thisPass + " before "
                        + thatPass + " but found " + thisPass + " at index " + std::to_string(j) + " and " + thatPass
                        + " at index" + std::to_string(i) + " in pass list.");
        }
    return Ok{};
}

Status PassManager::solveConstraints()
{
    const size_t n = m_passes.size();
    // edges[b] lists the passes that must wait for b; by index, so a pass listed twice is two passes.
    std::vector<std::vector<size_t>> waiting(n);
    std::vector<size_t> indegree(n, 0);
    std::deque<size_t> ready;
    for (size_t a = 0; a < n; ++a) {
        for (size_t b = 0; b < n; ++b) {
            if (a == b)
                continue;
            for (const auto &[thisPass, thatPass] : m_constraints)
                if (m_passes[a].name == thatPass && m_passes[b].name == thisPass) {
                    waiting[b].push_back(a);
                    ++indegree[a];
                }
        }
        if (indegree[a] == 0)
            ready.push_back(a);
    }
    std::vector<size_t> order;
    std::vector<bool> visited(n, false);
    while (!ready.empty()) {
        size_t p = ready.front();
        ready.pop_front();
        order.push_back(p);
        visited[p] = true;
        for (size_t w : waiting[p])
            if (!visited[w] && --indegree[w] == 0)
                ready.push_back(w);
    }
    std::vector<std::string> cycle;
    for (size_t i = 0; i < n; ++i)
        if (indegree[i] != 0)
            cycle.push_back(m_passes[i].name);
    if (!cycle.empty())
        return managerError("Circular dependency detected within the following passes: " + pythonNameList(cycle));
    std::vector<NamedPass> sorted;
    sorted.reserve(n);
    for (size_t i : order)
        sorted.push_back(m_passes[i]);
    m_passes = std::move(sorted);
    return Ok{};
}

Status PassManager::check(const Graph &graph) const
{
    if (m_checks.empty()) {
        std::vector<std::string> problems = lint(graph);
        if (!problems.empty())
            return managerError("check 'lint' failed: " + problems.front()
                + (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""));
        return Ok{};
    }
    for (const auto &[name, fn] : m_checks)
        if (auto st = fn(graph); !st)
            return managerError("check '" + name + "' failed: " + st.error().message);
    return Ok{};
}

Result<PassManagerResult> PassManager::run(Session &session)
{
    m_lastRun = {};
    m_lastFailure.reset();
    if (m_options.solveConstraints) {
        if (auto st = solveConstraints(); !st)
            return st.error();
    } else if (auto st = validateConstraints(); !st) {
        return st.error();
    }
    // The check before the run is not wrapped: no pass has run yet.
    if (auto st = check(session.graph()); !st)
        return st.error();
    PassManagerResult &result = m_lastRun;
    for (size_t iteration = 0; iteration < m_options.steps; ++iteration) {
        bool modified = false;
        for (size_t i = 0; i < m_passes.size(); ++i) {
            const NamedPass &pass = m_passes[i];
            auto fail = [&](const std::string &cause) -> Error {
                std::vector<std::string> before;
                for (size_t k = 0; k < i; ++k)
                    before.push_back(m_passes[k].name);
                m_lastFailure = PassFailure{pass.name, before, cause};
                return managerError("An error occurred when running the '" + pass.name
                    + "' pass after the following passes: " + pythonNameList(before) + ": " + cause);
            };
            auto changed = session.applyPass(pass.name, pass.fn);
            if (!changed)
                return fail(changed.error().message);
            result.runs.push_back({pass.name, iteration, changed.value(), session.revision()});
            modified = modified || changed.value();
            if (m_options.runChecksAfterEachPass)
                if (auto st = check(session.graph()); !st)
                    return fail(st.error().message);
        }
        result.iterations = iteration + 1;
        result.modified = result.modified || modified;
        if (!modified)
            break; // fixed point
    }
    return result;
}

} // namespace fxs
