#pragma once
// Inductor's pattern classes as the sandbox builds them: `CallFunction(torch.ops.aten.view.default,
// KeywordArg("x"), [-1, Ignored()], _users=2)`, KeywordArg, ExclusiveKeywordArg, Arg, Ignored, ListOf,
// MultiOutputPattern, CallMethod/CallModule. A file's `search_fn_pattern=` is one of these; it wraps the same
// PatternExpr the C++ API and JSON files build.

#include "patterns/pattern_expr.h"
#include "py_interpreter.h"

namespace fxs {

class PyPatternObject : public PyObject {
public:
    explicit PyPatternObject(PatternPtr pattern) : m_pattern(std::move(pattern)) { }
    std::string typeName() const override;
    std::string repr() const override { return m_pattern->repr(); }
    bool isInstanceOf(const std::string &cls) const override;
    const PatternPtr &pattern() const { return m_pattern; }

    // A call of torch._inductor.pattern_matcher.<name>; false when name is not a pattern class.
    static bool construct(PyInterpreter &interp, const std::string &name, PyCallArgs &args, PyValue &out);

private:
    PatternPtr m_pattern;
};

} // namespace fxs
