#pragma once
// functools.lru_cache / functools.cache around a function of the file. TorchAir decorates its
// `_register_xxx_pattern(pass_manager, ...)` functions with lru_cache(None) so that calling one twice with the
// same arguments registers its patterns once; the loader relies on that when it calls every `_register_`
// function itself (docs/python-subset.md).

#include "py_interpreter.h"

#include <utility>
#include <vector>

namespace fxs {

class PyCachedFunction : public PyObject {
public:
    explicit PyCachedFunction(PyValue wrapped) : m_wrapped(std::move(wrapped)) { }
    std::string typeName() const override { return "functools._lru_cache_wrapper"; }
    std::string repr() const override { return pyRepr(m_wrapped); }
    bool getAttr(PyInterpreter &interp, const std::string &name, PyValue &out) override;
    PyValue call(PyInterpreter &interp, PyCallArgs &args) override;

    const PyValue &wrapped() const { return m_wrapped; }
    // The user function under any number of cache wrappers; nullptr when it is not one.
    PyFunction *function() const;
    // How many calls ran the function (cache misses).
    int misses() const { return m_misses; }

private:
    PyValue m_wrapped;
    std::vector<std::pair<PyCallArgs, PyValue>> m_cache; // arguments compared with Python == (identity first)
    int m_misses = 0;
};

} // namespace fxs
