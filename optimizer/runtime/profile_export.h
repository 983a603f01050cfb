#pragma once
// Exports of a profile report (runtimeProfile's JSON): a Chrome trace that Perfetto and chrome://tracing open, and
// CSV rows per node. Torch-free, so the CLI and the GUI share them.

#include "util/json.h"

#include <string>

namespace fxs {

// One process per graph (unfused, fused), its nodes laid end to end in graph order with their median times: the
// median iteration as a timeline. Fused regions are an extra track spanning the nodes that replaced a fusion.
std::string profileChromeTrace(const Json &report);
// graph,node,target,median_us,min_us,max_us; then region rows: region,pattern,anchor,unfused_us,fused_us,speedup.
std::string profileCsv(const Json &report);

// A multi-rank report (rank_profile.h): one process per rank and graph ("rank 1 fused (cpu)"), compute nodes on one
// track and collectives on their own, so a rank waiting in wait_tensor shows against its peers.
std::string profileRanksChromeTrace(const Json &report);
// rank,graph,node,target,median_us,min_us,max_us,collective.
std::string profileRanksCsv(const Json &report);

} // namespace fxs
