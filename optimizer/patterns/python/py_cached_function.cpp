#include "py_cached_function.h"

namespace fxs {

namespace {

bool sameArgs(const PyCallArgs &a, const PyCallArgs &b)
{
    if (a.args.size() != b.args.size() || a.kwargs.size() != b.kwargs.size())
        return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (!pyEquals(a.args[i], b.args[i]))
            return false;
    for (size_t i = 0; i < a.kwargs.size(); ++i)
        if (a.kwargs[i].first != b.kwargs[i].first || !pyEquals(a.kwargs[i].second, b.kwargs[i].second))
            return false;
    return true;
}

} // namespace

bool PyCachedFunction::getAttr(PyInterpreter &interp, const std::string &name, PyValue &out)
{
    if (name == "__wrapped__") {
        out = m_wrapped;
        return true;
    }
    bool found = false;
    out = interp.getAttr(m_wrapped, name, &found);
    return found;
}

PyValue PyCachedFunction::call(PyInterpreter &interp, PyCallArgs &args)
{
    for (const auto &entry : m_cache)
        if (sameArgs(entry.first, args))
            return entry.second;
    ++m_misses;
    PyCallArgs key = args;
    PyValue result = interp.call(m_wrapped, args);
    m_cache.push_back({std::move(key), result});
    return result;
}

PyFunction *PyCachedFunction::function() const
{
    if (auto *f = m_wrapped.as<PyFunction>())
        return f;
    if (auto *c = m_wrapped.as<PyCachedFunction>())
        return c->function();
    return nullptr;
}

} // namespace fxs
