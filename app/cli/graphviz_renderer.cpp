#include "graphviz_renderer.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace fxs::cli {

Result<std::string> renderDot(const std::string &dot, const std::string &format)
{
    GVC_t *gvc = gvContext();
    if (!gvc)
        return Error{{}, 0, 0, "Graphviz could not start"};
    Agraph_t *graph = agmemread(dot.c_str());
    if (!graph) {
        gvFreeContext(gvc);
        return Error{{}, 0, 0, "Graphviz could not read the generated DOT"};
    }
    std::string out;
    if (gvLayout(gvc, graph, "dot") != 0) {
        agclose(graph);
        gvFreeContext(gvc);
        return Error{{}, 0, 0, "Graphviz layout failed"};
    }
    char *data = nullptr;
    unsigned int length = 0;
    int rc = gvRenderData(gvc, graph, format.c_str(), &data, &length);
    if (rc == 0 && data)
        out.assign(data, length);
    if (data)
        gvFreeRenderData(data);
    gvFreeLayout(gvc, graph);
    agclose(graph);
    gvFreeContext(gvc);
    if (rc != 0)
        return Error{{}, 0, 0, "Graphviz cannot render " + format + " (is the plugin installed?)"};
    return out;
}

} // namespace fxs::cli
