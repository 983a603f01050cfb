#include "py_trace_cleanup.h"

#include "rewrite/passes/remove_noop_ops.h"

namespace fxs {

void PyTraceCleanup::removeNoopOps(Graph &graph)
{
    GraphEditor editor(graph);
    (void)fxs::removeNoopOps(editor); // a traced pattern's noops always have no users left once replaced
}

void PyTraceCleanup::eliminateDeadCode(Graph &graph)
{
    // Last first, so a chain feeding only dead nodes goes in the same sweep.
    for (size_t i = graph.size(); i-- > 0;) {
        Node *n = graph.nodes()[i].get();
        if (n->op() == OpKind::CallFunction && n->users().empty())
            graph.erase(n);
    }
}

} // namespace fxs
