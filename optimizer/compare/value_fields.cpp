#include "value_fields.h"

namespace fxs {

namespace {

std::string dims(const std::vector<SymInt> &list)
{
    std::string out = "[";
    for (size_t i = 0; i < list.size(); ++i)
        out += (i ? ", " : "") + list[i].toString();
    return out + "]";
}

} // namespace

const char *valueFieldName(ValueField field)
{
    switch (field) {
    case ValueField::Shape: return "shape";
    case ValueField::Dtype: return "dtype";
    case ValueField::Stride: return "stride";
    case ValueField::Device: return "device";
    case ValueField::Expression: return "value";
    }
    return "";
}

std::string valueFieldText(const ValueMeta &value, ValueField field)
{
    if (value.kind == ValueMeta::Kind::Tuple) {
        std::string out = "(";
        bool any = false;
        for (size_t i = 0; i < value.items.size(); ++i) {
            std::string item = valueFieldText(value.items[i], field);
            any = any || !item.empty();
            out += (i ? ", " : "") + item;
        }
        return any ? out + ")" : std::string();
    }
    if (value.kind != ValueMeta::Kind::Tensor)
        return field == ValueField::Expression ? value.expr : std::string();
    const TensorMeta &t = value.tensor;
    switch (field) {
    case ValueField::Shape: return dims(t.shape);
    case ValueField::Dtype: return t.dtype;
    case ValueField::Stride: return t.hasStride ? dims(t.stride) : std::string();
    case ValueField::Device: return t.device;
    case ValueField::Expression: return {};
    }
    return {};
}

std::string valueText(const ValueMeta &value)
{
    if (value.kind != ValueMeta::Kind::Tuple)
        return value.toAnnotation();
    std::string out = "(";
    for (size_t i = 0; i < value.items.size(); ++i)
        out += (i ? ", " : "") + valueText(value.items[i]);
    return out + ")";
}

} // namespace fxs
