#include "builtin_patterns.h"

#include "extra_checks.h"
#include "io/readable_parser.h"
#include "retrace_cache.h"
#include "util/closest_name.h"
#include "util/text.h"

#include <spdlog/spdlog.h>

#include <map>

namespace fxs {

namespace {

// The tensor inputs of one trace of a built-in search_fn, by parameter name.
using InputMetas = std::map<std::string, TensorMeta>;
// The literals search_fn derives from its inputs' shapes: "{token}" in the search code -> the text it traces to.
using ShapeLiterals = std::vector<std::pair<std::string, std::string>>;
using ShapeLiteralsFn = Result<ShapeLiterals> (*)(const InputMetas &inputs);

struct BuiltinSource {
    BuiltinPattern info;
    const char *search; // the code make_fx prints; "{token}"s are filled by shapeLiterals
    const char *replace;
    std::vector<std::pair<std::string, double>> scalarWorkaround;
    ExtraCheck (*check)();
    const char *checkSource;
    ShapeLiteralsFn shapeLiterals = nullptr; // set when a literal depends on the inputs' shapes: re-traced per match
};

// F.layer_norm(x, weight.shape, weight, bias, eps) as torch's decomposition traces it: var_mean over the last
// weight.ndim dimensions, spelled as non-negative dims (GPT-2's [2] for a 3-d input, [1] for a 2-d one).
Result<ShapeLiterals> layerNormLiterals(const InputMetas &inputs)
{
    const auto x = inputs.find("x"), weight = inputs.find("weight");
    if (x == inputs.end() || weight == inputs.end())
        return Error{"", 0, 0, "RuntimeError: layer_norm needs the tensors x and weight"};
    const size_t rank = x->second.shape.size(), normalized = weight->second.shape.size();
    if (normalized == 0 || normalized > rank)
        return Error{"", 0, 0,
            "RuntimeError: Given normalized_shape of " + std::to_string(normalized)
                + " dimensions, expected input with at least that many dimensions, but got input of "
                + std::to_string(rank)};
    std::string dims, shape;
    for (size_t d = rank - normalized; d < rank; ++d)
        dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    for (const SymInt &d : weight->second.shape)
        shape += (shape.empty() ? "" : ", ") + d.toString();
    return ShapeLiterals{{"{reduction_dims}", "[" + dims + "]"}, {"{normalized_shape}", "[" + shape + "]"}};
}

const std::vector<BuiltinSource> &sources()
{
    static const std::vector<BuiltinSource> list = {
        {{"rms_norm", "decomposed RMSNorm weight * (x * rsqrt(mean(x^2) + eps)) → npu_rms_norm"},
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]", weight: "f32[8]"):
        pow_1: "f32[2, 8]" = torch.ops.aten.pow.Tensor_Scalar(x, 2)
        mean: "f32[2, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[2, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[2, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[2, 8]" = torch.ops.aten.mul.Tensor(x, rsqrt)
        mul_1: "f32[2, 8]" = torch.ops.aten.mul.Tensor(weight, mul)
        return mul_1
)",
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]", weight: "f32[8]"):
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(x, weight, 1e-06)
        getitem: "f32[2, 8]" = npu_rms_norm[0]
        return getitem
)",
            {{"eps", 1e-06}}, nullptr, ""},
        {{"rms_norm_cast",
             "LLaMA RMSNorm with float32 upcast: weight * (x.float() * rsqrt(...)).half() → npu_rms_norm"},
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[2, 8]", weight: "f16[8]"):
        convert_element_type: "f32[2, 8]" = torch.ops.prims.convert_element_type.default(x, torch.float32)
        pow_1: "f32[2, 8]" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type, 2)
        mean: "f32[2, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[2, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[2, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[2, 8]" = torch.ops.aten.mul.Tensor(convert_element_type, rsqrt)
        convert_element_type_1: "f16[2, 8]" = torch.ops.prims.convert_element_type.default(mul, torch.float16)
        mul_1: "f16[2, 8]" = torch.ops.aten.mul.Tensor(weight, convert_element_type_1)
        return mul_1
)",
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[2, 8]", weight: "f16[8]"):
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(x, weight, 1e-06)
        getitem: "f16[2, 8]" = npu_rms_norm[0]
        return getitem
)",
            {{"eps", 1e-06}}, nullptr, ""},
        {{"add_rms_norm", "TorchAir's example: add + npu_rms_norm → npu_add_rms_norm, only where x1.shape[-1] == 7168"},
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f16[1, 1, 2]", x2: "f16[1, 1, 2]", gamma: "f16[2]"):
        add: "f16[1, 1, 2]" = torch.ops.aten.add.Tensor(x1, x2)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, gamma)
        getitem: "f16[1, 1, 2]" = npu_rms_norm[0]
        return (getitem, add)
)",
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f16[1, 1, 2]", x2: "f16[1, 1, 2]", gamma: "f16[2]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
        getitem: "f16[1, 1, 2]" = npu_add_rms_norm[0]
        getitem_2: "f16[1, 1, 2]" = npu_add_rms_norm[2]
        return (getitem, getitem_2)
)",
            {}, [] { return lastDimEquals("x1", 7168); },
            R"(def extra_check(match: Match):
    x1 = match.kwargs.get("x1")
    if x1 is None:
        return False
    if not hasattr(x1, "meta") or "val" not in x1.meta:
        return False
    a_shape = x1.meta["val"].shape
    return a_shape[-1] == 7168)"},
        {{"swiglu", "SwiGLU silu(gate) * up → npu_swiglu(cat([gate, up], -1))"},
            R"(class GraphModule(torch.nn.Module):
    def forward(self, gate: "f16[2, 8]", up: "f16[2, 8]"):
        silu: "f16[2, 8]" = torch.ops.aten.silu.default(gate)
        mul: "f16[2, 8]" = torch.ops.aten.mul.Tensor(silu, up)
        return mul
)",
            R"(class GraphModule(torch.nn.Module):
    def forward(self, gate: "f16[2, 8]", up: "f16[2, 8]"):
        cat: "f16[2, 16]" = torch.ops.aten.cat.default([gate, up], -1)
        npu_swiglu: "f16[2, 8]" = torch.ops.npu.npu_swiglu.default(cat, -1)
        return npu_swiglu
)",
            {}, nullptr, ""},
        {{"layer_norm", "LayerNorm via var_mean: (x - mean) * rsqrt(var + eps) * weight + bias → native_layer_norm"},
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]", weight: "f32[8]", bias: "f32[8]"):
        var_mean = torch.ops.aten.var_mean.correction(x, {reduction_dims}, correction = 0, keepdim = True)
        getitem: "f32[2, 1]" = var_mean[0]
        getitem_1: "f32[2, 1]" = var_mean[1]
        add: "f32[2, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-05)
        rsqrt: "f32[2, 1]" = torch.ops.aten.rsqrt.default(add)
        sub: "f32[2, 8]" = torch.ops.aten.sub.Tensor(x, getitem_1)
        mul: "f32[2, 8]" = torch.ops.aten.mul.Tensor(sub, rsqrt)
        mul_1: "f32[2, 8]" = torch.ops.aten.mul.Tensor(mul, weight)
        add_1: "f32[2, 8]" = torch.ops.aten.add.Tensor(mul_1, bias)
        return add_1
)",
            R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]", weight: "f32[8]", bias: "f32[8]"):
        native_layer_norm = torch.ops.aten.native_layer_norm.default(x, {normalized_shape}, weight, bias, {eps})
        getitem: "f32[2, 8]" = native_layer_norm[0]
        return getitem
)",
            {{"eps", 1e-05}}, nullptr, "", layerNormLiterals},
        {{"addmm", "mm + bias add → addmm"},
            R"(class GraphModule(torch.nn.Module):
    def forward(self, bias: "f32[8]", mat1: "f32[4, 6]", mat2: "f32[6, 8]"):
        mm: "f32[4, 8]" = torch.ops.aten.mm.default(mat1, mat2)
        add: "f32[4, 8]" = torch.ops.aten.add.Tensor(mm, bias)
        return add
)",
            R"(class GraphModule(torch.nn.Module):
    def forward(self, bias: "f32[8]", mat1: "f32[4, 6]", mat2: "f32[6, 8]"):
        addmm: "f32[4, 8]" = torch.ops.aten.addmm.default(bias, mat1, mat2)
        return addmm
)",
            {}, nullptr, ""},
    };
    return list;
}

