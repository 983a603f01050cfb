#include "worker_pool.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <sched.h>
#include <thread>
#include <vector>

namespace fxs::cli {

void WorkerPool::run(size_t count, const std::function<void(size_t)> &task, size_t window) const
{
    const size_t threads = std::min<size_t>(m_threads, count);
    if (threads <= 1) {
        for (size_t i = 0; i < count; ++i)
            task(i);
        return;
    }
    // Smaller than the threads, the window would leave threads idle while the lowest index runs.
    if (window)
        window = std::max(window, threads);
    std::mutex lock;
    std::condition_variable advanced;
    size_t next = 0; // the next index to hand out
    size_t finishedPrefix = 0; // every index below it has finished
    std::vector<bool> finished(count, false);
    auto worker = [&] {
        for (;;) {
            size_t i;
            {
                std::unique_lock<std::mutex> guard(lock);
                advanced.wait(guard, [&] { return next >= count || !window || next < finishedPrefix + window; });
                if (next >= count)
                    return;
                i = next++;
            }
            task(i);
            {
                std::lock_guard<std::mutex> guard(lock);
                finished[i] = true;
                while (finishedPrefix < count && finished[finishedPrefix])
                    ++finishedPrefix;
            }
            advanced.notify_all();
        }
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
