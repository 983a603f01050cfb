#include "fxscope_json.h"

#include "../util/text_position.h"

#include <cmath>
#include <map>
#include <unordered_map>

namespace fxs {

// Format version 1:
// {"fxscope": 1, "graphs": [{"name", "kind", "graph": GRAPH}]}
// GRAPH = {"nodes": [{"name", "op", "target", "args": [ARG], "kwargs": {k: ARG}, "meta": {...}}],
//          "subgraphs": [{"name", "graph": GRAPH}], "symbol_hints": {"s0": 8}}
// ARG: null/bool/int/float/string map to JSON directly (floats always carry a '.' or exponent);
// every other kind is a one-key object: {"node": name}, {"list": [...]}, {"tuple": [...]},
// {"dict": [[key, ARG], ...]}, {"dtype": s}, {"device": s}, {"layout": s}, {"memory_format": s},
// {"slice": [a, b, c]}, {"ellipsis": true}, {"sym": s}, {"repr": s}, {"float": "inf"|"-inf"|"nan"}.

namespace {

constexpr int kFormatVersion = 1;
constexpr int kMaxGraphNesting = 64;

Json dimsToJson(const std::vector<SymInt> &dims)
{
    Json a = Json::array();
    for (const auto &d : dims)
        a.push(d.isConcrete() ? Json(d.value) : Json(d.expr));
    return a;
}

Json valueMetaToJson(const ValueMeta &v)
{
    switch (v.kind) {
    case ValueMeta::Kind::Tensor: {
        Json t = Json::object();
        t.set("dtype", v.tensor.dtype);
        t.set("shape", dimsToJson(v.tensor.shape));
        if (v.tensor.hasStride)
            t.set("stride", dimsToJson(v.tensor.stride));
        t.set("device", v.tensor.device);
        return Json::object({{"tensor", std::move(t)}});
    }
    case ValueMeta::Kind::SymInt: return Json::object({{"sym_int", v.expr}});
    case ValueMeta::Kind::SymFloat: return Json::object({{"sym_float", v.expr}});
    case ValueMeta::Kind::SymBool: return Json::object({{"sym_bool", v.expr}});
    case ValueMeta::Kind::Tuple: {
        Json items = Json::array();
        for (const auto &item : v.items)
            items.push(valueMetaToJson(item));
        return Json::object({{"tuple", std::move(items)}});
    }
    }
    return Json();
}

} // namespace

Json argumentToJson(const Argument &a)
{
    using K = Argument::Kind;
    auto sequence = [](const Argument &arg) {
        Json items = Json::array();
        for (const auto &item : arg.items())
            items.push(argumentToJson(item));
        return items;
    };
    switch (a.kind()) {
    case K::None: return Json();
    case K::Bool: return Json(a.toBool());
    case K::Int: return Json(a.toInt());
    case K::Float:
        if (std::isfinite(a.toDouble()))
            return Json(a.toDouble());
        return Json::object({{"float", formatDouble(a.toDouble())}});
    case K::String: return Json(a.text());
    case K::NodeRef: return Json::object({{"node", a.node() ? a.node()->name() : std::string()}});
    case K::List: return Json::object({{"list", sequence(a)}});
    case K::Tuple: return Json::object({{"tuple", sequence(a)}});
    case K::Slice: return Json::object({{"slice", sequence(a)}});
    case K::Dict: {
        Json entries = Json::array();
        for (size_t i = 0; i < a.items().size(); ++i)
            entries.push(Json::array({Json(a.keys()[i]), argumentToJson(a.items()[i])}));
        return Json::object({{"dict", std::move(entries)}});
    }
    case K::Ellipsis: return Json::object({{"ellipsis", true}});
    case K::Dtype: return Json::object({{"dtype", a.text()}});
    case K::Device: return Json::object({{"device", a.text()}});
    case K::Layout: return Json::object({{"layout", a.text()}});
    case K::MemoryFormat: return Json::object({{"memory_format", a.text()}});
    case K::SymExpr: return Json::object({{"sym", a.text()}});
    case K::Verbatim: return Json::object({{"repr", a.text()}});
    }
    return Json();
}

Json metaToJson(const NodeMeta &m)
{
    Json j = Json::object();
    if (m.val)
        j.set("val", valueMetaToJson(*m.val));
    if (m.source)
        j.set("source",
            Json::object({{"file", m.source->file}, {"line", m.source->line}, {"function", m.source->function},
                {"code", m.source->code}}));
    if (!m.stackTrace.empty())
        j.set("stack_trace", m.stackTrace);
    if (!m.nnModuleStack.empty()) {
        Json stack = Json::array();
        for (const auto &e : m.nnModuleStack)
            stack.push(Json::object({{"key", e.key}, {"path", e.path}, {"type", e.type}}));
        j.set("nn_module_stack", std::move(stack));
    }
    if (!m.typeAnnotation.empty())
        j.set("type", m.typeAnnotation);
    if (m.extra.isObject() && m.extra.size())
        j.set("extra", m.extra);
    return j;
}

namespace {

// Reads JSON back into a graph; every error points at the offending JSON value.
class Reader {
public:
    Reader(std::string_view text, const std::string &file) : m_position(text), m_file(file) { }

