#include "graph_output.h"

#include "graphviz_renderer.h"
#include "io/dot_writer.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "io/readable_writer.h"

namespace fxs::cli {

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
