#pragma once
// The dump formats fxscope reads, and sniffing a format from a file's content (never its extension).

#include "../util/result.h"

#include <string>
#include <string_view>

namespace fxs {

namespace format {
inline constexpr const char *FxText = "fx_text"; // print(gm.graph)
inline constexpr const char *Readable = "readable"; // print_readable / gm.code / TORCH_LOGS / depyf
inline constexpr const char *TorchTrace = "torch_trace"; // TORCH_TRACE structured log
inline constexpr const char *ExportJson = "export_json"; // torch.export serialized JSON
inline constexpr const char *Pt2 = "pt2"; // torch.export .pt2 zip archive
inline constexpr const char *TorchAirPy = "torchair_py"; // TorchAir graph_dump .py
inline constexpr const char *FxscopeJson = "fxscope_json"; // our own lossless JSON
inline constexpr const char *Recording = "fxscope_recording"; // a folder from python -m fxscope_capture.record
} // namespace format

// The format of `bytes`, or an error saying what the content looks like instead.
Result<std::string> sniffFormat(std::string_view bytes, const std::string &fileName);

// The length of the glog prefix that torch's log formatter puts before every line of TORCH_TRACE records and
// TORCH_LOGS messages, `V1206 15:18:15.925000 1500233 torch/_dynamo/utils.py:1288] ` (the space included),
// optionally behind torchrun's `[rank0]:`; 0 when `line` does not start with one.
size_t glogPrefixLength(std::string_view line);

} // namespace fxs
