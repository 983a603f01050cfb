#include "pattern_file.h"

#include "builtin_patterns.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "python/python_pattern_file.h"
#include "register_replacement.h"
#include "util/text_position.h"

namespace fxs {

namespace {

class FileReader {
public:
    FileReader(std::string_view text, const std::string &file) : m_position(text), m_file(file) { }
    Error error(const Json &at, const std::string &what) const
    {
        auto lc = m_position.lineColumn(at.offset());
        return Error{m_file, lc.first, lc.second, what};
    }
    std::pair<int, int> at(const Json &value) const { return m_position.lineColumn(value.offset()); }

private:
    TextPosition m_position;
    const std::string &m_file;
};

Result<std::shared_ptr<const Graph>> readGraph(const Json &value, const std::string &label, const FileReader &reader)
{
    Result<GraphFile> file = Error{};
    if (value.isString())
        file = loadGraphBytes(value.toString(), label);
    else if (value.isObject())
        file = parseFxscopeJson(value.dump(), label);
    else
        return reader.error(value,
            "expected a graph (a fxscope JSON object or a string of graph code), found "
                + (value.isNull() ? std::string("nothing") : value.dump()));
    if (!file)
        return reader.error(value, file.error().toString());
    if (file->graphs.empty())
        return reader.error(value, "expected a graph, found an empty graph file");
    return std::shared_ptr<const Graph>(std::move(file->graphs.front().graph));
}

} // namespace

Status loadPatternJson(std::string_view text, const std::string &fileName, PatternRegistry &registry)
{
    auto root = Json::parse(text, fileName);
    if (!root)
        return root.error();
    FileReader reader(text, fileName);
    const Json &r = root.value();
    if (!r["fxscope_patterns"].isInt())
        return reader.error(r,
            "expected a pattern file {\"fxscope_patterns\": 1, \"patterns\": [...]}, found no "
            "\"fxscope_patterns\" version");
    if (r["fxscope_patterns"].toInt() > 1)
        return reader.error(
            r["fxscope_patterns"], "expected pattern file version 1, found " + r["fxscope_patterns"].dump());
    if (!r["patterns"].isArray())
        return reader.error(r, "expected a \"patterns\" array");
    for (const Json &p : r["patterns"].items()) {
        if (!p["name"].isString() || p["name"].toString().empty())
            return reader.error(p, "expected a pattern with a non-empty \"name\"");
        const std::string name = p["name"].toString();
        if (registry.find(name))
            return reader.error(p["name"], "expected a unique pattern name, found a second '" + name + "'");
        ReplacementSpec spec;
        spec.name = name;
        auto lc = reader.at(p);
        spec.source = fileName + ":" + std::to_string(lc.first);
        auto search = readGraph(p["search"], fileName + " (" + name + ", search)", reader);
        if (!search)
            return search.error();
        spec.search = search.value();
        if (p.find("replace")) {
            auto replace = readGraph(p["replace"], fileName + " (" + name + ", replace)", reader);
            if (!replace)
                return replace.error();
            spec.replace = replace.value();
        }
        for (const Json &ex : p["example_inputs"].items()) {
            ExampleInput in;
            in.name = ex["name"].toString();
            in.requiresGrad = ex["requires_grad"].toBool();
            if (ex.find("shape") || ex.find("dtype")) {
                TensorMeta t;
                t.dtype = ex["dtype"].toString();
                t.device = ex["device"].toString();
                for (const Json &d : ex["shape"].items())
                    t.shape.push_back(d.isInt() ? SymInt{d.toInt(), {}} : SymInt::parse(d.toString()));
                in.meta = std::move(t);
            }
            spec.exampleInputs.push_back(std::move(in));
        }
        if (const Json *check = p.find("extra_check")) {
            if (!check->isString())
                return reader.error(*check, "expected \"extra_check\" to be the check's Python source text");
            spec.extraCheckSource = check->toString();
            spec.extraCheckEvaluated = spec.extraCheckSource.empty();
        }
        for (const auto &kv : p["scalar_workaround"].members()) {
            if (!kv.second.isNumber())
                return reader.error(kv.second, "expected a number for scalar_workaround '" + kv.first + "'");
            spec.scalarWorkaround.push_back({kv.first, kv.second.toDouble()});
        }
        for (const Json &n : p["exclusive_arg_names"].items())
            spec.exclusiveArgNames.push_back(n.toString());
        if (p["search_fn_pattern"].toBool())
            return reader.error(p["search_fn_pattern"],
                "expected no search_fn_pattern: hand-built patterns are "
                "registered through the C++ API, not JSON files");
        spec.prepend = p["prepend"].toBool();
        spec.skipDuplicates = p["skip_duplicates"].toBool();
        spec.torchairStreamCheck = p["torchair"].toBool(true);
        if (auto st = registerReplacement(registry, std::move(spec)); !st) {
            Error e = st.error();
            return Error{fileName, lc.first, lc.second, e.message};
        }
    }
    return Ok{};
}

Status loadPatternFile(const std::string &path, PatternRegistry &registry)
{
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".py") == 0)
        return loadPythonPatternFile(path, registry); // a Python-subset pattern file (docs/python-subset.md)
    auto bytes = readFileBytes(path);
    if (!bytes)
        return bytes.error();
    return loadPatternJson(bytes.value(), path, registry);
}

Status loadPatternSpec(const std::string &spec, PatternRegistry &registry)
{
    if (spec == "builtin")
        return registerBuiltinPatterns(registry);
    if (spec.rfind("builtin:", 0) == 0)
        return registerBuiltinPatterns(registry, spec.substr(8));
    return loadPatternFile(spec, registry);
}

} // namespace fxs
