#include "op_schema_table.h"

#include "../runtime/runtime_library.h"

#include <chrono>
#include <cstdlib>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace fxs {

OpSchemaTable &OpSchemaTable::instance()
{
    static OpSchemaTable *table = [] {
        auto *t = new OpSchemaTable;
        for (const char *text : builtinOpSchemas())
            if (!t->add(text))
                spdlog::error("built-in op schema does not parse: {}", text);
        return t;
    }();
    return *table;
}

bool OpSchemaTable::add(std::string_view schemaText)
{
    auto schema = OpSchema::parse(schemaText);
    if (!schema)
        return false;
    std::lock_guard<std::mutex> lock(m_mutex);
    std::string target = schema->target();
    auto &packet = m_packets[schema->packet()];
    if (std::find(packet.begin(), packet.end(), target) == packet.end())
        packet.push_back(target);
    m_byTarget[target] = std::make_unique<OpSchema>(std::move(schema.value()));
    return true;
}

const OpSchema *OpSchemaTable::find(std::string_view target) const
{
    std::string key = canonicalTarget(target);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = m_byTarget.find(key);
        if (it != m_byTarget.end())
            return it->second.get();
        if (m_libTorchDone)
            return nullptr;
    }
    // Only aten-like namespaces can be in LibTorch; odd targets (operator.add) must not trigger the load.
    if (key.find('.') == std::string::npos || key.rfind("operator.", 0) == 0 || key.rfind("builtins.", 0) == 0)
        return nullptr;
    const_cast<OpSchemaTable *>(this)->addLibTorchSchemas();
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_byTarget.find(key);
    return it == m_byTarget.end() ? nullptr : it->second.get();
}

const OpSchema *OpSchemaTable::findKnown(std::string_view target) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_byTarget.find(canonicalTarget(target));
    return it == m_byTarget.end() ? nullptr : it->second.get();
}

Result<size_t> OpSchemaTable::addLibTorchSchemas()
{
    // One thread loads; the others wait here for it, so none reads a half-loaded table as final.
    std::lock_guard<std::mutex> loading(m_loadMutex);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_libTorchDone)
            return size_t(0);
    }
    struct MarkDone {
        OpSchemaTable *table;
        ~MarkDone()
        {
            std::lock_guard<std::mutex> lock(table->m_mutex);
            table->m_libTorchDone = true;
        }
    } markDone{this};
    if (std::getenv("FXSCOPE_NO_LIBTORCH"))
        return Error{{}, 0, 0, "LibTorch schemas disabled by FXSCOPE_NO_LIBTORCH"};
    const auto start = std::chrono::steady_clock::now();
    auto schemas = runtimeOpSchemas();
    if (!schemas) {
        spdlog::info("operator schemas from the built-in table only: {}", schemas.error().message);
        return schemas.error();
    }
    size_t added = 0;
    size_t unreadable = 0;
    for (const std::string &text : schemas.value()) {
        auto schema = OpSchema::parse(text);
        if (!schema) {
            ++unreadable;
            continue;
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        std::string target = schema->target();
        if (m_byTarget.count(target))
            continue;
        auto &packet = m_packets[schema->packet()];
        packet.push_back(target);
        m_byTarget[target] = std::make_unique<OpSchema>(std::move(schema.value()));
        ++added;
    }
    m_libTorchLoadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    spdlog::debug(
        "added {} operator schemas from LibTorch ({} unreadable) in {:.0f} ms", added, unreadable, m_libTorchLoadMs);
    return added;
}

std::vector<std::string> OpSchemaTable::overloads(std::string_view packet) const
{
    std::string key = canonicalTarget(packet);
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_packets.find(key);
    return it == m_packets.end() ? std::vector<std::string>{} : it->second;
}

size_t OpSchemaTable::size() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_byTarget.size();
}

bool isOverloadPacket(std::string_view target)
{
    std::string t = canonicalTarget(target);
    // Only namespaced ops have packets: "aten.add" (one dot) is a packet, "aten.add.Tensor" an overload.
    static const char *kNamespaces[] = {"aten.", "prims.", "npu.", "air.", "quantized_decomposed."};
    bool namespaced = false;
    for (const char *ns : kNamespaces)
        namespaced = namespaced || t.rfind(ns, 0) == 0;
    return namespaced && std::count(t.begin(), t.end(), '.') == 1;
}

} // namespace fxs
