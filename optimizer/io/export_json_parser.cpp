#include "export_json_parser.h"

#include "../util/text.h"

#include "../util/json.h"
#include "../util/json_locator.h"
#include "../util/text_position.h"
#include "format.h"
#include "fx_arg_scanner.h"
#include "sympy_repr.h"

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

// Reads a serialized ExportedProgram (torch/_export/serde/schema.py, see FORMATS.md §C) into the FX graph
// that torch.export's deserializer (serialize.py GraphModuleDeserializer) would rebuild, without
// operator schemas: argument placement follows NamedArgument.kind, and names follow the deserializer.

namespace fxs {

namespace {

// Nested graphs (cond branches inside map bodies ...) deeper than this are refused, not recursed into.
constexpr int kMaxGraphNesting = 64;
// A deeply nested argument (lists of dicts of lists ...) is refused beyond this depth.
constexpr int kMaxArgumentDepth = 256;
// Deep enough for kMaxGraphNesting graphs (about ten JSON levels each) and their arguments.
constexpr int kMaxJsonDepth = 512;

constexpr int kKnownSchemaMajor = 8;

const std::pair<int, const char *> kScalarTypes[] = {
    {1, "torch.uint8"},
    {2, "torch.int8"},
    {3, "torch.int16"},
    {4, "torch.int32"},
    {5, "torch.int64"},
    {6, "torch.float16"},
    {7, "torch.float32"},
    {8, "torch.float64"},
    {9, "torch.complex32"},
    {10, "torch.complex64"},
    {11, "torch.complex128"},
    {12, "torch.bool"},
    {13, "torch.bfloat16"},
    {28, "torch.uint16"},
    {29, "torch.float8_e4m3fn"},
    {30, "torch.float8_e5m2"},
    {31, "torch.float8_e4m3fnuz"},
    {32, "torch.float8_e5m2fnuz"},
};
const std::pair<int, const char *> kLayouts[] = {
    {1, "torch.sparse_coo"},
    {2, "torch.sparse_csr"},
    {3, "torch.sparse_csc"},
    {4, "torch.sparse_bsr"},
    {5, "torch.sparse_bsc"},
    {6, "torch._mkldnn"},
    {7, "torch.strided"},
};
const std::pair<int, const char *> kMemoryFormats[] = {
    {1, "torch.contiguous_format"},
    {2, "torch.channels_last"},
    {3, "torch.channels_last_3d"},
    {4, "torch.preserve_format"},
};

template <size_t N>
const char *enumName(const std::pair<int, const char *> (&table)[N], const Json &value)
{
    if (!value.isInt())
        return nullptr;
    for (const auto &e : table)
        if (e.first == value.toInt())
            return e.second;
    return nullptr;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "a string \"abc\"", "an array", ... for "expected X, found Y" messages.
std::string describe(const Json &j)
{
    switch (j.type()) {
    case Json::Type::Null: return "null";
    case Json::Type::Bool: return j.toBool() ? "true" : "false";
    case Json::Type::Int:
    case Json::Type::Float: return "the number " + j.dump();
    case Json::Type::String: {
        std::string s = j.toString().substr(0, 40);
        return "the string " + Json(s).dump() + (j.toString().size() > 40 ? "..." : "");
    }
    case Json::Type::Array: return "an array";
    case Json::Type::Object: {
        std::string keys;
        size_t shown = 0;
        for (const auto &m : j.members()) {
            if (shown++ == 6) {
                keys += ", ...";
                break;
            }
            keys += (keys.empty() ? "" : ", ") + Json(m.first).dump();
        }
        return keys.empty() ? "an empty object" : "an object with keys " + keys;
    }
    }
    return "a value";
}

// The one (kind, value) pair of a serialized union ({"as_tensor": {...}}), or false when j is not one.
bool unionOf(const Json &j, std::string_view &kind, const Json *&value)
{
    if (!j.isObject() || j.size() != 1)
        return false;
    kind = j.members().front().first;
    value = &j.members().front().second;
    return true;
}

// The hints torch.export keeps beside symbolic sizes: {"as_expr": {"expr_str": "s0", "hint": {"as_int": 8}}} in the
// graph's sym_int_values and tensor sizes, strides and offsets. Only a bare symbol's hint is its value; an
// expression's (2*s0 -> 16) says nothing more.
std::map<std::string, int64_t> symbolHints(const Json &graphJson)
{
    std::map<std::string, int64_t> hints;
    auto take = [&hints](const Json &sym) {
        std::string_view kind;
        const Json *value = nullptr;
        if (!unionOf(sym, kind, value) || kind != "as_expr" || !value->isObject())
            return;
        const std::string expr = sympyReprToText((*value)["expr_str"].toString());
        const Json &hint = (*value)["hint"];
        const Json &number = hint.isObject() && hint.find("as_int") ? hint["as_int"] : hint;
        if (FxArgScanner::isIdentifier(expr) && number.isInt())
            hints.emplace(expr, number.toInt());
    };
    for (const auto &m : graphJson["sym_int_values"].members())
        take(m.second);
    for (const auto &m : graphJson["tensor_values"].members()) {
        for (const char *key : {"sizes", "strides"})
            for (const Json &dim : m.second[key].items())
                take(dim);
        take(m.second["storage_offset"]);
    }
    return hints;
}

// Newer serializers write non-finite floats as strings.
std::optional<double> floatValue(const Json &j)
{
    if (j.isNumber())
        return j.toDouble();
    const std::string &s = j.toString();
    if (s == "Infinity" || s == "inf")
        return HUGE_VAL;
    if (s == "-Infinity" || s == "-inf")
        return -HUGE_VAL;
    if (s == "NaN" || s == "nan")
        return std::nan("");
    return std::nullopt;
}

// Python's repr of a float inside complex(): no forced ".0".
std::string complexPart(double d)
{
    std::string s = formatDouble(d);
    if (endsWith(s, ".0"))
        s.resize(s.size() - 2);
    return s;
}

std::string complexRepr(double re, double im)
{
    std::string imag = complexPart(im) + "j";
    if (re == 0 && !std::signbit(re))
        return imag;
    std::string sign = (std::signbit(im) || std::isnan(im)) && imag[0] == '-' ? "" : "+";
    return "(" + complexPart(re) + sign + imag + ")";
}

} // namespace

// Targets as FX prints them: serialize.py writes operator.add as "_operator.add"; some writers use
// "aten::add.Tensor" or the module path "torch._ops.aten".
std::string normalizeExportTarget(std::string_view target)
{
    if (startsWith(target, "_operator."))
        return "operator." + std::string(target.substr(10));
    if (startsWith(target, "torch._ops."))
        return "torch.ops." + std::string(target.substr(11));
    size_t colons = target.find("::");
    if (colons != std::string_view::npos && colons > 0 && target.find(' ') == std::string_view::npos) {
        std::string rest(target.substr(colons + 2));
        if (rest.find('.') == std::string::npos)
            rest += ".default";
        return "torch.ops." + std::string(target.substr(0, colons)) + "." + rest;
    }
    if (startsWith(target, "aten.") || startsWith(target, "prims."))
        return "torch.ops." + std::string(target);
    return std::string(target);
}

namespace {

// The name FX gives a node created without one (Graph._target_to_str): the op's "name.overload" for
// OpOverloads, the function name otherwise, in snake case; uniqueName then turns '.' into '_'.
std::string defaultNodeName(std::string_view target)
{
    std::string_view base;
    if (startsWith(target, "torch.ops.")) {
        std::string_view rest = target.substr(10);
        size_t dot = rest.find('.');
        base = dot == std::string_view::npos ? rest : rest.substr(dot + 1);
    } else {
        size_t dot = target.rfind('.');
        base = dot == std::string_view::npos ? target : target.substr(dot + 1);
    }
    std::string out;
    bool prevLower = false;
    for (char c : base) {
        bool upper = c >= 'A' && c <= 'Z';
        if (prevLower && upper)
            out += '_';
        out += upper ? char(c - 'A' + 'a') : c;
        prevLower = c >= 'a' && c <= 'z';
    }
    return out.empty() ? std::string("node") : out;
}

// The last `File "f", line N, in fn` frame of a Python traceback, with the code line after it.
std::optional<SourceLocation> parseStackTrace(std::string_view trace)
{
    std::optional<SourceLocation> found;
    size_t pos = 0;
    bool wantCode = false;
    while (pos <= trace.size()) {
        size_t end = trace.find('\n', pos);
        if (end == std::string_view::npos)
            end = trace.size();
        std::string_view line = trim(trace.substr(pos, end - pos));
        pos = end + 1;
        if (startsWith(line, "File \"")) {
            wantCode = false;
            size_t close = line.find("\", line ", 6);
            if (close == std::string_view::npos)
                continue;
            SourceLocation loc;
            loc.file = std::string(line.substr(6, close - 6));
            size_t p = close + 8;
            int number = 0;
            bool digits = false;
            while (p < line.size() && line[p] >= '0' && line[p] <= '9' && number < 100000000) {
                number = number * 10 + (line[p++] - '0');
                digits = true;
            }
            if (!digits)
                continue;
            loc.line = number;
            std::string_view rest = line.substr(p);
            if (startsWith(rest, ", in "))
                loc.function = std::string(trim(rest.substr(5)));
            found = std::move(loc);
            wantCode = true;
        } else if (wantCode && !line.empty() && found) {
            found->code = std::string(line);
            wantCode = false;
        }
        if (end == trace.size())
            break;
    }
    return found;
}

// Splits at `separator` outside (), [], {} and quotes: module paths such as
// "getattr(L['self'].layers, '0')" contain commas.
std::vector<std::string_view> splitTopLevel(std::string_view s, char separator)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    char quote = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (quote) {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            --depth;
        } else if (c == separator && depth == 0) {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.push_back(s.substr(start));
    return parts;
}

// serialize.py writes nn_module_stack as "key,path,type" entries joined by ';'.
std::vector<ModuleStackEntry> parseModuleStack(std::string_view text)
{
    std::vector<ModuleStackEntry> entries;
    for (std::string_view item : splitTopLevel(text, ';')) {
        item = trim(item);
        if (item.empty())
            continue;
        auto parts = splitTopLevel(item, ',');
        ModuleStackEntry e;
        e.key = std::string(trim(parts[0]));
        if (parts.size() == 2) {
            e.path = std::string(trim(parts[1]));
        } else if (parts.size() >= 3) {
            e.type = std::string(trim(parts.back()));
            // A path with top-level commas keeps them: everything between the key and the type.
            std::string_view first = parts[1], last = parts[parts.size() - 2];
            e.path
                = std::string(trim(std::string_view(first.data(), size_t(last.data() + last.size() - first.data()))));
        }
        entries.push_back(std::move(e));
    }
    return entries;
}

// Node and module metadata strings: known keys parsed into NodeMeta, everything else kept verbatim.
void applyMetadata(NodeMeta &meta, const Json &metadata)
{
    if (metadata.isNull())
        return;
    if (!metadata.isObject()) {
        meta.extra.set("metadata", metadata);
        return;
    }
    for (const auto &m : metadata.members()) {
        if (m.first == "stack_trace" && m.second.isString()) {
            meta.stackTrace = m.second.toString();
            meta.source = parseStackTrace(meta.stackTrace);
        } else if (m.first == "nn_module_stack" && m.second.isString()) {
            meta.nnModuleStack = parseModuleStack(m.second.toString());
        } else {
            meta.extra.set(m.first, m.second);
        }
    }
}

std::string symText(const Json &sym)
{
    std::string_view kind;
    const Json *value = nullptr;
    if (!unionOf(sym, kind, value))
        return sym.dump();
    if (kind == "as_expr") {
        if (value->isString())
            return sympyReprToText(value->toString());
        if ((*value)["expr_str"].isString())
            return sympyReprToText((*value)["expr_str"].toString());
    } else if (kind == "as_int" && value->isInt()) {
        return std::to_string(value->toInt());
    } else if (kind == "as_float" || kind == "as_bool") {
        if (value->isBool())
            return value->toBool() ? "True" : "False";
        if (auto d = floatValue(*value))
            return formatDouble(*d);
    }
    return sym.dump();
}

std::vector<SymInt> symInts(const Json &list)
{
    std::vector<SymInt> out;
    for (const auto &item : list.items())
        out.push_back(SymInt::parse(symText(item)));
    return out;
}

std::string deviceText(const Json &device)
{
    std::string text = device["type"].toString();
    if (device["index"].isInt())
        text += ":" + std::to_string(device["index"].toInt());
    return text;
}

ValueMeta tensorMeta(const Json &t)
{
    TensorMeta m;
    if (const char *dtype = enumName(kScalarTypes, t["dtype"]))
        m.dtype = dtype;
    m.shape = symInts(t["sizes"]);
    if (t["strides"].isArray()) {
        m.stride = symInts(t["strides"]);
        m.hasStride = true;
    }
    if (t["device"].isObject())
        m.device = deviceText(t["device"]);
    return ValueMeta::ofTensor(std::move(m));
}

// The value an InputSpec's argument names: a bare TensorArgument {name} or an Argument union.
std::string specArgumentName(const Json &arg)
{
    if (arg["name"].isString())
        return arg["name"].toString();
    std::string_view kind;
    const Json *value = nullptr;
    if (!unionOf(arg, kind, value))
        return {};
    if ((*value)["name"].isString())
        return (*value)["name"].toString();
    if ((*value)["as_name"].isString())
        return (*value)["as_name"].toString();
    return {};
}

struct InputSpec {
    std::string argName;
    Json extra; // NodeMeta::extra["input_spec"]
};

// GraphSignature.input_specs, in order; also the pre-2.2 dict form (inputs_to_parameters ...).
std::vector<InputSpec> readInputSpecs(const Json &signature)
{
    std::vector<InputSpec> specs;
    for (const auto &spec : signature["input_specs"].items()) {
        std::string_view kind;
        const Json *body = nullptr;
        if (!unionOf(spec, kind, body))
            continue;
        InputSpec s;
        s.argName = specArgumentName((*body)["arg"]);
        s.extra = Json::object({{"kind", std::string(kind)}});
        static const char *const kTargetKeys[]
            = {"parameter_name", "buffer_name", "tensor_constant_name", "custom_obj_name"};
        for (const char *key : kTargetKeys)
            if ((*body)[key].isString())
                s.extra.set("target", (*body)[key].toString());
        if (const Json *persistent = body->find("persistent"))
            s.extra.set("persistent", *persistent);
        if (kind == "constant_input") {
            s.argName = (*body)["name"].toString();
            s.extra.set("value", (*body)["value"]);
        }
        specs.push_back(std::move(s));
    }
    if (!specs.empty())
        return specs;
    auto fromDict = [&](const char *key, const char *kind) {
        for (const auto &m : signature[key].members())
            specs.push_back({m.first, Json::object({{"kind", kind}, {"target", m.second}})});
    };
    fromDict("inputs_to_parameters", "parameter");
    fromDict("inputs_to_buffers", "buffer");
    for (const auto &u : signature["user_inputs"].items())
        if (u.isString())
            specs.push_back({u.toString(), Json::object({{"kind", "user_input"}})});
    return specs;
}

// One graph being rebuilt: the FX graph, and what the serialized names refer to.
struct Scope {
    Graph *graph = nullptr;
    std::string path; // JSON path of the serialized Graph
    int depth = 0;
    std::unordered_map<std::string, Node *> values;
    std::unordered_map<std::string, const Json *> tensorValues, symIntValues, symBoolValues, symFloatValues;
};

class ExportReader {
public:
    ExportReader(std::string_view text, const std::string &fileName) : m_text(text), m_file(fileName) { }