Result<std::shared_ptr<const Graph>> parseSnippet(const char *code, const std::string &label)
{
    auto file = parseReadable(code, label);
    if (!file)
        return file.error();
    if (file->graphs.empty())
        return Error{label, 0, 0, "expected one graph, found none"};
    return std::shared_ptr<const Graph>(std::move(file->graphs.front().graph));
}

std::string fillLiterals(std::string code, const ShapeLiterals &literals)
{
    for (const auto &[token, text] : literals)
        for (size_t at = code.find(token); at != std::string::npos; at = code.find(token, at + text.size()))
            code.replace(at, token.size(), text);
    return code;
}

// Every "{token}" as None: enough to read the signature (whose annotations are the example inputs).
std::string blankLiterals(std::string code)
{
    for (size_t open = code.find('{'); open != std::string::npos; open = code.find('{', open + 4)) {
        size_t close = code.find('}', open);
        if (close == std::string::npos)
            break;
        code.replace(open, close - open + 1, "None");
    }
    return code;
}

// search_fn or replace_fn traced for these inputs: the shape-derived literals and the scalar_workaround values
// ("{eps}") filled in, then parsed. Without inputs, the example inputs of the code's own signature are used.
Result<std::shared_ptr<const Graph>> traceBuiltin(const BuiltinSource &s, const char *code, const std::string &label,
    const InputMetas *inputs, const ShapeLiterals &scalars)
{
    if (!s.shapeLiterals)
        return parseSnippet(code, label);
    InputMetas examples;
    if (!inputs) {
        auto signature = parseSnippet(blankLiterals(code).c_str(), label);
        if (!signature)
            return signature.error();
        for (const Node *p : signature.value()->placeholders())
            if (p->meta().val && p->meta().val->kind == ValueMeta::Kind::Tensor)
                examples[p->name()] = p->meta().val->tensor;
        inputs = &examples;
    }
    auto literals = s.shapeLiterals(*inputs);
    if (!literals)
        return Error{label, 0, 0, literals.error().message};
    ShapeLiterals all = literals.value();
    all.insert(all.end(), scalars.begin(), scalars.end());
    return parseSnippet(fillLiterals(code, all).c_str(), label);
}

