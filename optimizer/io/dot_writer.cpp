#include "dot_writer.h"

namespace fxs {

namespace {

std::string escape(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

const char *fillColor(const Node &n)
{
    switch (n.op()) {
    case OpKind::Placeholder: return "#c8e6c9";
    case OpKind::GetAttr: return "#fff9c4";
    case OpKind::Output: return "#ffcdd2";
    case OpKind::CallModule: return "#d1c4e9";
    case OpKind::CallMethod: return "#b3e5fc";
    case OpKind::CallFunction: break;
    }
    const std::string &t = n.target();
    if (t.rfind("torch.ops.npu.", 0) == 0 || t.rfind("torch_npu.", 0) == 0)
        return "#ffe0b2";
    if (t.rfind("operator.", 0) == 0 || t.rfind("builtins.", 0) == 0)
        return "#eeeeee";
    return "#bbdefb";
}

void writeGraph(const Graph &graph, const std::string &prefix, const std::string &indent, std::string &out)
{
    for (const auto &owned : graph.nodes()) {
        const Node &n = *owned;
        std::string label = n.name();
        if (n.op() != OpKind::Placeholder && n.op() != OpKind::Output)
            label += "\n" + n.target();
        if (n.meta().val && n.meta().val->kind != ValueMeta::Kind::Tuple)
            label += "\n" + n.meta().val->toAnnotation();
        out += indent + "\"" + escape(prefix + n.name()) + "\" [label=\"" + escape(label) + "\", fillcolor=\""
            + fillColor(n) + "\"];\n";
    }
    for (const auto &owned : graph.nodes())
        for (const Node *input : owned->inputNodes())
            out += indent + "\"" + escape(prefix + input->name()) + "\" -> \"" + escape(prefix + owned->name())
                + "\";\n";
    for (const auto &sub : graph.subgraphs()) {
        std::string subPrefix = prefix + sub.first + ".";
        out += indent + "subgraph \"cluster_" + escape(subPrefix) + "\" {\n";
        out += indent + "  label=\"" + escape(sub.first) + "\"; style=dashed;\n";
        writeGraph(*sub.second, subPrefix, indent + "  ", out);
        out += indent + "}\n";
    }
}

} // namespace

std::string writeDot(const Graph &graph, const std::string &name)
{
    std::string out = "digraph \"" + escape(name) + "\" {\n";
    out += "  graph [rankdir=TB, fontname=\"DejaVu Sans\"];\n";
    out += "  node [shape=box, style=\"rounded,filled\", fontname=\"DejaVu Sans\", fontsize=10];\n";
    out += "  edge [color=\"#607d8b\"];\n";
    writeGraph(graph, "", "  ", out);
    out += "}\n";
    return out;
}

} // namespace fxs
