#include "readable_parser.h"

#include "../util/text.h"

#include "../util/progress.h"

#include "format.h"
#include "python_parser.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace fxs {

namespace {

using namespace std::string_view_literals;

constexpr int kMaxClassNesting = 64;

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

const char *binaryOperatorName(std::string_view op)
{
    static const std::pair<const char *, const char *> table[] = {
        {"+", "add"},
        {"-", "sub"},
        {"*", "mul"},
        {"/", "truediv"},
        {"//", "floordiv"},
        {"%", "mod"},
        {"**", "pow"},
        {"@", "matmul"},
        {"&", "and_"},
        {"|", "or_"},
        {"^", "xor"},
        {"<<", "lshift"},
        {">>", "rshift"},
    };
    for (const auto &e : table)
        if (op == e.first)
            return e.second;
    return nullptr;
}

const char *comparisonOperatorName(std::string_view op)
{
    static const std::pair<const char *, const char *> table[] = {
        {"<", "lt"},
        {"<=", "le"},
        {">", "gt"},
        {">=", "ge"},
        {"==", "eq"},
        {"!=", "ne"},
        {"is", "is_"},
        {"is not", "is_not"},
    };
    for (const auto &e : table)
        if (op == e.first)
            return e.second;
    return nullptr;
}

const char *inplaceOperatorName(std::string_view op)
{
    static const std::pair<const char *, const char *> table[] = {
        {"+=", "iadd"},
        {"-=", "isub"},
        {"*=", "imul"},
        {"/=", "itruediv"},
        {"//=", "ifloordiv"},
        {"%=", "imod"},
        {"**=", "ipow"},
        {"@=", "imatmul"},
        {"&=", "iand"},
        {"|=", "ior"},
        {"^=", "ixor"},
        {"<<=", "ilshift"},
        {">>=", "irshift"},
    };
    for (const auto &e : table)
        if (op == e.first)
            return e.second;
    return nullptr;
}

bool isPythonBuiltin(std::string_view name)
{
    static constexpr std::string_view builtins[] = {
        "abs"sv,
        "all"sv,
        "any"sv,
        "ascii"sv,
        "bin"sv,
        "bool"sv,
        "bytearray"sv,
        "bytes"sv,
        "callable"sv,
        "chr"sv,
        "complex"sv,
        "dict"sv,
        "dir"sv,
        "divmod"sv,
        "enumerate"sv,
        "filter"sv,
        "float"sv,
        "format"sv,
        "frozenset"sv,
        "getattr"sv,
        "hasattr"sv,
        "hash"sv,
        "hex"sv,
        "id"sv,
        "int"sv,
        "isinstance"sv,
        "issubclass"sv,
        "iter"sv,
        "len"sv,
        "list"sv,
        "map"sv,
        "max"sv,
        "min"sv,
        "next"sv,
        "object"sv,
        "oct"sv,
        "ord"sv,
        "pow"sv,
        "print"sv,
        "range"sv,
        "repr"sv,
        "reversed"sv,
        "round"sv,
        "set"sv,
        "setattr"sv,
        "slice"sv,
        "sorted"sv,
        "str"sv,
        "sum"sv,
        "super"sv,
        "tuple"sv,
        "type"sv,
        "vars"sv,
        "zip"sv,
    };
    for (std::string_view b : builtins)
        if (name == b)
            return true;
    return false;
}

bool isLayoutName(std::string_view name)
{
    static const char *const layouts[] = {"torch.strided", "torch.sparse_coo", "torch.sparse_csr", "torch.sparse_csc",
        "torch.sparse_bsr", "torch.sparse_bsc", "torch._mkldnn", "torch.jagged"};
    for (const char *l : layouts)
        if (name == l)
            return true;
    return false;
}

bool isMemoryFormatName(std::string_view name)
{
    static const char *const formats[]
        = {"torch.contiguous_format", "torch.channels_last", "torch.channels_last_3d", "torch.preserve_format"};
    for (const char *f : formats)
        if (name == f)
            return true;
    return false;
}

// Python int and float literals; nullopt for imaginary numbers and ints beyond 64 bits.
std::optional<Argument> numberArgument(std::string_view text, bool negate)
{
    std::string digits;
    digits.reserve(text.size());
    for (char c : text)
        if (c != '_')
            digits += c;
    if (!digits.empty() && (digits.back() == 'j' || digits.back() == 'J'))
        return std::nullopt;
    int base = 10;
    size_t skip = 0;
    if (digits.size() > 2 && digits[0] == '0') {
        char p = char(digits[1] | 0x20);
        base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
        if (base != 10)
            skip = 2;
    }
    bool isFloat = base == 10 && digits.find_first_of(".eE") != std::string::npos;
    const char *first = digits.data() + skip;
    const char *last = digits.data() + digits.size();
    if (isFloat) {
        double d = 0;
        auto res = std::from_chars(first, last, d);
        if (res.ptr != last)
            return std::nullopt;
        return Argument::ofFloat(negate ? -d : d);
    }
    uint64_t u = 0;
    auto res = std::from_chars(first, last, u, base);
    if (res.ec != std::errc() || res.ptr != last)
        return std::nullopt;
    if (!negate && u <= uint64_t(std::numeric_limits<int64_t>::max()))
        return Argument::ofInt(int64_t(u));
    if (negate && u <= uint64_t(std::numeric_limits<int64_t>::max()) + 1)
        return Argument::ofInt(
            u == uint64_t(std::numeric_limits<int64_t>::max()) + 1 ? std::numeric_limits<int64_t>::min() : -int64_t(u));
    return std::nullopt;
}

// "# File: /p/x.py:12 in forward, code: y = f(x)" (and the older form without "in fn"); nullopt for any
// other comment. "# No stacktrace found ..." is reported through `clears`.
std::optional<SourceLocation> parseFileComment(std::string_view comment, bool &clears)
{
    clears = false;
    std::string_view text = comment;
    while (!text.empty() && text.front() == '#')
        text.remove_prefix(1);
    text = trim(text);
    if (startsWith(text, "No stacktrace found")) {
        clears = true;
        return std::nullopt;
    }
    size_t file = std::string_view::npos;
    if (startsWith(text, "File: "))
        file = 0;
    else if (startsWith(text, "Annotation:"))
        file = text.find(" File: ") == std::string_view::npos ? std::string_view::npos : text.find(" File: ") + 1;
    if (file == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = text.substr(file + 6);
    size_t codeAt = rest.find(", code: ");
    std::string_view where = codeAt == std::string_view::npos ? rest : rest.substr(0, codeAt);
    SourceLocation loc;
    if (codeAt != std::string_view::npos)
        loc.code = std::string(rest.substr(codeAt + 8));
    size_t in = where.rfind(" in ");
    if (in != std::string_view::npos) {
        loc.function = std::string(where.substr(in + 4));
        where = where.substr(0, in);
    }
    size_t colon = where.rfind(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    std::string_view lineText = where.substr(colon + 1);
    int line = 0;
    auto res = std::from_chars(lineText.data(), lineText.data() + lineText.size(), line);
    if (res.ec != std::errc() || res.ptr != lineText.data() + lineText.size())
        return std::nullopt;
    loc.file = std::string(where.substr(0, colon));
    loc.line = line;
    return loc;
}

// One parameter of forward().
struct Param {
    std::string_view name; // without stars
    std::string target; // as written, *args keeps its star
    std::string_view annotation; // raw source text; empty when there is none
    std::optional<Argument> defaultValue;
    std::string_view alias; // the body's name when a `l_x_ = L_x_` line renames it
    int line = 0;
};

// A placeholder that tree_flatten_spec or next(args_iter) introduces.
struct FlatInput {
    std::string_view name;
    std::string_view annotation;
    int line = 0;
};

// `x += y` waits for the `name = x` that names its result (`x += y;  name = x` is one FX node).
struct PendingInplace {
    std::string target;
    std::vector<Argument> args;
    std::string_view receiver;
    std::optional<SourceLocation> source;
    int line = 0;
    bool rebindsReceiver = true; // x += y: later x is the result; x[i] = y: later x is still x (mutated)
};

class ReadableParser {
public:
    ReadableParser(std::string_view text, std::string fileName, int firstLine)
        : m_text(text), m_fileName(std::move(fileName)), m_firstLine(firstLine)
    {
    }

    Result<GraphFile> run();

private:
    struct Function {
        Graph *graph = nullptr;
        std::vector<Param> params;
        std::unordered_map<std::string_view, size_t> paramIndex; // by name, for `l_x_ = L_x_`
        std::vector<FlatInput> flat;
        std::unordered_map<std::string_view, std::string_view> declared; // `a: "f32[2]";` before the flatten line
        std::unordered_map<std::string_view, Node *> env;
        std::optional<SourceLocation> source;
        std::optional<PendingInplace> pending;
        bool prologue = true;
        bool pytree = false;
        bool boxed = false;
        bool returned = false;
    };

    std::unique_ptr<Graph> parseClass(int depth, std::string &name, int &line);
    bool parseFunction(Graph &graph);
    bool parseParameters(Function &fn);
    bool parseStatementLine(Function &fn);
    bool parseSmallStatement(Function &fn);
    std::string_view scanAnnotation(std::initializer_list<std::string_view> stops);

    bool handleAssign(Function &fn, const std::vector<ExprId> &targets, ExprId value, std::string_view annotation,
        const Token &first);
    bool handleAugAssign(Function &fn, ExprId target, std::string_view op, ExprId value, const Token &first);
    bool handleExpressionStatement(Function &fn, ExprId expr, const Token &first);
    bool handleReturn(Function &fn, ExprId value, const Token &first);
    void applyComments(Function &fn);
    void finishPrologue(Function &fn);
    void flushPending(Function &fn);
    Node *emitNode(Function &fn, std::string_view name, ExprId value, std::string_view annotation, int line);
    Node *addNode(Function &fn, OpKind op, std::string_view name, std::string target, std::vector<Argument> args,
        Kwargs kwargs, int line);
    void applyAnnotation(Node *node, std::string_view annotation);
    void bind(Function &fn, std::string_view name, Node *node);

    Argument toArgument(const Function &fn, ExprId id) const;
    Argument symbolic(const Function &fn, ExprId id) const;
    void callArguments(
        const Function &fn, ExprId call, size_t firstArg, std::vector<Argument> &args, Kwargs &kwargs) const;
    std::optional<std::string> modulePath(ExprId id) const;
    Node *lookup(const Function &fn, std::string_view name) const;
    bool mentionsNode(const Function &fn, ExprId id) const;
    bool isName(ExprId id) const { return id != kNoExpr && tree()[id].kind == ExprKind::Name; }
    std::string calleeName(ExprId call) const;
    bool failAtExpr(ExprId id, std::string message);

    const ExprTree &tree() const { return m_parser->tree(); }
    ExprTree &tree() { return m_parser->tree(); }
    PythonParser &p() { return *m_parser; }

    std::string_view m_text;
    std::string m_fileName;
    int m_firstLine = 1;
    std::string_view m_source; // the part of m_text that is tokenized
    std::unique_ptr<PythonParser> m_parser;
    std::vector<ExprId> m_targets;
};

Result<GraphFile> ReadableParser::run()
{
    // Find where the code starts: skip log headers (TRACED GRAPH / ===== Forward graph 5 =====), strip an
    // `<eval_with_key>.N ` prefix, and keep only the indented block of a print(ep) `ExportedProgram:` dump
    // (its `Graph signature:` and `Range constraints:` trailers are not Python).
    size_t start = 0;
    int line = m_firstLine;
    int firstColumn = 1;
    size_t end = m_text.size();
    while (start < m_text.size()) {
        size_t eol = m_text.find('\n', start);
        size_t next = eol == std::string_view::npos ? m_text.size() : eol + 1;
        std::string_view content = trim(m_text.substr(start, next - start - (eol == std::string_view::npos ? 0 : 1)));
        bool header = content == "TRACED GRAPH"
            || (content.size() >= 4 && startsWith(content, "=====") && endsWith(content, "====="));
        if (content.empty() || header) {
            start = next;
            ++line;
            continue;
        }
        // TORCH_LOGS puts the generated module's file before the code: `<eval_with_key>.40 class GraphModule(...)`
        // (2.0, 2.1), `/…/torch/fx/_lazy_graph_module.py class GraphModule(...)` (2.13).
        size_t firstSpace = content.find(' ');
        std::string_view afterFile
            = firstSpace == std::string_view::npos ? std::string_view() : content.substr(firstSpace + 1);
        if (startsWith(content, "<eval_with_key>") || startsWith(afterFile, "class ")
            || startsWith(afterFile, "def ")) {
            size_t space = m_text.find(' ', size_t(content.data() - m_text.data()));
            if (space != std::string_view::npos && space < next) {
                firstColumn = int(space - start) + 2;
                start = space + 1;
            }
        } else if (content == "ExportedProgram:") {
            size_t indent = m_text.substr(start).find_first_not_of(" \t");
            size_t blockStart = next;
            size_t pos = next;
            while (pos < m_text.size()) {
                size_t e = m_text.find('\n', pos);
                size_t n = e == std::string_view::npos ? m_text.size() : e + 1;
                std::string_view l = m_text.substr(pos, n - pos);
                size_t lineIndent = l.find_first_not_of(" \t\r\n");
                if (lineIndent != std::string_view::npos && lineIndent <= indent)
                    break;
                pos = n;
            }
            start = blockStart;
            end = pos;
            ++line;
        }
        break;
    }
    m_source = m_text.substr(start, end - start);
    m_parser = std::make_unique<PythonParser>(m_source, m_fileName, line, firstColumn);

    GraphFile file;
    file.path = m_fileName;
    while (!p().failed() && !p().at(TokenKind::EndMarker)) {
        p().clearComments();
        const Token t = p().peek();
        if (t.kind == TokenKind::Newline || t.kind == TokenKind::Indent || t.kind == TokenKind::Dedent) {
            // A wrapper may indent the whole module (print(ep), TORCH_TRACE payloads).
            p().advance();
        } else if (t.isName("import") || t.isName("from") || t.kind == TokenKind::String) {
            p().skipLogicalLine();
        } else if (t.isName("class")) {
            std::string name;
            int classLine = 0;
            auto graph = parseClass(0, name, classLine);
            if (graph)
                file.graphs.push_back(NamedGraph{name, {}, std::move(graph), classLine});
        } else if (t.isName("def")) {
            p().advance();
            std::string_view fnName;
            if (!p().expectName(fnName, "after 'def'"))
                break;
            if (fnName != "forward") {
                p().skipLogicalLine();
                p().skipBlock();
                continue;
            }
            auto graph = std::make_unique<Graph>();
            if (!parseFunction(*graph))
                break;
            file.graphs.push_back(NamedGraph{"forward", {}, std::move(graph), t.line});
        } else {
            p().failExpected("'class' or 'def forward(' of an FX graph");
        }
    }
    if (p().failed())
        return p().error();
    if (file.graphs.empty())
        return Error{m_fileName, p().peek().line, p().peek().column,
            "expected an FX graph ('def forward(' or 'class ...(torch.nn.Module):'), found none"};
    // Several top-level graphs are unusual; keep them all, with distinct names.
    for (size_t i = 1; i < file.graphs.size(); ++i) {
        std::string base = file.graphs[i].name;
        int suffix = 1;
        auto taken = [&](const std::string &n) {
            for (size_t j = 0; j < i; ++j)
                if (file.graphs[j].name == n)
                    return true;
            return false;
        };
        while (taken(file.graphs[i].name))
            file.graphs[i].name = base + " (" + std::to_string(++suffix) + ")";
    }
    return file;
}

std::unique_ptr<Graph> ReadableParser::parseClass(int depth, std::string &name, int &line)
{
    const Token classToken = p().peek();
    line = classToken.line;
    if (depth >= kMaxClassNesting) {
        p().failAt(classToken,
            "expected classes nested at most " + std::to_string(kMaxClassNesting) + " deep, found deeper nesting");
        return nullptr;
    }
    p().advance(); // class
    if (p().acceptOp("<")) {
        // print_readable writes `class <lambda>(torch.nn.Module):`, which is not Python.
        std::string_view inner;
        if (p().peek().kind != TokenKind::Name) {
            p().failExpected("a class name inside '<...>'");
            return nullptr;
        }
        inner = p().peek().text;
        p().advance();
        if (!p().expectOp(">", "closing the class name"))
            return nullptr;
        name = "<" + std::string(inner) + ">";
    } else {
        std::string_view n;
        if (!p().expectName(n, "after 'class'"))
            return nullptr;
        name = std::string(n);
    }
    if (p().atOp("(")) {
        p().advance();
        while (!p().failed() && !p().atOp(")")) {
            tree().clear();
            p().parseExpression(true);
            if (!p().acceptOp(","))
                break;
        }
        if (!p().expectOp(")", "closing the base classes"))
            return nullptr;
    }
    if (!p().expectOp(":", "after the class header"))
        return nullptr;
    if (!p().at(TokenKind::Newline)) {
        p().skipLogicalLine(); // a one-line class body holds no graph
        return nullptr;
    }
    p().advance();
    if (!p().at(TokenKind::Indent)) {
        p().failExpected("an indented class body");
        return nullptr;
    }
    p().advance();

    auto graph = std::make_unique<Graph>();
    bool haveForward = false;
    while (!p().failed()) {
        p().clearComments();
        const Token t = p().peek();
        if (t.kind == TokenKind::Dedent) {
            p().advance();
            break;
        }
        if (t.kind == TokenKind::EndMarker)
            break;
        if (t.kind == TokenKind::Newline) {
            p().advance();
        } else if (t.isName("class")) {
            std::string childName;
            int childLine = 0;
            auto child = parseClass(depth + 1, childName, childLine);
            if (child)
                graph->addSubgraph(childName, std::move(child));
        } else if (t.isName("def")) {
            p().advance();
            std::string_view fnName;
            if (!p().expectName(fnName, "after 'def'"))
                return nullptr;
            if (fnName != "forward" || haveForward) {
                p().skipLogicalLine();
                p().skipBlock();
                continue;
            }
            if (!parseFunction(*graph))
                return nullptr;
            haveForward = true;
        } else {
            p().skipLogicalLine(); // docstrings and class attributes carry no graph
        }
    }
    if (p().failed() || !haveForward)
        return nullptr;
    return graph;
}

std::string_view ReadableParser::scanAnnotation(std::initializer_list<std::string_view> stops)
{
    // Annotations are kept as source text: `f32[8, 16][16, 1]cuda:0` (PyTorch 2.0 wrote it unquoted) is not
    // a Python expression.
    const Token first = p().peek();
    size_t begin = first.offset;
    size_t end = begin;
    int depth = 0;
    while (!p().failed()) {
        const Token &t = p().peek();
        if (t.kind == TokenKind::Newline || t.kind == TokenKind::EndMarker || t.kind == TokenKind::Indent
            || t.kind == TokenKind::Dedent)
            break;
        if (t.kind == TokenKind::Op) {
            bool stop = false;
            for (auto s : stops)
                stop = stop || t.text == s;
            if (depth == 0 && stop)
                break;
            if (t.text == "(" || t.text == "[" || t.text == "{")
                ++depth;
            else if (t.text == ")" || t.text == "]" || t.text == "}")
                --depth;
        }
        end = t.end();
        p().advance();
    }
    if (end == begin) {
        p().failExpected("a type annotation after ':'");
        return {};
    }
    return m_source.substr(begin, end - begin);
}

bool ReadableParser::parseParameters(Function &fn)
{
    if (!p().expectOp("(", "opening the parameters of forward()"))
        return false;
    bool first = true;
    while (!p().failed() && !p().atOp(")")) {
        std::string stars;
        if (p().atOp("*") || p().atOp("**")) {
            stars = std::string(p().peek().text);
            p().advance();
            if (p().atOp(",") || p().atOp(")")) { // a bare `*` only marks keyword-only parameters
                p().acceptOp(",");
                continue;
            }
        } else if (p().acceptOp("/")) {
            p().acceptOp(",");
            continue;
        }
        const Token nameToken = p().peek();
        std::string_view name;
        if (!p().expectName(name, "of a forward() parameter"))
            return false;
        Param param;
        param.name = name;
        param.target = stars + std::string(name);
        param.line = nameToken.line;
        if (p().acceptOp(":"))
            param.annotation = scanAnnotation({",", ")", "="});
        if (p().acceptOp("=")) {
            tree().clear();
            ExprId value = p().parseExpression();
            if (value == kNoExpr)
                return false;
            param.defaultValue = toArgument(fn, value);
        }
        if (!(first && name == "self" && stars.empty()))
            fn.params.push_back(std::move(param));
        first = false;
        if (!p().acceptOp(","))
            break;
    }
    if (!p().expectOp(")", "closing the parameters of forward()"))
        return false;
    for (size_t i = 0; i < fn.params.size(); ++i)
        fn.paramIndex.emplace(fn.params[i].name, i);
    if (p().acceptOp("->"))
        scanAnnotation({":"});
    return p().expectOp(":", "after the parameters of forward()");
}

bool ReadableParser::parseFunction(Graph &graph)
{
    Function fn;
    fn.graph = &graph;
    fn.env.reserve(m_source.size() / 128); // about one binding per line of a typical dump
    if (!parseParameters(fn))
        return false;
    if (!p().at(TokenKind::Newline)) {
        // `def forward(self, x): return x` keeps its body on the header line.
        if (!parseStatementLine(fn))
            return false;
    } else {
        p().advance();
        if (!p().at(TokenKind::Indent))
            return p().failExpected("an indented body of forward()");
        p().advance();
        while (!p().failed()) {
            applyComments(fn);
            if (p().at(TokenKind::Dedent)) {
                if (!fn.returned)
                    break;
                p().advance();
                break;
            }
            if (p().at(TokenKind::EndMarker))
                break;
            if (!parseStatementLine(fn))
                return false;
        }
    }
    if (p().failed())
        return false;
    if (!fn.returned) {
        const Token &t = p().peek();
        std::string found = t.offset >= m_source.size() ? std::string("end of file") : t.describe();
        return p().failAt(t, "expected 'return' ending forward(), found " + found);
    }
    return true;
}

void ReadableParser::applyComments(Function &fn)
{
    for (const Token &c : p().comments()) {
        bool clears = false;
        auto loc = parseFileComment(c.text, clears);
        if (loc)
            fn.source = std::move(loc);
        else if (clears)
            fn.source.reset();
    }
    p().clearComments();
}

bool ReadableParser::parseStatementLine(Function &fn)
{
    if (!reportProgress(p().peek().offset, m_source.size()))
        return p().failExpected("no cancellation (the load was canceled)");
    while (!p().failed()) {
        if (fn.returned)
            return p().failExpected("the end of forward() after 'return'");
        if (!parseSmallStatement(fn))
            return false;
        if (p().acceptOp(";")) {
            if (p().at(TokenKind::Newline)) {
                p().advance();
                return true;
            }
            continue;
        }
        if (p().at(TokenKind::Newline)) {
            p().advance();
            return true;
        }
        if (p().at(TokenKind::EndMarker))
            return true;
        return p().failExpected("';' or the end of the line after the statement");
    }
    return false;
}

bool ReadableParser::parseSmallStatement(Function &fn)
{
    tree().clear();
    const Token first = p().peek();
    if (first.kind == TokenKind::Name && isPythonKeyword(first.text)) {
        if (first.text == "pass") {
            p().advance();
            return true;
        }
        if (first.text == "return") {
            p().advance();
            ExprId value = kNoExpr;
            if (!p().at(TokenKind::Newline) && !p().atOp(";") && !p().at(TokenKind::EndMarker)) {
                value = p().parseExpressionList();
                if (value == kNoExpr)
                    return false;
            }
            return handleReturn(fn, value, first);
        }
        if (first.text == "del") {
            p().advance();
            return p().parseExpressionList() != kNoExpr;
        }
        if (first.text == "import" || first.text == "from") {
            while (!p().failed() && !p().at(TokenKind::Newline) && !p().atOp(";") && !p().at(TokenKind::EndMarker))
                p().advance();
            return !p().failed();
        }
        if (first.text != "None" && first.text != "True" && first.text != "False" && first.text != "not")
            return p().failExpected("an FX statement (an assignment or 'return')");
    }
    ExprId lhs = p().parseExpressionList();
    if (lhs == kNoExpr)
        return false;
    if (p().atOp(":")) {
        if (!isName(lhs) || tree()[lhs].parenthesized)
            return failAtExpr(lhs, "expected a name before the annotation, found " + tree().toSource(lhs));
        p().advance();
        std::string_view annotation = scanAnnotation({"=", ";"});
        if (p().failed())
            return false;
        if (!p().acceptOp("=")) {
            // `a: "f32[2]";` declares a pytree-flattened input.
            fn.declared[tree()[lhs].text] = annotation;
            return true;
        }
        ExprId value = p().parseExpressionList();
        if (value == kNoExpr)
            return false;
        m_targets.assign(1, lhs);
        return handleAssign(fn, m_targets, value, annotation, first);
    }
    if (p().atOp("=")) {
        m_targets.assign(1, lhs);
        ExprId value = kNoExpr;
        while (p().acceptOp("=")) {
            value = p().parseExpressionList();
            if (value == kNoExpr)
                return false;
            if (p().atOp("="))
                m_targets.push_back(value);
        }
        return handleAssign(fn, m_targets, value, {}, first);
    }
    if (p().peek().kind == TokenKind::Op && inplaceOperatorName(p().peek().text)) {
        std::string_view op = p().peek().text;
        p().advance();
        ExprId value = p().parseExpressionList();
        if (value == kNoExpr)
            return false;
        return handleAugAssign(fn, lhs, op, value, first);
    }
    return handleExpressionStatement(fn, lhs, first);
}

bool ReadableParser::failAtExpr(ExprId id, std::string message)
{
    Token t;
    t.line = tree()[id].line;
    t.column = tree()[id].column;
    return p().failAt(t, std::move(message));
}

std::string ReadableParser::calleeName(ExprId call) const
{
    if (call == kNoExpr || tree()[call].kind != ExprKind::Call)
        return {};
    return tree().dottedName(tree().child(call, 0));
}

bool ReadableParser::handleAssign(
    Function &fn, const std::vector<ExprId> &targets, ExprId value, std::string_view annotation, const Token &first)
{
    const ExprTree &t = tree();
    if (t.isNoneConstant(value)) {
        // `x = y = None` frees values after their last use; it is not a node.
        for (ExprId target : targets)
            if (!isName(target))
                return failAtExpr(target, "expected names before '= None', found " + t.toSource(target));
        return true;
    }
    if (fn.prologue && targets.size() == 1) {
        ExprId target = targets[0];
        if (isName(target) && isName(value)) {
            // `l_x_ = L_x_` renames the placeholder whose target is L_x_.
            auto it = fn.paramIndex.find(t[value].text);
            if (it != fn.paramIndex.end() && fn.params[it->second].alias.empty()) {
                fn.params[it->second].alias = t[target].text;
                return true;
            }
        }
        std::string callee = calleeName(value);
        if (endsWith(callee, "tree_flatten_spec")) {
            // `a, b, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)`: a and b are the inputs.
            fn.pytree = true;
            auto addFlat = [&](ExprId n) {
                if (!isName(n))
                    return failAtExpr(n, "expected a name unpacked from tree_flatten_spec, found " + t.toSource(n));
                fn.flat.push_back(FlatInput{t[n].text, {}, t[n].line});
                return true;
            };
            if (t[target].kind == ExprKind::Tuple) {
                for (size_t i = 0; i < t.childCount(target); ++i)
                    if (!addFlat(t.child(target, i)))
                        return false;
                return true;
            }
            return addFlat(target);
        }
        if (callee == "iter" && isName(target)) {
            fn.boxed = true; // args_iter = iter(args_list)
            return true;
        }
        if (fn.boxed && callee == "next" && isName(target)) {
            fn.flat.push_back(FlatInput{t[target].text, annotation, t[target].line});
            return true;
        }
    }
    finishPrologue(fn);
    if (fn.pending) {
        const PendingInplace &pending = *fn.pending;
        if (targets.size() == 1 && isName(targets[0]) && isName(value) && t[value].text == pending.receiver) {
            Node *n
                = addNode(fn, OpKind::CallFunction, t[targets[0]].text, pending.target, pending.args, {}, pending.line);
            n->meta().source = pending.source;
            applyAnnotation(n, annotation);
            fn.pending.reset();
            return true;
        }
        flushPending(fn);
    }
    if (targets.size() != 1)
        return failAtExpr(
            targets[1], "expected one name before '=', found a chained assignment to " + t.toSource(targets[1]));
    ExprId target = targets[0];
    if (t[target].kind == ExprKind::Subscript) {
        // `x[idx] = v;  setitem = x`: how torch.fx prints operator.setitem (Dynamo's in-place item assignment, a
        // node with no users that mutates x). The statement after it names the node, as for `x += y`.
        PendingInplace pending;
        pending.target = "operator.setitem";
        pending.args = {toArgument(fn, t.child(target, 0)), toArgument(fn, t.child(target, 1)), toArgument(fn, value)};
        if (isName(t.child(target, 0)))
            pending.receiver = t[t.child(target, 0)].text;
        pending.source = fn.source;
        pending.line = first.line;
        pending.rebindsReceiver = false;
        fn.pending = std::move(pending);
        return true;
    }
    if (!isName(target))
        return failAtExpr(target, "expected a node name before '=', found " + t.toSource(target));
    if (isName(value)) {
        Node *n = lookup(fn, t[value].text);
        if (!n)
            return failAtExpr(value,
                "expected a defined value after '=', found the undefined name '" + std::string(t[value].text) + "'");
        bind(fn, t[target].text, n);
        return true;
    }
    return emitNode(fn, t[target].text, value, annotation, first.line) != nullptr;
}

bool ReadableParser::handleAugAssign(Function &fn, ExprId target, std::string_view op, ExprId value, const Token &first)
{
    if (!isName(target))
        return failAtExpr(target, "expected a name before '" + std::string(op) + "', found " + tree().toSource(target));
    finishPrologue(fn);
    flushPending(fn);
    PendingInplace pending;
    pending.target = std::string("operator.") + inplaceOperatorName(op);
    pending.args = {toArgument(fn, target), toArgument(fn, value)};
    pending.receiver = tree()[target].text;
    pending.source = fn.source;
    pending.line = first.line;
    fn.pending = std::move(pending);
    return true;
}

bool ReadableParser::handleExpressionStatement(Function &fn, ExprId expr, const Token &first)
{
    const ExprTree &t = tree();
    if (t[expr].kind == ExprKind::String || t[expr].kind == ExprKind::Constant || t[expr].kind == ExprKind::Ellipsis)
        return true; // docstrings and no-ops
    if (t[expr].kind != ExprKind::Call)
        return failAtExpr(expr, "expected an assignment 'name = ...' or a call, found " + t.toSource(expr));
    std::string callee = calleeName(expr);
    // args_list.clear() ends the boxed calling convention's prologue.
    if (endsWith(callee, ".clear") && !lookup(fn, std::string_view(callee).substr(0, callee.size() - 6)))
        return true;
    finishPrologue(fn);
    flushPending(fn);
    // A bare call is a node nobody uses; FX would have named it after its op.
    std::string base = callee.empty() ? std::string("call") : callee;
    if (startsWith(base, "torch.ops.")) {
        std::vector<std::string_view> parts;
        std::string_view rest(base);
        size_t dot;
        while ((dot = rest.find('.')) != std::string_view::npos) {
            parts.push_back(rest.substr(0, dot));
            rest.remove_prefix(dot + 1);
        }
        parts.push_back(rest);
        base = std::string(parts.size() >= 4 ? parts[3] : parts.back());
    } else if (base.rfind('.') != std::string::npos) {
        base = base.substr(base.rfind('.') + 1);
    }
    std::string name = fn.graph->uniqueName(base);
    return emitNode(fn, name, expr, {}, first.line) != nullptr;
}

bool ReadableParser::handleReturn(Function &fn, ExprId value, const Token &first)
{
    finishPrologue(fn);
    flushPending(fn);
    Argument result;
    if (value != kNoExpr) {
        const ExprTree &t = tree();
        ExprId returned = value;
        // `return pytree.tree_unflatten([a, b], self._out_spec)` returns the flat list.
        if (endsWith(calleeName(value), "tree_unflatten") && t.childCount(value) >= 2)
            returned = t.child(value, 1);
        result = toArgument(fn, returned);
    }
    std::string name = fn.graph->find("output") ? fn.graph->uniqueName("output") : std::string("output");
    Node *out = fn.graph->append(OpKind::Output, std::move(name), "output", {std::move(result)});
    out->meta().dumpLine = first.line;
    fn.returned = true;
    return true;
}

void ReadableParser::finishPrologue(Function &fn)
{
    if (!fn.prologue)
        return;
    fn.prologue = false;
    auto place = [&](std::string_view name, std::string target, std::string_view annotation, std::vector<Argument> args,
                     int line) {
        std::string unique = fn.graph->find(name) ? fn.graph->uniqueName(name) : std::string(name);
        Node *n = fn.graph->append(OpKind::Placeholder, std::move(unique), std::move(target), std::move(args));
        n->meta().dumpLine = line;
        applyAnnotation(n, annotation);
        bind(fn, name, n);
        return n;
    };
    if (fn.pytree || fn.boxed) {
        for (const FlatInput &in : fn.flat) {
            std::string_view annotation = in.annotation;
            if (annotation.empty()) {
                auto it = fn.declared.find(in.name);
                if (it != fn.declared.end())
                    annotation = it->second;
            }
            place(in.name, std::string(in.name), annotation, {}, in.line);
        }
        return;
    }
    std::unordered_set<std::string_view> aliases;
    for (const Param &param : fn.params)
        if (!param.alias.empty())
            aliases.insert(param.alias);
    for (const Param &param : fn.params) {
        std::vector<Argument> args;
        if (param.defaultValue)
            args.push_back(*param.defaultValue);
        Node *n = place(param.alias.empty() ? param.name : param.alias, param.target, param.annotation, std::move(args),
            param.line);
        // The body may still say L_x_, unless another parameter was renamed to that name (AOT joint graphs rename
        // primals_1 to primals_2 and primals_2 to primals_4: the body's primals_2 is the first parameter).
        if (!param.alias.empty() && !aliases.count(param.name))
            fn.env[param.name] = n;
    }
}

void ReadableParser::flushPending(Function &fn)
{
    if (!fn.pending)
        return;
    // `x += y` without the `name = x` that FX prints after it: name the node after the operator.
    PendingInplace pending = std::move(*fn.pending);
    fn.pending.reset();
    std::string name = fn.graph->uniqueName(pending.target.substr(pending.target.find('.') + 1));
    Node *n = fn.graph->append(OpKind::CallFunction, name, pending.target, std::move(pending.args));
    n->meta().dumpLine = pending.line;
    n->meta().source = pending.source;
    if (pending.rebindsReceiver)
        fn.env[pending.receiver] = n;
    fn.env[n->name()] = n;
}

Node *ReadableParser::lookup(const Function &fn, std::string_view name) const
{
    auto it = fn.env.find(name);
    return it == fn.env.end() ? nullptr : it->second;
}

void ReadableParser::bind(Function &fn, std::string_view name, Node *node)
{
    // Keys must outlive the parse: they view either the node's own name or the source text.
    fn.env[node->name()] = node;
    bool inSource = name.data() >= m_source.data() && name.data() + name.size() <= m_source.data() + m_source.size();
    if (inSource && name != node->name())
        fn.env[name] = node;
}

Node *ReadableParser::addNode(Function &fn, OpKind op, std::string_view name, std::string target,
    std::vector<Argument> args, Kwargs kwargs, int line)
{
    // FX names are unique; a repeated name (hand-edited code) gets a suffix and rebinds the variable.
    // The environment holds every node name, so it answers "taken?" without building a std::string.
    bool taken = fn.env.count(name) && (lookup(fn, name)->name() == name || fn.graph->find(name));
    std::string unique = taken ? fn.graph->uniqueName(name) : std::string(name);
    Node *n = fn.graph->append(op, std::move(unique), std::move(target), std::move(args), std::move(kwargs));
    n->meta().dumpLine = line;
    bind(fn, name, n);
    return n;
}

void ReadableParser::applyAnnotation(Node *node, std::string_view annotation)
{
    annotation = trim(annotation);
    if (annotation.empty())
        return;
    char q = annotation.front();
    if (q == '"' || q == '\'') {
        // Quoted: a meta["val"] summary such as "f32[8, 16][16, 1]cuda:0" or "Sym(s0)".
        auto text = decodeStringLiteral(annotation);
        if (!text)
            return;
        auto val = ValueMeta::parseAnnotation(text.value());
        if (val)
            node->meta().val = std::move(val.value());
        else
            node->meta().extra = Json::object({{"annotation", Json(text.value())}});
        return;
    }
    // Unquoted: PyTorch 2.0's `f32[768]`, or a Python type such as `torch.Tensor` (node.type).
    auto val = ValueMeta::parseAnnotation(annotation);
    if (val)
        node->meta().val = std::move(val.value());
    else
        node->meta().typeAnnotation = std::string(annotation);
}

std::optional<std::string> ReadableParser::modulePath(ExprId id) const
{
    // self.a.b, getattr(self.layers, "0").conv -> "a.b", "layers.0.conv"
    const ExprTree &t = tree();
    std::vector<std::string_view> parts;
    ExprId cur = id;
    while (cur != kNoExpr) {
        const Expr &e = t[cur];
        if (e.kind == ExprKind::Name) {
            if (e.text != "self" || parts.empty())
                return std::nullopt;
            break;
        }
        if (e.kind == ExprKind::Attribute) {
            parts.push_back(e.text);
            cur = t.child(cur, 0);
        } else if (e.kind == ExprKind::Call && e.childCount == 3 && t.dottedName(t.child(cur, 0)) == "getattr"
            && t[t.child(cur, 2)].kind == ExprKind::String) {
            parts.push_back(t.stringValue(t.child(cur, 2)));
            cur = t.child(cur, 1);
        } else {
            return std::nullopt;
        }
    }
    std::string path;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        if (!path.empty())
            path += '.';
        path += *it;
    }
    return path;
}

Node *ReadableParser::emitNode(Function &fn, std::string_view name, ExprId value, std::string_view annotation, int line)
{
    const ExprTree &t = tree();
    const Expr &v = t[value];
    OpKind op = OpKind::CallFunction;
    std::string target;
    std::vector<Argument> args;
    Kwargs kwargs;

    if (auto path = modulePath(value)) {
        op = OpKind::GetAttr; // self.path, getattr(self.layers, "0")
        target = *path;
    } else if (v.kind == ExprKind::Call) {
        ExprId callee = t.child(value, 0);
        std::string dotted = t.dottedName(callee);
        // The receiver of `x.view(...)` is a node (or an expression); `torch.ops.aten.add.Tensor` roots in an
        // unbound global name.
        ExprId root = callee;
        while (t[root].kind == ExprKind::Attribute || t[root].kind == ExprKind::Call
            || t[root].kind == ExprKind::Subscript)
            root = t.child(root, 0);
        bool rootIsValue = t[root].kind != ExprKind::Name || lookup(fn, t[root].text) != nullptr;
        if (auto path = modulePath(callee)) {
            op = OpKind::CallModule;
            target = *path;
            callArguments(fn, value, 1, args, kwargs);
        } else if (t[callee].kind == ExprKind::Attribute && (dotted.empty() || rootIsValue)) {
            op = OpKind::CallMethod;
            target = std::string(t[callee].text);
            args.push_back(toArgument(fn, t.child(callee, 0)));
            callArguments(fn, value, 1, args, kwargs);
        } else {
            if (dotted.empty())
                target = t.toSource(callee);
            else if (dotted.find('.') == std::string::npos && isPythonBuiltin(dotted))
                target = "builtins." + dotted;
            else
                target = dotted;
            callArguments(fn, value, 1, args, kwargs);
        }
    } else if (v.kind == ExprKind::BinOp && binaryOperatorName(v.text)) {
        target = std::string("operator.") + binaryOperatorName(v.text);
        args = {toArgument(fn, t.child(value, 0)), toArgument(fn, t.child(value, 1))};
    } else if (v.kind == ExprKind::UnaryOp) {
        const char *opName = v.text == "-" ? "neg" : v.text == "+" ? "pos" : v.text == "~" ? "invert" : "not_";
        target = std::string("operator.") + opName;
        args = {toArgument(fn, t.child(value, 0))};
    } else if (v.kind == ExprKind::Compare && v.childCount == 2
        && comparisonOperatorName(t.compareOperator(value, 0))) {
        target = std::string("operator.") + comparisonOperatorName(t.compareOperator(value, 0));
        args = {toArgument(fn, t.child(value, 0)), toArgument(fn, t.child(value, 1))};
    } else if (v.kind == ExprKind::Compare && v.childCount == 2 && t.compareOperator(value, 0) == "in") {
        target = "operator.contains"; // a in b is contains(b, a)
        args = {toArgument(fn, t.child(value, 1)), toArgument(fn, t.child(value, 0))};
    } else if (v.kind == ExprKind::Subscript) {
        target = "operator.getitem";
        args = {toArgument(fn, t.child(value, 0)), toArgument(fn, t.child(value, 1))};
    } else if (v.kind == ExprKind::Attribute && (t.dottedName(value).empty() || mentionsNode(fn, value))) {
        target = "builtins.getattr"; // x.shape
        args = {toArgument(fn, t.child(value, 0)), Argument::ofString(std::string(v.text))};
    } else {
        // Not a form FX generates: keep the expression itself as the op, never drop the statement.
        target = t.toSource(value);
    }
    Node *n = addNode(fn, op, name, std::move(target), std::move(args), std::move(kwargs), line);
    n->meta().source = fn.source;
    applyAnnotation(n, annotation);
    return n;
}

void ReadableParser::callArguments(
    const Function &fn, ExprId call, size_t firstArg, std::vector<Argument> &args, Kwargs &kwargs) const
{
    const ExprTree &t = tree();
    for (size_t i = firstArg; i < t.childCount(call); ++i) {
        ExprId a = t.child(call, i);
        if (t[a].kind == ExprKind::Keyword)
            kwargs.emplace_back(std::string(t[a].text), toArgument(fn, t.child(a, 0)));
        else
            args.push_back(toArgument(fn, a));
    }
}

bool ReadableParser::mentionsNode(const Function &fn, ExprId id) const
{
    // Iterative walk: any Name bound to a node.
    const ExprTree &t = tree();
    std::vector<ExprId> stack{id};
    while (!stack.empty()) {
        ExprId cur = stack.back();
        stack.pop_back();
        if (cur == kNoExpr)
            continue;
        if (t[cur].kind == ExprKind::Name && lookup(fn, t[cur].text))
            return true;
        for (size_t i = 0; i < t.childCount(cur); ++i)
            stack.push_back(t.child(cur, i));
    }
    return false;
}

Argument ReadableParser::symbolic(const Function &fn, ExprId id) const
{
    // `2*s0 + 1` is a symbolic size; an expression over nodes is not an FX argument, so keep its text.
    return Argument::ofText(
        mentionsNode(fn, id) ? Argument::Kind::Verbatim : Argument::Kind::SymExpr, tree().toSource(id));
}

Argument ReadableParser::toArgument(const Function &fn, ExprId id) const
{
    // Recursion follows the expression tree, whose height the parser bounds.
    const ExprTree &t = tree();
    if (id == kNoExpr)
        return Argument::none();
    const Expr &e = t[id];
    switch (e.kind) {
    case ExprKind::Name: {
        if (Node *n = lookup(fn, e.text))
            return Argument::ofNode(n);
        if (e.text == "inf")
            return Argument::ofFloat(std::numeric_limits<double>::infinity());
        if (e.text == "nan")
            return Argument::ofFloat(std::numeric_limits<double>::quiet_NaN());
        if (e.text == "Ellipsis")
            return Argument::ellipsis();
        return Argument::ofText(Argument::Kind::SymExpr, std::string(e.text));
    }
    case ExprKind::Constant:
        if (e.text == "None")
            return Argument::none();
        return Argument::ofBool(e.text == "True");
    case ExprKind::Number: {
        auto n = numberArgument(e.text, false);
        return n ? *n : Argument::ofText(Argument::Kind::Verbatim, std::string(e.text));
    }
    case ExprKind::String: return Argument::ofString(t.stringValue(id));
    case ExprKind::Ellipsis: return Argument::ellipsis();
    case ExprKind::Tuple:
    case ExprKind::List: {
        std::vector<Argument> items;
        items.reserve(e.childCount);
        for (size_t i = 0; i < e.childCount; ++i) {
            ExprId c = t.child(id, i);
            if (t[c].kind == ExprKind::Starred)
                return Argument::ofText(Argument::Kind::Verbatim, t.toSource(id));
            items.push_back(toArgument(fn, c));
        }
        return e.kind == ExprKind::Tuple ? Argument::tuple(std::move(items)) : Argument::list(std::move(items));
    }
    case ExprKind::Dict: {
        std::vector<std::pair<std::string, Argument>> entries;
        for (size_t i = 0; i + 1 < e.childCount; i += 2) {
            ExprId key = t.child(id, i);
            if (key == kNoExpr)
                return Argument::ofText(Argument::Kind::Verbatim, t.toSource(id));
            std::string keyText = t[key].kind == ExprKind::String ? t.stringValue(key) : t.toSource(key);
            entries.emplace_back(std::move(keyText), toArgument(fn, t.child(id, i + 1)));
        }
        return Argument::dict(std::move(entries));
    }
    case ExprKind::Slice:
        return Argument::slice(
            toArgument(fn, t.child(id, 0)), toArgument(fn, t.child(id, 1)), toArgument(fn, t.child(id, 2)));
    case ExprKind::UnaryOp: {
        ExprId operand = t.child(id, 0);
        if ((e.text == "-" || e.text == "+") && t[operand].kind == ExprKind::Number && !t[operand].parenthesized) {
            if (auto n = numberArgument(t[operand].text, e.text == "-"))
                return *n;
        }
        if (e.text == "-" && t[operand].kind == ExprKind::Name && !lookup(fn, t[operand].text)
            && (t[operand].text == "inf" || t[operand].text == "nan"))
            return Argument::ofFloat(t[operand].text == "inf" ? -std::numeric_limits<double>::infinity()
                                                              : std::numeric_limits<double>::quiet_NaN());
        return symbolic(fn, id);
    }
    case ExprKind::BinOp:
    case ExprKind::BoolOp:
    case ExprKind::Compare:
    case ExprKind::IfExp: return symbolic(fn, id);
    case ExprKind::Attribute: {
        std::string dotted = t.dottedName(id);
        if (dotted.empty() || mentionsNode(fn, id))
            return Argument::ofText(Argument::Kind::Verbatim, t.toSource(id));
        if (isDtypeName(dotted))
            return Argument::ofText(Argument::Kind::Dtype, dotted);
        if (isLayoutName(dotted))
            return Argument::ofText(Argument::Kind::Layout, dotted);
        if (isMemoryFormatName(dotted))
            return Argument::ofText(Argument::Kind::MemoryFormat, dotted);
        return Argument::ofText(Argument::Kind::Verbatim, dotted); // enums, OpOverloads passed to HOPs
    }
    case ExprKind::Call: {
        std::string callee = t.dottedName(t.child(id, 0));
        if (callee == "device" || callee == "torch.device") {
            // device(type='cuda', index=0) -> cuda:0
            std::string type, index;
            bool ok = true;
            size_t positional = 0;
            for (size_t i = 1; i < e.childCount && ok; ++i) {
                ExprId a = t.child(id, i);
                std::string_view key;
                ExprId v = a;
                if (t[a].kind == ExprKind::Keyword) {
                    key = t[a].text;
                    v = t.child(a, 0);
                } else {
                    key = positional++ == 0 ? "type" : "index";
                }
                if (key == "type" && t[v].kind == ExprKind::String)
                    type = t.stringValue(v);
                else if (key == "index" && t[v].kind == ExprKind::Number)
                    index = std::string(t[v].text);
                else if (!(key == "index" && t.isNoneConstant(v)))
                    ok = false;
            }
            if (ok && !type.empty())
                return Argument::ofText(Argument::Kind::Device, index.empty() ? type : type + ":" + index);
        } else if (callee == "slice" && e.childCount >= 2 && e.childCount <= 4) {
            std::vector<Argument> parts;
            for (size_t i = 1; i < e.childCount; ++i) {
                ExprId a = t.child(id, i);
                if (t[a].kind == ExprKind::Keyword || t[a].kind == ExprKind::Starred)
                    return Argument::ofText(Argument::Kind::Verbatim, t.toSource(id));
                parts.push_back(toArgument(fn, a));
            }
            if (parts.size() == 1)
                return Argument::slice(Argument::none(), std::move(parts[0]), Argument::none());
            if (parts.size() == 2)
                return Argument::slice(std::move(parts[0]), std::move(parts[1]), Argument::none());
            return Argument::slice(std::move(parts[0]), std::move(parts[1]), std::move(parts[2]));
        }
        // torch.Tensor(size=[3], dtype=float32), named tuples, ...: kept as written.
        return Argument::ofText(Argument::Kind::Verbatim, t.toSource(id));
    }
    default: return Argument::ofText(Argument::Kind::Verbatim, t.toSource(id));
    }
}

} // namespace

Result<GraphFile> parseReadablePayload(std::string_view text, const std::string &fileName, int firstLine)
{
    ReadableParser parser(text, fileName, firstLine);
    auto result = parser.run();
    if (result)
        result->format = format::Readable;
    return result;
}

namespace {

// One line of TORCH_LOGS output as torch's log formatter writes it (stderr, or the file TORCH_LOGS_OUT names):
// `V1126 14:55:24.247000 13558 torch/_inductor/compile_fx.py:1382] [0/0] [__post_grad_graphs] TRACED GRAPH`,
// the glog prefix, the compile id and the artifact when there are, a space and one line of the message.
struct LogLine {
    std::string_view head; // everything before the message line; each line of one message repeats it
    std::string_view compileId; // "0/0"; empty when absent
    std::string_view artifact; // "post_grad_graphs"; empty when absent
    std::string_view content;
    int contentOffset = 0; // where content starts in the line
};

std::optional<LogLine> readLogLine(std::string_view line)
{
    const size_t prefix = glogPrefixLength(line);
    if (prefix == 0)
        return std::nullopt;
    LogLine out;
    size_t at = prefix - 1; // the space after `file.py:12]`
    for (int tag = 0; tag < 2 && at + 1 < line.size() && line[at] == ' ' && line[at + 1] == '['; ++tag) {
        size_t close = line.find(']', at + 2);
        if (close == std::string_view::npos)
            break;
        std::string_view inside = line.substr(at + 2, close - at - 2);
        if (inside.empty() || inside.find(' ') != std::string_view::npos)
            break;
        if (startsWith(inside, "__"))
            out.artifact = inside.substr(2);
        else if (tag == 0 && inside.find('/') != std::string_view::npos)
            out.compileId = inside;
        else
            break;
        at = close + 1;
    }
    out.head = line.substr(0, at);
    size_t content = std::min(line.size(), at + 1);
    out.content = line.substr(content);
    out.contentOffset = int(content);
    return out;
}

// `===== AFTER POST GRAD =====` in a TRACED GRAPH message: the name between the markers; empty when absent.
std::string_view tracedGraphTitle(std::string_view text)
{
    size_t pos = 0;
    for (int lines = 0; lines < 3 && pos < text.size(); ++lines) {
        size_t eol = text.find('\n', pos);
        std::string_view content = trim(text.substr(pos, eol == std::string_view::npos ? eol : eol - pos));
        if (content.size() > 10 && startsWith(content, "=====") && endsWith(content, "====="))
            return trim(content.substr(5, content.size() - 10));
        if (eol == std::string_view::npos)
            break;
        pos = eol + 1;
    }
    return {};
}

// TORCH_LOGS output (graph_code, aot_graphs, post_grad_graphs, ...): every `TRACED GRAPH` message is a readable graph
// behind per-line log prefixes. Each message is read on its own, its prefixes blanked to spaces (one message's lines
// share one prefix, so the code keeps its indentation) and its lines kept, so lines and columns in errors and node
// positions are the file's; other messages are skipped. A message that does not parse is a warning while others
// load.
Result<GraphFile> parseTorchLogs(std::string_view text, const std::string &fileName)
{
    GraphFile file;
    file.path = fileName;
    file.format = format::Readable;
    struct Message {
        int firstLine = 0;
        std::string head;
        std::string compileId;
        std::string artifact;
        std::string text;
    };
    std::optional<Message> current;
    std::optional<Error> firstError;
    std::unordered_map<std::string, int> nameCounts;
    auto finish = [&]() {
        if (!current)
            return;
        Message m = std::move(*current);
        current.reset();
        ReadableParser parser(m.text, fileName, m.firstLine);
        auto parsed = parser.run();
        if (!parsed) {
            file.warnings.push_back(parsed.error());
            if (!firstError)
                firstError = parsed.error();
            return;
        }
        std::string title(tracedGraphTitle(m.text));
        for (NamedGraph &g : parsed->graphs) {
            std::string base = (m.compileId.empty() ? std::string() : "[" + m.compileId + "] ")
                + (title.empty() ? g.name : title);
            int &count = nameCounts[base];
            ++count;
            g.name = count == 1 ? base : base + " (" + std::to_string(count) + ")";
            g.kind = m.artifact;
            file.graphs.push_back(std::move(g));
        }
        for (Error &w : parsed->warnings)
            file.warnings.push_back(std::move(w));
    };

    size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        if (progressCanceled())
            return canceledError(fileName);
        size_t eol = text.find('\n', pos);
        std::string_view line = text.substr(pos, eol == std::string_view::npos ? text.size() - pos : eol - pos);
        pos = eol == std::string_view::npos ? text.size() : eol + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        auto logLine = readLogLine(line);
        if (!logLine) {
            if (current && trim(line).empty())
                current->text += '\n';
            else
                finish(); // not a log line (a warning Python printed, say): the message has ended
            continue;
        }
        if (trim(logLine->content) == "TRACED GRAPH") {
            finish();
            current = Message{lineNo, std::string(logLine->head), std::string(logLine->compileId),
                std::string(logLine->artifact), {}};
        } else if (current && logLine->head != current->head) {
            finish(); // another message
        }
        if (current) {
            current->text.append(size_t(logLine->contentOffset), ' ').append(logLine->content).push_back('\n');
        }
    }
    finish();
    if (!file.graphs.empty())
        return file;
    if (firstError)
        return *firstError;
    return Error{fileName, 1, 1,
        "expected a TRACED GRAPH message in the TORCH_LOGS output (TORCH_LOGS=graph_code, aot_graphs, "
        "post_grad_graphs), found none"};
}

// Whether the first line that is not blank carries a glog prefix: TORCH_LOGS output rather than code.
bool startsWithLogLine(std::string_view text)
{
    size_t pos = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        std::string_view line = text.substr(pos, eol == std::string_view::npos ? text.size() - pos : eol - pos);
        if (!trim(line).empty())
            return glogPrefixLength(line) != 0;
        if (eol == std::string_view::npos)
            break;
        pos = eol + 1;
    }
    return false;
}

} // namespace

Result<GraphFile> parseReadable(std::string_view text, const std::string &fileName)
{
    if (startsWithLogLine(text))
        return parseTorchLogs(text, fileName);
    return parseReadablePayload(text, fileName, 1);
}

} // namespace fxs