    Error error(const Json &at, const std::string &message) const
    {
        auto [line, col] = m_position.lineColumn(at.offset());
        return Error{m_file, line, col, message};
    }

    static std::string typeName(const Json &j)
    {
        switch (j.type()) {
        case Json::Type::Null: return "null";
        case Json::Type::Bool: return "a boolean";
        case Json::Type::Int:
        case Json::Type::Float: return "a number";
        case Json::Type::String: return "a string";
        case Json::Type::Array: return "an array";
        case Json::Type::Object: return "an object";
        }
        return "?";
    }

    Result<std::unique_ptr<Graph>> readGraph(const Json &j, int depth)
    {
        if (depth > kMaxGraphNesting)
            return error(
                j, "expected nested graphs at most " + std::to_string(kMaxGraphNesting) + " deep, found deeper");
        if (!j.isObject() || !j["nodes"].isArray())
            return error(j, "expected a graph object with a \"nodes\" array, found " + typeName(j));
        auto graph = std::make_unique<Graph>();
        for (const Json &jn : j["nodes"].items()) {
            auto status = readNode(*graph, jn);
            if (!status)
                return status.error();
        }
        for (const Json &js : j["subgraphs"].items()) {
            if (!js["name"].isString())
                return error(js, "expected a subgraph object with a \"name\" string, found " + typeName(js));
            auto sub = readGraph(js["graph"], depth + 1);
            if (!sub)
                return sub.error();
            graph->addSubgraph(js["name"].toString(), std::move(sub.value()));
        }
        if (const Json *hints = j.find("symbol_hints")) {
            if (!hints->isObject())
                return error(*hints,
                    "expected \"symbol_hints\" to be an object of symbol sizes ({\"s0\": 8}), found "
                        + typeName(*hints));
            std::map<std::string, int64_t> values;
            for (const auto &[name, value] : hints->members()) {
                if (!value.isInt())
                    return error(
                        value, "expected the hint of \"" + name + "\" to be an integer, found " + typeName(value));
                values[name] = value.toInt();
            }
            graph->setSymbolHints(std::move(values));
        }
        return graph;
    }

