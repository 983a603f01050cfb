#include "canonical_printer.h"

namespace fxs {

namespace {

void printGraph(const Graph &graph, const std::string &indent, std::string &out)
{
    if (!graph.symbolHints().empty()) {
        out += indent + "symbol_hints";
        for (const auto &[name, value] : graph.symbolHints())
            out += " " + name + "=" + std::to_string(value);
        out += "\n";
    }
    for (const auto &owned : graph.nodes()) {
        const Node &n = *owned;
        out += indent + "%" + n.name() + " = " + opKindName(n.op()) + "[" + n.target() + "](";
        bool first = true;
        for (const auto &a : n.args()) {
            out += first ? "" : ", ";
            out += a.toFxText();
            first = false;
        }
        for (const auto &kv : n.kwargs()) {
            out += first ? "" : ", ";
            out += kv.first + "=" + kv.second.toFxText();
            first = false;
        }
        out += ") users=" + std::to_string(n.users().size());
        const NodeMeta &m = n.meta();
        if (m.val) {
            if (m.val->kind == ValueMeta::Kind::Tuple) {
                out += " val=(";
                for (size_t i = 0; i < m.val->items.size(); ++i)
                    out += (i ? ", " : "") + m.val->items[i].toAnnotation();
                out += ")";
            } else {
                out += " val=" + m.val->toAnnotation();
            }
        }
        if (!m.typeAnnotation.empty())
            out += " type=" + m.typeAnnotation;
        if (m.source)
            out += " src=" + m.source->file + ":" + std::to_string(m.source->line)
                + (m.source->function.empty() ? "" : " in " + m.source->function);
        for (const auto &e : m.nnModuleStack)
            out += " module=" + e.path;
        if (!m.stackTrace.empty())
            out += " stack_trace=" + std::to_string(m.stackTrace.size()) + "B";
        if (m.extra.isObject() && m.extra.size())
            out += " extra=" + m.extra.dump();
        out += "\n";
    }
    for (const auto &sub : graph.subgraphs()) {
        out += indent + "subgraph " + sub.first + ":\n";
        printGraph(*sub.second, indent + "    ", out);
    }
}

} // namespace

std::string printCanonical(const Graph &graph)
{
    std::string out;
    printGraph(graph, "", out);
    return out;
}

} // namespace fxs
