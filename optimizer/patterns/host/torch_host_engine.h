#pragma once
// The torch host as a pattern engine: the patterns are the PatternExpr trees the user's torch built through the
// real register_replacement, and for every candidate fxscope's matcher finds, torch decides what Inductor decides
// after the structural match (check_fn: the re-trace, the specific pattern, the user's extra_check on a real
// Match, the replacement traced for that match). The host keeps a mirror of the graph being matched, by node name,
// and follows it by diffs: a sweep's replacements, a step, undo and redo are all just "the graph now".
// The entries' retrace/extraCheck closures are the seam: the matcher and the rewriter stay fxscope's.

#include "patterns/pattern_registry.h"
#include "runtime/fusion_numerics.h"
#include "torch_host.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fxs {

class TorchHostEngine : public std::enable_shared_from_this<TorchHostEngine> {
public:
    // Starts the host in the background at once.
    static std::shared_ptr<TorchHostEngine> create(TorchHostSettings settings);

    // Registers what the sources register in torch (FILE.py, module:callable, inductor:NAME), in order.
    Status load(const std::vector<std::string> &sources, PatternRegistry &registry);

    TorchHost &host() { return *m_host; }

    // Brings the host's mirror up to date with `graph`, as each check does first: the whole graph the first time,
    // then only what its change log names (or what differs from the nodes last sent, for another Graph object).
    Status follow(const Graph &graph);
    std::string torchVersion() const;

    // Runs a fusion's two parts in the host, where the ops the sources define with torch.library exist; as the
    // runner fusion_numerics.h's checks take, holding this engine.
    Result<Json> numerics(const Json &before, const Json &after, uint64_t seed);
    PythonNumerics numericsRunner();

    struct Stats {
        int checks = 0; // candidates torch decided
        int mirrors = 0; // whole graphs sent
        int edits = 0; // diffs sent
        // Wall time of those requests, host round trip included: what each kind of request costs.
        double checkMs = 0, mirrorMs = 0, editMs = 0;
    };
    Stats stats() const;

private:
    explicit TorchHostEngine(TorchHostSettings settings);
    // torch's decision for one candidate: the host's check reply, on a mirror synced with `graph`.
    Result<Json> decide(size_t pattern, const Graph &graph, const std::string &anchor, bool force = false);
    Status sync(const Graph &graph);
    Status reloadAfterRestart();
    Retrace retrace(size_t pattern, const Match &match, bool force = false);
    CheckVerdict check(size_t pattern, const Match &match);
    CheckVerdict userCheck(size_t pattern, const Match &match);

    std::unique_ptr<TorchHost> m_host;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_sources;
    size_t m_patterns = 0;
    int m_loadedInStart = 0; // TorchHost::starts() when the patterns were loaded: another start lost them
    // The mirror as last sent: node name -> its fingerprint (and the sync that last saw it), a hash of the order,
    // and the graph's keys other than its nodes.
    struct SentNode {
        uint64_t fingerprint = 0;
        uint64_t seen = 0;
    };
    // The graph the mirror follows, and how far into its change log the mirror is.
    uint64_t m_followedSerial = 0;
    size_t m_followedChanges = 0;
    Status sendEdit(Json nodes, Json removed, Json order);
    std::unordered_map<std::string, SentNode> m_sent;
    uint64_t m_orderHash = 0;
    uint64_t m_syncPasses = 0;
    Json m_sentGraphLevel;
    bool m_mirrored = false;
    uint64_t m_generation = 0; // counts what was sent, so a decision is reused only for the same graph
    struct Decided {
        size_t pattern;
        std::string anchor;
        bool force;
        uint64_t generation;
        Json outcome;
    };
    std::optional<Decided> m_last; // the matcher asks retrace, then extraCheck, of the same candidate
    Stats m_stats;
};

} // namespace fxs
