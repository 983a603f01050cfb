#pragma once
// What a rank worker shows its launcher while it runs, in memory both map (a memfd the worker inherits): the phase,
// the graph and iteration, and the node being run. The launcher reads it to name the node a rank crashed or hung
// in, and to tell a rank that makes no progress from a slow one. Plain atomics, no pointers: torch-free, lock-free.

#include <atomic>
#include <cstdint>

namespace fxs {

enum class RankPhase : int32_t {
    Starting = 0, // loading LibTorch
    Connecting = 1, // rendezvous on the store, creating the process group
    Preparing = 2, // reading the graphs, making inputs
    Running = 3, // warm-up and timed runs
    Comparing = 4, // outputs compared, report written
    Done = 5,
};

struct RankSlot {
    std::atomic<int32_t> phase{0};
    std::atomic<int32_t> graph{0}; // 0 unfused, 1 fused, 2 the reference device's run
    std::atomic<int32_t> iteration{0}; // warm-up runs count too
    std::atomic<int64_t> node{-1}; // index of the top-level node running, -1 between runs, -2 at the barrier
    std::atomic<int64_t> failedAtNs{0}; // CLOCK_MONOTONIC when the worker found its run failed (0: it did not)
    std::atomic<int32_t> pid{0};
    std::atomic<int32_t> permille{0}; // the worker's progress through its job, for the caller's progress bar
};

static_assert(std::atomic<int64_t>::is_always_lock_free, "slots are shared between processes");

// Where the graph a slot names is: "unfused", "fused" or the reference run.
inline const char *rankSlotGraphName(int32_t graph)
{
    return graph == 1 ? "fused" : graph == 2 ? "reference" : "unfused";
}

inline const char *rankPhaseName(int32_t phase)
{
    switch (RankPhase(phase)) {
    case RankPhase::Starting: return "loading LibTorch";
    case RankPhase::Connecting: return "joining the process group";
    case RankPhase::Preparing: return "preparing the graphs and inputs";
    case RankPhase::Running: return "running";
    case RankPhase::Comparing: return "comparing outputs";
    case RankPhase::Done: return "done";
    }
    return "unknown";
}

} // namespace fxs