// The scalar_workaround defaults as "{name}" fillers.
ShapeLiterals defaultScalars(const BuiltinSource &s)
{
    ShapeLiterals out;
    for (const auto &[name, value] : s.scalarWorkaround)
        out.push_back({"{" + name + "}", Argument::ofFloat(value).toPython()});
    return out;
}

// register_replacement's check_fn for a built-in whose literals follow the shapes: search_fn traced again with the
// match's input metas (a bound node without meta["val"] takes its example input's), then fx_to_pattern without
// ignore_types. Matches with the same input shapes share one trace.
RetraceFn makeBuiltinRetrace(const BuiltinSource &source, const ReplacementSpec &spec)
{
    auto cache = std::make_shared<RetraceCache>();
    const std::string label = spec.source + " (re-traced)";
    auto examples = spec.exampleInputs;
    auto scalarWorkaround = spec.scalarWorkaround;
    const ShapeLiterals defaults = defaultScalars(source); // formatted once, not per match
    return [&source, cache, label, examples, scalarWorkaround, defaults](const Match &m) -> Retrace {
        RetraceCache::Inputs inputs;
        ShapeLiterals scalars = defaults;
        for (auto &[token, text] : scalars)
            if (const Argument *bound = m.kwarg(token.substr(1, token.size() - 2)); bound && !bound->isNode())
                text = bound->toPython();
        for (const auto &kv : scalars)
            inputs.addLiteral(kv.second);
        InputMetas metas;
        for (const ExampleInput &ex : examples) {
            if (!ex.meta)
                continue;
            const Argument *bound = m.kwarg(ex.name);
            const TensorMeta *meta = nullptr;
            if (bound && bound->isNode())
                meta = inputs.boundTensor(ex.name, *bound->node());
            else
                inputs.addExample();
            metas[ex.name] = meta ? *meta : *ex.meta;
        }
        return cache->get(inputs, [&] {
            Retrace traced;
            auto graph = traceBuiltin(source, source.search, label + " search", &metas, scalars);
            if (graph) {
                FxToPatternOptions options;
                options.scalarWorkaround = scalarWorkaround;
                traced = RetraceCache::fromSearchGraph(*graph.value(), options);
            } else {
                traced.error = graph.error().message;
            }
            auto replace = traceBuiltin(source, source.replace, label + " replace", &metas, scalars);
            if (replace)
                traced.replace = replace.value();
            return traced;
        });
    };
}

} // namespace

const std::vector<BuiltinPattern> &builtinPatterns()
{
    static const std::vector<BuiltinPattern> list = [] {
        std::vector<BuiltinPattern> out;
        for (const auto &s : sources())
            out.push_back(s.info);
        return out;
    }();
    return list;
}

Status registerBuiltinPatterns(PatternRegistry &registry, const std::string &name)
{
    bool found = false;
    for (const auto &s : sources()) {
        if (!name.empty() && s.info.name != name)
            continue;
        found = true;
        const std::string label = "builtin:" + s.info.name;
        auto search = traceBuiltin(s, s.search, label + " (search)", nullptr, defaultScalars(s));
        if (!search)
            return search.error();
        auto replace = traceBuiltin(s, s.replace, label + " (replace)", nullptr, defaultScalars(s));
        if (!replace)
            return replace.error();
        ReplacementSpec spec;
        spec.name = s.info.name;
        spec.source = label;
        spec.search = search.value();
        spec.replace = replace.value();
        for (const Node *p : spec.search->placeholders()) {
            ExampleInput ex;
            ex.name = p->name();
            if (p->meta().val && p->meta().val->kind == ValueMeta::Kind::Tensor)
                ex.meta = p->meta().val->tensor;
            spec.exampleInputs.push_back(std::move(ex));
        }
        spec.scalarWorkaround = s.scalarWorkaround;
        if (s.check)
            spec.extraCheck = s.check();
        spec.extraCheckSource = s.checkSource;
        spec.skipDuplicates = true; // registering the library twice is harmless
        if (s.shapeLiterals)
            spec.retrace = makeBuiltinRetrace(s, spec);
        if (auto st = registerReplacement(registry, std::move(spec)); !st)
            return st;
    }
    if (!found) {
        std::vector<std::string> names;
        for (const auto &s : sources())
            names.push_back(s.info.name);
        return Error{"", 0, 0,
            "no built-in pattern '" + name + "'; the built-ins are: " + joinNames(names) + didYouMean(name, names)};
    }
    return Ok{};
}

} // namespace fxs
