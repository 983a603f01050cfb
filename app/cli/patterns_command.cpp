#include "patterns_command.h"

#include "command_line.h"
#include "io/readable_writer.h"
#include "patterns/pattern_file.h"
#include "util/json.h"

#include <cstdio>

namespace fxs::cli {

namespace {

Json graphTargets(const Graph *g)
{
    Json list = Json::array();
    if (g)
        for (const auto &n : g->nodes())
            if (n->op() == OpKind::CallFunction)
                list.push(n->target());
    return list;
}

} // namespace

int runPatterns(const std::vector<std::string> &args)
{
    const char *usage
        = "usage: fxscope-cli patterns --patterns FILE... [--json]\n"
          "the patterns the files register, in the order they are tried, with what each matches and replaces\n"
          "  --patterns FILE...  every argument up to the next option: a Python pattern file (register_replacement),\n"
          "                      a JSON pattern file, 'builtin' or 'builtin:NAME'; FILEs named without it\n"
          "                      (fxscope-cli patterns FILE...) are read the same way, before those of --patterns\n"
          "  --json              one JSON document {warnings, patterns} on stdout\n";
    if (helpRequested(args))
        return printHelp(usage);
    CommandLine cmd;
    auto err = cmd.parse(args, {}, {"--json"}, {"--patterns"});
    // The positional form came first; it stays an alias of --patterns, as match and apply spell it.
    std::vector<std::string> specs = cmd.positional();
    for (const auto &spec : cmd.values("--patterns"))
        specs.push_back(spec);
    if (err || specs.empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "no pattern file named");
        return UsageError;
    }
    PatternRegistry registry;
    for (const auto &spec : specs)
        if (auto st = loadPatternSpec(spec, registry); !st) {
            std::fprintf(stderr, "%s\n", st.error().toString().c_str());
            return BadInput;
        }
    for (const auto &w : registry.warnings())
        std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (cmd.flag("--json")) {
        Json list = Json::array();
        for (const auto &e : registry.entries()) {
            Json anchors = Json::array();
            if (const PatternExpr *root = e->pattern->root())
                for (const auto &fn : root->fns)
                    anchors.push(std::string(opKindName(root->op)) + " " + fn);
            Json argnames = Json::array();
            for (const auto &a : e->argnames)
                argnames.push(a);
            list.push(Json::object({{"name", e->name}, {"source", e->source}, {"api", patternApiName(e->api)},
                {"anchors", std::move(anchors)},
                {"argnames", std::move(argnames)}, {"pattern", e->pattern->repr(4000)},
                {"specific_pattern", e->specificPattern ? e->specificPattern->repr(4000) : ""},
                {"replacement", graphTargets(e->replaceGraph.get())}, {"extra_check", e->extraCheckSource},
                {"extra_check_evaluated", e->extraCheckEvaluated}}));
            Json warnings = Json::array();
            for (const auto &w : e->warnings)
                warnings.push(w);
            list.items().back().set("warnings", std::move(warnings));
        }
        Json fileWarnings = Json::array(); // the registry's file-level ones (also on stderr)
        for (const auto &w : registry.warnings())
            fileWarnings.push(w);
        std::printf("%s\n",
            Json::object({{"warnings", std::move(fileWarnings)}, {"patterns", std::move(list)}}).dump(2).c_str());
        return Success;
    }
    size_t i = 0;
    for (const auto &e : registry.entries()) {
        std::printf("%zu. %s  (%s)\n", ++i, e->name.c_str(), e->source.c_str());
        if (const PatternExpr *root = e->pattern->root()) {
            std::string fns;
            for (const auto &fn : root->fns)
                fns += (fns.empty() ? "" : ", ") + fn;
            std::printf("   anchor   %s %s\n", opKindName(root->op), fns.c_str());
        }
        std::printf("   pattern  %s\n", e->pattern->repr(300).c_str());
        if (e->api == PatternApi::Torchair)
            std::printf("   pass     TorchAir's: its graph passes run around the pattern pass (see `match`)\n");
        if (e->replaceGraph) {
            std::string targets;
            for (const auto &n : e->replaceGraph->nodes())
                if (n->op() == OpKind::CallFunction)
                    targets += (targets.empty() ? "" : ", ") + n->target();
            std::printf("   replace  %s\n", targets.c_str());
        }
        if (!e->extraCheckSource.empty())
            std::printf("   check    %s\n",
                !e->extraCheckEvaluated ? "Python source, not evaluated"
                    : e->source.find(".py:") != std::string::npos
                    ? "Python extra_check, evaluated per candidate in the sandbox"
                    : "C++ check with explanations");
        for (const auto &w : e->warnings)
            std::printf("   warning  %s\n", w.c_str());
        // The traced graphs of a Python pattern file, as print_readable() code.
        if (e->source.find(".py:") != std::string::npos) {
            auto indent = [](const std::string &text) {
                std::string out = "     ";
                for (char c : text)
                    out += c == '\n' ? std::string("\n     ") : std::string(1, c);
                return out;
            };
            if (e->searchGraph)
                std::printf("   search graph:\n%s\n", indent(writeReadable(*e->searchGraph, "SearchFn")).c_str());
            if (e->replaceGraph)
                std::printf("   replace graph:\n%s\n", indent(writeReadable(*e->replaceGraph, "ReplaceFn")).c_str());
        }
    }
    return Success;
}

} // namespace fxs::cli
