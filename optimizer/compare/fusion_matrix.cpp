#include "fusion_matrix.h"

#include <algorithm>
#include <map>

namespace fxs {

FusionMatrix fusionMatrix(const Recording &recording)
{
    FusionMatrix matrix;
    std::vector<std::string> streams; // graph names in the order they first appear
    for (const auto &s : recording.streams)
        if (std::find(streams.begin(), streams.end(), s.name) == streams.end())
            streams.push_back(s.name);
    // Only graphs some pattern pass ran on (Dynamo's graph has none).
    auto triedIn = [](const RecordedStream &s) {
        for (const auto &step : s.steps)
            for (const auto &pass : step.patternPasses)
                if (!pass.patterns.empty())
                    return true;
        return false;
    };
    std::map<std::pair<int, std::string>, size_t> columnOf;
    for (const std::string &name : streams)
        for (int rank : recording.ranks())
            for (const auto &s : recording.streams)
                if (s.rank == rank && s.name == name && triedIn(s)) {
                    columnOf[{rank, name}] = matrix.columns.size();
                    matrix.columns.push_back({rank, name});
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
