#include "session.h"

#include "ir/lint.h"
#include "match/pattern_matcher.h"
#include "passes/torchair_pipeline.h"
#include "replacement.h"
#include "step_lint.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace fxs {

namespace {

Error sessionError(std::string message)
{
    return Error{"", 0, 0, std::move(message)};
}

std::string describe(const SessionStep &s, size_t number)
{
    std::string what = s.kind == "pattern" ? "'" + s.name + "' at " + s.anchor : "pass '" + s.name + "'";
    return "step " + std::to_string(number) + " (" + what + ")";
}

// Cursors are kept per step; one that skipped many items out of order (stepping over a pattern) is not worth its
// memory there, and a null cursor only costs a fresh matcher run after undo or redo.
SweepCursor keepable(const SweepCursor &cursor)
{
    return cursor.doneAhead.size() <= 64 ? cursor : SweepCursor{};
}

} // namespace

Session::Session(std::unique_ptr<Graph> graph, std::shared_ptr<const PatternRegistry> registry, SessionOptions options)
    : m_graph(std::move(graph)), m_registry(std::move(registry)), m_options(std::move(options))
{
}

void Session::invalidate()
{
    m_report.reset();
}

const PatternRegistry &Session::activeRegistry()
{
    if (m_disabled.empty())
        return *m_registry;
    if (!m_active) {
        // entries() lists prepended entries first, so re-adding in that order keeps every slot's order.
        m_active = std::make_unique<PatternRegistry>();
        for (const auto &e : m_registry->entries())
            if (!m_disabled.count(e->name))
                m_active->add(e);
    }
    return *m_active;
}

void Session::setPatternEnabled(const std::string &pattern, bool enabled)
{
    bool changed = enabled ? m_disabled.erase(pattern) > 0 : m_disabled.insert(pattern).second;
    if (!changed)
        return;
    m_active.reset();
    m_sweep = {};
    ++m_patternsVersion; // sweeps kept by steps hold the old set's matches: undo and redo match afresh
    invalidate();
}

Result<const MatchReport *> Session::report()
{
    if (!m_report) {
        auto r = Matcher(activeRegistry()).run(*m_graph, m_options.matcher);
        if (!r)
            return r.error();
        m_report = std::make_shared<const MatchReport>(std::move(r.value()));
    }
    return m_report.get();
}

Status Session::checkRunning() const
{
    if (!m_stopped.empty())
        return sessionError("the session is stopped: " + m_stopped + "; undo that step to go on");
    return Ok{};
}

Status Session::refill()
{
    m_sweep = {};
    auto rep = report();
    if (!rep)
        return rep.error();
    const PatternRegistry &registry = activeRegistry();
    std::unordered_map<const PatternEntry *, std::pair<size_t, PatternEntryPtr>> entries;
    for (size_t i = 0; i < registry.entries().size(); ++i)
        entries.emplace(registry.entries()[i].get(), std::make_pair(i, registry.entries()[i]));
    struct Ordered {
        size_t anchorIndex, entryIndex;
        SessionSweep::Item item;
    };
    std::vector<Ordered> ordered;
    for (const auto &p : rep.value()->patterns) {
        auto e = entries.find(registry.find(p.name));
        if (e == entries.end())
            continue;
        for (const auto &c : p.candidates) {
            if (!c.accepted)
                continue;
            const Node *anchor = m_graph->find(c.anchor);
            if (!anchor)
                continue;
            ordered.push_back(
                {anchor->index(), e->second.first, SessionSweep::Item{e->second.second, c.anchor, c.nodes}});
        }
    }
    // Inductor's order: anchors last to first, entries in registration order at one anchor.
    std::sort(ordered.begin(), ordered.end(), [](const Ordered &a, const Ordered &b) {
        return a.anchorIndex != b.anchorIndex ? a.anchorIndex > b.anchorIndex : a.entryIndex < b.entryIndex;
    });
    auto sweep = std::make_shared<SessionSweep>();
    sweep->items.reserve(ordered.size());
    for (auto &o : ordered)
        sweep->items.push_back(std::move(o.item));
    sweep->report = m_report;
    sweep->revision = m_position;
    sweep->patternsVersion = m_patternsVersion;
    m_sweep.sweep = std::move(sweep);
    return Ok{};
}