    Result<GraphFile> run();

private:
    bool fail(const std::string &path, std::string message);
    int lineOf(const std::string &path) const;
    void indexPositions(const std::string &graphPath);

    bool readGraph(
        const Json &graphJson, const std::string &path, Graph &graph, int depth, const std::vector<InputSpec> *specs);
    bool readInput(const Json &input, size_t index, Scope &scope, const std::vector<InputSpec> *specs);
    bool readNode(const Json &nodeJson, const std::string &path, Scope &scope);
    bool readOutput(const Json &graphJson, Scope &scope);
    bool emitGetitems(
        Node *parent, const std::vector<const Json *> &items, Scope &scope, const Json &metadata, int line, int depth);
    bool convert(const Json &arg, const std::string &path, Scope &scope, Argument &out, int depth);
    bool nodeRef(const Json &nameJson, const std::string &path, Scope &scope, Argument &out);
    std::optional<ValueMeta> metaFor(const std::string &name, const Scope &scope) const;

    std::string_view m_text;
    const std::string &m_file;
    std::optional<Error> m_error;
    std::vector<Error> m_warnings;
    std::unique_ptr<TextPosition> m_positions;
    std::unordered_map<std::string, size_t> m_offsets; // graphs, nodes, inputs and outputs by JSON path
    std::unordered_map<std::string, size_t> m_specByName; // top-level input specs by argument name
};

bool ExportReader::fail(const std::string &path, std::string message)
{
    if (m_error)
        return false;
    // The innermost enclosing value that exists: a missing key is reported at its object.
    JsonLocator locator(m_text);
    std::string p = path;
    size_t offset = JsonLocator::npos;
    while (true) {
        offset = locator.find(p);
        if (offset != JsonLocator::npos || p.empty())
            break;
        size_t cut = p.find_last_of(".[");
        p.resize(cut == std::string::npos ? 0 : cut);
    }
    int line = 0, column = 0;
    if (offset != JsonLocator::npos) {
        if (!m_positions)
            m_positions = std::make_unique<TextPosition>(m_text);
        std::tie(line, column) = m_positions->lineColumn(offset);
    }
    m_error = Error{m_file, line, column, std::move(message)};
    return false;
}

int ExportReader::lineOf(const std::string &path) const
{
    auto it = m_offsets.find(path);
    if (it == m_offsets.end() || !m_positions)
        return 0;
    return m_positions->lineColumn(it->second).first;
}

// One scan records where every graph, node, graph input and output list starts, for NodeMeta::dumpLine.
void ExportReader::indexPositions(const std::string &graphPath)
{
    m_positions = std::make_unique<TextPosition>(m_text);
    // A Graph's own "inputs"/"outputs" sit directly under a key ("graph."); a Node's under "nodes[i].".
    auto ownedByGraph = [](std::string_view owner) {
        return owner.empty() || (owner.back() == '.' && (owner.size() < 2 || owner[owner.size() - 2] != ']'));
    };
    JsonLocator(m_text).scan([&](const std::string &path, size_t offset) {
        if (path == graphPath) {
            m_offsets.emplace(path, offset);
        } else if (endsWith(path, "outputs")) {
            if (ownedByGraph(std::string_view(path).substr(0, path.size() - 7)))
                m_offsets.emplace(path, offset);
        } else if (!path.empty() && path.back() == ']' && path.rfind('[') != std::string::npos) {
            // (A key may itself end in ']'; only an index has a '[' before it.)
            std::string_view owner(path.data(), path.rfind('['));
            if (endsWith(owner, "nodes")
                || (endsWith(owner, "inputs") && ownedByGraph(owner.substr(0, owner.size() - 6))))
                m_offsets.emplace(path, offset);
        }
        return true;
    });
}

std::optional<ValueMeta> ExportReader::metaFor(const std::string &name, const Scope &scope) const
{
    if (auto it = scope.tensorValues.find(name); it != scope.tensorValues.end())
        return tensorMeta(*it->second);
    if (auto it = scope.symIntValues.find(name); it != scope.symIntValues.end())
        return ValueMeta::ofSym(ValueMeta::Kind::SymInt, symText(*it->second));
    if (auto it = scope.symBoolValues.find(name); it != scope.symBoolValues.end())
        return ValueMeta::ofSym(ValueMeta::Kind::SymBool, symText(*it->second));
    if (auto it = scope.symFloatValues.find(name); it != scope.symFloatValues.end())
        return ValueMeta::ofSym(ValueMeta::Kind::SymFloat, symText(*it->second));
    return std::nullopt;
}

bool ExportReader::nodeRef(const Json &nameJson, const std::string &path, Scope &scope, Argument &out)
{
    if (!nameJson.isString())
        return fail(path, "expected a value name (a string), found " + describe(nameJson));
    auto it = scope.values.find(nameJson.toString());
    if (it == scope.values.end())
        return fail(path,
            "expected a value defined earlier in the graph, found unknown name "
                + Json(nameJson.toString().substr(0, 80)).dump());
    out = Argument::ofNode(it->second);
    return true;
}

bool ExportReader::convert(const Json &arg, const std::string &path, Scope &scope, Argument &out, int depth)
{
    if (depth > kMaxArgumentDepth)
        return fail(path,
            "expected arguments nested at most " + std::to_string(kMaxArgumentDepth)
                + " levels deep, found deeper nesting");
    std::string_view kind;
    const Json *vp = nullptr;
    if (!unionOf(arg, kind, vp)) {
        out = Argument::ofText(Argument::Kind::Verbatim, arg.dump());
        return true;
    }
    const Json &v = *vp;
    const std::string vpath = path + "." + std::string(kind);
    auto verbatim = [&]() {
        out = Argument::ofText(Argument::Kind::Verbatim, arg.dump());
        return true;
    };
    // Lists whose items convert one by one with `item`.
    auto list = [&](auto &&item) {
        if (!v.isArray())
            return verbatim();
        std::vector<Argument> items;
        items.reserve(v.size());
        for (size_t i = 0; i < v.size(); ++i) {
            Argument a;
            if (!item(v.items()[i], vpath + "[" + std::to_string(i) + "]", a))
                return false;
            items.push_back(std::move(a));
        }
        out = Argument::list(std::move(items));
        return true;
    };
    auto intItem = [](const Json &j, const std::string &, Argument &a) {
        a = j.isInt() ? Argument::ofInt(j.toInt()) : Argument::ofText(Argument::Kind::Verbatim, j.dump());
        return true;
    };
    auto floatItem = [](const Json &j, const std::string &, Argument &a) {
        auto d = floatValue(j);
        a = d ? Argument::ofFloat(*d) : Argument::ofText(Argument::Kind::Verbatim, j.dump());
        return true;
    };
    auto boolItem = [](const Json &j, const std::string &, Argument &a) {
        a = j.isBool() ? Argument::ofBool(j.toBool()) : Argument::ofText(Argument::Kind::Verbatim, j.dump());
        return true;
    };
    auto stringItem = [](const Json &j, const std::string &, Argument &a) {
        a = j.isString() ? Argument::ofString(j.toString()) : Argument::ofText(Argument::Kind::Verbatim, j.dump());
        return true;
    };
    auto tensorItem
        = [&](const Json &j, const std::string &p, Argument &a) { return nodeRef(j["name"], p + ".name", scope, a); };
    auto unionItem
        = [&](const Json &j, const std::string &p, Argument &a) { return convert(j, p, scope, a, depth + 1); };
    // SymIntArgument / SymBoolArgument / SymFloatArgument: a named node or a literal.
    auto symItem = [&](const Json &j, const std::string &p, Argument &a) {
        std::string_view k;
        const Json *x = nullptr;
        if (!unionOf(j, k, x)) {
            a = Argument::ofText(Argument::Kind::Verbatim, j.dump());
            return true;
        }
        if (k == "as_name")
            return nodeRef(*x, p + ".as_name", scope, a);
        if (k == "as_int")
            return intItem(*x, p, a);
        if (k == "as_bool")
            return boolItem(*x, p, a);
        if (k == "as_float")
            return floatItem(*x, p, a);
        a = Argument::ofText(Argument::Kind::Verbatim, j.dump());
        return true;
    };

    if (kind == "as_none") {
        out = Argument::none();
        return true;
    }
    if (kind == "as_tensor" || kind == "as_custom_obj") {
        const Json &name = v["name"];
        if (kind == "as_custom_obj" && (!name.isString() || !scope.values.count(name.toString()))) {
            // A script object that is a constant of the program rather than a graph input.
            out = Argument::ofText(Argument::Kind::Verbatim, name.isString() ? name.toString() : arg.dump());
            return true;
        }
        return nodeRef(name, vpath + ".name", scope, out);
    }
    if (kind == "as_tensors")
        return list(tensorItem);
    if (kind == "as_optional_tensors")
        return list(unionItem);
    if (kind == "as_optional_tensor")
        return convert(v, vpath, scope, out, depth + 1);
    if (kind == "as_int")
        return v.isInt() ? (out = Argument::ofInt(v.toInt()), true) : verbatim();
    if (kind == "as_ints")
        return list(intItem);
    if (kind == "as_float") {
        auto d = floatValue(v);
        return d ? (out = Argument::ofFloat(*d), true) : verbatim();
    }
    if (kind == "as_floats")
        return list(floatItem);
    if (kind == "as_string")
        return v.isString() ? (out = Argument::ofString(v.toString()), true) : verbatim();
    if (kind == "as_strings")
        return list(stringItem);
    if (kind == "as_bool")
        return v.isBool() ? (out = Argument::ofBool(v.toBool()), true) : verbatim();
    if (kind == "as_bools")
        return list(boolItem);
    if (kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float")
        return symItem(v, vpath, out);
    if (kind == "as_sym_ints" || kind == "as_sym_bools" || kind == "as_sym_floats")
        return list(symItem);
    if (kind == "as_scalar_type") {
        const char *name = enumName(kScalarTypes, v);
        return name ? (out = Argument::ofText(Argument::Kind::Dtype, name), true) : verbatim();
    }
    if (kind == "as_layout") {
        const char *name = enumName(kLayouts, v);
        return name ? (out = Argument::ofText(Argument::Kind::Layout, name), true) : verbatim();
    }
    if (kind == "as_memory_format") {
        const char *name = enumName(kMemoryFormats, v);
        return name ? (out = Argument::ofText(Argument::Kind::MemoryFormat, name), true) : verbatim();
    }
    if (kind == "as_device") {
        if (!v["type"].isString() || v["type"].toString().empty())
            return verbatim();
        out = Argument::ofText(Argument::Kind::Device, deviceText(v));
        return true;
    }
    if (kind == "as_operator")
        return v.isString()
            ? (out = Argument::ofText(Argument::Kind::Verbatim, normalizeExportTarget(v.toString())), true)
            : verbatim();
    if (kind == "as_complex") {
        auto re = floatValue(v["real"]), im = floatValue(v["imag"]);
        if (!re || !im)
            return verbatim();
        out = Argument::ofText(Argument::Kind::Verbatim, complexRepr(*re, *im));
        return true;
    }
    if (kind == "as_string_to_argument") {
        if (!v.isObject())
            return verbatim();
        std::vector<std::pair<std::string, Argument>> entries;
        for (const auto &m : v.members()) {
            Argument a;
            if (!convert(m.second, vpath + "." + m.first, scope, a, depth + 1))
                return false;
            entries.emplace_back(m.first, std::move(a));
        }
        out = Argument::dict(std::move(entries));
        return true;
    }
    if (kind == "as_int_lists") {
        return list([&](const Json &j, const std::string &, Argument &a) {
            std::vector<Argument> inner;
            for (const auto &x : j.items())
                inner.push_back(
                    x.isInt() ? Argument::ofInt(x.toInt()) : Argument::ofText(Argument::Kind::Verbatim, x.dump()));
            a = j.isArray() ? Argument::list(std::move(inner)) : Argument::ofText(Argument::Kind::Verbatim, j.dump());
            return true;
        });
    }
    if (kind == "as_nested_tensors") {
        return list([&](const Json &j, const std::string &p, Argument &a) {
            if (!j.isArray())
                return tensorItem(j, p, a);
            std::vector<Argument> inner;
            for (size_t i = 0; i < j.size(); ++i) {
                Argument x;
                if (!tensorItem(j.items()[i], p + "[" + std::to_string(i) + "]", x))
                    return false;
                inner.push_back(std::move(x));
            }
            a = Argument::list(std::move(inner));
            return true;
        });
    }
    if (kind == "as_graph") {
        // As the deserializer does: the nested graph becomes an attribute of the parent module, used
        // through a get_attr node of the same name.
        const Json *graphJson = v.find("graph");
        if (!graphJson || !graphJson->isObject())
            return fail(vpath, "expected a GraphArgument with a \"graph\" object, found " + describe(v));
        if (scope.depth + 1 > kMaxGraphNesting)
            return fail(vpath,
                "expected graphs nested at most " + std::to_string(kMaxGraphNesting)
                    + " levels deep, found deeper nesting");
        std::string attr = scope.graph->uniqueName(v["name"].isString() ? v["name"].toString() : "subgraph");
        auto sub = std::make_unique<Graph>();
        if (!readGraph(*graphJson, vpath + ".graph", *sub, scope.depth + 1, nullptr))
            return false;
        scope.graph->addSubgraph(attr, std::move(sub));
        out = Argument::ofNode(scope.graph->append(OpKind::GetAttr, attr, attr));
        return true;
    }
    return verbatim();
}

bool ExportReader::readInput(const Json &input, size_t index, Scope &scope, const std::vector<InputSpec> *specs)
{
    const std::string path = scope.path + ".inputs[" + std::to_string(index) + "]";
    std::string_view kind;
    const Json *v = nullptr;
    std::string name;
    Json literal;
    bool isLiteral = false;
    bool unknown = false;
    const InputSpec *spec = nullptr;
    if (specs && index < specs->size())
        spec = &(*specs)[index];
    if (unionOf(input, kind, v)) {
        if ((kind == "as_tensor" || kind == "as_custom_obj" || kind == "as_token") && (*v)["name"].isString()) {
            name = (*v)["name"].toString();
        } else if ((kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float")
            && (*v)["as_name"].isString()) {
            name = (*v)["as_name"].toString();
        } else if (kind == "as_int" || kind == "as_float" || kind == "as_bool" || kind == "as_none"
            || kind == "as_string" || kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float") {
            // A constant input: named by its input spec, as the deserializer does.
            isLiteral = true;
            literal = kind == "as_none" ? Json() : *v;
            name = spec && !spec->argName.empty() ? spec->argName : "arg" + std::to_string(index);
        }
    }
    if (name.empty()) {
        unknown = true;
        m_warnings.push_back(Error{m_file, lineOf(path), 0,
            "graph input " + std::to_string(index) + " is not a tensor, symbol or constant; kept as placeholder arg"
                + std::to_string(index)});
        name = "arg" + std::to_string(index);
    }
    std::string nodeName = scope.graph->uniqueName(name);
    Node *node = scope.graph->append(OpKind::Placeholder, nodeName, nodeName);
    scope.values[name] = node;
    NodeMeta &meta = node->meta();
    meta.val = metaFor(name, scope);
    meta.dumpLine = lineOf(path);
    if (isLiteral)
        meta.extra.set("val", literal);
    if (unknown)
        meta.extra.set("serialized_input", input);
    if (specs) {
        // Specs name their argument; fall back to position for ones that do not.
        const InputSpec *match = nullptr;
        if (auto it = m_specByName.find(name); it != m_specByName.end())
            match = &(*specs)[it->second];
        if (!match && spec && spec->argName.empty())
            match = spec;
        if (match)
            meta.extra.set("input_spec", match->extra);
    }
    return true;
}

bool ExportReader::emitGetitems(
    Node *parent, const std::vector<const Json *> &items, Scope &scope, const Json &metadata, int line, int depth)
{
    if (depth > kMaxArgumentDepth)
        return fail(scope.path,
            "expected node outputs nested at most " + std::to_string(kMaxArgumentDepth)
                + " levels deep, found deeper nesting");
    std::vector<ValueMeta> vals;
    bool allVals = true;
    for (size_t idx = 0; idx < items.size(); ++idx) {
        const Json &item = *items[idx];
        std::string name;
        const Json *list = nullptr;
        std::string_view kind;
        const Json *v = nullptr;
        if (item["name"].isString()) {
            name = item["name"].toString(); // a bare TensorArgument, as inside as_tensors
        } else if (unionOf(item, kind, v)) {
            if (kind == "as_optional_tensor")
                unionOf(*v, kind, v); // look through OptionalTensorArgument
            if (kind == "as_tensor" && (*v)["name"].isString())
                name = (*v)["name"].toString();
            else if ((kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float")
                && (*v)["as_name"].isString())
                name = (*v)["as_name"].toString();
            else if (v->isArray())
                list = v;
        }
        if (!name.empty()) {
            Node *g = scope.graph->append(OpKind::CallFunction, scope.graph->uniqueName(name), "operator.getitem",
                {Argument::ofNode(parent), Argument::ofInt(int64_t(idx))});
            scope.values[name] = g;
            applyMetadata(g->meta(), metadata);
            g->meta().val = metaFor(name, scope);
            g->meta().dumpLine = line;
            if (g->meta().val)
                vals.push_back(*g->meta().val);
            else
                allVals = false;
        } else if (list) {
            Node *g = scope.graph->append(OpKind::CallFunction, scope.graph->uniqueName("getitem"), "operator.getitem",
                {Argument::ofNode(parent), Argument::ofInt(int64_t(idx))});
            applyMetadata(g->meta(), metadata);
            g->meta().dumpLine = line;
            std::vector<const Json *> inner;
            for (const auto &x : list->items())
                inner.push_back(&x);
            if (!emitGetitems(g, inner, scope, metadata, line, depth + 1))
                return false;
            if (g->meta().val)
                vals.push_back(*g->meta().val);
            else
                allVals = false;
        } else if (kind == "as_none") {
            // An undefined tensor among several outputs: the deserializer still gives it a getitem, named "as_none".
            Node *g = scope.graph->append(OpKind::CallFunction, scope.graph->uniqueName("as_none"), "operator.getitem",
                {Argument::ofNode(parent), Argument::ofInt(int64_t(idx))});
            applyMetadata(g->meta(), metadata);
            g->meta().dumpLine = line;
            allVals = false;
        } else {
            allVals = false; // a literal: no value to name
        }
    }
    if (allVals) {
        ValueMeta tuple;
        tuple.kind = ValueMeta::Kind::Tuple;
        tuple.items = std::move(vals);
        parent->meta().val = std::move(tuple);
    }
    return true;
}

bool ExportReader::readNode(const Json &nodeJson, const std::string &path, Scope &scope)
{
    if (!nodeJson.isObject())
        return fail(path, "expected a Node object, found " + describe(nodeJson));
    const Json *targetJson = nodeJson.find("target");
    if (!targetJson)
        return fail(path, "expected \"target\" in the node, found " + describe(nodeJson));
    if (!targetJson->isString() || targetJson->toString().empty())
        return fail(path + ".target", "expected the node's target as an operator name, found " + describe(*targetJson));
    const std::string target = normalizeExportTarget(targetJson->toString());
    const Json &inputs = nodeJson["inputs"];
    const Json &outputs = nodeJson["outputs"];
    const Json &metadata = nodeJson["metadata"];
    if (!inputs.isNull() && !inputs.isArray())
        return fail(path + ".inputs", "expected the node's inputs as an array, found " + describe(inputs));
    if (!outputs.isNull() && !outputs.isArray())
        return fail(path + ".outputs", "expected the node's outputs as an array, found " + describe(outputs));
    const int line = lineOf(path);

    // Python callables (operator.*, math.*, torch.sym_*) take everything positionally; HOPs name their
    // keyword inputs and leave positional names empty; OpOverloads say which is which in `kind`.
    const bool pythonFunction = !startsWith(target, "torch.ops.");
    const bool hop = startsWith(target, "torch.ops.higher_order.");
    std::vector<Argument> args;
    Kwargs kwargs;
    std::unordered_map<std::string, size_t> kwargIndex;
    bool keywordSeen = false;
    const size_t firstCreated = scope.graph->size();
    for (size_t i = 0; i < inputs.size(); ++i) {
        const Json &in = inputs.items()[i];
        const std::string inPath = path + ".inputs[" + std::to_string(i) + "]";
        if (!in.isObject())
            return fail(inPath, "expected a NamedArgument object, found " + describe(in));
        const Json *argJson = in.find("arg");
        if (!argJson)
            return fail(inPath, "expected \"arg\" in the NamedArgument, found " + describe(in));
        Argument a;
        if (!convert(*argJson, inPath + ".arg", scope, a, 0))
            return false;
        const std::string &name = in["name"].toString();
        const int64_t kind = in["kind"].isInt() ? in["kind"].toInt() : 0;
        bool positional;
        if (pythonFunction || name.empty())
            positional = true;
        else if (kind == 1)
            positional = true;
        else if (kind == 2)
            positional = false;
        else if (hop)
            positional = false;
        else
            positional = !keywordSeen; // no kind: positional until the first keyword (documented in the header)
        if (positional) {
            args.push_back(std::move(a));
        } else {
            keywordSeen = true;
            // A repeated keyword replaces the earlier one, as in the deserializer's dict.
            auto [it, fresh] = kwargIndex.emplace(name, kwargs.size());
            if (fresh)
                kwargs.emplace_back(name, std::move(a));
            else
                kwargs[it->second].second = std::move(a);
        }
    }
    const size_t lastCreated = scope.graph->size(); // get_attr nodes of as_graph inputs lie in between

    // Naming, as the deserializer does: a node with one named output takes its name; several outputs
    // (or a list) give the node its serialized Node.name (torch 2.x writes one; without it, the name FX derives
    // from the target) and operator.getitem nodes named after each output.
    std::string name;
    std::vector<const Json *> getitems;
    bool noneOutput = false;
    if (outputs.size() == 1) {
        const Json &o = outputs.items()[0];
        std::string_view kind;
        const Json *v = nullptr;
        if (unionOf(o, kind, v)) {
            if (kind == "as_tensor" && (*v)["name"].isString())
                name = (*v)["name"].toString();
            else if ((kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float")
                && (*v)["as_name"].isString())
                name = (*v)["as_name"].toString();
            else if (kind == "as_none")
                noneOutput = true;
            else if (v->isArray())
                for (const auto &x : v->items())
                    getitems.push_back(&x);
        }
    } else if (outputs.size() > 1) {
        for (const auto &x : outputs.items())
            getitems.push_back(&x);
    }
    // A HOP with one tensor or symbol output returns a one-element tuple unless the node is marked
    // is_hop_single_tensor_return (torch writes true or false for every HOP; the deserializer reads an absent or
    // null flag as false): the node gets an operator.getitem(node, 0) named after the output, as torch.cond does.
    if (hop && !name.empty() && !nodeJson["is_hop_single_tensor_return"].toBool(false)) {
        getitems.push_back(&outputs.items()[0]);
        name.clear();
    }
    const Json &serializedName = nodeJson["name"];
    std::string nodeName;
    if (!name.empty())
        nodeName = scope.graph->uniqueName(name);
    else if (noneOutput) // the deserializer renames it "<target>_unused" whatever its serialized name
        nodeName = scope.graph->uniqueName(defaultNodeName(target) + "_unused");
    else if (serializedName.isString() && !serializedName.toString().empty())
        nodeName = scope.graph->uniqueName(serializedName.toString());
    else
        nodeName = scope.graph->uniqueName(defaultNodeName(target));
    Node *node = scope.graph->append(OpKind::CallFunction, nodeName, target, std::move(args), std::move(kwargs));
    if (!name.empty()) {
        scope.values[name] = node;
        node->meta().val = metaFor(name, scope);
    }
    applyMetadata(node->meta(), metadata);
    node->meta().dumpLine = line;
    // The schema gives nested graphs no metadata; the deserializer lends them the HOP's.
    for (size_t i = firstCreated; i < lastCreated; ++i) {
        Node *created = scope.graph->nodes()[i].get();
        if (created->op() == OpKind::GetAttr) {
            applyMetadata(created->meta(), metadata);
            created->meta().dumpLine = line;
        }
    }
    if (!getitems.empty())
        return emitGetitems(node, getitems, scope, metadata, line, 0);
    return true;
}

bool ExportReader::readOutput(const Json &graphJson, Scope &scope)
{
    const Json &outputs = graphJson["outputs"];
    const std::string path = scope.path + ".outputs";
    if (!outputs.isNull() && !outputs.isArray())
        return fail(path, "expected the graph's outputs as an array, found " + describe(outputs));
    std::vector<Argument> values;
    for (size_t i = 0; i < outputs.size(); ++i) {
        Argument a;
        if (!convert(outputs.items()[i], path + "[" + std::to_string(i) + "]", scope, a, 0))
            return false;
        values.push_back(std::move(a));
    }
    // The deserializer returns a tuple unless the graph is marked as returning one bare tensor.
    const bool single = graphJson["is_single_tensor_return"].toBool(false) && values.size() == 1;
    std::optional<ValueMeta> val;
    if (single) {
        if (values[0].isNode())
            val = values[0].node()->meta().val;
    } else {
        ValueMeta tuple;
        tuple.kind = ValueMeta::Kind::Tuple;
        bool all = true;
        for (const auto &a : values) {
            if (a.isNode() && a.node()->meta().val)
                tuple.items.push_back(*a.node()->meta().val);
            else
                all = false;
        }
        if (all)
            val = std::move(tuple);
    }
    Argument result = single ? values[0] : Argument::tuple(std::move(values));
    Node *out = scope.graph->append(OpKind::Output, scope.graph->uniqueName("output"), "output", {std::move(result)});
    out->meta().val = std::move(val);
    out->meta().dumpLine = lineOf(path);
    return true;
}

bool ExportReader::readGraph(
    const Json &graphJson, const std::string &path, Graph &graph, int depth, const std::vector<InputSpec> *specs)
{
    if (!graphJson.isObject())
        return fail(path, "expected a Graph object, found " + describe(graphJson));
    Scope scope;
    scope.graph = &graph;
    scope.path = path;
    scope.depth = depth;
    auto index = [&](const char *key, std::unordered_map<std::string, const Json *> &map) {
        for (const auto &m : graphJson[key].members())
            map[m.first] = &m.second;
    };
    index("tensor_values", scope.tensorValues);
    index("sym_int_values", scope.symIntValues);
    index("sym_bool_values", scope.symBoolValues);
    index("sym_float_values", scope.symFloatValues);
    graph.setSymbolHints(symbolHints(graphJson));

    const Json &inputs = graphJson["inputs"];
    if (!inputs.isNull() && !inputs.isArray())
        return fail(path + ".inputs", "expected the graph's inputs as an array, found " + describe(inputs));
    for (size_t i = 0; i < inputs.size(); ++i)
        if (!readInput(inputs.items()[i], i, scope, specs))
            return false;

    const Json &nodes = graphJson["nodes"];
    if (!nodes.isNull() && !nodes.isArray())
        return fail(path + ".nodes", "expected the graph's nodes as an array, found " + describe(nodes));
    for (size_t i = 0; i < nodes.size(); ++i)
        if (!readNode(nodes.items()[i], path + ".nodes[" + std::to_string(i) + "]", scope))
            return false;
    return readOutput(graphJson, scope);
}

Result<GraphFile> ExportReader::run()
{
    auto parsed = Json::parse(m_text, m_file, kMaxJsonDepth);
    if (!parsed)
        return parsed.error();
    const Json &root = parsed.value();
    if (!root.isObject())
        return Error{m_file, 1, 1, "expected a torch.export ExportedProgram object, found " + describe(root)};

    // An ExportedProgram, or (from hand-made or older tools) its GraphModule or bare Graph.
    const Json *gm = nullptr;
    std::string gmPath;
    const Json *graphJson = nullptr;
    std::string graphPath;
    if (const Json *g = root.find("graph_module")) {
        if (!g->isObject()) {
            fail("graph_module", "expected \"graph_module\" to be a GraphModule object, found " + describe(*g));
            return *m_error;
        }
        gm = g;
        gmPath = "graph_module";
    } else if (root.find("graph")) {
        gm = &root;
    } else if (root.find("nodes")) {
        graphJson = &root;
    } else {
        fail("", "expected a torch.export ExportedProgram (a \"graph_module\" key), found " + describe(root));
        return *m_error;
    }
    if (gm) {
        graphPath = gmPath.empty() ? "graph" : gmPath + ".graph";
        graphJson = gm->find("graph");
        if (!graphJson) {
            fail(gmPath, "expected \"graph\" in the GraphModule, found " + describe(*gm));
            return *m_error;
        }
    }

    const Json &version = root["schema_version"];
    if (version["major"].isInt() && version["major"].toInt() > kKnownSchemaMajor)
        m_warnings.push_back(Error{m_file, 0, 0,
            "schema version " + std::to_string(version["major"].toInt()) + "."
                + (version["minor"].isInt() ? std::to_string(version["minor"].toInt()) : std::string("?"))
                + " is newer than " + std::to_string(kKnownSchemaMajor) + ".x; unknown fields are kept verbatim"});

    indexPositions(graphPath);
    std::vector<InputSpec> specs;
    if (gm)
        specs = readInputSpecs((*gm)["signature"]);
    for (size_t i = 0; i < specs.size(); ++i)
        if (!specs[i].argName.empty())
            m_specByName.emplace(specs[i].argName, i);

    auto graph = std::make_unique<Graph>();
    if (!readGraph(*graphJson, graphPath, *graph, 0, gm ? &specs : nullptr))
        return *m_error;

    // Program-level information has no place in an FX graph; the output node keeps it.
    if (Node *out = graph->outputNode()) {
        Json &extra = out->meta().extra;
        if (const Json *rc = root.find("range_constraints"))
            extra.set("range_constraints", *rc);
        if (gm) {
            for (const char *key : {"signature", "module_call_graph", "treespec_namedtuple_fields"})
                if (const Json *j = gm->find(key))
                    extra.set(key, *j);
            if (const Json *j = gm->find("metadata"); j && j->size())
                extra.set("graph_module_metadata", *j);
        }
        for (const char *key : {"schema_version", "opset_version", "torch_version", "verifiers", "guards_code"})
            if (const Json *j = root.find(key))
                extra.set(key, *j);
    }

    GraphFile file;
    file.path = m_file;
    file.format = format::ExportJson;
    NamedGraph named;
    named.name = "forward";
    named.kind = "ExportedProgram";
    named.graph = std::move(graph);
    named.line = lineOf(graphPath);
    file.graphs.push_back(std::move(named));
    file.warnings = std::move(m_warnings);
    return file;
}

} // namespace

Result<GraphFile> parseExportJson(std::string_view text, const std::string &fileName)
{
    return ExportReader(text, fileName).run();
}

} // namespace fxs
