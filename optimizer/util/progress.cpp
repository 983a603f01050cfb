#include "progress.h"

namespace fxs {

namespace {
thread_local ProgressScope *t_current = nullptr;
constexpr const char *kCanceled = "canceled";
} // namespace

ProgressScope::ProgressScope(std::function<bool(double)> callback) : m_callback(std::move(callback))
{
    m_previous = t_current;
    t_current = this;
}

ProgressScope::~ProgressScope()
{
    t_current = m_previous;
}

bool reportProgress(size_t done, size_t total)
{
    ProgressScope *scope = t_current;
    if (!scope)
        return true;
    if (scope->m_canceled)
        return false;
    double fraction = total ? double(done) / double(total) : 0.0;
    // Callers report often; forward only steps of 1% so the callback stays cheap.
    if (fraction - scope->m_lastReported < 0.01 && fraction < 1.0)
        return true;
    scope->m_lastReported = fraction;
    if (scope->m_callback && !scope->m_callback(fraction))
        scope->m_canceled = true;
    return !scope->m_canceled;
}

bool progressCanceled()
{
    return t_current && t_current->m_canceled;
}

Error canceledError(const std::string &file)
{
    return Error{file, 0, 0, kCanceled};
}

bool isCanceled(const Error &error)
{
    return error.line == 0 && error.message == kCanceled;
}

} // namespace fxs
