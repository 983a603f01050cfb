#include "node_positions.h"

#include "ir/graph.h"
#include "util/text.h"

#include <fstream>
#include <vector>

namespace fxs {

namespace {

// Every node, nested graphs after their parent (first subgraph first), without recursion.
template <typename GraphT, typename F>
void forEachNestedNode(GraphT &graph, F &&visit)
{
    std::vector<GraphT *> pending{&graph};
    while (!pending.empty()) {
        GraphT *g = pending.back();
        pending.pop_back();
        for (const auto &node : g->nodes())
            visit(*node);
        const auto &subs = g->subgraphs();
        for (auto it = subs.rbegin(); it != subs.rend(); ++it)
            pending.push_back(it->second.get());
    }
}

std::vector<std::string> fileLines(const std::string &path)
{
    std::vector<std::string> lines;
    std::ifstream in(path, std::ios::binary);
    for (std::string line; in && std::getline(in, line);)
        lines.push_back(std::move(line));
    return lines;
}

// 1-based column of `name` as a whole identifier in `line`; 0 when absent.
int columnOf(const std::string &line, const std::string &name)
{
    for (size_t at = line.find(name); !name.empty() && at != std::string::npos; at = line.find(name, at + 1)) {
        bool startsWord = at == 0 || !isIdentChar(line[at - 1]);
        bool endsWord = at + name.size() == line.size() || !isIdentChar(line[at + name.size()]);
        if (startsWord && endsWord)
            return int(at) + 1;
    }
    return 0;
}

} // namespace

Json nodePositions(const Graph &graph, const std::string &dumpPath)
{
    std::vector<std::string> lines = dumpPath.empty() ? std::vector<std::string>() : fileLines(dumpPath);
    Json positions = Json::array();
    forEachNestedNode(graph, [&](const Node &node) {
        int line = node.meta().dumpLine;
        int column = line > 0 && size_t(line) <= lines.size() ? columnOf(lines[size_t(line) - 1], node.name()) : 0;
        positions.push(Json::array({Json(int64_t(line)), Json(int64_t(column))}));
    });
    return positions;
}

void NodePositions::apply(Graph &graph, const Json &positions)
{
    const auto &items = positions.items();
    size_t i = 0;
    forEachNestedNode(graph, [&](Node &node) {
        if (i >= items.size())
            return;
        const Json &p = items[i++];
        int line = int(p.items().size() > 0 ? p.items()[0].toInt() : 0);
        int column = int(p.items().size() > 1 ? p.items()[1].toInt() : 0);
        node.meta().dumpLine = line;
        if (line > 0 && column > 0)
            m_columnByLine[line] = column;
    });
}

Error NodePositions::locate(Error error) const
{
    if (error.line <= 0 || !error.file.empty())
        return error;
    error.file = dumpPath;
    if (error.column == 0)
        if (auto it = m_columnByLine.find(error.line); it != m_columnByLine.end())
            error.column = it->second;
    return error;
}

} // namespace fxs
