#include "pass_library.h"

#include "cse.h"
#include "example_passes.h"
#include "inline_calls.h"
#include "noop_views.h"
#include "pattern_pass.h"
#include "remove_noop_ops.h"
#include "torchair_pipeline.h"
#include "rewrite/dead_code.h"
#include "util/closest_name.h"

namespace fxs {

namespace {

Error specError(const std::string &spec, const std::string &what)
{
    return Error{"", 0, 0, "pass '" + spec + "': " + what};
}

// "replace:A=B" -> (A, B)
bool splitPair(const std::string &rest, std::string &a, std::string &b)
{
    auto eq = rest.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == rest.size())
        return false;
    a = rest.substr(0, eq);
    b = rest.substr(eq + 1);
    return true;
}

// The unknown pass's message lists every pass and, where one is close, the one the user probably meant.
Error unknownPass(const std::string &spec, const std::string &name)
{
    std::string known;
    std::vector<std::string> names;
    for (const std::string &line : passHelp()) {
        const std::string spelling = line.substr(0, line.find(' ')); // "dce", ..., "replace:A=B"
        known += (known.empty() ? "" : ", ") + spelling;
        names.push_back(spelling.substr(0, spelling.find(':')));
    }
    return specError(spec, "unknown pass; known: " + known + didYouMean(name, names));
}

} // namespace

const std::vector<std::string> &passHelp()
{
    static const std::vector<std::string> help = {
        "dce                  dead code elimination",
        "cse                  common subexpressions of pure ops",
        "remove_noop_views    view/reshape/expand to the same shape (meta val)",
        "remove_noop_ops      Inductor's remove_noop_ops: full slices, same-dtype casts, clones, ... (meta val)",
        "recover_view_inplace TorchAir's: view -> npu scatter -> view -> copy_ into an input, back in place",
        "optimize_sym_input   TorchAir's: a SymInt input read as sym_size of the first tensor input with it",
        "view_to_reshape      every aten.view.default becomes aten.reshape.default",
        "remove_detach        detach -> its input",
        "scalars_to_tensors   aten.X.Scalar(t, c) -> aten.X.Tensor(t, scalar_tensor(c))",
        "inline               call_module of a nested graph, higher_order.wrap, a --composites function -> its nodes",
        "patterns             the --patterns set, one sweep",
        "partition            propose partitions for --supported and fuse them (fused_0, ...)",
        "replace:A=B          every call of A calls B",
        "insert_after:A=B     B(x) after every x = A(...), taking x's users",
    };
    return help;
}

Result<NamedPass> makePass(const std::string &spec, const PassContext &context)
{
    auto colon = spec.find(':');
    std::string name = spec.substr(0, colon);
    std::string rest = colon == std::string::npos ? std::string() : spec.substr(colon + 1);
    std::string a, b;
    if (name == "dce")
        return NamedPass{spec, [](GraphEditor &e) -> Result<bool> { return !eliminateDeadCode(e).empty(); }};
    if (name == "cse")
        return NamedPass{spec, [](GraphEditor &e) { return eliminateCommonSubexpressions(e); }};
    if (name == "remove_noop_views")
        return NamedPass{spec, [](GraphEditor &e) { return removeNoopViews(e); }};
    if (name == "remove_noop_ops")
        return NamedPass{spec, [](GraphEditor &e) { return removeNoopOps(e); }};
    if (name == "recover_view_inplace")
        return NamedPass{spec, [](GraphEditor &e) { return TorchairPipeline::recoverViewInplace(e); }};
    if (name == "optimize_sym_input")
        return NamedPass{spec, [](GraphEditor &e) { return TorchairPipeline::optimizeSymInput(e); }};
    if (name == "view_to_reshape")
        return NamedPass{spec, [](GraphEditor &e) { return TorchairPipeline::viewToReshape(e); }};
    if (name == "remove_detach")
        return NamedPass{spec, [](GraphEditor &e) { return removeDetach(e); }};
    if (name == "scalars_to_tensors")
        return NamedPass{spec, [](GraphEditor &e) { return scalarsToTensors(e); }};
    if (name == "inline")
        return NamedPass{
            spec, [composites = context.composites](GraphEditor &e) { return inlineCalls(e, {}, composites.get()); }};
    if (name == "replace" || name == "insert_after") {
        if (!splitPair(rest, a, b))
            return specError(spec, "expected " + name + ":A=B");
        if (name == "replace")
            return NamedPass{spec, [a, b](GraphEditor &e) { return replaceOp(e, a, b); }};
        return NamedPass{spec, [a, b](GraphEditor &e) { return insertOpAfter(e, a, b); }};
    }
    if (name == "patterns") {
        if (!context.patterns)
            return specError(spec, "needs a pattern set (--patterns)");
        auto registry = context.patterns;
        return NamedPass{spec, [registry](GraphEditor &e) { return applyPatternSet(e, *registry); }};
    }
    if (name == "partition") {
        if (!context.support)
            return specError(spec, "needs an operator-support set (--supported or --partition)");
        OperatorSupport support = *context.support;
        PartitionerOptions options = context.partitioner;
        return NamedPass{spec, [support, options](GraphEditor &e) -> Result<bool> {
                             ProposedPartitions proposed
                                 = CapabilityBasedPartitioner(e.graph(), support, options).proposePartitions();
                             std::vector<std::vector<std::string>> names;
                             for (const auto &p : proposed.partitions) {
                                 names.emplace_back();
                                 for (const Node *n : p)
                                     names.back().push_back(n->name());
                             }
                             auto fused = fusePartitions(e, names);
                             if (!fused)
                                 return fused.error();
                             return !fused->empty();
                         }};
    }
    return unknownPass(spec, name);
}

} // namespace fxs
