#include "pattern_file.h"

#include "builtin_patterns.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "python/python_pattern_file.h"
#include "register_replacement.h"
#include "util/text_position.h"

#include <cctype>

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

std::vector<SymInt> dims(const Json &list)
{
    std::vector<SymInt> out;
    for (const Json &d : list.items())
        out.push_back(d.isInt() ? SymInt{d.toInt(), {}} : SymInt::parse(d.toString()));
    return out;
}

// A JSON value as a Python literal, for the module-level values an exported extra_check reads.
std::string pythonLiteral(const Json &v)
{
    if (v.isNull())
        return "None";
    if (v.isBool())
        return v.toBool() ? "True" : "False";
    if (v.isArray()) {
        std::string s = "[";
        for (const Json &item : v.items())
            s += (s.size() > 1 ? ", " : "") + pythonLiteral(item);
        return s + "]";
    }
    if (v.isObject()) {
        std::string s = "{";
        for (const auto &kv : v.members())
            s += (s.size() > 1 ? ", " : "") + Json(kv.first).dump() + ": " + pythonLiteral(kv.second);
        return s + "}";
    }
    return v.dump(); // numbers, and strings (JSON's escapes are Python's)
}

// One pattern as fxscope_capture.export_patterns writes it ({"fxscope_pattern": 1, ...}): PyTorch traced
// search_fn and replace_fn (fwd_only or joint_fwd_bwd); the extra_check's source runs in fxscope's interpreter.
Status loadExportedPattern(
    const Json &r, const FileReader &reader, const std::string &fileName, PatternRegistry &registry)
{
    if (r["fxscope_pattern"].toInt() > 1)
        return reader.error(
            r["fxscope_pattern"], "expected exported pattern version 1, found " + r["fxscope_pattern"].dump());
    if (!r["name"].isString() || r["name"].toString().empty())
        return reader.error(r, "expected an exported pattern with a non-empty \"name\"");
    if (!r["search_fn_pattern"].isNull())
        return reader.error(r["search_fn_pattern"],
            "expected no search_fn_pattern: the export keeps only its repr; load the .py file itself, whose "
            "CallFunction/KeywordArg pattern fxscope reads");
    ReplacementSpec spec;
    spec.name = r["name"].toString();
    if (registry.find(spec.name))
        return reader.error(r["name"], "expected a unique pattern name, found a second '" + spec.name + "'");
    spec.source = fileName + ":1";
    if (r["source_file"].isString())
        spec.source
            += " (exported from " + r["source_file"].toString() + ":" + std::to_string(r["source_line"].toInt()) + ")";
    for (const char *which : {"search", "replace"}) {
        if (!r[which].isObject())
            return reader.error(r, std::string("expected the traced \"") + which + "\" graph");
        Json doc = Json::object({{"fxscope", 1}, {"graphs", Json::array()}});
        Json graphs = Json::array();
        graphs.push(Json::object({{"name", which}, {"graph", r[which]}}));
        doc.set("graphs", std::move(graphs));
        auto file = parseFxscopeJson(doc.dump(), fileName + " (" + spec.name + ", " + which + ")");
        if (!file)
            return reader.error(r[which], file.error().toString());
        if (file->graphs.empty())
            return reader.error(r[which], "expected a graph, found an empty one");
        (std::string(which) == "search" ? spec.search : spec.replace) = std::move(file->graphs.front().graph);
    }
    spec.exampleInputs = exportedExampleInputs(r["example_inputs"]);
    for (const auto &kv : r["scalar_workaround"].members()) {
        if (!kv.second.isNumber())
            return reader.error(kv.second, "expected a number for scalar_workaround '" + kv.first + "'");
        spec.scalarWorkaround.push_back({kv.first, kv.second.toDouble()});
    }
    for (const Json &n : r["exclusive_arg_names"].items())
        spec.exclusiveArgNames.push_back(n.toString());
    spec.torchairStreamCheck = r["stream_check"].toBool(true);
    if (r["extra_check_source"].isString() && !r["extra_check_source"].toString().empty()) {
        PythonCheckSource check;
        check.source = r["extra_check_source"].toString();
        check.functionName = r["extra_check"].toString();
        check.fileName = r["extra_check_file"].isString() ? r["extra_check_file"].toString() : fileName;
        check.line = int(r["extra_check_line"].toInt(1));
        for (const char *scope : {"extra_check_globals", "extra_check_closure"})
            for (const auto &kv : r[scope].members())
                check.globals.push_back({kv.first, pythonLiteral(kv.second)});
        auto fn = loadPythonExtraCheck(check);
        if (!fn)
            return reader.error(r["extra_check_source"],
                "the extra_check could not be read by fxscope's Python subset: " + fn.error().toString());
        spec.extraCheckSource = check.source;
        spec.extraCheck = fn.value();
        spec.extraCheckEvaluated = true;
    }
    spec.shapeDerivedLiterals = true; // PyTorch traced it once, with the example inputs' sizes
    if (auto st = registerReplacement(registry, std::move(spec)); !st)
        return reader.error(r, st.error().message);
    return Ok{};
}

} // namespace

