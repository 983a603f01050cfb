#include "pattern_expr.h"

#include "op_schema_table.h"

#include <algorithm>

namespace fxs {

PatternValue PatternValue::of(PatternPtr e)
{
    PatternValue v;
    v.kind = Kind::Expr;
    v.expr = std::move(e);
    return v;
}

PatternValue PatternValue::of(Argument literal)
{
    PatternValue v;
    v.kind = Kind::Literal;
    v.literal = std::move(literal);
    return v;
}

PatternValue PatternValue::list(std::vector<PatternValue> items)
{
    PatternValue v;
    v.kind = Kind::List;
    v.items = std::move(items);
    return v;
}

PatternValue PatternValue::tuple(std::vector<PatternValue> items)
{
    PatternValue v;
    v.kind = Kind::Tuple;
    v.items = std::move(items);
    return v;
}

bool PatternExpr::matchesTarget(const std::string &canonical) const
{
    return std::find(fns.begin(), fns.end(), canonical) != fns.end();
}

bool PatternExpr::usesPytree() const
{
    for (const auto &a : args)
        if (a.isContainer())
            return true;
    for (const auto &kv : kwargs)
        if (kv.second.isContainer())
            return true;
    return false;
}

const PatternExpr *PatternExpr::root() const
{
    if (isCall())
        return this;
    if ((kind == Kind::MultiOutput || kind == Kind::Repeated) && !children.empty() && children[0])
        return children[0]->root();
    return nullptr;
}

namespace {

// Writes into out until it holds maxChars; deeper levels are then cut, so depth is bounded by the budget.
void reprInto(const PatternExpr &p, std::string &out, size_t maxChars);

void valueInto(const PatternValue &v, std::string &out, size_t maxChars)
{
    if (out.size() > maxChars)
        return;
    switch (v.kind) {
    case PatternValue::Kind::Expr: reprInto(*v.expr, out, maxChars); break;
    case PatternValue::Kind::Literal: out += v.literal.toPython(); break;
    case PatternValue::Kind::List:
    case PatternValue::Kind::Tuple: {
        bool list = v.kind == PatternValue::Kind::List;
        out += list ? '[' : '(';
        for (size_t i = 0; i < v.items.size(); ++i) {
            if (i)
                out += ", ";
            valueInto(v.items[i], out, maxChars);
        }
        out += list ? ']' : ')';
        break;
    }
    }
}

const char *callName(const PatternExpr &p)
{
    bool varArgs = p.kind == PatternExpr::Kind::CallVarArgs;
    switch (p.op) {
    case OpKind::CallMethod: return varArgs ? "CallMethodVarArgs" : "CallMethod";
    case OpKind::CallModule: return varArgs ? "CallModuleVarArgs" : "CallModule";
    default: return varArgs ? "CallFunctionVarArgs" : "CallFunction";
    }
}

void reprInto(const PatternExpr &p, std::string &out, size_t maxChars)
{
    if (out.size() > maxChars) {
        out += "...";
        return;
    }
    switch (p.kind) {
    case PatternExpr::Kind::Arg: out += "Arg()"; return;
    case PatternExpr::Kind::Ignored: out += "*"; return;
    case PatternExpr::Kind::KeywordArg: out += "KeywordArg('" + p.name + "')"; return;
    case PatternExpr::Kind::ExclusiveKeywordArg: out += "ExclusiveKeywordArg('" + p.name + "')"; return;
    case PatternExpr::Kind::ListOf:
        out += "ListOf(";
        reprInto(*p.children[0], out, maxChars);
        out += p.partial ? ", partial=True)" : ")";
        return;
    case PatternExpr::Kind::MultiOutput:
    case PatternExpr::Kind::Repeated: {
        out += p.kind == PatternExpr::Kind::Repeated ? "RepeatedExpr(" : "MultiOutputPattern([";
        for (size_t i = 0; i < p.children.size(); ++i) {
            if (i)
                out += ", ";
            if (p.children[i])
                reprInto(*p.children[i], out, maxChars);
            else
                out += "None";
        }
        out += p.kind == PatternExpr::Kind::Repeated ? ")" : "])";
        return;
    }
    case PatternExpr::Kind::Call:
    case PatternExpr::Kind::CallVarArgs: {
        out += callName(p);
        out += '(';
        if (p.fns.size() == 1)
            out += p.fns[0];
        else {
            out += '[';
            for (size_t i = 0; i < p.fns.size(); ++i)
                out += (i ? ", " : "") + p.fns[i];
            out += ']';
        }
        for (const auto &a : p.args) {
            out += ", ";
            valueInto(a, out, maxChars);
        }
        for (const auto &kv : p.kwargs) {
            out += ", " + kv.first + "=";
            valueInto(kv.second, out, maxChars);
        }
        if (p.users != 1)
            out += p.users == PatternExpr::kMultiple ? ", _users=MULTIPLE" : ", _users=" + std::to_string(p.users);
        out += ')';
        return;
    }
    }
}

PatternPtr makeCall(OpKind op, PatternExpr::Kind kind, std::vector<std::string> fns, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs, int users)
{
    auto p = std::make_shared<PatternExpr>();
    p->kind = kind;
    p->op = op;
    p->fns = op == OpKind::CallFunction ? expandTargets(fns) : std::move(fns);
    p->args = std::move(args);
    p->kwargs = std::move(kwargs);
    p->users = users;
    return p;
}

PatternPtr makeLeaf(PatternExpr::Kind kind, std::string name = {})
{
    auto p = std::make_shared<PatternExpr>();
    p->kind = kind;
    p->name = std::move(name);
    return p;
}

} // namespace

std::string PatternExpr::repr(size_t maxChars) const
{
    std::string out;
    reprInto(*this, out, maxChars);
    if (out.size() > maxChars + 3)
        out = out.substr(0, maxChars) + "...";
    return out;
}

std::vector<std::string> expandTargets(const std::vector<std::string> &targets)
{
    std::vector<std::string> out;
    auto add = [&](const std::string &t) {
        if (std::find(out.begin(), out.end(), t) == out.end())
            out.push_back(t);
    };
    for (const auto &t : targets) {
        std::string c = canonicalTarget(t);
        add(c);
        if (isOverloadPacket(c))
            for (const auto &o : OpSchemaTable::instance().overloads(c))
                add(o);
    }
    return out;
}

PatternPtr callFunction(const std::string &target, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs, int users)
{
    return makeCall(OpKind::CallFunction, PatternExpr::Kind::Call, {target}, std::move(args), std::move(kwargs), users);
}

PatternPtr callFunction(const std::vector<std::string> &targets, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs, int users)
{
    return makeCall(OpKind::CallFunction, PatternExpr::Kind::Call, targets, std::move(args), std::move(kwargs), users);
}

PatternPtr callMethod(const std::string &method, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs, int users)
{
    return makeCall(OpKind::CallMethod, PatternExpr::Kind::Call, {method}, std::move(args), std::move(kwargs), users);
}

PatternPtr callModule(const std::string &moduleClass, std::vector<PatternValue> args,
    std::vector<std::pair<std::string, PatternValue>> kwargs, int users)
{
    return makeCall(
        OpKind::CallModule, PatternExpr::Kind::Call, {moduleClass}, std::move(args), std::move(kwargs), users);
}

PatternPtr callVarArgs(OpKind op, const std::vector<std::string> &targets, int users)
{
    return makeCall(op, PatternExpr::Kind::CallVarArgs, targets, {}, {}, users);
}

PatternPtr argPattern()
{
    return makeLeaf(PatternExpr::Kind::Arg);
}
PatternPtr ignored()
{
    return makeLeaf(PatternExpr::Kind::Ignored);
}
PatternPtr keywordArg(std::string name)
{
    return makeLeaf(PatternExpr::Kind::KeywordArg, std::move(name));
}
PatternPtr exclusiveKeywordArg(std::string name)
{
    return makeLeaf(PatternExpr::Kind::ExclusiveKeywordArg, std::move(name));
}

PatternPtr listOf(PatternPtr pattern, bool partial)
{
    auto p = makeLeaf(PatternExpr::Kind::ListOf);
    p->children = {std::move(pattern)};
    p->partial = partial;
    return p;
}

PatternPtr multiOutput(std::vector<PatternPtr> outputs)
{
    auto p = makeLeaf(PatternExpr::Kind::MultiOutput);
    p->children = std::move(outputs);
    if (!p->children.empty() && p->children[0])
        p->op = p->children[0]->op;
    return p;
}

PatternPtr repeated(PatternPtr inner)
{
    auto p = makeLeaf(PatternExpr::Kind::Repeated);
    p->op = inner->op;
    p->children = {std::move(inner)};
    return p;
}

} // namespace fxs
