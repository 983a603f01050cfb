#pragma once
// One sweep of a Session: the accepted candidates of one matcher run in the order Inductor applies them, shared
// read-only by the steps taken from it, and a cursor into it. Each step keeps the cursor from before and after it,
// so undo and redo put the sweep back where it was without running the matcher again (O(step), not O(graph)).

#include "match/matcher.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fxs {

struct SessionSweep {
    struct Item {
        PatternEntryPtr entry;
        std::string anchor;
        std::vector<std::string> nodes; // the match's nodes when the matcher accepted it
    };
    std::vector<Item> items;
    std::shared_ptr<const MatchReport> report; // the verdicts it was built from
    size_t revision = 0; // the session revision they describe
    uint64_t patternsVersion = 0; // which enabled-pattern set it was built with (Session::setPatternEnabled)
};

struct SweepCursor {
    std::shared_ptr<const SessionSweep> sweep; // null: the next step runs the matcher afresh
    size_t next = 0; // items before it are done
    std::vector<size_t> doneAhead; // items after `next` already done (stepping over one pattern), sorted

    bool done(size_t i) const { return i < next || std::binary_search(doneAhead.begin(), doneAhead.end(), i); }
    void markDone(size_t i)
    {
        if (i != next) {
            doneAhead.insert(std::lower_bound(doneAhead.begin(), doneAhead.end(), i), i);
            return;
        }
        ++next;
        while (!doneAhead.empty() && doneAhead.front() == next) {
            doneAhead.erase(doneAhead.begin());
            ++next;
        }
    }
    bool exhausted() const { return !sweep || next >= sweep->items.size(); }
};

} // namespace fxs