std::vector<ExampleInput> exportedExampleInputs(const Json &list)
{
    std::vector<ExampleInput> out;
    for (const Json &ex : list.items()) {
        ExampleInput in;
        in.name = ex["name"].toString();
        in.requiresGrad = ex["requires_grad"].toBool();
        if (const Json *t = ex["val"].find("tensor")) {
            TensorMeta m;
            m.dtype = (*t)["dtype"].toString();
            m.device = (*t)["device"].toString();
            m.shape = dims((*t)["shape"]);
            m.stride = dims((*t)["stride"]);
            in.meta = std::move(m);
        }
        out.push_back(std::move(in));
    }
    return out;
}

Status loadPatternJson(std::string_view text, const std::string &fileName, PatternRegistry &registry)
{
    auto root = Json::parse(text, fileName);
    if (!root)
        return root.error();
    FileReader reader(text, fileName);
    const Json &r = root.value();
    if (r["fxscope_pattern"].isInt())
        return loadExportedPattern(r, reader, fileName, registry);
    if (!r["fxscope_patterns"].isInt())
        return reader.error(r,
            "expected a pattern file {\"fxscope_patterns\": 1, \"patterns\": [...]} or one exported by "
            "fxscope_capture {\"fxscope_pattern\": 1, ...}, found neither version key");
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
            // The source is evaluated by the Python-subset interpreter when it reads; otherwise it is only shown.
            const size_t def = spec.extraCheckSource.find("def ");
            if (def != std::string::npos) {
                size_t end = def + 4;
                while (end < spec.extraCheckSource.size()
                    && (std::isalnum(static_cast<unsigned char>(spec.extraCheckSource[end]))
                        || spec.extraCheckSource[end] == '_'))
                    ++end;
                PythonCheckSource source{
                    spec.extraCheckSource, spec.extraCheckSource.substr(def + 4, end - def - 4), fileName, 1, {}};
                if (auto fn = loadPythonExtraCheck(source)) {
                    spec.extraCheck = fn.value();
                    spec.extraCheckEvaluated = true;
                } else {
                    spec.warnings.push_back("extra_check is shown, not evaluated: " + fn.error().toString());
                }
            }
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
    // Read from the content, as graph dumps are: a Python pattern file saved under another name (my_patterns.txt)
    // is Python, not a JSON error at its first letter.
    const std::string &text = bytes.value();
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return Error{
            path, 1, 1, "expected a pattern file (Python with register_replacement, or JSON), found an empty file"};
    if (text[first] != '{' && text.find('\0') == std::string::npos)
        return loadPythonPatternSource(text, path, registry);
    return loadPatternJson(text, path, registry);
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