    Result<Argument> readLiteral(const Json &j)
    {
        Graph noNodes; // a node reference is an error
        return readArgument(noNodes, j);
    }

private:
    Status readNode(Graph &graph, const Json &jn)
    {
        if (!jn.isObject())
            return error(jn, "expected a node object, found " + typeName(jn));
        const Json &name = jn["name"];
        if (!name.isString() || name.toString().empty())
            return error(jn, "expected a node with a non-empty \"name\" string");
        if (graph.find(name.toString()))
            return error(name, "expected a unique node name, found '" + name.toString() + "' again");
        auto op = opKindFromName(jn["op"].toString());
        if (!op)
            return error(jn["op"],
                "expected op to be placeholder, get_attr, call_function, call_method, call_module or "
                "output, found "
                    + jn["op"].dump());
        if (!jn["target"].isString())
            return error(jn, "expected node '" + name.toString() + "' to have a \"target\" string");
        std::vector<Argument> args;
        for (const Json &ja : jn["args"].items()) {
            auto a = readArgument(graph, ja);
            if (!a)
                return a.error();
            args.push_back(std::move(a.value()));
        }
        Kwargs kwargs;
        for (const auto &kv : jn["kwargs"].members()) {
            auto a = readArgument(graph, kv.second);
            if (!a)
                return a.error();
            kwargs.emplace_back(kv.first, std::move(a.value()));
        }
        Node *node = graph.append(*op, name.toString(), jn["target"].toString(), std::move(args), std::move(kwargs));
        auto meta = readMeta(jn["meta"]);
        if (!meta)
            return meta.error();
        node->meta() = std::move(meta.value());
        return Ok{};
    }

    Result<Argument> readArgument(Graph &graph, const Json &j)
    {
        using K = Argument::Kind;
        switch (j.type()) {
        case Json::Type::Null: return Argument::none();
        case Json::Type::Bool: return Argument::ofBool(j.toBool());
        case Json::Type::Int: return Argument::ofInt(j.toInt());
        case Json::Type::Float: return Argument::ofFloat(j.toDouble());
        case Json::Type::String: return Argument::ofString(j.toString());
        case Json::Type::Array:
            return error(j, "expected an argument, found a bare array (lists are {\"list\": [...]})");
        case Json::Type::Object: break;
        }
        if (j.size() != 1)
            return error(j,
                "expected a one-key argument object such as {\"node\": name}, found " + std::to_string(j.size())
                    + " keys");
        const std::string &key = j.members()[0].first;
        const Json &v = j.members()[0].second;
        auto readItems = [&](std::vector<Argument> &out) -> Status {
            if (!v.isArray())
                return error(v, "expected an array for \"" + key + "\", found " + typeName(v));
            for (const Json &item : v.items()) {
                auto a = readArgument(graph, item);
                if (!a)
                    return a.error();
                out.push_back(std::move(a.value()));
            }
            return Ok{};
        };
        static const std::pair<const char *, K> textKinds[] = {
            {"dtype", K::Dtype},
            {"device", K::Device},
            {"layout", K::Layout},
            {"memory_format", K::MemoryFormat},
            {"sym", K::SymExpr},
            {"repr", K::Verbatim},
        };
        for (const auto &tk : textKinds)
            if (key == tk.first) {
                if (!v.isString())
                    return error(v, "expected a string for \"" + key + "\", found " + typeName(v));
                return Argument::ofText(tk.second, v.toString());
            }
        if (key == "node") {
            Node *n = graph.find(v.toString());
            if (!n)
                return error(v, "expected a reference to an earlier node, found unknown node " + v.dump());
            return Argument::ofNode(n);
        }
        if (key == "list" || key == "tuple") {
            std::vector<Argument> items;
            auto s = readItems(items);
            if (!s)
                return s.error();
            return key == "list" ? Argument::list(std::move(items)) : Argument::tuple(std::move(items));
        }
        if (key == "slice") {
            std::vector<Argument> items;
            auto s = readItems(items);
            if (!s)
                return s.error();
            if (items.size() != 3)
                return error(
                    v, "expected [start, stop, step] for a slice, found " + std::to_string(items.size()) + " items");
            return Argument::slice(items[0], items[1], items[2]);
        }
        if (key == "dict") {
            std::vector<std::pair<std::string, Argument>> entries;
            for (const Json &e : v.items()) {
                if (!e.isArray() || e.size() != 2 || !e.items()[0].isString())
                    return error(e, "expected a [key, value] pair in a dict, found " + typeName(e));
                auto a = readArgument(graph, e.items()[1]);
                if (!a)
                    return a.error();
                entries.emplace_back(e.items()[0].toString(), std::move(a.value()));
            }
            return Argument::dict(std::move(entries));
        }
        if (key == "ellipsis")
            return Argument::ellipsis();
        if (key == "float") {
            const std::string &s = v.toString();
            if (s == "inf")
                return Argument::ofFloat(HUGE_VAL);
            if (s == "-inf")
                return Argument::ofFloat(-HUGE_VAL);
            if (s == "nan")
                return Argument::ofFloat(std::nan(""));
            return error(v, "expected \"inf\", \"-inf\" or \"nan\", found " + v.dump());
        }
        return error(j,
            "expected an argument kind (node, list, tuple, dict, slice, dtype, device, layout, "
            "memory_format, sym, repr, float, ellipsis), found \""
                + key + "\"");
    }

