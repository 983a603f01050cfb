#pragma once
// Picks the graph a subcommand works on: --graph NAME|INDEX, else the only graph of the file.

#include "command_line.h"
#include "ir/graph_file.h"
#include "util/closest_name.h"

#include <string>
#include <vector>

namespace fxs::cli {

// nullptr and an error text when the choice is missing or ambiguous.
inline const NamedGraph *selectGraph(const GraphFile &file, const CommandLine &cmd, std::string &error)
{
    if (auto choice = cmd.value("--graph")) {
        if (const NamedGraph *g = file.find(*choice))
            return g;
        error = "no graph '" + *choice + "' in " + file.path + "; it has:";
    } else if (file.graphs.size() == 1) {
        return &file.graphs.front();
    } else {
        error = file.path + " holds " + std::to_string(file.graphs.size())
            + " graphs; choose one with --graph NAME|INDEX:";
    }
    std::vector<std::string> names;
    for (size_t i = 0; i < file.graphs.size(); ++i) {
        error += "\n  " + std::to_string(i) + "  " + file.graphs[i].name;
        names.push_back(file.graphs[i].name);
    }
    if (auto choice = cmd.value("--graph"))
        if (const std::string meant = closestName(*choice, names); !meant.empty())
            error += "\ndid you mean '" + meant + "'?";
    return nullptr;
}

} // namespace fxs::cli
