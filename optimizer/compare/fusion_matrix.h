#pragma once
// Which pattern fired how often on which rank and in which compiled graph of a recording, with the cells where
// ranks disagree about the same graph marked: the first thing to look at when a fusion fires on some ranks only.

#include "../ir/recording.h"
#include "../util/json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxs {

struct FusionMatrix {
    struct Column {
        int rank = 0;
        std::string stream; // "0_0.forward"
    };
    struct Cell {
        int64_t replaced = 0;
        int64_t tried = 0;
        bool present = false; // the rank compiled this graph and the pattern's pass ran on it
        bool disagrees = false; // another rank's same graph has a different count
    };
    struct Row {
        std::string pattern;
        std::string source;
        std::vector<Cell> cells; // one per column
    };

    std::vector<Column> columns; // grouped by graph, then rank
    std::vector<Row> rows; // patterns that were tried somewhere, by name

    size_t disagreements() const;
    Json toJson() const;
};

FusionMatrix fusionMatrix(const Recording &recording);

} // namespace fxs
