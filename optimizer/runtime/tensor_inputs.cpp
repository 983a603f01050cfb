#include "tensor_inputs.h"

#include "io/loader.h"
#include "op_base_name.h"
#include "util/json.h"
#include "util/text.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <functional>
#include <numeric>
#include <optional>
#include <set>
#include <vector>

namespace fxs {

namespace {

c10::optional<c10::ScalarType> safetensorsType(const std::string &name)
{
    static const std::pair<const char *, c10::ScalarType> table[]
        = {{"F32", at::kFloat}, {"F64", at::kDouble}, {"F16", at::kHalf}, {"BF16", at::kBFloat16}, {"I64", at::kLong},
            {"I32", at::kInt}, {"I16", at::kShort}, {"I8", at::kChar}, {"U8", at::kByte}, {"BOOL", at::kBool}};
    for (const auto &[n, t] : table)
        if (name == n)
            return t;
    return c10::nullopt;
}

c10::optional<c10::ScalarType> metaType(const std::string &dtype)
{
    static const std::pair<const char *, c10::ScalarType> table[] = {{"torch.float32", at::kFloat},
        {"torch.float64", at::kDouble}, {"torch.float16", at::kHalf}, {"torch.bfloat16", at::kBFloat16},
        {"torch.int64", at::kLong}, {"torch.int32", at::kInt}, {"torch.int16", at::kShort}, {"torch.int8", at::kChar},
        {"torch.uint8", at::kByte}, {"torch.bool", at::kBool}, {"torch.float8_e4m3fn", at::kFloat8_e4m3fn},
        {"torch.float8_e5m2", at::kFloat8_e5m2}};
    for (const auto &[n, t] : table)
        if (dtype == n)
            return t;
    return c10::nullopt;
}

const Argument *argAt(const Node &node, size_t position, std::string_view keyword)
{
    if (position < node.args().size())
        return &node.args()[position];
    return node.kwarg(keyword);
}

// Size of dim `dim` of the tensor `arg` stands for (from its meta); nullopt when unknown.
std::optional<int64_t> dimSize(const Argument *arg, int64_t dim, const SymbolValues &symbols)
{
    if (!arg || !arg->isNode() || !arg->node()->meta().val || arg->node()->meta().val->kind != ValueMeta::Kind::Tensor)
        return std::nullopt;
    const auto &shape = arg->node()->meta().val->tensor.shape;
    if (dim < 0)
        dim += int64_t(shape.size());
    if (dim < 0 || dim >= int64_t(shape.size()))
        return std::nullopt;
    const SymInt &d = shape[size_t(dim)];
    if (d.isConcrete())
        return d.value;
    auto value = evaluateSymbolic(d.expr, symbols);
    return value ? std::optional<int64_t>(value.value()) : std::nullopt;
}

int64_t intArg(const Argument *arg, int64_t otherwise)
{
    return arg && arg->kind() == Argument::Kind::Int ? arg->toInt() : otherwise;
}

// Ops whose first argument reaches their result unchanged in value (views, copies, conversions).
const std::set<std::string> &passThroughOps()
{
    static const std::set<std::string> ops = {"slice", "select", "expand", "view", "_unsafe_view", "reshape",
        "unsqueeze", "squeeze", "permute", "transpose", "t", "clone", "contiguous", "_to_copy", "to", "long", "int",
        "float", "half", "flatten", "alias", "detach", "repeat", "getitem", "expand_as", "view_as", "reshape_as",
        "convert_element_type"};
    return ops;
}

// Calls visit(user, op, value) for every call that uses `input`, or a value it reaches as the first argument of an
// op `follows` accepts (views and copies by default), until visit returns true. Iterative: no recursion on chains.
bool anyUse(const Node &input,
    const std::function<bool(const Node &user, const std::string &op, const Node &value)> &visit,
    const std::function<bool(const Node &user, const std::string &op)> &follows = {})
{
    std::vector<const Node *> pending{&input};
    std::set<const Node *> seen{&input};
    while (!pending.empty()) {
        const Node *value = pending.back();
        pending.pop_back();
        for (const Node *user : value->users()) {
            if (user->op() != OpKind::CallFunction && user->op() != OpKind::CallMethod)
                continue;
            const std::string op = opBaseName(*user);
            if (visit(*user, op, *value))
                return true;
            const bool first = !user->args().empty() && user->args()[0].isNode() && user->args()[0].node() == value;
            if (first && (follows ? follows(*user, op) : passThroughOps().count(op) > 0) && seen.insert(user).second)
                pending.push_back(user);
        }
    }
    return false;
}

bool uses(const Argument *arg, const Node &value)
{
    return arg && arg->isNode() && arg->node() == &value;
}

// Whether a float input is a quantity that cannot be negative where the graph says so: a batch norm's running_var
// (argument 4 of aten's batch_norm family, 2 of torch.nn.functional.batch_norm), or the operand of sqrt, rsqrt or a
// log, reached directly, through views and copies, or through an add of a non-negative number (var + eps). Random
// normals there give NaN in every graph compared (Inception-v3's and BoTNet's generated running_var).
bool nonNegativeOnly(const Node &input)
{
    static const std::set<std::string> batchNorms = {"batch_norm", "native_batch_norm", "_native_batch_norm_legit",
        "_native_batch_norm_legit_no_training", "_native_batch_norm_legit_functional", "cudnn_batch_norm",
        "miopen_batch_norm", "instance_norm"};
    static const std::set<std::string> roots = {"sqrt", "rsqrt", "log", "log2", "log10"};
    auto isVarianceUse = [](const Node &user, const std::string &op, const Node &value) {
        if (batchNorms.count(op))
            return uses(argAt(user, startsWith(user.target(), "torch.nn.functional.") ? 2 : 4, "running_var"), value);
        return roots.count(op) && !user.args().empty() && uses(&user.args()[0], value);
    };
    auto viewOrPlusNonNegative = [](const Node &user, const std::string &op) {
        const Argument *other = user.args().size() > 1 ? &user.args()[1] : nullptr;
        const bool addsNonNegative = op == "add" && other
            && (other->kind() == Argument::Kind::Float || other->kind() == Argument::Kind::Int)
            && other->toDouble() >= 0;
        return passThroughOps().count(op) || addsNonNegative;
    };
    return anyUse(input, isVarianceUse, viewOrPlusNonNegative);
}

// Whether an input is a convolution's weight (argument 1 of aten's convolution family and of
// torch.nn.functional.conv*d), directly or through views and copies.
bool convolutionWeight(const Node &input)
{
    static const std::set<std::string> convolutions = {"convolution", "_convolution", "conv1d", "conv2d", "conv3d",
        "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "mkldnn_convolution", "cudnn_convolution"};
    return anyUse(input, [](const Node &user, const std::string &op, const Node &value) {
        return convolutions.count(op) && uses(argAt(user, 1, "weight"), value);
    });
}

// How many rows an integer input may index without going out of range: the smallest indexed size over every
// embedding(_bag), index_select, gather, scatter, index_add/copy/fill, index, take, one_hot or nll_loss it reaches,
// directly or through views and copies (BERT's token-type ids pass slice and expand into a 2-row embedding).
// nullopt when it indexes nothing.
std::optional<int64_t> indexBound(const Node &input, const SymbolValues &symbols)
{
    static const std::set<std::string> alongDim = {"index_select", "gather", "scatter", "scatter_", "scatter_add",
        "scatter_add_", "scatter_reduce", "scatter_reduce_", "index_add", "index_add_", "index_copy", "index_copy_",
        "index_fill", "index_fill_", "index_reduce", "index_reduce_"};
    std::optional<int64_t> bound;
    auto limit = [&](std::optional<int64_t> rows) {
        if (rows && *rows > 0)
            bound = bound ? std::min(*bound, *rows) : *rows;
    };
    anyUse(input, [&](const Node &user, const std::string &op, const Node &value) {
        const bool functional = startsWith(user.target(), "torch.nn.functional.");
        if (op == "embedding") {
            // aten: (weight, indices); torch.nn.functional: (input, weight).
            const Argument *indices = functional ? argAt(user, 0, "input") : argAt(user, 1, "indices");
            const Argument *weight = functional ? argAt(user, 1, "weight") : argAt(user, 0, "weight");
            if (uses(indices, value))
                limit(dimSize(weight, 0, symbols));
        } else if (alongDim.count(op)) {
            // (self, dim, index, ...): the index addresses self's dim (torch.gather names self "input").
            if (uses(argAt(user, 2, "index"), value))
                limit(dimSize(argAt(user, 0, functional || op == "gather" ? "input" : "self"),
                    intArg(argAt(user, 1, "dim"), 0), symbols));
        } else if (op == "take") {
            if (uses(argAt(user, 1, "index"), value))
                if (const Argument *self = argAt(user, 0, "self"); self && self->isNode() && self->node()->meta().val) {
                    std::optional<int64_t> numel = 1;
                    for (size_t d = 0; numel && d < self->node()->meta().val->tensor.shape.size(); ++d) {
                        auto size = dimSize(self, int64_t(d), symbols);
                        numel = size ? std::optional<int64_t>(*numel * *size) : std::nullopt;
                    }
                    limit(numel);
                }
        } else if (op == "embedding_bag" || op == "_embedding_bag" || op == "_embedding_bag_forward_only") {
            // aten: (weight, indices, offsets, ...); torch.nn.functional: (input, weight, offsets, ...).
            if (uses(functional ? argAt(user, 0, "input") : argAt(user, 1, "indices"), value))
                limit(dimSize(functional ? argAt(user, 1, "weight") : argAt(user, 0, "weight"), 0, symbols));
        } else if (op == "one_hot") {
            if (uses(argAt(user, 0, "self"), value) && intArg(argAt(user, 1, "num_classes"), -1) > 0)
                limit(intArg(argAt(user, 1, "num_classes"), -1));
        } else if (op == "index" || op == "_unsafe_index" || op == "index_put" || op == "index_put_"
            || op == "_unsafe_index_put") {
            // The index list is argument 1 of them all; a backward graph's embedding gradient is an index_put.
            if (const Argument *indices = argAt(user, 1, "indices"); indices && indices->isSequence())
                for (size_t k = 0; k < indices->items().size(); ++k)
                    if (uses(&indices->items()[k], value))
                        limit(dimSize(argAt(user, 0, "self"), int64_t(k), symbols));
        } else if (op == "nll_loss" || op == "nll_loss_forward" || op == "nll_loss2d_forward"
            || op == "cross_entropy") {
            if (uses(argAt(user, 1, "target"), value)) {
                const Argument *self = argAt(user, 0, "input");
                bool batched = self && self->isNode() && self->node()->meta().val
                    && self->node()->meta().val->tensor.shape.size() >= 2;
                limit(dimSize(self, batched ? 1 : 0, symbols));
            }
        }
        return false; // every use bounds it
    });
    return bound;
}

// A lifted constant (get_attr _tensor_constant0) often carries no meta, but its one use copies it unchanged
// (lift_fresh_copy in AOT graphs): that copy's meta is the constant's, so it is generated like any weight.
std::optional<ValueMeta> copiedMeta(const Node &node)
{
    static const std::set<std::string> copies = {"lift_fresh_copy", "lift_fresh", "clone", "alias", "detach"};
    if (node.op() != OpKind::GetAttr || node.users().size() != 1)
        return std::nullopt;
    const Node *user = node.users().front();
    if (user->op() != OpKind::CallFunction || !copies.count(opBaseName(*user)) || user->args().empty()
        || !user->args()[0].isNode() || user->args()[0].node() != &node || !user->meta().val
        || user->meta().val->kind != ValueMeta::Kind::Tensor)
        return std::nullopt;
    return user->meta().val;
}


int64_t inputBytes(const std::vector<int64_t> &shape, at::ScalarType type)
{
    int64_t elements = 1;
    for (int64_t d : shape)
        elements = d && elements > std::numeric_limits<int64_t>::max() / d ? std::numeric_limits<int64_t>::max()
                                                                             : elements * d;
    const int64_t item = int64_t(c10::elementSize(type));
    return elements > std::numeric_limits<int64_t>::max() / item ? std::numeric_limits<int64_t>::max() : elements * item;
}

// The memory the machine has free for new allocations (MemAvailable), or nullopt where it cannot be read.
std::optional<int64_t> availableHostBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    int64_t kib = 0;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:")
            return kib * 1024;
    return std::nullopt;
}

std::string sizeText(int64_t bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    size_t unit = 0;
    while (value >= 1024 && unit + 1 < std::size(units)) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return text;
}

// Generated inputs that cannot fit in memory are refused before anything is allocated: a run that allocates them
// anyway is killed by the kernel (GPT-J 6B's weights in float32 are ~24 GB) with no word of why. Checked for the
// host, where generation happens first; FXSCOPE_MEMORY_LIMIT_BYTES stands in for MemAvailable (tests).
Status checkInputsFit(std::vector<std::pair<std::string, int64_t>> sizes) // (input, bytes)
{
    std::optional<int64_t> available = availableHostBytes();
    if (const char *limit = std::getenv("FXSCOPE_MEMORY_LIMIT_BYTES"))
        available = std::atoll(limit);
    if (!available)
        return Ok{};
    int64_t total = 0;
    for (const auto &size : sizes)
        total = total > std::numeric_limits<int64_t>::max() - size.second ? std::numeric_limits<int64_t>::max()
                                                                          : total + size.second;
    if (total <= *available)
        return Ok{};
    std::sort(sizes.begin(), sizes.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    std::string largest;
    for (size_t k = 0; k < std::min<size_t>(3, sizes.size()); ++k)
        largest += (k ? ", " : "") + sizes[k].first + " " + sizeText(sizes[k].second);
    return Error{{}, 0, 0,
        "the inputs to generate need " + sizeText(total) + " and " + sizeText(*available) + " of memory is available (largest: "
            + largest + "); give real inputs with --inputs FILE.safetensors, smaller symbolic sizes with --sym, or "
            "run on a machine with more memory"};
}
} // namespace

Result<std::map<std::string, at::Tensor>> readSafetensors(const std::string &path)
{
    auto bytes = readFileBytes(path);
    if (!bytes)
        return bytes.error();
    const std::string &b = bytes.value();
    if (b.size() < 8)
        return Error{path, 0, 0, "expected an 8-byte header length, found " + std::to_string(b.size()) + " bytes"};
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | uint8_t(b[size_t(i)]);
    if (n > b.size() - 8)
        return Error{path, 0, 0, "expected a header of " + std::to_string(n) + " bytes to fit in the file"};
    auto header = Json::parse(std::string_view(b).substr(8, n), path);
    if (!header)
        return header.error();
    const size_t dataStart = 8 + n;
    std::map<std::string, at::Tensor> out;
    for (const auto &[name, entry] : header->members()) {
        if (name == "__metadata__")
            continue;
        auto type = safetensorsType(entry["dtype"].toString());
        if (!type)
            return Error{path, 0, 0, "tensor '" + name + "': unsupported dtype '" + entry["dtype"].toString() + "'"};
        std::vector<int64_t> shape;
        int64_t count = 1;
        for (const Json &d : entry["shape"].items()) {
            shape.push_back(d.toInt(-1));
            if (shape.back() < 0)
                return Error{path, 0, 0, "tensor '" + name + "': expected non-negative dims"};
            count *= shape.back();
        }
        const auto &offsets = entry["data_offsets"].items();
        if (offsets.size() != 2)
            return Error{path, 0, 0, "tensor '" + name + "': expected data_offsets [begin, end]"};
        uint64_t begin = uint64_t(offsets[0].toInt(-1)), end = uint64_t(offsets[1].toInt(-1));
        size_t itemSize = c10::elementSize(*type);
        if (begin > end || end > b.size() - dataStart || end - begin != uint64_t(count) * itemSize)
            return Error{path, 0, 0, "tensor '" + name + "': data_offsets do not match its shape and dtype"};
        at::Tensor t = at::empty(shape, at::TensorOptions().dtype(*type));
        std::memcpy(t.data_ptr(), b.data() + dataStart + begin, end - begin);
        out.emplace(name, std::move(t));
    }
    return out;
}

Result<std::unordered_map<std::string, at::Tensor>> graphInputs(const Graph &graph,
    const std::map<std::string, at::Tensor> &given, const SymbolValues &symbols, c10::Device device, uint64_t seed)
{
    // First what to generate (shape and dtype of each input not given), so its size is known before any allocation.
    struct Pending {
        const Node *node;
        std::vector<int64_t> shape;
        at::ScalarType type;
    };
    std::vector<Pending> pending;
    std::unordered_map<std::string, at::Tensor> out;
    for (const auto &node : graph.nodes()) {
        if (node->op() != OpKind::Placeholder && node->op() != OpKind::GetAttr)
            continue;
        if (auto it = given.find(node->name()); it != given.end()) {
            out.emplace(node->name(), it->second.to(device));
            continue;
        }
        if (node->op() == OpKind::GetAttr && (graph.subgraph(node->target()) || node->users().empty()))
            continue; // a nested graph (cond's branches, wrap's body): the executor runs it; or a constant no node
                      // uses (Inductor's constant folding replaced its use with a full and left the get_attr)
        const auto &val = node->meta().val ? node->meta().val : copiedMeta(*node);
        if (val && val->kind == ValueMeta::Kind::SymInt) {
            auto value = evaluateSymbolic(val->expr, symbols);
            if (!value)
                return Error{{}, node->meta().dumpLine, 0, "input '" + node->name() + "': " + value.error().message};
            out.emplace(node->name(), at::scalar_tensor(value.value(), at::TensorOptions().dtype(at::kLong)));
            continue;
        }
        if (!val || val->kind != ValueMeta::Kind::Tensor)
            return Error{{}, node->meta().dumpLine, 0,
                "input '" + node->name() + "': no value given and no tensor meta to generate one from"};
        std::vector<int64_t> shape;
        for (const auto &d : val->tensor.shape) {
            if (d.isConcrete()) {
                shape.push_back(d.value);
                continue;
            }
            auto value = evaluateSymbolic(d.expr, symbols);
            if (!value)
                return Error{{}, node->meta().dumpLine, 0,
                    "input '" + node->name() + "': symbolic dim " + d.expr + ": " + value.error().message};
            if (value.value() < 0)
                return Error{{}, node->meta().dumpLine, 0,
                    "input '" + node->name() + "': symbolic dim " + d.expr + " evaluates to "
                        + std::to_string(value.value()) + ", expected a size >= 0"};
            shape.push_back(value.value());
        }
        auto type = metaType(val->tensor.dtype.empty() ? "torch.float32" : val->tensor.dtype);
        if (!type)
            return Error{{}, node->meta().dumpLine, 0,
                "input '" + node->name() + "': cannot generate dtype " + val->tensor.dtype};
        pending.push_back({node.get(), std::move(shape), *type});
    }
    std::vector<std::pair<std::string, int64_t>> sizes;
    for (const Pending &p : pending)
        sizes.emplace_back(p.node->name(), inputBytes(p.shape, p.type));
    if (auto fits = checkInputsFit(std::move(sizes)); !fits)
        return fits.error();

    at::Generator gen = at::detail::createCPUGenerator(seed);
    for (const Pending &p : pending) {
        const std::vector<int64_t> &shape = p.shape;
        at::Tensor t;
        if (at::isFloatingType(p.type)) {
            // A variance or the operand of a root or log: uniform in [0.5, 1.5), around the 1 that batch norm's
            // running_var starts from. A convolution's weight is scaled by its fan-in (in_channels x kernel), as
            // PyTorch's default initialisation does, so a deep conv net's activations do not overflow to inf.
            // Others: scaled by 1/sqrt(last dim) so chains of matmuls stay near unit scale, also in float16.
            int64_t fanIn = shape.size() >= 2 ? std::max<int64_t>(shape.back(), 1) : 1;
            if (shape.size() >= 3 && convolutionWeight(*p.node))
                fanIn = std::max<int64_t>(
                    std::accumulate(shape.begin() + 1, shape.end(), int64_t(1), std::multiplies<int64_t>()), 1);
            double scale = shape.size() >= 2 ? 1.0 / std::sqrt(double(fanIn)) : 1.0;
            if (nonNegativeOnly(*p.node))
                t = (at::rand(shape, gen, at::TensorOptions().dtype(at::kFloat)) + 0.5).to(p.type);
            else
                t = (at::randn(shape, gen, at::TensorOptions().dtype(at::kFloat)) * scale).to(p.type);
        } else if (p.type == at::kBool) {
            t = at::randint(0, 2, shape, gen, at::TensorOptions().dtype(at::kLong)).to(at::kBool);
        } else {
            // Indices stay inside what they index (a 2-row token-type embedding takes 0 and 1).
            int64_t high = std::min<int64_t>(8, indexBound(*p.node, symbols).value_or(8));
            t = at::randint(0, high, shape, gen, at::TensorOptions().dtype(p.type));
        }
        out.emplace(p.node->name(), t.to(device));
    }
    return out;
}

} // namespace fxs
