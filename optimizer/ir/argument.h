#pragma once
// One FX argument value: a literal, a node reference, or a nested list/tuple/dict of those.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

class Node;

class Argument {
public:
    enum class Kind {
        None,
        Bool,
        Int,
        Float, // includes inf, -inf and nan
        String,
        NodeRef,
        List,
        Tuple,
        Dict, // keys are kept as their printed text
        Dtype, // "torch.float32"
        Device, // "cpu", "cuda:0", "npu:0"
        Layout, // "torch.strided"
        MemoryFormat, // "torch.contiguous_format"
        Slice, // items: start, stop, step
        Ellipsis,
        SymExpr, // a symbolic int or expression: "s0", "2*s0 + 1"
        Verbatim, // any other Python value, kept as printed
    };

    Argument() = default;

    static Argument none() { return Argument(); }
    static Argument ofBool(bool v);
    static Argument ofInt(int64_t v);
    static Argument ofFloat(double v);
    static Argument ofString(std::string v);
    static Argument ofNode(Node *node);
    static Argument list(std::vector<Argument> items);
    static Argument tuple(std::vector<Argument> items);
    static Argument dict(std::vector<std::pair<std::string, Argument>> entries);
    static Argument slice(Argument start, Argument stop, Argument step);
    static Argument ellipsis();
    // Dtype, Device, Layout, MemoryFormat, SymExpr and Verbatim carry their text.
    static Argument ofText(Kind kind, std::string text);

    Kind kind() const { return m_kind; }
    bool isNone() const { return m_kind == Kind::None; }
    bool isNode() const { return m_kind == Kind::NodeRef; }
    bool isSequence() const { return m_kind == Kind::List || m_kind == Kind::Tuple; }

    bool toBool() const { return m_int != 0; }
    int64_t toInt() const { return m_int; }
    double toDouble() const { return m_kind == Kind::Int ? double(m_int) : m_float; }
    const std::string &text() const { return m_text; } // String and the text kinds
    Node *node() const { return m_node; }
    const std::vector<Argument> &items() const { return m_items; } // List, Tuple, Dict values, Slice
    std::vector<Argument> &items() { return m_items; }
    const std::vector<std::string> &keys() const { return m_keys; } // Dict keys, parallel to items()

    // Calls f(Node*) for every node reference, depth first, left to right.
    template <typename F>
    void forEachNode(F &&f) const
    {
        if (m_kind == Kind::NodeRef)
            f(m_node);
        for (const auto &item : m_items)
            item.forEachNode(f);
    }
    // Replaces node references through map(Node*) -> Node*.
    template <typename F>
    void remapNodes(F &&map)
    {
        if (m_kind == Kind::NodeRef)
            m_node = map(m_node);
        for (auto &item : m_items)
            item.remapNodes(map);
    }

    // Python-like repr as print(gm.graph) shows it: nodes as %name, strings unquoted.
    std::string toFxText() const;
    // Python source repr as generated code shows it: nodes as name, strings quoted.
    std::string toPython() const;

    friend bool operator==(const Argument &a, const Argument &b);
    friend bool operator!=(const Argument &a, const Argument &b) { return !(a == b); }

private:
    Kind m_kind = Kind::None;
    int64_t m_int = 0;
    double m_float = 0;
    Node *m_node = nullptr;
    std::string m_text;
    std::vector<Argument> m_items;
    std::vector<std::string> m_keys;
};

using Kwargs = std::vector<std::pair<std::string, Argument>>;

const char *kindName(Argument::Kind kind);
// Python string literal with the quote choice Python's repr makes.
std::string pythonStringRepr(const std::string &s);

} // namespace fxs
