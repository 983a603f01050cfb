#pragma once
// Starts one worker process per rank (this program re-executed as `fxscope-cli rank-worker`), watches them and
// collects each rank's profile. The workers share a process group of their own and die with the thread that started
// them (PR_SET_PDEATHSIG); a rank that crashes, reports an error or makes no progress for the timeout ends the run,
// with the rank, the node and the cause named, and every worker is killed and reaped before run() returns.
// Torch-free: the workers load LibTorch, the launcher never does.

#include "runtime_library.h"
#include "util/json.h"
#include "util/result.h"

#include <chrono>
#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace fxs {

class Graph;
struct RankSlot;

// Where one rank is, as a progress display shows it: the fraction of its job done and what it is doing.
struct RankProgress {
    double fraction = 0;
    std::string state; // "loading LibTorch", "running the fused graph", "finished", ...
};

// What one rank runs: its graphs and its options (inputs, expected outputs, seed).
struct RankJob {
    const Graph *unfused = nullptr;
    const Graph *fused = nullptr;
    ProfileOptions options;
};

class RankLauncher {
public:
    struct Options {
        std::chrono::milliseconds timeout{60000}; // the longest a rank may go without progress
        std::string worker; // the executable to re-execute; empty: FXSCOPE_RANK_WORKER, else fxscope-cli beside us
        std::vector<std::string> groupNames; // registered by every rank
        std::function<bool(double)> progress; // fraction of the slowest rank's job; false cancels
        std::function<void(const std::vector<RankProgress> &)> rankProgress; // by rank, just before progress
    };
    explicit RankLauncher(Options options);
    ~RankLauncher(); // kills and reaps what still runs, removes the work folder
    RankLauncher(const RankLauncher &) = delete;
    RankLauncher &operator=(const RankLauncher &) = delete;

    // Runs jobs[r] as rank r; on success each rank's runtime report (runProfile's JSON, with "rank" and "backend").
    Result<std::vector<Json>> run(const std::vector<RankJob> &jobs);
    // The worker pids of the last run (tests check that none is left).
    const std::vector<pid_t> &pids() const { return m_pids; }

private:
    Status start(const std::vector<RankJob> &jobs);
    Result<std::vector<Json>> watch(const std::vector<RankJob> &jobs);
    std::string describe(int rank, const std::vector<RankJob> &jobs) const;
    void tearDown();

    Options m_options;
    std::string m_folder;
    int m_slotsFd = -1;
    RankSlot *m_slots = nullptr;
    size_t m_ranks = 0;
    pid_t m_group = 0;
    std::vector<pid_t> m_pids;
    std::vector<bool> m_reaped;
    std::vector<int> m_status;
};

} // namespace fxs
