#pragma once
// How an item on the graph canvas is emphasised: as the hovered item, as one of its inputs or users.

namespace fxs {

enum class CanvasHighlight { None, Hovered, Input, Output };

} // namespace fxs