Result<bool> Session::runPassesBefore(bool all)
{
    if (m_sweep.sweep || !activeRegistry().torchairEntry())
        return false;
    bool any = false;
    for (const GraphPass &p : TorchairPipeline::before()) {
        auto changed = runPass(p.name, p.run, false);
        if (!changed)
            return changed;
        any = any || changed.value();
        if (any && !all)
            break;
    }
    return any;
}

Result<bool> Session::advance(const std::string *onlyPattern)
{
    if (auto st = checkRunning(); !st)
        return st.error();
    // One sweep is one PatternMatcherPass.apply: once it is exhausted, stepping stops (a replacement that its own
    // pattern matches again is not re-anchored). A new sweep starts after an edit outside it (a hand-picked
    // candidate, a pass, a pattern switched on or off).
    if (!m_sweep.sweep) {
        // A plain step is the first pending pass; stepping over one pattern runs them all first.
        auto passed = runPassesBefore(onlyPattern != nullptr);
        if (!passed || (passed.value() && !onlyPattern))
            return passed;
        if (auto st = refill(); !st)
            return st.error();
    }
    PatternMatcher matcher;
    const SweepCursor before = m_sweep; // what undo puts back: this sweep, before the items scanned below
    const auto &items = m_sweep.sweep->items;
    for (size_t i = m_sweep.next; i < items.size(); ++i) {
        const SessionSweep::Item &item = items[i];
        if (m_sweep.done(i) || (onlyPattern && item.entry->name != *onlyPattern))
            continue;
        m_sweep.markDone(i);
        // Stepping over one pattern changes the order: re-match on the graph as it is.
        Node *anchor = m_graph->find(item.anchor);
        if (!anchor)
            continue;
        auto m = matchAt(*item.entry, anchor, matcher);
        if (!m)
            continue;
        bool same = m->nodes.size() == item.nodes.size();
        for (size_t k = 0; same && k < item.nodes.size(); ++k)
            same = m->nodes[k]->name() == item.nodes[k];
        if (!same)
            continue;
        if (auto st = applyMatch(*item.entry, anchor, m.value(), before); !st)
            return st.error();
        return true;
    }
    if (!onlyPattern && !m_sweep.sweep->report->stoppedBy.empty())
        return sessionError("the pass stops at " + m_sweep.sweep->report->stoppedBy);
    // The sweep is done: TorchAir's passes after the pattern pass, as steps that keep the finished sweep.
    if (!onlyPattern && activeRegistry().torchairEntry())
        for (const GraphPass &p : TorchairPipeline::after()) {
            auto changed = runPass(p.name, p.run, true);
            if (!changed || changed.value())
                return changed;
        }
    return false;
}

Status Session::applyMatch(const PatternEntry &entry, Node *anchor, const Match &match, const SweepCursor &before)
{
    SessionStep s;
    s.kind = "pattern";
    s.name = entry.name;
    s.anchor = anchor->name();
    s.nodesBefore = m_graph->size();
    GraphEditor editor(*m_graph);
    auto r = applyReplacement(editor, entry, match, s.anchor);
    if (!r) {
        // Leave the graph as it was before the failed replacement.
        if (auto st = editor.record().undo(*m_graph); !st)
            m_stopped = "a failed replacement of '" + entry.name + "' could not be rolled back: " + st.error().message;
        invalidate();
        return r.error();
    }
    s.removed = std::move(r->removed);
    s.added = std::move(r->added);
    s.nodesAfter = m_graph->size();
    s.edits = editor.take();
    s.sweepBefore = keepable(before);
    s.sweepAfter = keepable(m_sweep);
    return push(std::move(s));
}

