#pragma once
// Progress and cancellation for long core jobs (parsing a 100 MB dump) without threading a callback
// through every parser: the caller installs a ProgressScope on its worker thread, and parsers call
// reportProgress() in their main loops. Outside a scope reportProgress() is a cheap no-op.

#include "result.h"

#include <functional>
#include <string>

namespace fxs {

class ProgressScope {
public:
    // callback(fraction in [0, 1]) returns false to cancel the job.
    explicit ProgressScope(std::function<bool(double)> callback);
    ~ProgressScope();
    ProgressScope(const ProgressScope &) = delete;
    ProgressScope &operator=(const ProgressScope &) = delete;

    bool canceled() const { return m_canceled; }

private:
    friend bool reportProgress(size_t done, size_t total);
    friend bool progressCanceled();
    std::function<bool(double)> m_callback;
    ProgressScope *m_previous = nullptr;
    bool m_canceled = false;
    double m_lastReported = -1;
};

// Returns false once the job was canceled; the parser then stops with any error, which the loader
// replaces by canceledError().
bool reportProgress(size_t done, size_t total);
// True when the innermost ProgressScope of this thread was canceled.
bool progressCanceled();
Error canceledError(const std::string &file);
// True for the error canceledError() makes.
bool isCanceled(const Error &error);

} // namespace fxs
