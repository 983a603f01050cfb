#include "graph_output.h"

#include "graphviz_renderer.h"
#include "io/dot_writer.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "io/readable_writer.h"

#include <cstdio>

namespace fxs::cli {

namespace {
constexpr size_t kSlowLayoutNodes = 1000;
} // namespace

std::string extensionOf(const std::string &path)
{
    auto dot = path.rfind('.');
    auto slash = path.rfind('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    return path.substr(dot + 1);
}

bool isGraphOutputExtension(const std::string &extension)
{
    return extension == "json" || extension == "py" || extension == "dot" || extension == "svg" || extension == "png";
}

Status writeGraphFile(const std::string &path, const Graph &graph, const NamedGraph &named, const std::string &format)
{
    const std::string ext = extensionOf(path);
    std::string bytes;
    if (ext == "json") {
        GraphFile one;
        one.format = format;
        one.graphs.push_back({named.name, named.kind, graph.clone(), named.line});
        bytes = writeFxscopeJson(one);
    } else if (ext == "py") {
        bytes = writeReadable(graph);
    } else if (ext == "dot" || ext == "svg" || ext == "png") {
        bytes = writeDot(graph, named.name);
        if (ext != "dot") {
            // dot's layout has no progress and grows fast (GPT-J's 2,290 nodes: minutes): say so before it starts.
            if (graph.size() > kSlowLayoutNodes)
                std::fprintf(stderr,
                    "note: laying out %zu nodes with Graphviz dot for %s; on graphs of thousands of nodes this can "
                    "take minutes (-o OUT.dot writes the DOT text at once)\n",
                    graph.size(), path.c_str());
            auto rendered = renderDot(bytes, ext);
            if (!rendered)
                return Error{path, 0, 0, rendered.error().message};
            bytes = std::move(rendered.value());
        }
    } else {
        return Error{path, 0, 0, "expected an output ending in .json, .py, .dot, .svg or .png"};
    }
    return writeFileAtomically(path, bytes);
}

} // namespace fxs::cli