Status Session::push(SessionStep step)
{
    step.provenance = Json::object();
    for (const auto &name : step.added)
        if (const Node *n = m_graph->find(name); n && n->meta().extra.isObject())
            if (const Json *p = n->meta().extra.find(kProvenanceKey))
                step.provenance.set(name, *p);
    m_history.resize(m_position); // a new step clears the redo tail
    m_history.push_back(std::move(step));
    ++m_position;
    invalidate();
    return lintStep(m_history.back());
}

Status Session::lintStep(const SessionStep &step)
{
    if (!m_options.lintEachStep)
        return Ok{};
    // The graph linted clean before the step, so checking around what the step touched is lint() at its cost.
    std::vector<std::string> problems = lintEdited(*m_graph, step.edits);
    if (problems.empty())
        return Ok{};
    m_stopped = describe(step, m_position) + " broke the graph: " + problems.front();
    if (problems.size() > 1)
        m_stopped += " (and " + std::to_string(problems.size() - 1) + " more)";
    return sessionError(m_stopped);
}

Result<bool> Session::step()
{
    return advance(nullptr);
}

Result<size_t> Session::stepOver(const std::string &pattern)
{
    if (!m_registry->find(pattern))
        return sessionError("no pattern '" + pattern + "'");
    size_t n = 0;
    while (true) {
        auto r = advance(&pattern);
        if (!r)
            return r.error();
        if (!r.value())
            return n;
        ++n;
    }
}

Status Session::applyCandidate(const std::string &pattern, const std::string &anchorName)
{
    if (auto st = checkRunning(); !st)
        return st;
    if (auto passed = runPassesBefore(true); !passed) // the report's verdicts are on the graph after them
        return passed.error();
    auto rep = report();
    if (!rep)
        return rep.error();
    const PatternReport *pr = rep.value()->find(pattern);
    if (!pr)
        return sessionError("no enabled pattern '" + pattern + "'");
    const Verdict *verdict = nullptr;
    for (const auto &c : pr->candidates)
        if (c.anchor == anchorName)
            verdict = &c;
    if (!verdict)
        return sessionError("'" + pattern + "' has no candidate at " + anchorName);
    if (!verdict->accepted) {
        auto reasons = verdict->reasonTexts();
        return sessionError("'" + pattern + "' at " + anchorName + " is rejected (" + matchStageName(verdict->stage)
            + ")" + (reasons.empty() ? "" : ": " + reasons.front()));
    }
    const PatternEntry *entry = activeRegistry().find(pattern);
    Node *anchor = m_graph->find(anchorName);
    PatternMatcher matcher;
    auto m = matchAt(*entry, anchor, matcher);
    if (!m)
        return m.error();
    // A hand-picked step breaks the sweep's order: the next step starts a fresh sweep.
    const SweepCursor before = m_sweep;
    m_sweep = {};
    return applyMatch(*entry, anchor, m.value(), before);
}

Result<size_t> Session::run(size_t maxSteps)
{
    size_t n = 0;
    while (n < maxSteps) {
        auto r = step();
        if (!r)
            return r.error();
        if (!r.value())
            break;
        ++n;
    }
    return n;
}

Result<bool> Session::applyPass(const std::string &name, const SessionPass &pass)
{
    return runPass(name, pass, false);
}

