#include "tensor_meta.h"

#include <charconv>
#include <utility>

namespace fxs {

namespace {

const std::pair<const char *, const char *> kDtypes[] = {
    {"f32", "torch.float32"},
    {"f64", "torch.float64"},
    {"f16", "torch.float16"},
    {"bf16", "torch.bfloat16"},
    {"i64", "torch.int64"},
    {"i32", "torch.int32"},
    {"i16", "torch.int16"},
    {"i8", "torch.int8"},
    {"u8", "torch.uint8"},
    {"u16", "torch.uint16"},
    {"u32", "torch.uint32"},
    {"u64", "torch.uint64"},
    {"b8", "torch.bool"},
    {"c32", "torch.complex32"},
    {"c64", "torch.complex64"},
    {"c128", "torch.complex128"},
    {"f8e4m3fn", "torch.float8_e4m3fn"},
    {"f8e5m2", "torch.float8_e5m2"},
    {"f8e4m3fnuz", "torch.float8_e4m3fnuz"},
    {"f8e5m2fnuz", "torch.float8_e5m2fnuz"},
    {"f8e8m0fnu", "torch.float8_e8m0fnu"},
    {"f4e2m1fnx2", "torch.float4_e2m1fn_x2"},
    {"q8", "torch.qint8"},
    {"qu8", "torch.quint8"},
    {"qi32", "torch.qint32"},
};

// Aliases users and older dumps write.
const std::pair<const char *, const char *> kDtypeAliases[] = {
    {"torch.float", "torch.float32"},
    {"torch.double", "torch.float64"},
    {"torch.half", "torch.float16"},
    {"torch.long", "torch.int64"},
    {"torch.int", "torch.int32"},
    {"torch.short", "torch.int16"},
    {"torch.cfloat", "torch.complex64"},
    {"torch.cdouble", "torch.complex128"},
};

} // namespace

SymInt SymInt::parse(std::string_view text)
{
    SymInt s;
    int64_t v = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (!text.empty() && res.ec == std::errc() && res.ptr == text.data() + text.size())
        s.value = v;
    else
        s.expr = std::string(text);
    return s;
}

ValueMeta ValueMeta::ofTensor(TensorMeta t)
{
    ValueMeta v;
    v.tensor = std::move(t);
    return v;
}

ValueMeta ValueMeta::ofSym(Kind kind, std::string expr)
{
    ValueMeta v;
    v.kind = kind;
    v.expr = std::move(expr);
    return v;
}

std::string dtypeFromAbbreviation(std::string_view abbr)
{
    for (const auto &d : kDtypes)
        if (abbr == d.first)
            return d.second;
    return {};
}

std::string dtypeAbbreviation(std::string_view dtype)
{
    for (const auto &d : kDtypes)
        if (dtype == d.second)
            return d.first;
    return {};
}

bool isDtypeName(std::string_view name)
{
    for (const auto &d : kDtypes)
        if (name == d.second)
            return true;
    for (const auto &d : kDtypeAliases)
        if (name == d.first)
            return true;
    return false;
}

namespace {

std::string joinDims(const std::vector<SymInt> &dims)
{
    std::string out = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i)
            out += ", ";
        out += dims[i].toString();
    }
    return out + "]";
}

// Splits "a, b, (c + d)" at top-level commas.
std::vector<SymInt> splitDims(std::string_view text)
{
    std::vector<SymInt> dims;
    int depth = 0;
    size_t start = 0;
    auto push = [&](size_t end) {
        std::string_view piece = text.substr(start, end - start);
        while (!piece.empty() && piece.front() == ' ')
            piece.remove_prefix(1);
        while (!piece.empty() && piece.back() == ' ')
            piece.remove_suffix(1);
        if (!piece.empty())
            dims.push_back(SymInt::parse(piece));
    };
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '(' || c == '[')
            ++depth;
        else if (c == ')' || c == ']')
            --depth;
        else if (c == ',' && depth == 0) {
            push(i);
            start = i + 1;
        }
    }
    push(text.size());
    return dims;
}

// Finds the ']' matching the '[' at open.
size_t matchingBracket(std::string_view text, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < text.size(); ++i) {
        if (text[i] == '[')
            ++depth;
        else if (text[i] == ']' && --depth == 0)
            return i;
    }
    return std::string_view::npos;
}

} // namespace

std::string ValueMeta::toAnnotation() const
{
    switch (kind) {
    case Kind::Tensor: {
        std::string abbr = dtypeAbbreviation(tensor.dtype);
        std::string out = abbr.empty() ? tensor.dtype : abbr;
        out += joinDims(tensor.shape);
        if (tensor.hasStride)
            out += joinDims(tensor.stride);
        return out + tensor.device;
    }
    case Kind::SymInt:
    case Kind::SymFloat:
    case Kind::SymBool: return "Sym(" + expr + ")";
    case Kind::Tuple: return {};
    }
    return {};
}

Result<ValueMeta> ValueMeta::parseAnnotation(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    if (text.size() > 5 && text.substr(0, 4) == "Sym(" && text.back() == ')') {
        std::string expr(text.substr(4, text.size() - 5));
        // Sym(u0 >= 0) is a SymBool; a '.' in a number suggests a SymFloat.
        Kind k = Kind::SymInt;
        if (expr.find_first_of("<>=!") != std::string::npos || expr == "True" || expr == "False")
            k = Kind::SymBool;
        return ValueMeta::ofSym(k, std::move(expr));
    }
    size_t open = text.find('[');
    if (open == std::string_view::npos || open == 0)
        return Error{{}, 0, 0, "expected a tensor annotation like f32[4, 4], found '" + std::string(text) + "'"};
    std::string_view dtypeText = text.substr(0, open);
    TensorMeta t;
    t.dtype = dtypeFromAbbreviation(dtypeText);
    if (t.dtype.empty()) {
        // TorchAir writes full names: torch.float32[128, 64]npu:0
        if (isDtypeName(dtypeText))
            t.dtype = std::string(dtypeText);
        else
            return Error{
                {}, 0, 0, "expected a dtype such as f32 or torch.float32, found '" + std::string(dtypeText) + "'"};
    }
    size_t close = matchingBracket(text, open);
    if (close == std::string_view::npos)
        return Error{{}, 0, 0, "expected ']' closing the shape in '" + std::string(text) + "'"};
    t.shape = splitDims(text.substr(open + 1, close - open - 1));
    size_t rest = close + 1;
    if (rest < text.size() && text[rest] == '[') {
        size_t close2 = matchingBracket(text, rest);
        if (close2 == std::string_view::npos)
            return Error{{}, 0, 0, "expected ']' closing the stride in '" + std::string(text) + "'"};
        t.stride = splitDims(text.substr(rest + 1, close2 - rest - 1));
        t.hasStride = true;
        rest = close2 + 1;
    }
    t.device = std::string(text.substr(rest));
    return ValueMeta::ofTensor(std::move(t));
}

} // namespace fxs
