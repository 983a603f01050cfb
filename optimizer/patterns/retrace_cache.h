#pragma once
// register_replacement's check_fn re-traces search_fn per match, with the match's own input metas. A RetraceCache
// keeps one trace per distinct set of inputs for one registration, so that matches whose inputs look alike share
// it; the Python loader and the built-in library each say how to trace, this class does the rest.

#include "register_replacement.h"

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace fxs {

class RetraceCache {
public:
    // One match's inputs as the re-trace sees them: `key` says which matches can share a trace, `notes` where an
    // example input had to stand in for a value the dump does not have.
    struct Inputs {
        std::string key;
        std::vector<std::string> notes;

        // The tensor meta["val"] of `node`, bound to `parameter`; nullptr when it has none (a dump without
        // shapes): the caller then uses the example input, which this notes and keys.
        const TensorMeta *boundTensor(const std::string &parameter, const Node &node);
        // A literal the trace depends on, as Python writes it.
        void addLiteral(const std::string &python);
        // The example input used as it is.
        void addExample();
    };

    // The re-trace for `inputs`: `trace` runs once per distinct key (under the cache's lock, so a trace is never
    // made twice), and every caller gets it with its own notes first.
    Retrace get(const Inputs &inputs, const std::function<Retrace()> &trace);

    // The re-traced search graph as the specific pattern: fx_to_pattern without ignore_types, or its error.
    static Retrace fromSearchGraph(const Graph &search, FxToPatternOptions options);

private:
    std::mutex m_mutex;
    std::map<std::string, Retrace> m_byInputs;
};

} // namespace fxs
