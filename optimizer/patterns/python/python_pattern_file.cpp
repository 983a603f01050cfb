#include "python_pattern_file.h"

#include "io/loader.h"
#include "patterns/register_replacement.h"
#include "patterns/retrace_cache.h"
#include "py_cached_function.h"
#include "py_fx_proxies.h"
#include "py_interpreter.h"
#include "py_pattern_object.h"
#include "py_torch_host.h"

#include <mutex>

namespace fxs {

namespace {

// Everything an extra_check closure needs after loading: the interpreter (which owns the module) and a lock,
// since one interpreter is not reentrant and the matcher may call checks from several threads.
struct LoadedPythonFile {
    std::shared_ptr<PyModule> module;
    std::unique_ptr<PyTorchHost> host;
    std::unique_ptr<PyInterpreter> interp;
    std::mutex mutex;
};

// register_replacement's parameters, in order, for Inductor's and TorchAir's signatures.
const std::vector<std::string> &parameterNames(const std::string &kind)
{
    static const std::vector<std::string> inductor
        = {"search_fn", "replace_fn", "example_inputs", "trace_fn", "pass_dicts", "extra_check", "scalar_workaround",
            "exclusive_arg_names", "search_fn_pattern", "skip_duplicates", "pattern_name"};
    static const std::vector<std::string> torchair = {"search_fn", "replace_fn", "example_inputs", "trace_fn",
        "extra_check", "search_fn_pattern", "scalar_workaround", "skip_duplicates"};
    return kind == "inductor" ? inductor : torchair;
}

std::string trimmed(std::string_view s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.remove_suffix(1);
    return std::string(s);
}

// What fxscope's sandbox cannot evaluate (the subset's limits), as opposed to an exception of the user's code.
bool isSandboxLimit(const Error &error)
{
    const std::string &m = error.message;
    return m.rfind("SubsetError", 0) == 0 || m.rfind("Sandbox", 0) == 0
        || m.find("outside the subset") != std::string::npos;
}

// The user's extra_check called per candidate on a proxy of the match, every statement traced.
ExtraCheck makeExtraCheck(const std::shared_ptr<LoadedPythonFile> &file, const PyValue &check)
{
    return [file, check](const Match &m) {
        std::lock_guard<std::mutex> lock(file->mutex);
        CheckVerdict v;
        PyTrace trace;
        PyCallArgs a;
        a.args.push_back(pyMatchProxy(m));
        auto r = file->interp->callFunction(check, std::move(a), &trace);
        v.trace = std::move(trace.lines);
        for (auto &l : trace.logs)
            v.trace.push_back(std::move(l));
        if (!r) {
            v.ok = false;
            const std::string error = r.error().toString();
            if (isSandboxLimit(r.error()))
                v.trace.push_back("fxscope could not evaluate the check (" + error + "), so the candidate is rejected");
            else
                v.raised = error;
        } else {
            v.ok = pyTruthy(r.value());
        }
        return v;
    };
}

// check_fn's re-trace for one register_replacement call: search_fn traced again with each match's values, then
// fx_to_pattern without ignore_types. Matches with the same input metas and literals share one trace.
// replace_fn is traced with the same values (check_fn's `trace_fn(replace_fn, args)`), so the replacement carries
// the match's own scalars and sizes. With a search_fn_pattern only replace_fn is traced.
RetraceFn makeRetrace(const std::shared_ptr<LoadedPythonFile> &file, const PyValue &searchFn, bool traceSearch,
    const PyValue &replaceFn, const PyList &examples, const ReplacementSpec &spec)
{
    auto cache = std::make_shared<RetraceCache>();
    auto scalarWorkaround = spec.scalarWorkaround;
    auto exclusiveArgNames = spec.exclusiveArgNames;
    return [file, searchFn, traceSearch, replaceFn, examples, cache, scalarWorkaround, exclusiveArgNames](
               const Match &m) -> Retrace {
        std::lock_guard<std::mutex> lock(file->mutex);
        auto *fn = searchFn.as<PyFunction>();
        RetraceCache::Inputs inputs;
        PyList values;
        for (size_t i = 0; i < fn->def->params.size(); ++i) {
            const std::string &name = fn->def->params[i].name;
            const PyValue example = i < examples.size() ? examples[i] : PyValue::none();
            const Argument *bound = m.kwarg(name);
            if (bound && bound->isNode()) {
                const TensorMeta *meta = inputs.boundTensor(name, *bound->node());
                values.push_back(meta ? PyValue::ofObject(std::make_shared<PyFakeTensor>(*meta)) : example);
            } else if (bound) {
                values.push_back(pyArgumentValue(*bound));
                inputs.addLiteral(bound->toPython());
            } else {
                values.push_back(example); // a parameter the generic pattern does not bind (a traced-in constant)
                inputs.addExample();
            }
        }
        return cache->get(inputs, [&] {
            std::shared_ptr<Graph> graph, replace;
            std::vector<std::string> warnings;
            bool searchTraced = !traceSearch;
            Status st = file->interp->runGuarded([&] {
                if (traceSearch)
                    graph = PyTorchHost::traceFunction(*file->interp, searchFn, values, warnings);
                searchTraced = true;
                replace = PyTorchHost::traceFunction(*file->interp, replaceFn, values, warnings,
                    PyTorchHost::SymbolicSizes::ReadFromInputs);
            });
            if (!st) {
                // check_fn catches only RuntimeError from tracing search_fn; anything else (and anything replace_fn
                // raises) ends Inductor's pass.
                Retrace failed;
                const bool searchRuntimeError = !searchTraced && st.error().message.rfind("RuntimeError", 0) == 0;
                (searchRuntimeError || isSandboxLimit(st.error()) ? failed.error : failed.raised)
                    = st.error().toString();
                return failed;
            }
            if (!graph) {
                Retrace out;
                out.replace = std::move(replace);
                return out;
            }
            FxToPatternOptions options;
            for (const Node *p : graph->placeholders())
                options.argnames.push_back(p->name());
            options.scalarWorkaround = scalarWorkaround;
            options.exclusiveArgNames = exclusiveArgNames;
            Retrace out = RetraceCache::fromSearchGraph(*graph, options);
            out.replace = std::move(replace);
            return out;
        });
    };
}

void registerCall(const std::shared_ptr<LoadedPythonFile> &file, PatternRegistry &registry, PyInterpreter &interp,
    const std::string &kind, PyCallArgs &call)
{
    const auto &names = parameterNames(kind);
    std::map<std::string, PyValue> args;
    if (call.args.size() > names.size())
        pyRaise("TypeError",
            "register_replacement() takes at most " + std::to_string(names.size()) + " positional arguments");
    for (size_t i = 0; i < call.args.size(); ++i)
        args[names[i]] = call.args[i];
    for (auto &kv : call.kwargs) {
        if (std::find(names.begin(), names.end(), kv.first) == names.end())
            pyRaise(
                "TypeError", kind + " register_replacement() got an unexpected keyword argument '" + kv.first + "'");
        args[kv.first] = kv.second;
    }
    for (const char *required : {"search_fn", "replace_fn", "example_inputs"})
        if (!args.count(required))
            pyRaise("TypeError", std::string("register_replacement() missing required argument '") + required + "'");
    PatternPtr searchFnPattern;
    if (args.count("search_fn_pattern") && !args["search_fn_pattern"].isNone()) {
        auto *p = args["search_fn_pattern"].as<PyPatternObject>();
        if (!p)
            pyRaise("TypeError",
                "search_fn_pattern must be built with CallFunction/KeywordArg/Ignored/MultiOutputPattern "
                "from torch._inductor.pattern_matcher, found "
                    + pyTypeName(args["search_fn_pattern"]));
        searchFnPattern = p->pattern();
    }
    if (args.count("trace_fn")) {
        auto *t = args["trace_fn"].as<PyOpaque>();
        if (t
            && (t->path().find("joint_fwd_bwd") != std::string::npos
                || t->path().find("training_graph") != std::string::npos)) {
            // Autograd is beyond the subset: the rest of the file still loads, and the warning says what to run.
            const std::string &path = file->module->fileName();
            std::string fn = args["search_fn"].as<PyFunction>() ? args["search_fn"].as<PyFunction>()->def->name
                                                                : std::string("search_fn");
            std::string stem = path.substr(path.find_last_of('/') + 1);
            stem = stem.substr(0, stem.rfind('.'));
            registry.addWarning(path + ":" + std::to_string(interp.currentLine()) + ": " + fn
                + " is registered with trace_fn=joint_fwd_bwd (a training pattern); fxscope's Python reader cannot "
                  "trace autograd, so this registration was skipped. Export it with PyTorch and load the JSON: in "
                  "your torch environment, pip install <fxscope>/python, then python -c \"import fxscope_capture; "
                  "fxscope_capture.export_patterns('"
                + path + "', out_dir='patterns')\", then --patterns patterns/" + stem + "." + fn + ".json");
            return;
        }
    }
    const PyList given = interp.iterate(args["example_inputs"]);
    const int line = interp.currentLine();
    ReplacementSpec spec;
    auto *search = args["search_fn"].as<PyFunction>();
    if (!search)
        pyRaise("TypeError", "search_fn must be a function defined in the file");
    // Inductor's gen_pattern: a parameter named in scalar_workaround takes that value and consumes no example
    // input; the others take the example inputs in order.
    std::map<std::string, PyValue> workaround;
    if (args.count("scalar_workaround") && args["scalar_workaround"].kind == PyValue::Kind::Dict)
        for (const auto &kv : args["scalar_workaround"].dict->items)
            if (kv.first.kind == PyValue::Kind::Str)
                workaround[kv.first.str()] = kv.second;
    PyList examples;
    size_t nextGiven = 0;
    for (const PyParam &p : search->def->params) {
        if (workaround.count(p.name))
            examples.push_back(workaround[p.name]);
        else if (nextGiven < given.size())
            examples.push_back(given[nextGiven++]);
    }
    std::string name = args.count("pattern_name") && args["pattern_name"].kind == PyValue::Kind::Str
        ? args["pattern_name"].str()
        : search->def->name;
    if (registry.find(name)) {
        int n = 2;
        while (registry.find(name + "_" + std::to_string(n)))
            ++n;
        name += "_" + std::to_string(n);
    }
    spec.name = name;
    spec.source = file->module->fileName() + ":" + std::to_string(line);
    for (const PyParam &p : search->def->params)
        spec.signature.push_back(p.name);
    if (searchFnPattern) { // Inductor never traces search_fn then (TorchAir's are just `pass`)
        spec.searchFnPattern = searchFnPattern;
        for (const PyParam &p : search->def->params)
            spec.argnames.push_back(p.name);
    } else {
        spec.search = PyTorchHost::traceFunction(interp, args["search_fn"], examples, spec.warnings);
    }
    spec.replace = PyTorchHost::traceFunction(interp, args["replace_fn"], examples, spec.warnings);
    size_t next = 0;
    for (const PyParam &p : search->def->params) {
        ExampleInput in;
        in.name = p.name;
        if (next < examples.size())
            if (auto *ft = examples[next].as<PyFakeTensor>())
                in.meta = ft->meta();
        ++next;
        spec.exampleInputs.push_back(std::move(in));
    }
    if (args.count("scalar_workaround") && args["scalar_workaround"].kind == PyValue::Kind::Dict)
        for (const auto &kv : args["scalar_workaround"].dict->items)
            if (kv.first.kind == PyValue::Kind::Str && kv.second.isNumber())
                spec.scalarWorkaround.push_back({kv.first.str(), kv.second.number()});
    if (args.count("exclusive_arg_names"))
        for (const PyValue &v : interp.iterate(args["exclusive_arg_names"]))
            spec.exclusiveArgNames.push_back(pyStr(v));
    spec.skipDuplicates = args.count("skip_duplicates") && pyTruthy(args["skip_duplicates"]);
    spec.retrace = makeRetrace(file, args["search_fn"], !searchFnPattern, args["replace_fn"], examples, spec);
    spec.torchairStreamCheck = kind != "inductor";
    spec.api = kind == "inductor" ? PatternApi::Inductor : PatternApi::Torchair;
    if (args.count("extra_check") && !args["extra_check"].isNone()) {
        PyValue check = args["extra_check"];
        auto *fn = check.as<PyFunction>();
        if (!fn)
            pyRaise(
                "TypeError", "extra_check must be a function defined in the file (found " + pyTypeName(check) + ")");
        spec.extraCheckSource = trimmed(file->module->sourceSpan(fn->def->begin, fn->def->end));
        spec.extraCheckEvaluated = true;
        spec.extraCheck = makeExtraCheck(file, check);
    }
    if (auto st = registerReplacement(registry, std::move(spec)); !st)
        pyRaise("RegistrationError", st.error().message);
}

// TorchAir's built-in pattern files only define `_register_xxx_pattern(pattern_pass_manager, ...)` functions (older
// ones `_register_xxx_pattern()` on a module-level manager); TorchAir's pass manager calls them. After the module
// ran, each top-level `_register_` function without parameters that nothing called yet is called, then each whose
// first parameter is named like a pass manager, in file order, with a pass-manager object; other parameters take
// their defaults. One with parameters that have no default is skipped with a warning naming them, unless another
// function already called it (TorchAir's `_register_xxx_patterns` call their helpers with those arguments).
Status callRegisterFunctions(LoadedPythonFile &file, PatternRegistry &registry)
{
    struct Candidate {
        const PyStmt *stmt;
        PyValue fn;
        std::vector<std::string> missing;
    };
    std::vector<Candidate> candidates;
    for (const PyStmt &s : file.module->body()) {
        if (s.kind != PyStmtKind::Def || s.def->name.rfind("_register_", 0) != 0)
            continue;
        if (s.def->params.empty()) {
            // The older TorchAir convention: `_register_xxx_pattern()` registering on a module-level manager.
            // Called once unless the file already did (its own top-level call, or lru_cache).
            auto it = file.interp->globals().find(s.def->name);
            if (it == file.interp->globals().end())
                continue;
            PyFunction *f = it->second.as<PyFunction>();
            if (auto *cached = it->second.as<PyCachedFunction>())
                f = cached->function();
            if (f && f->calls == 0)
                if (auto r = file.interp->callFunction(it->second, PyCallArgs{}); !r)
                    return r.error();
            continue;
        }
        const PyParam &first = s.def->params[0];
        if (first.kind != PyParam::Kind::Normal || first.name.find("pass_manager") == std::string::npos)
            continue;
        auto it = file.interp->globals().find(s.def->name);
        if (it == file.interp->globals().end())
            continue;
        Candidate c{&s, it->second, {}};
        for (size_t i = 1; i < s.def->params.size(); ++i)
            if (s.def->params[i].kind == PyParam::Kind::Normal && s.def->params[i].defaultValue == kNoExpr)
                c.missing.push_back(s.def->params[i].name);
        candidates.push_back(std::move(c));
    }
    const PyValue manager
        = file.interp->makeOpaque("torchair.patterns.pattern_pass_manager._PatternPassManager()", true);
    for (const Candidate &c : candidates) {
        if (!c.missing.empty())
            continue;
        PyCallArgs args;
        args.args.push_back(manager);
        if (auto r = file.interp->callFunction(c.fn, std::move(args)); !r)
            return r.error();
    }
    for (const Candidate &c : candidates) {
        if (c.missing.empty())
            continue;
        PyFunction *f = c.fn.as<PyFunction>();
        if (auto *cached = c.fn.as<PyCachedFunction>())
            f = cached->function();
        if (f && f->calls > 0)
            continue;
        std::string names;
        for (const std::string &m : c.missing)
            names += (names.empty() ? "" : ", ") + m;
        registry.addWarning(file.module->fileName() + ":" + std::to_string(c.stmt->line) + ": " + c.stmt->def->name
            + "(" + c.stmt->def->params[0].name + ", " + names
            + ") was not called: fxscope calls _register_ functions with a pass manager only, and nothing in the "
              "file calls this one; it needs "
            + names + " (call it at the end of the file with the values you want)");
    }
    return Ok{};
}

} // namespace

Status loadPythonPatternSource(std::string source, const std::string &fileName, PatternRegistry &registry)
{
    auto module = PyModule::parse(std::move(source), fileName);
    if (!module)
        return module.error();
    auto file = std::make_shared<LoadedPythonFile>();
    file->module = module.value();
    // The host's callback holds the file weakly: the file owns the host, and closures own the file.
    std::weak_ptr<LoadedPythonFile> weak = file;
    file->host = std::make_unique<PyTorchHost>(
        [weak, &registry](PyInterpreter &interp, const std::string &kind, PyCallArgs &args) {
            if (auto f = weak.lock())
                registerCall(f, registry, interp, kind, args);
        });
    file->interp = std::make_unique<PyInterpreter>(file->module, file->host.get());
    const size_t entriesBefore = registry.entries().size();
    const size_t warningsBefore = registry.warnings().size();
    if (auto st = file->interp->run(); !st)
        return st;
    if (auto st = callRegisterFunctions(*file, registry); !st)
        return st;
    if (registry.entries().size() == entriesBefore && registry.warnings().size() == warningsBefore) {
        // A file that loads but registers nothing (TorchAir's pattern_util.py imports the _register_ functions of
        // its sibling files) would otherwise look like a file whose patterns never match.
        std::string imported;
        for (const auto &kv : file->interp->globals())
            if (auto *o = kv.second.as<PyOpaque>(); o && kv.first.rfind("_register_", 0) == 0)
                imported += (imported.empty() ? "" : ", ") + o->path();
        registry.addWarning(fileName
            + ": registers no pattern (no register_replacement / register_pattern call ran, and no "
              "_register_*(pattern_pass_manager) function is defined here)"
            + (imported.empty()
                    ? std::string()
                    : "; it imports " + imported + ", which fxscope does not follow: load the files that define them"));
    }
    for (const std::string &d : file->module->deferred())
        registry.addWarning(d + " (inside a def: the file loads, and this raises SubsetError only if it runs)");
    return Ok{};
}

Result<ExtraCheck> loadPythonExtraCheck(const PythonCheckSource &check)
{
    // One line of imports and values first (the names pattern files use), then blank lines so the function keeps
    // its line numbers from the user's file in the trace.
    std::string source = "import torch, torch_npu, torchair, functools, operator, logging; "
                         "from torch._inductor.pattern_matcher import Match; logger = logging.getLogger(\"fxscope\")";
    for (const auto &kv : check.globals)
        source += "; " + kv.first + " = " + kv.second;
    source += "\n";
    for (int line = 2; line < check.line; ++line)
        source += "\n";
    source += check.source;
    auto module = PyModule::parse(std::move(source), check.fileName);
    if (!module)
        return module.error();
    auto file = std::make_shared<LoadedPythonFile>();
    file->module = module.value();
    file->host = std::make_unique<PyTorchHost>([](PyInterpreter &, const std::string &, PyCallArgs &) {});
    file->interp = std::make_unique<PyInterpreter>(file->module, file->host.get());
    if (auto st = file->interp->run(); !st)
        return st.error();
    auto it = file->interp->globals().find(check.functionName);
    if (it == file->interp->globals().end() || !it->second.as<PyFunction>())
        return Error{check.fileName, check.line, 1,
            "expected the source to define the function '" + check.functionName + "', found no such def"};
    return makeExtraCheck(file, it->second);
}

Status loadPythonPatternFile(const std::string &path, PatternRegistry &registry)
{
    auto bytes = readFileBytes(path);
    if (!bytes)
        return bytes.error();
    return loadPythonPatternSource(std::string(bytes.value()), path, registry);
}

} // namespace fxs
