#pragma once
// A fixed number of threads that take indices 0..count-1 in order until none is left: the batch mode's
// parallelism. The task must be safe to call concurrently for different indices.

#include <cstddef>
#include <functional>

namespace fxs::cli {

class WorkerPool {
public:
    explicit WorkerPool(unsigned threads) : m_threads(threads ? threads : 1) { }

    // Runs task(i) for every i; returns when all have. With one thread (or one index) nothing is started.
    // window > 0: index i starts only once every index below i - window + 1 has finished, so a caller that hands
    // results on in index order never holds more than `window` of them while a slow one is still running (a
    // window of at least the threads never stalls the lowest unfinished index). 0: no bound.
    void run(size_t count, const std::function<void(size_t)> &task, size_t window = 0) const;

    // The CPUs this process may run on (its affinity mask, as nproc reports), at least 1.
    static unsigned availableCores();

private:
    unsigned m_threads;
};

} // namespace fxs::cli
