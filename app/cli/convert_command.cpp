#include "convert_command.h"

#include "command_line.h"
#include "graph_selection.h"
#include "graphviz_renderer.h"
#include "io/dot_writer.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "io/readable_writer.h"

#include <cstdio>

namespace fxs::cli {

namespace {

std::string extensionOf(const std::string &path)
{
    auto dot = path.rfind('.');
    auto slash = path.rfind('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    return path.substr(dot + 1);
}

} // namespace

int runConvert(const std::vector<std::string> &args)
{
    CommandLine cmd;
    auto err = cmd.parse(args, {"--graph", "-o", "--output"}, {});
    auto out = cmd.value("-o") ? cmd.value("-o") : cmd.value("--output");
    const char *usage = "usage: fxscope-cli convert GRAPH -o OUT.{json,py,dot,svg,png} [--graph NAME|INDEX]\n";
    if (err || cmd.positional().size() != 1 || !out) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    std::string ext = extensionOf(*out);
    if (ext != "json" && ext != "py" && ext != "dot" && ext != "svg" && ext != "png") {
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

    std::string bytes;
    if (ext == "json" && !cmd.value("--graph")) {
        bytes = writeFxscopeJson(file.value()); // every graph of the file
    } else {
        std::string error;
        const NamedGraph *named = selectGraph(file.value(), cmd, error);
        if (!named) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return UsageError;
        }
        if (ext == "json") {
            GraphFile one;
            one.format = file->format;
            one.graphs.push_back({named->name, named->kind, named->graph->clone(), named->line});
            bytes = writeFxscopeJson(one);
        } else if (ext == "py") {
            bytes = writeReadable(*named->graph);
        } else {
            bytes = writeDot(*named->graph, named->name);
            if (ext != "dot") {
                auto rendered = renderDot(bytes, ext);
                if (!rendered) {
                    std::fprintf(stderr, "%s\n", rendered.error().message.c_str());
                    return RuntimeFailure;
                }
                bytes = std::move(rendered.value());
            }
        }
    }
    auto written = writeFileAtomically(*out, bytes);
    if (!written) {
        std::fprintf(stderr, "%s\n", written.error().toString().c_str());
        return RuntimeFailure;
    }
    return Success;
}

} // namespace fxs::cli