    Result<std::vector<SymInt>> readDims(const Json &j)
    {
        if (!j.isArray())
            return error(j, "expected an array of dimensions, found " + typeName(j));
        std::vector<SymInt> dims;
        for (const Json &d : j.items()) {
            if (d.isInt())
                dims.push_back(SymInt{d.toInt(), {}});
            else if (d.isString())
                dims.push_back(SymInt::parse(d.toString()));
            else
                return error(d, "expected an integer or a symbolic expression string, found " + typeName(d));
        }
        return dims;
    }

    Result<ValueMeta> readValueMeta(const Json &j, int depth = 0)
    {
        if (!j.isObject() || j.size() != 1 || depth > kMaxGraphNesting)
            return error(
                j, "expected {\"tensor\": ...}, {\"sym_int\": ...} or {\"tuple\": [...]}, found " + typeName(j));
        const std::string &key = j.members()[0].first;
        const Json &v = j.members()[0].second;
        if (key == "tensor") {
            TensorMeta t;
            t.dtype = v["dtype"].toString();
            t.device = v["device"].toString();
            auto shape = readDims(v["shape"]);
            if (!shape)
                return shape.error();
            t.shape = std::move(shape.value());
            if (v.find("stride")) {
                auto stride = readDims(v["stride"]);
                if (!stride)
                    return stride.error();
                t.stride = std::move(stride.value());
                t.hasStride = true;
            }
            return ValueMeta::ofTensor(std::move(t));
        }
        if (key == "sym_int")
            return ValueMeta::ofSym(ValueMeta::Kind::SymInt, v.toString());
        if (key == "sym_float")
            return ValueMeta::ofSym(ValueMeta::Kind::SymFloat, v.toString());
        if (key == "sym_bool")
            return ValueMeta::ofSym(ValueMeta::Kind::SymBool, v.toString());
        if (key == "tuple") {
            ValueMeta tuple;
            tuple.kind = ValueMeta::Kind::Tuple;
            for (const Json &item : v.items()) {
                auto m = readValueMeta(item, depth + 1);
                if (!m)
                    return m.error();
                tuple.items.push_back(std::move(m.value()));
            }
            return tuple;
        }
        return error(j, "expected a value kind (tensor, sym_int, sym_float, sym_bool, tuple), found \"" + key + "\"");
    }

