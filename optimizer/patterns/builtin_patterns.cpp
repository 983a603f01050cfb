#include "builtin_patterns.h"

#include "extra_checks.h"
#include "io/readable_parser.h"

#include <spdlog/spdlog.h>

namespace fxs {

namespace {

struct BuiltinSource {
    BuiltinPattern info;
    const char *search;
    const char *replace;
    std::vector<std::pair<std::string, double>> scalarWorkaround;
    ExtraCheck (*check)();
    const char *checkSource;
};

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
        var_mean = torch.ops.aten.var_mean.correction(x, [-1], correction = 0, keepdim = True)
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
        native_layer_norm = torch.ops.aten.native_layer_norm.default(x, [8], weight, bias, 1e-05)
        getitem: "f32[2, 8]" = native_layer_norm[0]
        return getitem
)",
            {{"eps", 1e-05}}, nullptr, ""},
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
        auto search = parseSnippet(s.search, label + " (search)");
        if (!search)
            return search.error();
        auto replace = parseSnippet(s.replace, label + " (replace)");
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
        if (auto st = registerReplacement(registry, std::move(spec)); !st)
            return st;
    }
    if (!found) {
        std::string names;
        for (const auto &s : sources())
            names += (names.empty() ? "" : ", ") + s.info.name;
        return Error{"", 0, 0, "no built-in pattern '" + name + "'; the built-ins are: " + names};
    }
    return Ok{};
}

} // namespace fxs
