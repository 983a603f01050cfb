#pragma once
// Graph inputs and weights as tensors: read from a safetensors file (8-byte little-endian header length, JSON
// header, raw bytes; no pickle) or generated from a node's meta val with a fixed seed. Internal to the module.

#include "ir/graph.h"
#include "symbol_values.h"
#include "util/result.h"

#include <ATen/core/Tensor.h>

#include <map>
#include <string>
#include <unordered_map>

namespace fxs {

// Every tensor of a safetensors file by name, in key order of the header.
Result<std::map<std::string, at::Tensor>> readSafetensors(const std::string &path);

// A value for every placeholder and get_attr node (but those naming a nested graph): from `given` by node name,
// else generated from meta, symbolic dims taking their values from `symbols`. A SymInt placeholder (Sym(s0)) gets
// its symbol's value as a 0-dim int64 tensor, which the executor passes on as an int.
Result<std::unordered_map<std::string, at::Tensor>> graphInputs(const Graph &graph,
    const std::map<std::string, at::Tensor> &given, const SymbolValues &symbols, c10::Device device, uint64_t seed);

} // namespace fxs
