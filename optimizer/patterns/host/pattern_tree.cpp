#include "pattern_tree.h"

#include "io/fxscope_json.h"

namespace fxs {

namespace {

class TreeReader {
public:
    TreeReader(const Json &exprs, const std::string &label) : m_exprs(exprs), m_label(label)
    {
        m_built.resize(exprs.size());
    }

    Error error(const std::string &what) const { return Error{m_label, 0, 0, "pattern tree: " + what}; }

    // An expression comes after every expression it refers to (the host writes them children first), so the
    // tree is built in index order and never recurses through expressions.
    Status buildAll()
    {
        for (size_t k = 0; k < m_exprs.size(); ++k)
            if (auto st = build(k); !st)
                return st;
        return Ok{};
    }

    PatternPtr at(size_t index) const { return index < m_built.size() ? m_built[index] : nullptr; }

private:
    Result<PatternPtr> child(const Json &index) const
    {
        if (!index.isInt() || index.toInt() < 0 || size_t(index.toInt()) >= m_built.size()
            || !m_built[size_t(index.toInt())])
            return error("expected the index of an earlier expression, found " + index.dump());
        return m_built[size_t(index.toInt())];
    }

    Result<PatternValue> value(const Json &v, int depth) const
    {
        if (depth > 64)
            return error("argument lists nested deeper than 64");
        if (const Json *e = v.find("expr")) {
            auto c = child(*e);
            if (!c)
                return c.error();
            return PatternValue::of(c.value());
        }
        if (const Json *lit = v.find("literal")) {
            auto a = parseArgumentJson(*lit, m_label);
            if (!a)
                return a.error();
            return PatternValue::of(std::move(a.value()));
        }
        const bool isList = v.find("list") != nullptr;
        if (isList || v.find("tuple")) {
            std::vector<PatternValue> items;
            for (const Json &item : v[isList ? "list" : "tuple"].items()) {
                auto iv = value(item, depth + 1);
                if (!iv)
                    return iv.error();
                items.push_back(std::move(iv.value()));
            }
            return isList ? PatternValue::list(std::move(items)) : PatternValue::tuple(std::move(items));
        }
        return error("expected an argument {expr|literal|list|tuple}, found " + v.dump());
    }

    Status build(size_t k)
    {
        const Json &e = m_exprs.items()[k];
        const std::string kind = e["kind"].toString();
        auto p = std::make_shared<PatternExpr>();
        if (kind == "call" || kind == "call_varargs") {
            p->kind = kind == "call" ? PatternExpr::Kind::Call : PatternExpr::Kind::CallVarArgs;
            auto op = opKindFromName(e["op"].toString());
            if (!op)
                return error("unknown op " + e["op"].dump());
            p->op = *op;
            for (const Json &fn : e["fns"].items())
                p->fns.push_back(fn.toString());
            if (p->fns.empty())
                return error("a call pattern without targets");
            p->users = int(e["users"].toInt(1));
            for (const Json &a : e["args"].items()) {
                auto v = value(a, 0);
                if (!v)
                    return v.error();
                p->args.push_back(std::move(v.value()));
            }
            for (const Json &kv : e["kwargs"].items()) {
                if (!kv.isArray() || kv.size() != 2)
                    return error("expected a [name, value] kwarg, found " + kv.dump());
                auto v = value(kv.items()[1], 0);
                if (!v)
                    return v.error();
                p->kwargs.emplace_back(kv.items()[0].toString(), std::move(v.value()));
            }
        } else if (kind == "arg") {
            p->kind = PatternExpr::Kind::Arg;
        } else if (kind == "ignored") {
            p->kind = PatternExpr::Kind::Ignored;
        } else if (kind == "keyword_arg" || kind == "exclusive_keyword_arg") {
            p->kind = kind == "keyword_arg" ? PatternExpr::Kind::KeywordArg : PatternExpr::Kind::ExclusiveKeywordArg;
            p->name = e["name"].toString();
        } else if (kind == "list_of" || kind == "multi_output" || kind == "repeated") {
            p->kind = kind == "list_of"    ? PatternExpr::Kind::ListOf
                : kind == "multi_output" ? PatternExpr::Kind::MultiOutput
                                         : PatternExpr::Kind::Repeated;
            p->partial = e["partial"].toBool();
            for (const Json &c : e["children"].items()) {
                if (c.isNull() && kind == "multi_output" && !p->children.empty()) {
                    p->children.push_back(nullptr);
                    continue;
                }
                auto cp = child(c);
                if (!cp)
                    return cp.error();
                p->children.push_back(cp.value());
            }
            if (p->children.empty())
                return error(kind + " without a sub-pattern");
            if (kind != "list_of") // as multiOutput() and repeated() build them
                p->op = p->children.front()->op;
        } else {
            return error("unknown pattern kind " + e["kind"].dump());
        }
        m_built[k] = std::move(p);
        return Ok{};
    }

    const Json &m_exprs;
    const std::string &m_label;
    std::vector<PatternPtr> m_built;
};

} // namespace

Result<PatternPtr> patternFromTree(const Json &tree, const std::string &label)
{
    const Json &exprs = tree["exprs"];
    if (!exprs.isArray() || exprs.size() == 0)
        return Error{label, 0, 0, "pattern tree: expected a non-empty \"exprs\" array"};
    TreeReader reader(exprs, label);
    if (auto st = reader.buildAll(); !st)
        return st.error();
    PatternPtr root = reader.at(size_t(tree["root"].toInt(-1)));
    if (!root)
        return Error{label, 0, 0, "pattern tree: no root expression " + tree["root"].dump()};
    return root;
}

} // namespace fxs
