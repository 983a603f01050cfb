#include "worker_pool.h"

#include <algorithm>
#include <atomic>
#include <sched.h>
#include <thread>
#include <vector>

namespace fxs::cli {

void WorkerPool::run(size_t count, const std::function<void(size_t)> &task) const
{
    const size_t threads = std::min<size_t>(m_threads, count);
    if (threads <= 1) {
        for (size_t i = 0; i < count; ++i)
            task(i);
        return;
    }
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < count; i = next++)
            task(i);
    };
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (size_t t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker(); // the calling thread is one of the workers
    for (auto &t : pool)
        t.join();
}

unsigned WorkerPool::availableCores()
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return unsigned(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace fxs::cli
