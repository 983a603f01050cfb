#include "retrace_cache.h"

namespace fxs {

const TensorMeta *RetraceCache::Inputs::boundTensor(const std::string &parameter, const Node &node)
{
    const auto &val = node.meta().val;
    if (val && val->kind == ValueMeta::Kind::Tensor) {
        key += val->toAnnotation() + ";";
        return &val->tensor;
    }
    notes.push_back("re-trace: '" + parameter + "' is " + node.name()
        + ", which has no tensor meta['val'] in this dump (Inductor's check_fn reads it); the example input's shape "
          "and dtype were used instead (sizes the replacement reads are the example's; its new nodes get no meta)");
    addExample();
    return nullptr;
}

void RetraceCache::Inputs::addLiteral(const std::string &python)
{
    key += python + ";";
}

void RetraceCache::Inputs::addExample()
{
    key += "example;";
}

Retrace RetraceCache::get(const Inputs &inputs, const std::function<Retrace()> &trace)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_byInputs.find(inputs.key);
    if (it == m_byInputs.end()) {
        Retrace traced = trace();
        // Metas traced from a stand-in are the example's, not this graph's: the new nodes' val stays unknown.
        if (!inputs.notes.empty() && traced.replace) {
            std::shared_ptr<Graph> unknown = traced.replace->clone();
            for (const auto &n : unknown->nodes())
                n->meta().val.reset();
            traced.replace = std::move(unknown);
        }
        it = m_byInputs.emplace(inputs.key, std::move(traced)).first;
    }
    Retrace out = it->second;
    out.notes.insert(out.notes.begin(), inputs.notes.begin(), inputs.notes.end());
    return out;
}

Retrace RetraceCache::fromSearchGraph(const Graph &search, FxToPatternOptions options)
{
    options.ignoreTypes = false;
    Retrace out;
    auto pattern = fxToPattern(search, options);
    if (pattern)
        out.pattern = pattern.value();
    else
        out.error = pattern.error().message;
    return out;
}

} // namespace fxs
