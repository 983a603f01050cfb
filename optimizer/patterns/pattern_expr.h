#pragma once
// The pattern DAG of torch/_inductor/pattern_matcher.py (CallFunction, CallMethod, CallModule and their VarArgs
// forms, Arg, Ignored, KeywordArg, ExclusiveKeywordArg, ListOf, MultiOutputPattern, RepeatedExpr), as one tagged
// node type rather than a class per Inductor class: the matcher switches on the kind in one place, and a
// pattern is plain data that JSON files, the C++ API and fxToPattern all build the same way.
// Identity matters: a sub-pattern shared by two parents (the same KeywordArg used twice) is one PatternExpr, and
// the matcher's memo binds it to one graph value ("repeated pattern differs"), as in Inductor.

#include "ir/argument.h"
#include "ir/node.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

struct PatternExpr;
using PatternPtr = std::shared_ptr<PatternExpr>;

// One argument slot of a call pattern: a sub-pattern, a literal compared with Python ==, or a list/tuple of
// slots (a pattern holding one makes the matcher flatten args like pytree does).
struct PatternValue {
    enum class Kind { Expr, Literal, List, Tuple };
    Kind kind = Kind::Literal;
    PatternPtr expr;
    Argument literal;
    std::vector<PatternValue> items;

    static PatternValue of(PatternPtr e);
    static PatternValue of(Argument literal);
    static PatternValue list(std::vector<PatternValue> items);
    static PatternValue tuple(std::vector<PatternValue> items);
    bool isContainer() const { return kind == Kind::List || kind == Kind::Tuple; }
};

struct PatternExpr {
    enum class Kind {
        Call, // CallFunction / CallMethod / CallModule (op tells which)
        CallVarArgs, // CallFunctionVarArgs / CallMethodVarArgs / CallModuleVarArgs
        Arg,
        Ignored,
        KeywordArg,
        ExclusiveKeywordArg,
        ListOf,
        MultiOutput,
        Repeated,
    };
    static constexpr int kMultiple = -1; // the MULTIPLE user count

    Kind kind = Kind::Ignored;
    OpKind op = OpKind::CallFunction;
    std::vector<std::string> fns; // canonical targets, overload packets expanded; call_module: class names
    std::vector<PatternValue> args;
    std::vector<std::pair<std::string, PatternValue>> kwargs;
    int users = 1; // _users
    std::string name; // KeywordArg / ExclusiveKeywordArg
    std::vector<PatternPtr>
        children; // ListOf: {pattern}; MultiOutput: outputs (nullptr allowed after [0]); Repeated: {inner}
    bool partial = false; // ListOf(partial=True)

    bool isCall() const { return kind == Kind::Call || kind == Kind::CallVarArgs; }
    bool matchesTarget(const std::string &canonical) const;
    bool hasMultipleUsers() const { return isCall() && (users == kMultiple || users > 1); }
    // True when some slot is a list/tuple, so the matcher compares pytree specs.
    bool usesPytree() const;
    // Inductor-like repr: CallFunction(aten.add.Tensor, KeywordArg('x'), *), truncated to maxChars.
    std::string repr(size_t maxChars = 200) const;
    // The pattern's root call (outputs[0] for MultiOutput, inner for Repeated); nullptr when none.
    const PatternExpr *root() const;
};

// Builders mirroring the Python constructors. A target given as an overload packet ("aten.add") is expanded to
// every overload the OpSchemaTable knows, plus the packet itself.
PatternPtr callFunction(const std::string &target, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs = {}, int users = 1);
PatternPtr callFunction(const std::vector<std::string> &targets, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs = {}, int users = 1);
PatternPtr callMethod(const std::string &method, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs = {}, int users = 1);
PatternPtr callModule(const std::string &moduleClass, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs = {}, int users = 1);
PatternPtr callVarArgs(OpKind op, const std::vector<std::string> &targets, int users = 1);
PatternPtr argPattern();
PatternPtr ignored();
PatternPtr keywordArg(std::string name);
PatternPtr exclusiveKeywordArg(std::string name);
PatternPtr listOf(PatternPtr pattern, bool partial = false);
PatternPtr multiOutput(std::vector<PatternPtr> outputs);
PatternPtr repeated(PatternPtr inner);

// Expands an overload packet to its overloads (and keeps the packet); any other target is returned as is.
std::vector<std::string> expandTargets(const std::vector<std::string> &targets);

} // namespace fxs
