#pragma once
// Reads one FX argument value (nested tuples, lists, dicts, literals, node references) from a line of
// text, in either of the two spellings dumps use: print(gm.graph)'s (%name references, unquoted strings
// and dict keys) or Python repr's (bare node names, quoted strings), optionally with TorchAir's
// `name: annotation` node references. Iterative with a bounded nesting depth, linear in the input.

#include "../ir/argument.h"

#include <functional>
#include <string>
#include <string_view>

namespace fxs {

class FxArgScanner {
public:
    enum class Syntax {
        FxText, // %name is a node, bare words are strings/dtypes/devices, dict keys unquoted
        Python, // bare identifiers may be nodes (the resolver decides), strings are quoted
    };

    // A node name met in the text, as the resolver sees it.
    struct NameRef {
        std::string_view name;
        size_t offset = 0; // of the name's first character (after any '%')
        bool percent = false; // written as %name
        bool annotated = false; // written as `name: annotation` (TorchAir FX Code)
        std::string_view annotation; // without surrounding quotes
    };
    enum class Resolution { Node, NotNode, Failed };
    // Sets `node` and returns Node, returns NotNode to read the name as a literal, or sets `message` and
    // returns Failed to stop with an error at the name.
    using Resolver = std::function<Resolution(const NameRef &ref, Node *&node, std::string &message)>;

    static constexpr int kMaxDepth = 256;

    FxArgScanner(std::string_view text, Syntax syntax, Resolver resolver);

    // TorchAir FX Code writes `name: torch.float32[2]npu:0` for node arguments.
    void setAnnotations(bool on) { m_annotations = on; }

    size_t pos() const { return m_pos; }
    void setPos(size_t pos) { m_pos = pos; }
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    void skipSpaces();
    // Consumes `token` when the text continues with it.
    bool consume(std::string_view token);
    // Like consume, but records "expected `what`" as the error when absent.
    bool expect(std::string_view token, std::string_view what = {});

    // Reads one value at pos() (leading spaces skipped) and leaves pos() just after it.
    bool parseValue(Argument &out);
    // Reads `a, b, k=v` up to and including `close`; pos() must be just after the opening bracket.
    bool parseCallArguments(std::vector<Argument> &args, Kwargs &kwargs, char close = ')');

    // Reads the annotation after `name: ` in TorchAir FX Code: a quoted string or text up to a
    // top-level ',' or ')'. pos() must be at its first character.
    bool scanAnnotation(std::string_view &out);

    // The error of the last failing call: where (an offset into the text) and what.
    size_t errorOffset() const { return m_errorOffset; }
    const std::string &errorMessage() const { return m_errorMessage; }
    bool failed() const { return !m_errorMessage.empty(); }
    // Records an error "expected <what>, found <what is at offset>".
    bool fail(size_t offset, std::string_view expected);
    bool failMessage(size_t offset, std::string message);
    // A short description of the text at offset for "found ..." messages.
    std::string describeAt(size_t offset) const;

    // How a bare word reads outside Python strings: None/True/False, inf/nan, dtypes, layouts, memory
    // formats, devices, symbolic ints, other dotted names (verbatim) or else a string.
    static Argument classifyWord(std::string_view word);
    static bool isSymbolName(std::string_view word);
    static bool isIdentifier(std::string_view word);

private:
    struct Frame;

    bool parseAtom(Argument &out, bool &opened, std::vector<Frame> &stack);
    bool parseNumber(Argument &out);
    bool scanSymExpr(Argument &out);
    bool scanBalanced(size_t start, char open, char close, size_t &end);
    bool parseQuoted(std::string &out);
    bool parseDeviceCall(Argument &out);
    bool parseDictKey(std::string &key);
    std::string_view scanWord();

    std::string_view m_text;
    Syntax m_syntax;
    Resolver m_resolver;
    bool m_annotations = false;
    size_t m_pos = 0;
    size_t m_errorOffset = 0;
    std::string m_errorMessage;
};

} // namespace fxs
