#include "fusion_matrix.h"

#include <algorithm>
#include <map>

namespace fxs {

FusionMatrix fusionMatrix(const Recording &recording)
{
    FusionMatrix matrix;
    // Columns: the graphs some pattern pass ran on (Dynamo's has none), grouped by graph in the order the graphs
    // first appear, then by rank.
    std::vector<std::string> order;
    std::vector<const RecordedStream *> tried;
    for (const auto &s : recording.streams) {
        if (std::find(order.begin(), order.end(), s.name) == order.end())
            order.push_back(s.name);
        for (const auto &step : s.steps)
            if (std::any_of(step.patternPasses.begin(), step.patternPasses.end(),
                    [](const RecordedPatternPass &pass) { return !pass.patterns.empty(); })) {
                tried.push_back(&s);
                break;
            }
    }
    auto position = [&](const RecordedStream *s) {
        return std::make_pair(std::find(order.begin(), order.end(), s->name) - order.begin(), s->rank);
    };
    std::stable_sort(tried.begin(), tried.end(),
        [&](const RecordedStream *a, const RecordedStream *b) { return position(a) < position(b); });
    std::map<std::pair<int, std::string>, size_t> columnOf;
    for (const RecordedStream *s : tried) {
        columnOf[{s->rank, s->name}] = matrix.columns.size();
        matrix.columns.push_back({s->rank, s->name});
    }
    std::map<std::string, size_t> rowOf;
    for (const auto &s : recording.streams) {
        const auto found = columnOf.find({s.rank, s.name});
        if (found == columnOf.end())
            continue;
        const size_t column = found->second;
        for (const auto &step : s.steps)
            for (const auto &pass : step.patternPasses)
                for (const auto &p : pass.patterns) {
                    auto [it, added] = rowOf.emplace(p.name, matrix.rows.size());
                    if (added)
                        matrix.rows.push_back({p.name, p.source, {}});
                    auto &cells = matrix.rows[it->second].cells;
                    cells.resize(matrix.columns.size());
                    cells[column].present = true;
                    cells[column].replaced += p.replaced;
                    cells[column].tried += p.tried;
                }
    }
    for (auto &row : matrix.rows) {
        row.cells.resize(matrix.columns.size());
        // The same graph on two ranks: a pattern that replaced a different number of times there disagrees.
        for (size_t a = 0; a < matrix.columns.size(); ++a)
            for (size_t b = 0; b < matrix.columns.size(); ++b)
                if (a != b && matrix.columns[a].stream == matrix.columns[b].stream &&
                    row.cells[a].replaced != row.cells[b].replaced)
                    row.cells[a].disagrees = true;
    }
    std::sort(matrix.rows.begin(), matrix.rows.end(),
        [](const FusionMatrix::Row &a, const FusionMatrix::Row &b) { return a.pattern < b.pattern; });
    return matrix;
}

size_t FusionMatrix::disagreements() const
{
    size_t n = 0;
    for (const auto &row : rows)
        n += std::count_if(row.cells.begin(), row.cells.end(), [](const Cell &c) { return c.disagrees; });
    return n;
}

Json FusionMatrix::toJson() const
{
    Json cols = Json::array();
    for (const auto &c : columns)
        cols.push(Json::object({{"rank", int64_t(c.rank)}, {"graph", c.stream}}));
    Json rowsJson = Json::array();
    for (const auto &r : rows) {
        Json cells = Json::array();
        for (const auto &c : r.cells)
            cells.push(Json::object({{"replaced", c.replaced}, {"tried", c.tried}, {"present", c.present},
                {"disagrees", c.disagrees}}));
        rowsJson.push(Json::object({{"pattern", r.pattern}, {"source", r.source}, {"cells", std::move(cells)}}));
    }
    return Json::object({{"columns", std::move(cols)}, {"rows", std::move(rowsJson)},
        {"disagreements", disagreements()}});
}

} // namespace fxs