    Result<NodeMeta> readMeta(const Json &j)
    {
        NodeMeta m;
        if (j.isNull())
            return m;
        if (!j.isObject())
            return error(j, "expected a meta object, found " + typeName(j));
        if (const Json *val = j.find("val")) {
            auto v = readValueMeta(*val);
            if (!v)
                return v.error();
            m.val = std::move(v.value());
        }
        if (const Json *src = j.find("source"))
            m.source = SourceLocation{(*src)["file"].toString(), int((*src)["line"].toInt()),
                (*src)["function"].toString(), (*src)["code"].toString()};
        m.stackTrace = j["stack_trace"].toString();
        for (const Json &e : j["nn_module_stack"].items())
            m.nnModuleStack.push_back({e["key"].toString(), e["path"].toString(), e["type"].toString()});
        m.typeAnnotation = j["type"].toString();
        if (const Json *extra = j.find("extra"))
            m.extra = *extra;
        return m;
    }

public:
    int line(const Json &at) const { return m_position.lineColumn(at.offset()).first; }

private:
    TextPosition m_position;
    const std::string &m_file;
};

} // namespace

Json nodeToJson(const Node &n)
{
    Json args = Json::array();
    for (const auto &a : n.args())
        args.push(argumentToJson(a));
    Json kwargs = Json::object();
    for (const auto &kv : n.kwargs())
        kwargs.set(kv.first, argumentToJson(kv.second));
    Json node = Json::object({{"name", n.name()}, {"op", opKindName(n.op())}, {"target", n.target()},
        {"args", std::move(args)}, {"kwargs", std::move(kwargs)}});
    Json meta = metaToJson(n.meta());
    if (meta.size())
        node.set("meta", std::move(meta));
    return node;
}

Json graphLevelToJson(const Graph &graph)
{
    Json g = Json::object();
    if (!graph.subgraphs().empty()) {
        Json subs = Json::array();
        for (const auto &s : graph.subgraphs())
            subs.push(Json::object({{"name", s.first}, {"graph", graphToJson(*s.second)}}));
        g.set("subgraphs", std::move(subs));
    }
    if (!graph.symbolHints().empty()) {
        Json hints = Json::object();
        for (const auto &[name, value] : graph.symbolHints())
            hints.set(name, value);
        g.set("symbol_hints", std::move(hints));
    }
    return g;
}

Json graphToJson(const Graph &graph)
{
    Json nodes = Json::array();
    nodes.items().reserve(graph.size());
    for (const auto &owned : graph.nodes())
        nodes.push(nodeToJson(*owned));
    Json g = Json::object({{"nodes", std::move(nodes)}});
    const Json graphLevel = graphLevelToJson(graph); // held: members() refers into it
    for (const auto &member : graphLevel.members())
        g.set(member.first, member.second);
    return g;
}

std::string writeFxscopeJson(const GraphFile &file)
{
    Json graphs = Json::array();
    for (const auto &g : file.graphs)
        graphs.push(Json::object({{"name", g.name}, {"kind", g.kind}, {"graph", graphToJson(*g.graph)}}));
    Json root = Json::object({{"fxscope", kFormatVersion}});
    if (!file.format.empty())
        root.set("source_format", file.format);
    root.set("graphs", std::move(graphs));
    return root.dump(1) + "\n";
}

Result<GraphFile> parseFxscopeJson(std::string_view text, const std::string &fileName)
{
    auto root = Json::parse(text, fileName);
    if (!root)
        return root.error();
    Reader reader(text, fileName);
    const Json &r = root.value();
    if (!r["fxscope"].isInt())
        return reader.error(r, "expected an object with \"fxscope\": <format version>, found none");
    if (r["fxscope"].toInt() > kFormatVersion)
        return reader.error(r["fxscope"],
            "expected fxscope JSON version " + std::to_string(kFormatVersion) + " or older, found version "
                + r["fxscope"].dump());
    if (!r["graphs"].isArray())
        return reader.error(r, "expected a \"graphs\" array");
    GraphFile file;
    for (const Json &jg : r["graphs"].items()) {
        auto graph = reader.readGraph(jg["graph"], 0);
        if (!graph)
            return graph.error();
        file.graphs.push_back(
            {jg["name"].toString(), jg["kind"].toString(), std::move(graph.value()), reader.line(jg)});
    }
    if (file.graphs.empty())
        return reader.error(r["graphs"], "expected at least one graph, found none");
    return file;
}

Result<std::unique_ptr<Graph>> parseGraphJson(const Json &graph, const std::string &label)
{
    return parseGraphJson(graph, {}, label);
}

Result<std::unique_ptr<Graph>> parseGraphJson(const Json &graph, std::string_view text, const std::string &label)
{
    Reader reader(text, label);
    return reader.readGraph(graph, 0);
}

Result<Argument> parseArgumentJson(const Json &argument, const std::string &label)
{
    Reader reader({}, label);
    return reader.readLiteral(argument);
}

} // namespace fxs
