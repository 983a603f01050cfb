#pragma once
// The registered patterns, ordered as Inductor's PatternMatcherPass: indexed by the root's (op, target) with
// overload packets expanded (one slot per overload), registration order within a slot, prepend=True first.

#include "pattern_entry.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace fxs {

class PatternRegistry {
public:
    // PatternEntry.register(pass_dicts, prepend): under every target of the root pattern.
    // Fails for a pattern without a call at its root or one deeper than kMaxPatternDepth.
    Status add(PatternEntryPtr entry, bool prepend = false);

    // Every entry once, in the order registered (prepended entries first).
    const std::vector<PatternEntryPtr> &entries() const { return m_entries; }
    // The entries tried at a node with this op and (canonical) target, in the order Inductor tries them.
    const std::vector<PatternEntryPtr> *entriesFor(OpKind op, const std::string &target) const;
    bool empty() const { return m_entries.empty(); }
    const PatternEntry *find(std::string_view name) const;
    // File-level load warnings that belong to no one pattern ("FILE:LINE: _register_x(...) was not called: ...").
    void addWarning(std::string warning) { m_warnings.push_back(std::move(warning)); }
    const std::vector<std::string> &warnings() const { return m_warnings; }

    // The first entry registered through TorchAir: the patterns then run inside TorchAir's pipeline.
    const PatternEntry *torchairEntry() const;

    // The folder TorchAir's built-in patterns were appended from (TorchairBuiltins); empty when they were not.
    const std::string &torchairBuiltinsFrom() const { return m_torchairBuiltinsFrom; }
    void setTorchairBuiltinsFrom(std::string folder) { m_torchairBuiltinsFrom = std::move(folder); }

    // PM-main's duplicate key: the pretty-printed pattern plus the search graph. Returns the earlier entry's name.
    std::optional<std::string> duplicateOf(const PatternEntry &entry) const;

private:
    static std::string key(OpKind op, const std::string &target);
    std::vector<PatternEntryPtr> m_entries;
    std::vector<std::string> m_warnings;
    std::string m_torchairBuiltinsFrom;
    std::unordered_map<std::string, std::vector<PatternEntryPtr>> m_index;
};

} // namespace fxs
