#include "convert_command.h"

#include "command_line.h"
#include "graph_output.h"
#include "graph_selection.h"
#include "io/fxscope_json.h"
#include "io/loader.h"

#include <cstdio>

namespace fxs::cli {

int runConvert(const std::vector<std::string> &args)
{
    const char *usage
        = "usage: fxscope-cli convert GRAPH -o OUT.{json,py,dot,svg,png} [--graph NAME|INDEX]\n"
          "writes GRAPH in the form OUT's extension names (fxscope JSON, readable Python, Graphviz DOT, SVG, PNG)\n"
          "  -o, --output OUT    the file to write\n"
          "  --graph NAME|INDEX  the graph of a file that holds several\n";
    if (helpRequested(args))
        return printHelp(usage);
    CommandLine cmd;
    auto err = cmd.parse(args, {"--graph", "-o", "--output"}, {});
    auto out = cmd.value("-o") ? cmd.value("-o") : cmd.value("--output");
    if (err || cmd.positional().size() != 1 || !out) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    std::string ext = extensionOf(*out);
    if (!isGraphOutputExtension(ext)) {
        std::fprintf(
            stderr, "%sexpected an output ending in .json, .py, .dot, .svg or .png, found '%s'\n", usage, out->c_str());
        return UsageError;
    }
    auto file = loadGraphFile(cmd.positional()[0]);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().toString().c_str());
        return BadInput;
    }
    for (const auto &w : file->warnings)
        std::fprintf(stderr, "warning: %s\n", w.toString().c_str());

    if (ext == "json" && !cmd.value("--graph")) {
        // Every graph of the file.
        if (auto written = writeFileAtomically(*out, writeFxscopeJson(file.value())); !written) {
            std::fprintf(stderr, "%s\n", written.error().toString().c_str());
            return RuntimeFailure;
        }
        return Success;
    }
    std::string error;
    const NamedGraph *named = selectGraph(file.value(), cmd, error);
    if (!named) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return UsageError;
    }
    if (auto written = writeGraphFile(*out, *named->graph, *named, file->format); !written) {
        std::fprintf(stderr, "%s\n", written.error().toString().c_str());
        return RuntimeFailure;
    }
    return Success;
}

} // namespace fxs::cli