Result<bool> Session::runPass(const std::string &name, const SessionPass &pass, bool keepSweep)
{
    if (auto st = checkRunning(); !st)
        return st.error();
    SessionStep s;
    s.kind = "pass";
    s.name = name;
    s.nodesBefore = m_graph->size();
    GraphEditor editor(*m_graph);
    auto changed = pass(editor);
    if (!changed || !changed.value()) {
        // A pass that changed nothing leaves the report valid (TorchAir's passes are tried at every sweep start).
        if (!editor.record().empty()) {
            (void)editor.record().undo(*m_graph);
            invalidate();
        }
        if (!changed)
            return Error{changed.error().file, changed.error().line, changed.error().column,
                "pass '" + name + "' failed: " + changed.error().message};
        return false;
    }
    editor.stampPassProvenance(name);
    // removed: nodes that were there before; added: nodes that are there after.
    std::unordered_set<std::string> inserted;
    for (const auto &op : editor.record().ops())
        if (op.kind == EditOp::Kind::Insert)
            inserted.insert(op.name);
        else if (op.kind == EditOp::Kind::Erase && !inserted.erase(op.name))
            s.removed.push_back(op.name);
    for (const auto &op : editor.record().ops())
        if (op.kind == EditOp::Kind::Insert && inserted.count(op.name))
            s.added.push_back(op.name);
    s.nodesAfter = m_graph->size();
    s.edits = editor.take();
    s.sweepBefore = keepable(m_sweep);
    if (keepSweep)
        s.sweepAfter = s.sweepBefore;
    else
        m_sweep = {}; // a pass changes what matches: the next step matches afresh
    if (auto st = push(std::move(s)); !st)
        return st.error();
    return true;
}

Status Session::undo()
{
    if (!canUndo())
        return sessionError("nothing to undo");
    const SessionStep &s = m_history[m_position - 1];
    if (auto st = s.edits.undo(*m_graph); !st)
        return st;
    --m_position;
    m_stopped.clear(); // a stopped session stops at its last step, which this removed
    restoreSweep(s.sweepBefore);
    return Ok{};
}

Status Session::redo()
{
    if (!canRedo())
        return sessionError("nothing to redo");
    if (auto st = m_history[m_position].edits.redo(*m_graph); !st)
        return st;
    ++m_position;
    restoreSweep(m_history[m_position - 1].sweepAfter);
    // A step that broke the graph stops the session again; redo itself succeeded.
    (void)lintStep(m_history[m_position - 1]);
    return Ok{};
}

void Session::restoreSweep(const SweepCursor &cursor)
{
    invalidate();
    const bool current = cursor.sweep && cursor.sweep->patternsVersion == m_patternsVersion;
    m_sweep = current ? cursor : SweepCursor{};
    // Back where the sweep began: its verdicts describe this graph again.
    if (current && m_sweep.sweep->revision == m_position)
        m_report = m_sweep.sweep->report;
}

Status Session::reset()
{
    return goTo(0);
}

Status Session::goTo(size_t revision)
{
    if (revision > m_history.size())
        return sessionError("no revision " + std::to_string(revision) + "; the history has "
            + std::to_string(m_history.size()) + " steps");
    while (m_position > revision)
        if (auto st = undo(); !st)
            return st;
    while (m_position < revision)
        if (auto st = redo(); !st)
            return st;
    return Ok{};
}

Result<size_t> Session::bisect(size_t steps)
{
    // Within the recorded history, the first `steps` steps are a replay; beyond it they are matched afresh.
    if (steps <= m_history.size()) {
        if (auto st = goTo(steps); !st)
            return st.error();
        return steps;
    }
    if (auto st = goTo(m_history.size()); !st)
        return st.error();
    auto more = run(steps - m_history.size());
    if (!more)
        return more.error();
    return m_position;
}

Result<std::unique_ptr<Graph>> Session::graphAt(size_t revision) const
{
    if (revision > m_history.size())
        return sessionError("no revision " + std::to_string(revision));
    std::unique_ptr<Graph> g = m_graph->clone();
    for (size_t p = m_position; p > revision; --p)
        if (auto st = m_history[p - 1].edits.undo(*g); !st)
            return st.error();
    for (size_t p = m_position; p < revision; ++p)
        if (auto st = m_history[p].edits.redo(*g); !st)
            return st.error();
    return g;
}

} // namespace fxs
