#include "rank_worker.h"

#include "io/loader.h"
#include "rank_slot.h"
#include "runtime_library.h"
#include "util/json.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fxs {

namespace {

constexpr int kSlotsFd = 3;

void finish(int code)
{
    std::fflush(nullptr);
    std::_Exit(code);
}

} // namespace

int runRankWorker(const std::vector<std::string> &args)
{
    if (args.size() != 1) {
        std::fprintf(stderr, "rank-worker: started by profile --ranks, with the request file it wrote\n");
        return 1;
    }
    auto text = readFileBytes(args[0]);
    auto request = text ? Json::parse(text.value(), args[0]) : Result<Json>(text.error());
    if (!request) {
        std::fprintf(stderr, "%s\n", request.error().toString().c_str());
        finish(3);
    }
    const Json &r = request.value();
    const int64_t rank = r["rank"]["rank"].toInt(), world = r["rank"]["world_size"].toInt(1);
    RankSlot *slot = nullptr;
    struct stat st {};
    if (fstat(kSlotsFd, &st) == 0 && st.st_size >= off_t(sizeof(RankSlot) * world) && rank < world) {
        void *mapped = mmap(nullptr, sizeof(RankSlot) * world, PROT_READ | PROT_WRITE, MAP_SHARED, kSlotsFd, 0);
        if (mapped != MAP_FAILED)
            slot = static_cast<RankSlot *>(mapped) + rank;
    }
    if (slot)
        slot->pid.store(int32_t(getpid()));
    auto progress = [slot](double fraction) {
        if (slot)
            slot->permille.store(int32_t(fraction * 1000));
        return true; // the launcher cancels by killing the ranks
    };
    auto result = runtimeRankProfile(r, slot, progress);
    Json report = result ? std::move(result.value()) : Json::object({{"error", result.error().toString()}});
    if (!result && slot) {
        timespec now {};
        clock_gettime(CLOCK_MONOTONIC, &now);
        slot->failedAtNs.store(int64_t(now.tv_sec) * 1000000000 + now.tv_nsec);
    }
    if (auto written = writeFileAtomically(r["result_path"].toString(), report.dump()); !written) {
        std::fprintf(stderr, "%s\n", written.error().toString().c_str());
        finish(3);
    }
    finish(0);
    return 0;
}

} // namespace fxs
