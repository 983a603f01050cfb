#pragma once
// How an item on the graph canvas is emphasised: as the hovered item, as one of its inputs or users, and
// as part of the pattern candidate selected.

namespace fxs {

enum class CanvasHighlight { None, Hovered, Input, Output };

// How a node takes part in the pattern candidate shown: matched by an accepted candidate, tried by a rejected
// one (its anchor and the path walked), or the graph node that disagreed with the pattern. Added marks the nodes the
// last fusion step created.
enum class CanvasMatchMark { None, Matched, Tried, Disagreeing, Added };

} // namespace fxs
