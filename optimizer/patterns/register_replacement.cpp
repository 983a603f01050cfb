#include "register_replacement.h"

#include "op_schema.h"

#include <cctype>
#include <algorithm>
#include <unordered_map>

namespace fxs {

namespace {

bool isIgnoredKind(Argument::Kind k)
{
    // ignore_types = (int, float, list, torch.device, torch.dtype); bool is its own type, so it stays literal.
    return k == Argument::Kind::Int || k == Argument::Kind::Float || k == Argument::Kind::Device
        || k == Argument::Kind::Dtype || k == Argument::Kind::SymExpr;
}

struct Converter {
    const FxToPatternOptions &options;
    std::unordered_map<const Node *, PatternPtr> env;
    bool ignoreInts = true; // PM-2025: getitem indices stay literal

    std::optional<std::string> scalarName(const Argument &a) const
    {
        if (a.kind() != Argument::Kind::Int && a.kind() != Argument::Kind::Float && a.kind() != Argument::Kind::Bool)
            return std::nullopt;
        for (const auto &kv : options.scalarWorkaround)
            if (a.toDouble() == kv.second)
                return kv.first;
        return std::nullopt;
    }

    // process_arg on one leaf.
    PatternValue leaf(const Argument &a) const
    {
        if (a.isNode())
            return PatternValue::of(env.at(a.node()));
        if (auto name = scalarName(a))
            return PatternValue::of(keywordArg(*name));
        if (options.ignoreTypes && isIgnoredKind(a.kind()) && (ignoreInts || a.kind() != Argument::Kind::Int))
            return PatternValue::of(ignored());
        // A symbolic size in a re-trace: check_fn passes the match's SymInts in as inputs (sym_args), so the
        // specific pattern has a KeywordArg there (a compound expression would be traced arithmetic: any value).
        if (a.kind() == Argument::Kind::SymExpr) {
            const std::string &e = a.text();
            const bool symbol = !e.empty() && !std::isdigit((unsigned char)e[0])
                && std::all_of(e.begin(), e.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
            return PatternValue::of(symbol ? keywordArg(e) : ignored());
        }
        if (!options.ignoreTypes && a.kind() == Argument::Kind::Int && ignoreInts
            && std::find(options.shapeLiterals.begin(), options.shapeLiterals.end(), a.toInt())
                != options.shapeLiterals.end())
            return PatternValue::of(ignored());
        return PatternValue::of(a);
    }

    // pytree.tree_map(process_arg, ...): containers are walked, leaves converted.
    PatternValue mapLeaves(const Argument &a) const
    {
        if (a.isSequence()) {
            std::vector<PatternValue> items;
            for (const auto &item : a.items())
                items.push_back(mapLeaves(item));
            return a.kind() == Argument::Kind::List ? PatternValue::list(std::move(items))
                                                    : PatternValue::tuple(std::move(items));
        }
        return leaf(a);
    }

    // The top-level pass with list in ignore_types: a non-empty list of only Ignored becomes one Ignored.
    PatternValue collapse(PatternValue v) const
    {
        if (!options.ignoreTypes || v.kind != PatternValue::Kind::List || v.items.empty())
            return v;
        for (const auto &item : v.items)
            if (item.kind != PatternValue::Kind::Expr || item.expr->kind != PatternExpr::Kind::Ignored)
                return v;
        return PatternValue::of(ignored());
    }

    PatternValue process(const Argument &a) const { return collapse(mapLeaves(a)); }
};

void collectLeaves(const Argument &a, std::vector<const Argument *> &out)
{
    if (a.isSequence() || a.kind() == Argument::Kind::Dict) {
        for (const auto &item : a.items())
            collectLeaves(item, out);
    } else {
        out.push_back(&a);
    }
}

} // namespace

Result<PatternPtr> fxToPattern(const Graph &search, const FxToPatternOptions &options)
{
    for (size_t i = 0; i < options.scalarWorkaround.size(); ++i)
        for (size_t j = i + 1; j < options.scalarWorkaround.size(); ++j)
            if (options.scalarWorkaround[i].second == options.scalarWorkaround[j].second)
                return Error{"", 0, 0,
                    "scalar_workaround maps '" + options.scalarWorkaround[i].first + "' and '"
                        + options.scalarWorkaround[j].first
                        + "' to the same value; the values must be distinct (they are matched by value)"};
    Converter conv{options, {}};
    PatternPtr result;
    for (const auto &owned : search.nodes()) {
        const Node &n = *owned;
        switch (n.op()) {
        case OpKind::Placeholder: {
            std::string name = n.name();
            if (!options.argnames.empty()) {
                size_t index = 0;
                for (const Node *p : search.placeholders()) {
                    if (p == &n)
                        break;
                    ++index;
                }
                if (index < options.argnames.size())
                    name = options.argnames[index];
            }
            bool exclusive = std::find(options.exclusiveArgNames.begin(), options.exclusiveArgNames.end(), name)
                != options.exclusiveArgNames.end();
            conv.env[&n] = exclusive ? exclusiveKeywordArg(name) : keywordArg(name);
            break;
        }
        case OpKind::CallFunction: {
            std::string target = canonicalTarget(n.target());
            conv.ignoreInts = target != "operator.getitem";
            std::vector<PatternValue> args;
            for (const auto &a : n.args())
                args.push_back(conv.process(a));
            std::vector<std::pair<std::string, PatternValue>> kwargs;
            for (const auto &kv : n.kwargs())
                kwargs.push_back({kv.first, conv.process(kv.second)});
            // The traced node's exact target, not its packet: fx_to_pattern records node.target.
            auto p = std::make_shared<PatternExpr>();
            p->kind = PatternExpr::Kind::Call;
            p->op = OpKind::CallFunction;
            p->fns = {target};
            p->args = std::move(args);
            p->kwargs = std::move(kwargs);
            p->users = int(n.users().size());
            conv.env[&n] = p;
            break;
        }
        case OpKind::Output: {
            std::vector<const Argument *> leaves;
            if (!n.args().empty())
                collectLeaves(n.args()[0], leaves);
            std::vector<PatternPtr> outputs;
            for (const Argument *a : leaves) {
                if (!a->isNode())
                    return Error{"", n.meta().dumpLine, 0,
                        "the search graph returns the literal " + a->toPython() + "; expected nodes"};
                outputs.push_back(conv.env.at(a->node()));
            }
            if (outputs.empty())
                return Error{"", n.meta().dumpLine, 0, "the search graph returns nothing"};
            bool single = !n.args().empty() && n.args()[0].isNode();
            if (single) {
                result = outputs[0];
            } else {
                if (!outputs[0]->isCall())
                    return Error{"", n.meta().dumpLine, 0,
                        "the first output of a multi-output search graph must be a call, found the input "
                            + outputs[0]->repr()};
                result = multiOutput(std::move(outputs));
            }
            break;
        }
        default:
            return Error{"", n.meta().dumpLine, 0,
                std::string("search graph node ") + n.name() + ": " + opKindName(n.op())
                    + " is not supported by fx_to_pattern (only placeholder, call_function and output are)"};
        }
    }
    if (!result)
        return Error{"", 0, 0, "the search graph has no output node"};
    return result;
}

Status registerReplacement(PatternRegistry &registry, ReplacementSpec spec)
{
    if (!spec.search && !spec.searchFnPattern)
        return Error{spec.source, 0, 0, "pattern '" + spec.name + "': expected a search graph or a search_fn_pattern"};
    auto entry = std::make_shared<PatternEntry>();
    entry->name = spec.name;
    entry->source = spec.source;
    entry->exampleInputs = spec.exampleInputs;
    entry->extraCheck = spec.extraCheck;
    entry->retrace = spec.retrace; // with a search_fn_pattern it traces replace_fn only
    entry->extraCheckSource = spec.extraCheckSource;
    entry->extraCheckEvaluated = spec.extraCheckEvaluated;
    entry->torchairStreamCheck = spec.torchairStreamCheck;
    entry->api = spec.api;
    entry->searchGraph = spec.search;
    entry->replaceGraph = spec.replace;
    entry->warnings = spec.warnings;
    if (spec.search)
        for (const Node *p : spec.search->placeholders())
            entry->argnames.push_back(p->name());
    else
        entry->argnames = spec.argnames;
    entry->requiredArgnames = spec.signature.empty() ? entry->argnames : spec.signature;
    if (spec.searchFnPattern) {
        entry->pattern = spec.searchFnPattern;
        entry->specificPattern = spec.searchFnPattern;
    } else {
        FxToPatternOptions options;
        options.argnames = entry->argnames;
        options.scalarWorkaround = spec.scalarWorkaround;
        options.exclusiveArgNames = spec.exclusiveArgNames;
        options.ignoreTypes = true;
        auto generic = fxToPattern(*spec.search, options);
        if (!generic)
            return Error{
                spec.source, generic.error().line, 0, "pattern '" + spec.name + "': " + generic.error().message};
        options.ignoreTypes = false;
        if (spec.shapeDerivedLiterals) {
            for (const ExampleInput &in : spec.exampleInputs)
                if (in.meta)
                    for (const SymInt &d : in.meta->shape)
                        if (d.isConcrete() && d.value >= 2
                            && std::find(options.shapeLiterals.begin(), options.shapeLiterals.end(), d.value)
                                == options.shapeLiterals.end())
                            options.shapeLiterals.push_back(d.value);
            if (!options.shapeLiterals.empty()) {
                std::string sizes;
                for (int64_t v : options.shapeLiterals)
                    sizes += (sizes.empty() ? "" : ", ") + std::to_string(v);
                entry->warnings.push_back("the specific stage does not compare the integers " + sizes
                    + " (the example inputs' sizes): in a trace they are shape-derived, and Inductor re-traces "
                      "search_fn with each match's own sizes, which an exported graph cannot do");
            }
        }
        auto specific = fxToPattern(*spec.search, options);
        if (!specific)
            return Error{
                spec.source, specific.error().line, 0, "pattern '" + spec.name + "': " + specific.error().message};
        entry->pattern = generic.value();
        entry->specificPattern = specific.value();
    }
    if (auto earlier = registry.duplicateOf(*entry)) {
        if (spec.skipDuplicates)
            return Ok{};
        return Error{spec.source, 0, 0,
            "Duplicate pattern: '" + spec.name + "' has the same pattern and search graph as '" + *earlier + "'"};
    }
    return registry.add(entry, spec.prepend);
}

} // namespace fxs
