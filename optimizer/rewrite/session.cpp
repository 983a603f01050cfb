#include "session.h"

#include "ir/lint.h"
#include "match/pattern_matcher.h"
#include "replacement.h"

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
    m_queue.clear();
    m_queuePos = 0;
    invalidate();
}

Result<const MatchReport *> Session::report()
{
    if (!m_report) {
        auto r = Matcher(activeRegistry()).run(*m_graph, m_options.matcher);
        if (!r)
            return r.error();
        m_report = std::move(r.value());
    }
    return &*m_report;
}

Status Session::checkRunning() const
{
    if (!m_stopped.empty())
        return sessionError("the session is stopped: " + m_stopped + "; undo that step to go on");
    return Ok{};
}

Status Session::refill()
{
    m_queue.clear();
    m_queuePos = 0;
    auto rep = report();
    if (!rep)
        return rep.error();
    const PatternRegistry &registry = activeRegistry();
    std::unordered_map<std::string, size_t> order;
    for (size_t i = 0; i < registry.entries().size(); ++i)
        order.emplace(registry.entries()[i]->name, i);
    struct Item {
        size_t anchorIndex, entryIndex;
        Pending pending;
    };
    std::vector<Item> items;
    for (const auto &p : rep.value()->patterns) {
        const PatternEntry *raw = registry.find(p.name);
        PatternEntryPtr entry;
        for (const auto &e : registry.entries())
            if (e.get() == raw)
                entry = e;
        for (const auto &c : p.candidates) {
            if (!c.accepted)
                continue;
            const Node *anchor = m_graph->find(c.anchor);
            if (!anchor || !entry)
                continue;
            items.push_back({anchor->index(), order[p.name], Pending{entry, c.anchor, c.nodes, false}});
        }
    }
    // Inductor's order: anchors last to first, entries in registration order at one anchor.
    std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
        return a.anchorIndex != b.anchorIndex ? a.anchorIndex > b.anchorIndex : a.entryIndex < b.entryIndex;
    });
    for (auto &it : items)
        m_queue.push_back(std::move(it.pending));
    return Ok{};
}

Result<bool> Session::advance(const std::string *onlyPattern)
{
    if (auto st = checkRunning(); !st)
        return st.error();
    PatternMatcher matcher;
    for (bool fresh = false;; fresh = true) {
        if (fresh || m_queuePos >= m_queue.size()) {
            if (auto st = refill(); !st)
                return st.error();
            fresh = true;
        }
        for (size_t i = m_queuePos; i < m_queue.size(); ++i) {
            Pending &p = m_queue[i];
            if (p.done || (onlyPattern && p.entry->name != *onlyPattern))
                continue;
            p.done = true;
            if (i == m_queuePos)
                while (m_queuePos < m_queue.size() && m_queue[m_queuePos].done)
                    ++m_queuePos;
            // An earlier step of this sweep may have replaced or changed these nodes: re-match on the graph as it is.
            Node *anchor = m_graph->find(p.anchor);
            if (!anchor)
                continue;
            auto m = matchAt(*p.entry, anchor, matcher);
            if (!m)
                continue;
            std::vector<std::string> names;
            for (const Node *n : m->nodes)
                names.push_back(n->name());
            if (names != p.nodes)
                continue;
            if (auto st = applyMatch(*p.entry, anchor, m.value()); !st)
                return st.error();
            return true;
        }
        if (fresh)
            return false; // a fresh matcher run accepted nothing applicable: fixed point
    }
}

Status Session::applyMatch(const PatternEntry &entry, Node *anchor, const Match &match)
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
    return push(std::move(s));
}

Status Session::push(SessionStep step)
{
    m_history.resize(m_position); // a new step clears the redo tail
    m_history.push_back(std::move(step));
    ++m_position;
    invalidate();
    if (m_options.lintEachStep) {
        std::vector<std::string> problems = lint(*m_graph);
        if (!problems.empty()) {
            m_stopped = describe(m_history.back(), m_position) + " broke the graph: " + problems.front();
            if (problems.size() > 1)
                m_stopped += " (and " + std::to_string(problems.size() - 1) + " more)";
            return sessionError(m_stopped);
        }
    }
    return Ok{};
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
    m_queue.clear();
    m_queuePos = 0;
    return applyMatch(*entry, anchor, m.value());
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
    if (auto st = checkRunning(); !st)
        return st.error();
    SessionStep s;
    s.kind = "pass";
    s.name = name;
    s.nodesBefore = m_graph->size();
    GraphEditor editor(*m_graph);
    auto changed = pass(editor);
    if (!changed || !changed.value()) {
        if (!editor.record().empty())
            (void)editor.record().undo(*m_graph);
        invalidate();
        if (!changed)
            return Error{changed.error().file, changed.error().line, changed.error().column,
                "pass '" + name + "' failed: " + changed.error().message};
        return false;
    }
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
    m_queue.clear();
    m_queuePos = 0;
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
    m_queue.clear();
    m_queuePos = 0;
    invalidate();
    return Ok{};
}

Status Session::redo()
{
    if (!canRedo())
        return sessionError("nothing to redo");
    if (auto st = m_history[m_position].edits.redo(*m_graph); !st)
        return st;
    ++m_position;
    m_queue.clear();
    m_queuePos = 0;
    invalidate();
    if (m_options.lintEachStep) {
        std::vector<std::string> problems = lint(*m_graph);
        if (!problems.empty())
            m_stopped = describe(m_history[m_position - 1], m_position) + " broke the graph: " + problems.front();
    }
    return Ok{};
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
