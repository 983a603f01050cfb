#include "mutation_regions.h"

#include <algorithm>
#include <cctype>

namespace fxs {

namespace {

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The regex of Inductor's _mutation_op_re, written out because std::regex has no lookbehind.
bool nameLooksMutating(const std::string &s)
{
    auto at = [&](long i) -> char { return i >= 0 && i < long(s.size()) ? s[size_t(i)] : '\0'; };
    for (long i = 0; i < long(s.size()); ++i) {
        // (?<!_) before the match start i
        if (at(i - 1) == '_')
            continue;
        // _$  and  _[.]  (each followed by (?!_))
        if (at(i) == '_' && i == long(s.size()) - 1)
            return true;
        if (at(i) == '_' && at(i + 1) == '.' && at(i + 2) != '_')
            return true;
        // (\b|_)(set|enter|exit|seed)(\b|_)(?!_)
        for (const char *word : {"set", "enter", "exit", "seed"}) {
            long w = long(std::char_traits<char>::length(word));
            for (int prefix = 0; prefix < 2; ++prefix) {
                long start = i + prefix;
                if (prefix == 1 && at(i) != '_')
                    continue;
                if (prefix == 0) { // \b before a word char: the previous char is not a word char
                    if (isWordChar(at(i - 1)))
                        continue;
                }
                if (s.compare(size_t(start), size_t(w), word) != 0)
                    continue;
                long end = start + w;
                if (at(end) == '_') {
                    if (at(end + 1) != '_')
                        return true;
                } else if (!isWordChar(at(end)) && at(end) != '_') {
                    return true; // \b after the word, and the next char is not '_'
                }
            }
        }
    }
    return false;
}

// torch.ops.<ns>.<op>.<overload>: an OpOverload, whose schema decides (Inductor never applies the name rule to it).
bool isOpOverload(const std::string &target, const std::string &canonical)
{
    if (target.rfind("torch.ops.", 0) == 0)
        return true;
    if (std::count(canonical.begin(), canonical.end(), '.') != 2)
        return false;
    const std::string ns = canonical.substr(0, canonical.find('.'));
    return ns != "torch" && ns != "operator" && ns != "_operator" && ns != "builtins" && ns != "math";
}

} // namespace

bool isMutationOp(const Node &node, const OpSchemaTable &schemas)
{
    if (node.op() == OpKind::CallFunction) {
        if (const OpSchema *schema = schemas.find(node.target()))
            return schema->isMutable();
        std::string t = canonicalTarget(node.target());
        if (isOpOverload(node.target(), t)) {
            // No schema known here (a custom op such as air.scope_enter): PyTorch's in-place naming (`add_`, not
            // a dunder) is what marks a mutable schema; a functional op is not a mutation whatever its name.
            const std::string op = t.substr(t.find('.') + 1, t.rfind('.') - t.find('.') - 1);
            const bool inPlace = op.size() > 1 && op.back() == '_' && op[op.size() - 2] != '_';
            const Argument *out = node.kwarg("out");
            return inPlace || (out && !out->isNone());
        }
        // OpOverload.__name__ is "name.overload"; a plain function's is its last component.
        std::string name = t;
        size_t firstDot = t.find('.');
        if (firstDot != std::string::npos && t.find('.', firstDot + 1) != std::string::npos)
            name = t.substr(firstDot + 1);
        else if (firstDot != std::string::npos)
            name = t.substr(firstDot + 1);
        if (nameLooksMutating(name))
            return true;
    } else if (node.op() == OpKind::CallMethod) {
        if (nameLooksMutating(node.target()))
            return true;
    }
    const Argument *out = node.kwarg("out");
    return out && !out->isNone();
}

std::vector<int> computeMutationRegions(const Graph &graph, const OpSchemaTable &schemas)
{
    std::vector<int> regions(graph.size(), 0);
    int region = 0;
    for (const auto &n : graph.nodes()) {
        if (isMutationOp(*n, schemas))
            ++region;
        regions[n->index()] = region;
    }
    return regions;
}

} // namespace fxs
