#pragma once
// What the Profile dock asks for when Ranks is above 1 (docs/ranks.md): how many ranks, how long a rank may make no
// progress, and the per-rank files (graph, inputs, expected outputs), where {r} stands for the rank (empty: every rank runs the graph shown, with
// inputs generated from seed + rank).

#include <QMetaType>
#include <QString>

namespace fxs {

struct RankRunRequest {
    int ranks = 2;
    double timeoutSeconds = 60;
    QString graphs; // e.g. /samples/tp_mlp/tp_mlp_rank{r}.json; a glob after {r} must match one file
    QString inputs; // safetensors per rank, e.g. tp_mlp_rank{r}.safetensors
    QString expected; // each rank's expected outputs (output_0, ...), e.g. tp_mlp_rank{r}.outputs.safetensors
};

} // namespace fxs

Q_DECLARE_METATYPE(fxs::RankRunRequest)
