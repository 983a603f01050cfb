#pragma once
// The operator schemas the matcher consults: overload packets (aten.add -> add.Tensor, add.Scalar, ...),
// kwarg normalisation and mutability. Holds the built-in table (op_schemas.cpp: the aten ops of common fusion
// patterns and the public torch_npu fusion op signatures); LibTorch's registry can add more through add().

#include "../util/result.h"
#include "op_schema.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxs {

class OpSchemaTable {
public:
    // The process-wide table, filled with the built-in schemas on first use.
    static OpSchemaTable &instance();

    // Adds or replaces the schema of its target. Returns false when text does not parse.
    bool add(std::string_view schemaText);
    // By target in any spelling canonicalTarget accepts; nullptr when unknown. The first miss asks
    // LibTorch's registry (addLibTorchSchemas), so ops outside the built-in table are found too.
    const OpSchema *find(std::string_view target) const;
    // The same without asking LibTorch: what the table holds now (for a graph load, which must not wait on it).
    const OpSchema *findKnown(std::string_view target) const;
    // Adds every schema LibTorch's dispatcher knows that the table lacks (built-ins win), loading the
    // runtime module on first use. Returns how many were added; tried once per process.
    Result<size_t> addLibTorchSchemas();
    // Time the LibTorch load took (0 until it happened), so callers can report match time without it.
    double libTorchLoadMilliseconds() const { return m_libTorchLoadMs; }
    // The targets of every known overload of a packet ("aten.add"), in the order they were added.
    std::vector<std::string> overloads(std::string_view packet) const;
    size_t size() const;

private:
    mutable std::mutex m_mutex;
    std::mutex m_loadMutex; // held while LibTorch's schemas load
    bool m_libTorchDone = false; // LibTorch's schemas are in (or could not be loaded)
    double m_libTorchLoadMs = 0;
    std::unordered_map<std::string, std::unique_ptr<OpSchema>> m_byTarget;
    std::unordered_map<std::string, std::vector<std::string>> m_packets;
};

// True when target names an overload packet ("aten.add", "torch.ops.npu.npu_rms_norm") rather than one overload.
bool isOverloadPacket(std::string_view target);

// The built-in schema texts (op_schemas.cpp).
const std::vector<const char *> &builtinOpSchemas();

} // namespace fxs
