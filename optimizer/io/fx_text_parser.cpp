#include "fx_text_parser.h"

#include "../util/text.h"

#include "format.h"
#include "fx_arg_scanner.h"

#include <algorithm>
#include <unordered_map>

namespace fxs {

namespace {

size_t skipBlanks(std::string_view s, size_t pos)
{
    while (pos < s.size() && isBlank(s[pos]))
        ++pos;
    return pos;
}

bool startsWithWord(std::string_view s, size_t pos, std::string_view word)
{
    return s.substr(pos, word.size()) == word && (pos + word.size() >= s.size() || !isIdentChar(s[pos + word.size()]));
}

// The end of a node line's type part (`torch.Tensor `, `Tensor "f32[4]"`): up to `[num_users=`, `[#users=`
// or ` = `, skipping double-quoted text. Records the last quoted part; npos when a quote is unclosed.
size_t scanTypePart(std::string_view line, size_t i, size_t &quoteOpen, size_t &quoteClose)
{
    size_t start = i;
    quoteOpen = quoteClose = std::string_view::npos;
    while (i < line.size()) {
        char c = line[i];
        if (c == '"') {
            size_t end = line.find('"', i + 1);
            if (end == std::string_view::npos) {
                quoteOpen = i;
                return std::string_view::npos;
            }
            quoteOpen = i;
            quoteClose = end;
            i = end + 1;
            continue;
        }
        if (line.substr(i, 11) == "[num_users=" || line.substr(i, 8) == "[#users=")
            break;
        if (c == '=' && (i == start || isBlank(line[i - 1])))
            break;
        ++i;
    }
    return i;
}

// Whether the node line whose '%' is at `pos` is a placeholder (for a fragment's look-ahead).
bool isPlaceholderLine(std::string_view line, size_t pos)
{
    size_t i = pos + 1;
    while (i < line.size() && isIdentChar(line[i]))
        ++i;
    i = skipBlanks(line, i);
    if (i >= line.size() || line[i] != ':')
        return false;
    size_t open = 0, close = 0;
    i = scanTypePart(line, skipBlanks(line, i + 1), open, close);
    if (i == std::string_view::npos)
        return false;
    if (i < line.size() && line[i] == '[') {
        size_t end = line.find(']', i);
        if (end == std::string_view::npos)
            return false;
        i = skipBlanks(line, end + 1);
    }
    if (i >= line.size() || line[i] != '=')
        return false;
    i = skipBlanks(line, i + 1);
    return line.substr(i, 12) == "placeholder[" || line.substr(i, 12) == "PlaceHolder[";
}

// Sets meta.val and meta.typeAnnotation from a node's type text. `Tensor "f32[4][1]cuda:0"` (inductor
// fragments) carries meta['val']: a word, then a quoted annotation that ends the text. Anything before the
// word, or any other type text, is node.type. Quotes pair left to right, as scanTypePart reads them.
void applyTypeText(NodeMeta &meta, std::string_view typeText)
{
    size_t open = std::string_view::npos, close = std::string_view::npos;
    for (size_t i = 0; i < typeText.size(); ++i) {
        if (typeText[i] != '"')
            continue;
        size_t end = typeText.find('"', i + 1);
        if (end == std::string_view::npos)
            break;
        open = i;
        close = end;
        i = end;
    }
    std::string_view type = typeText;
    if (close != std::string_view::npos && close + 1 == typeText.size()) {
        std::string_view prefix = trim(typeText.substr(0, open));
        size_t space = prefix.find_last_of(" \t");
        std::string_view word = space == std::string_view::npos ? prefix : prefix.substr(space + 1);
        auto val = ValueMeta::parseAnnotation(typeText.substr(open + 1, close - open - 1));
        if (val && FxArgScanner::isIdentifier(word)) {
            meta.val = std::move(val.value());
            type = space == std::string_view::npos ? std::string_view() : trim(prefix.substr(0, space));
        }
    }
    meta.typeAnnotation = std::string(type);
}

// One graph as read, before it is named and put into the GraphFile.
struct ParsedGraph {
    std::unique_ptr<Graph> graph;
    bool fragment = false;
    int line = 0;
};

// Reads print(gm.graph) text: full graphs after a `graph():` header (log prefixes allowed before it) and
// inductor `# Graph fragment:` comment blocks. Works line by line; nothing recurses over the input.
class FxTextParser {
public:
    FxTextParser(std::string_view text, const std::string &fileName) : m_file(fileName)
    {
        size_t start = 0;
        while (start <= text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string_view::npos)
                end = text.size();
            std::string_view line = text.substr(start, end - start);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            m_lines.push_back(line);
            if (end == text.size())
                break;
            start = end + 1;
        }
        // A final newline does not start another line.
        if (m_lines.size() > 1 && m_lines.back().empty())
            m_lines.pop_back();
    }

    Result<GraphFile> run();

private:
    // Per-node facts that are not kept in the graph but are needed to check it.
    struct Declared {
        Node *node;
        int users;
        int line;
        int column;
    };

    struct Block {
        Graph *graph = nullptr;
        bool fragment = false;
        std::unordered_map<std::string, Node *> scope; // names as the text writes them
        std::unordered_map<std::string, int> laterDefinitions; // fragment: names defined by non-placeholder lines
        std::vector<Declared> declared;
        std::string defining; // the name the line being read defines
    };

    bool findGraphHeader(std::string_view line, size_t &open, size_t &close) const;
    bool isFragmentHeader(std::string_view line) const;
    // The offset of the '%' or 'return' of a fragment body line, or npos.
    size_t fragmentBodyStart(std::string_view line) const;

    bool parseGraph(size_t headerIndex, size_t open, size_t close, size_t &next, ParsedGraph &out);
    bool parseFragment(size_t headerIndex, size_t &next, ParsedGraph &out);
    bool parseHeaderParams(Block &block, size_t lineIndex, size_t open, size_t close);
    bool parseNodeLine(Block &block, size_t lineIndex, size_t pos);
    bool parseReturn(Block &block, size_t lineIndex, size_t pos);
    void addImplicitOutput(Block &block, size_t lineIndex);
    void checkDeclaredUsers(Block &block);

    FxArgScanner::Resolver percentResolver(Block &block, size_t lineIndex);
    FxArgScanner::Resolver pythonResolver(Block &block);
    Node *lookup(Block &block, std::string_view name) const;
    // The line of a fragment's non-placeholder definition of name not read yet, or 0.
    static int laterDefinitionLine(const Block &block, const std::string &name)
    {
        auto it = block.laterDefinitions.find(name);
        return it == block.laterDefinitions.end() ? 0 : it->second;
    }

    bool error(size_t lineIndex, size_t offset, std::string message);
    bool scannerError(size_t lineIndex, const FxArgScanner &scanner);

    std::string m_file;
    std::vector<std::string_view> m_lines;
    std::vector<Error> m_warnings;
    Error m_error;
};

bool FxTextParser::error(size_t lineIndex, size_t offset, std::string message)
{
    m_error = Error{m_file, int(lineIndex + 1), int(offset + 1), std::move(message)};
    return false;
}

bool FxTextParser::scannerError(size_t lineIndex, const FxArgScanner &scanner)
{
    return error(lineIndex, scanner.errorOffset(), scanner.errorMessage());
}

bool FxTextParser::findGraphHeader(std::string_view line, size_t &open, size_t &close) const
{
    // `graph(...):`, possibly after a log prefix such as "[INFO] TORCHAIR(...) ... graph: ". The header ends
    // the line, so only the last "graph(" can start it (which also keeps this linear in the line length).
    std::string_view trimmed = trim(line);
    if (trimmed.empty() || trimmed.back() != ':')
        return false;
    size_t at = line.rfind("graph(");
    if (at == std::string_view::npos || (at > 0 && isIdentChar(line[at - 1])))
        return false;
    size_t paren = at + 5;
    int depth = 0;
    size_t i = paren;
    for (; i < line.size(); ++i) {
        if (line[i] == '(' || line[i] == '[')
            ++depth;
        else if ((line[i] == ')' || line[i] == ']') && --depth == 0)
            break;
    }
    if (i >= line.size() || line[i] != ')')
        return false;
    std::string_view rest = trim(line.substr(i + 1));
    if (rest.empty() || rest.back() != ':' || (rest.size() > 1 && rest.substr(0, 2) != "->"))
        return false;
    open = paren;
    close = i;
    return true;
}

bool FxTextParser::isFragmentHeader(std::string_view line) const
{
    return trim(line).substr(0, 17) == "# Graph fragment:";
}

size_t FxTextParser::fragmentBodyStart(std::string_view line) const
{
    size_t pos = skipBlanks(line, 0);
    if (pos >= line.size() || line[pos] != '#')
        return std::string_view::npos;
    size_t body = skipBlanks(line, pos + 1);
    if (body == pos + 1 || body >= line.size())
        return std::string_view::npos;
    if (line[body] == '%' || startsWithWord(line, body, "return"))
        return body;
    return std::string_view::npos;
}

Node *FxTextParser::lookup(Block &block, std::string_view name) const
{
    auto it = block.scope.find(std::string(name));
    if (it != block.scope.end())
        return it->second;
    return block.graph->find(name);
}

FxArgScanner::Resolver FxTextParser::percentResolver(Block &block, size_t lineIndex)
{
    return [this, &block, lineIndex](const FxArgScanner::NameRef &ref, Node *&node, std::string &message) {
        if (!ref.percent)
            return FxArgScanner::Resolution::NotNode;
        if (ref.name == block.defining) {
            message = "expected a node defined on an earlier line, found '%" + block.defining
                + "', which this line defines";
            return FxArgScanner::Resolution::Failed;
        }
        node = lookup(block, ref.name);
        if (node)
            return FxArgScanner::Resolution::Node;
        std::string name(ref.name);
        if (!block.fragment) {
            message = "expected a node defined on an earlier line, found undefined '%" + name + "'";
            return FxArgScanner::Resolution::Failed;
        }
        int later = laterDefinitionLine(block, name);
        if (later > int(lineIndex + 1)) {
            message = "expected a node defined on an earlier line, found '%" + name + "', defined on line "
                + std::to_string(later);
            return FxArgScanner::Resolution::Failed;
        }
        // A fragment reads values computed outside it: stand them in with placeholders, marked implicit so
        // they are told apart from the fragment's own PlaceHolder lines (and left out when written back).
        // Inputs go with the other placeholders at the front, where FX (and readable code) keeps them.
        Node *firstOp = nullptr;
        for (const auto &n : block.graph->nodes())
            if (n->op() != OpKind::Placeholder) {
                firstOp = n.get();
                break;
            }
        node = block.graph->insertBefore(firstOp, OpKind::Placeholder, name, name);
        node->meta().dumpLine = int(lineIndex + 1);
        node->meta().extra = Json::object({{"implicit", true}});
        block.scope[name] = node;
        return FxArgScanner::Resolution::Node;
    };
}

FxArgScanner::Resolver FxTextParser::pythonResolver(Block &block)
{
    // The return line is Python repr: nodes are bare names, and a bare word that is neither a node nor a
    // literal keyword (None, inf, a dtype, s0, ...) cannot be anything else, so it is an error.
    return [this, &block](const FxArgScanner::NameRef &ref, Node *&node, std::string &message) {
        node = lookup(block, ref.name);
        if (node)
            return FxArgScanner::Resolution::Node;
        if (FxArgScanner::classifyWord(ref.name).kind() != Argument::Kind::String)
            return FxArgScanner::Resolution::NotNode;
        message = "expected a node defined on an earlier line, found undefined '" + std::string(ref.name) + "'";
        return FxArgScanner::Resolution::Failed;
    };
}

bool FxTextParser::parseHeaderParams(Block &block, size_t lineIndex, size_t open, size_t close)
{
    // Very early FX printed the placeholders in the header, `graph(x, y : torch.Tensor = 1):`.
    std::string_view line = m_lines[lineIndex];
    size_t start = open + 1;
    int depth = 0;
    for (size_t i = start; i <= close; ++i) {
        char c = line[i];
        if (i < close && (c == '(' || c == '[' || c == '{'))
            ++depth;
        else if (i < close && (c == ')' || c == ']' || c == '}'))
            --depth;
        if (i < close && !(c == ',' && depth == 0))
            continue;
        std::string_view param = line.substr(start, i - start);
        size_t paramStart = start;
        start = i + 1;
        if (trim(param).empty())
            continue;
        size_t eq = param.find('=');
        std::string_view head = trim(param.substr(0, eq));
        size_t colon = head.find(':');
        std::string target(trim(head.substr(0, colon)));
        std::string type = colon == std::string_view::npos ? std::string() : std::string(trim(head.substr(colon + 1)));
        std::string base = target;
        base.erase(0, base.find_first_not_of('*'));
        if (base.empty() || !FxArgScanner::isIdentifier(base))
            return error(lineIndex, paramStart, "expected a parameter name, found '" + std::string(trim(param)) + "'");
        if (lookup(block, base))
            return error(lineIndex, paramStart, "expected a new node name, found '" + base + "', already defined");
        std::vector<Argument> args;
        if (eq != std::string_view::npos) {
            FxArgScanner scanner(
                line.substr(0, paramStart + param.size()), FxArgScanner::Syntax::Python, pythonResolver(block));
            scanner.setPos(paramStart + eq + 1);
            Argument value;
            if (!scanner.parseValue(value))
                return scannerError(lineIndex, scanner);
            args.push_back(std::move(value));
        }
        Node *node = block.graph->append(OpKind::Placeholder, base, target, std::move(args));
        if (std::count(type.begin(), type.end(), '"') % 2)
            return error(lineIndex, paramStart, "expected a parameter type with balanced quotes, found '" + type + "'");
        applyTypeText(node->meta(), type);
        node->meta().dumpLine = int(lineIndex + 1);
        block.scope[base] = node;
    }
    return true;
}

bool FxTextParser::parseNodeLine(Block &block, size_t lineIndex, size_t pos)
{
    std::string_view line = m_lines[lineIndex];
    FxArgScanner scanner(line, FxArgScanner::Syntax::FxText, percentResolver(block, lineIndex));
    size_t nameStart = pos + 1;
    size_t i = nameStart;
    while (i < line.size() && isIdentChar(line[i]))
        ++i;
    if (i == nameStart)
        return error(lineIndex, nameStart, "expected a node name after '%', found " + scanner.describeAt(nameStart));
    std::string name(line.substr(nameStart, i - nameStart));
    i = skipBlanks(line, i);
    if (i >= line.size() || line[i] != ':')
        return error(lineIndex, i, "expected ' : ' after the node name, found " + scanner.describeAt(i));
    i = skipBlanks(line, i + 1);

    // The type part runs up to `[num_users=`/`[#users=` or ` = `; it may hold a quoted annotation.
    size_t typeStart = i;
    size_t quoteOpen = 0, quoteClose = 0; // the last quoted part of the type
    i = scanTypePart(line, typeStart, quoteOpen, quoteClose);
    if (i == std::string_view::npos)
        return error(lineIndex, quoteOpen, "expected a closing '\"' for the annotation, found end of line");
    size_t typeEnd = i;
    while (typeEnd > typeStart && isBlank(line[typeEnd - 1]))
        --typeEnd;
    std::string_view typeText = line.substr(typeStart, typeEnd - typeStart);
    int declared = -1;
    size_t usersColumn = i;
    if (i < line.size() && line[i] == '[') {
        i += line[i + 1] == 'n' ? 11 : 8;
        size_t digits = i;
        int64_t count = 0;
        while (i < line.size() && line[i] >= '0' && line[i] <= '9' && count < (int64_t(1) << 40))
            count = count * 10 + (line[i++] - '0');
        if (i == digits)
            return error(lineIndex, i, "expected the number of users, found " + scanner.describeAt(i));
        if (i >= line.size() || line[i] != ']')
            return error(lineIndex, i, "expected ']' after the number of users, found " + scanner.describeAt(i));
        declared = int(std::min<int64_t>(count, 1 << 30));
        i = skipBlanks(line, i + 1);
    }
    if (i >= line.size() || line[i] != '=')
        return error(lineIndex, i, "expected ' = ' before the op, found " + scanner.describeAt(i));
    i = skipBlanks(line, i + 1);

    size_t opStart = i;
    while (i < line.size() && (isIdentChar(line[i]) || line[i] == '.'))
        ++i;
    std::string_view opWord = line.substr(opStart, i - opStart);
    OpKind op = OpKind::CallFunction;
    std::string target;
    bool oldGetAttr = opWord.substr(0, 5) == "self." && opWord.size() > 5 && trim(line.substr(i)).empty();
    if (oldGetAttr) {
        // PyTorch 1.8 printed get_attr as `%n : [#users=1] = self.foo.bar`.
        op = OpKind::GetAttr;
        target = std::string(opWord.substr(5));
    } else {
        if (opWord == "placeholder" || opWord == "PlaceHolder")
            op = OpKind::Placeholder;
        else if (opWord == "get_attr")
            op = OpKind::GetAttr;
        else if (opWord == "call_function")
            op = OpKind::CallFunction;
        else if (opWord == "call_method")
            op = OpKind::CallMethod;
        else if (opWord == "call_module")
            op = OpKind::CallModule;
        else
            return error(lineIndex, opStart,
                "expected an op kind (placeholder, get_attr, call_function, call_method or call_module), found "
                    + scanner.describeAt(opStart));
        if (line.substr(i, 8) != "[target=")
            return error(lineIndex, i, "expected '[target=' after the op kind, found " + scanner.describeAt(i));
        i += 8;
        size_t targetStart = i;
        int depth = 0;
        while (i < line.size() && !(line[i] == ']' && depth == 0)) {
            if (line[i] == '[')
                ++depth;
            else if (line[i] == ']')
                --depth;
            ++i;
        }
        if (i >= line.size())
            return error(lineIndex, i, "expected ']' closing the target, found end of line");
        target = std::string(line.substr(targetStart, i - targetStart));
        if (target.empty())
            return error(lineIndex, targetStart, "expected a target, found ']'");
        ++i;
    }

    // Names are unique; a fragment's PlaceHolder may share its name with a node computed later in the same
    // fragment (a buffer the kernel both reads and writes), in which case the placeholder is renamed.
    std::string nodeName = name;
    Node *existing = lookup(block, name);
    bool placeholderClash = block.fragment && op == OpKind::Placeholder
        && (laterDefinitionLine(block, name) > int(lineIndex + 1)
            || (existing && existing->op() != OpKind::Placeholder));
    if (placeholderClash) {
        std::string candidate = name + "_buf";
        for (int n = 1; lookup(block, candidate) || block.laterDefinitions.count(candidate); ++n)
            candidate = name + "_buf_" + std::to_string(n);
        nodeName = candidate;
    } else if (existing && existing->name() == name) {
        return error(lineIndex, nameStart,
            "expected a new node name, found '%" + name + "', already defined on line "
                + std::to_string(existing->meta().dumpLine));
    }

    std::vector<Argument> args;
    Kwargs kwargs;
    block.defining = name;
    scanner.setPos(i);
    if (op == OpKind::Placeholder) {
        if (scanner.consume("(default=")) {
            FxArgScanner python(line, FxArgScanner::Syntax::Python, pythonResolver(block));
            python.setPos(scanner.pos());
            Argument value;
            if (!python.parseValue(value))
                return scannerError(lineIndex, python);
            args.push_back(std::move(value));
            scanner.setPos(python.pos());
            if (!scanner.expect(")", "')' closing the default"))
                return scannerError(lineIndex, scanner);
        }
    } else if (op != OpKind::GetAttr) {
        scanner.skipSpaces();
        if (!scanner.expect("(", "'(args = ' after the target"))
            return scannerError(lineIndex, scanner);
        scanner.skipSpaces();
        if (!scanner.expect("args", "'args = '"))
            return scannerError(lineIndex, scanner);
        scanner.skipSpaces();
        if (!scanner.expect("=", "'=' after 'args'"))
            return scannerError(lineIndex, scanner);
        scanner.skipSpaces();
        size_t argsAt = scanner.pos();
        if (scanner.peek() != '(')
            return error(lineIndex, argsAt, "expected the args tuple '(...)', found " + scanner.describeAt(argsAt));
        Argument argsValue;
        if (!scanner.parseValue(argsValue))
            return scannerError(lineIndex, scanner);
        if (argsValue.kind() != Argument::Kind::Tuple)
            return error(lineIndex, argsAt, "expected the args tuple '(...)', found " + scanner.describeAt(argsAt));
        args = std::move(argsValue.items());
        scanner.skipSpaces();
        if (!scanner.expect(",", "', kwargs = '"))
            return scannerError(lineIndex, scanner);
        scanner.skipSpaces();
        if (!scanner.expect("kwargs", "'kwargs = '"))
            return scannerError(lineIndex, scanner);
        scanner.skipSpaces();
        if (!scanner.expect("=", "'=' after 'kwargs'"))
            return scannerError(lineIndex, scanner);
        scanner.skipSpaces();
        size_t kwargsAt = scanner.pos();
        if (scanner.peek() != '{')
            return error(
                lineIndex, kwargsAt, "expected the kwargs dict '{...}', found " + scanner.describeAt(kwargsAt));
        Argument kwargsValue;
        if (!scanner.parseValue(kwargsValue))
            return scannerError(lineIndex, scanner);
        for (size_t k = 0; k < kwargsValue.items().size(); ++k)
            kwargs.emplace_back(kwargsValue.keys()[k], std::move(kwargsValue.items()[k]));
        scanner.skipSpaces();
        if (!scanner.expect(")", "')' closing the node's arguments"))
            return scannerError(lineIndex, scanner);
    }
    scanner.skipSpaces();
    if (!scanner.atEnd())
        return error(lineIndex, scanner.pos(), "expected end of line, found " + scanner.describeAt(scanner.pos()));

    block.defining.clear();
    Node *node = block.graph->append(op, nodeName, std::move(target), std::move(args), std::move(kwargs));
    NodeMeta &meta = node->meta();
    meta.dumpLine = int(lineIndex + 1);
    applyTypeText(meta, typeText);
    block.scope[name] = node;
    if (nodeName != name)
        block.scope[nodeName] = node;
    if (block.fragment && op != OpKind::Placeholder) {
        auto later = block.laterDefinitions.find(name);
        if (later != block.laterDefinitions.end() && later->second == int(lineIndex + 1))
            block.laterDefinitions.erase(later);
    }
    if (declared >= 0)
        block.declared.push_back(Declared{node, declared, int(lineIndex + 1), int(usersColumn + 1)});
    return true;
}

bool FxTextParser::parseReturn(Block &block, size_t lineIndex, size_t pos)
{
    std::string_view line = m_lines[lineIndex];
    size_t i = skipBlanks(line, pos + 6);
    Argument value;
    if (block.fragment) {
        // Inductor writes `return %a,%b` (the buffers the kernel writes), or `return %a`.
        FxArgScanner scanner(line, FxArgScanner::Syntax::FxText, percentResolver(block, lineIndex));
        scanner.setPos(i);
        std::vector<Argument> items;
        bool trailingComma = false;
        scanner.skipSpaces();
        while (!scanner.atEnd()) {
            Argument item;
            if (!scanner.parseValue(item))
                return scannerError(lineIndex, scanner);
            items.push_back(std::move(item));
            scanner.skipSpaces();
            trailingComma = scanner.consume(",");
            if (!trailingComma)
                break;
            scanner.skipSpaces();
        }
        scanner.skipSpaces();
        if (!scanner.atEnd())
            return error(
                lineIndex, scanner.pos(), "expected ',' or end of line, found " + scanner.describeAt(scanner.pos()));
        if (items.size() == 1 && !trailingComma)
            value = std::move(items[0]);
        else
            value = Argument::tuple(std::move(items));
    } else {
        bool percent = i < line.size() && line[i] == '%';
        FxArgScanner scanner(line, percent ? FxArgScanner::Syntax::FxText : FxArgScanner::Syntax::Python,
            percent ? percentResolver(block, lineIndex) : pythonResolver(block));
        scanner.setPos(i);
        if (!scanner.parseValue(value))
            return scannerError(lineIndex, scanner);
        scanner.skipSpaces();
        if (!scanner.atEnd())
            return error(lineIndex, scanner.pos(),
                "expected end of line after the returned value, found " + scanner.describeAt(scanner.pos()));
    }
    Node *output = block.graph->append(OpKind::Output, block.graph->uniqueName("output"), "output", {std::move(value)});
    output->meta().dumpLine = int(lineIndex + 1);
    return true;
}

void FxTextParser::addImplicitOutput(Block &block, size_t lineIndex)
{
    // A fragment without a return line (PyTorch <= 2.6) still needs an output: the nodes it computes for
    // use outside it, which are the ones declaring more users than the fragment itself has.
    std::vector<Argument> values;
    for (const Declared &d : block.declared)
        if (size_t(d.users) > d.node->users().size())
            values.push_back(Argument::ofNode(d.node));
    Node *output = block.graph->append(
        OpKind::Output, block.graph->uniqueName("output"), "output", {Argument::tuple(std::move(values))});
    output->meta().dumpLine = int(lineIndex + 1);
    output->meta().extra = Json::object({{"implicit", true}});
}

void FxTextParser::checkDeclaredUsers(Block &block)
{
    for (const Declared &d : block.declared) {
        size_t derived = d.node->users().size();
        if (size_t(d.users) == derived)
            continue;
        m_warnings.push_back(Error{m_file, d.line, d.column,
            "node '%" + d.node->name() + "' declares num_users=" + std::to_string(d.users) + " but "
                + std::to_string(derived) + " node" + (derived == 1 ? "" : "s") + " use it"});
    }
}

bool FxTextParser::parseGraph(size_t headerIndex, size_t open, size_t close, size_t &next, ParsedGraph &out)
{
    out.graph = std::make_unique<Graph>();
    out.line = int(headerIndex + 1);
    Block block;
    block.graph = out.graph.get();
    if (!parseHeaderParams(block, headerIndex, open, close))
        return false;
    for (size_t i = headerIndex + 1; i < m_lines.size(); ++i) {
        std::string_view line = m_lines[i];
        size_t pos = skipBlanks(line, 0);
        if (pos >= line.size())
            continue;
        if (line[pos] == '%') {
            if (!parseNodeLine(block, i, pos))
                return false;
            continue;
        }
        if (startsWithWord(line, pos, "return")) {
            if (!parseReturn(block, i, pos))
                return false;
            checkDeclaredUsers(block);
            next = i + 1;
            return true;
        }
        return error(i, pos,
            "expected a node line ('%name : ...') or 'return ...', found "
                + FxArgScanner(line, FxArgScanner::Syntax::FxText, nullptr).describeAt(pos));
    }
    size_t last = m_lines.empty() ? 0 : m_lines.size() - 1;
    return error(last, m_lines.empty() ? 0 : m_lines[last].size(),
        "expected a 'return ...' line ending the graph that starts on line " + std::to_string(headerIndex + 1)
            + ", found end of file");
}

bool FxTextParser::parseFragment(size_t headerIndex, size_t &next, ParsedGraph &out)
{
    out.graph = std::make_unique<Graph>();
    out.fragment = true;
    out.line = int(headerIndex + 1);
    Block block;
    block.graph = out.graph.get();
    block.fragment = true;
    size_t end = headerIndex + 1;
    while (end < m_lines.size() && fragmentBodyStart(m_lines[end]) != std::string_view::npos) {
        std::string_view line = m_lines[end];
        size_t body = fragmentBodyStart(line);
        if (line[body] == '%' && !isPlaceholderLine(line, body)) {
            size_t n = body + 1;
            while (n < line.size() && isIdentChar(line[n]))
                ++n;
            block.laterDefinitions.emplace(std::string(line.substr(body + 1, n - body - 1)), int(end + 1));
        }
        if (line[body] != '%') {
            ++end;
            break; // the return line closes the fragment
        }
        ++end;
    }
    next = end;
    bool sawReturn = false;
    for (size_t i = headerIndex + 1; i < end; ++i) {
        size_t body = fragmentBodyStart(m_lines[i]);
        if (m_lines[i][body] == '%') {
            if (!parseNodeLine(block, i, body))
                return false;
        } else {
            if (!parseReturn(block, i, body))
                return false;
            sawReturn = true;
        }
    }
    if (!sawReturn)
        addImplicitOutput(block, end > headerIndex + 1 ? end - 1 : headerIndex);
    return true;
}

Result<GraphFile> FxTextParser::run()
{
    std::vector<ParsedGraph> parsed;
    Error firstFragmentError;
    bool fragmentFailed = false;
    size_t i = 0;
    while (i < m_lines.size()) {
        std::string_view line = m_lines[i];
        size_t open = 0, close = 0;
        if (isFragmentHeader(line)) {
            ParsedGraph g;
            size_t next = i + 1;
            if (parseFragment(i, next, g)) {
                if (next > i + 1)
                    parsed.push_back(std::move(g));
                else
                    m_warnings.push_back(Error{m_file, int(i + 1), 1, "empty graph fragment skipped"});
            } else {
                // Fragments are comments inside generated code: a bad one is skipped, not fatal.
                if (!fragmentFailed)
                    firstFragmentError = m_error;
                fragmentFailed = true;
                m_warnings.push_back(
                    Error{m_error.file, m_error.line, m_error.column, "graph fragment skipped: " + m_error.message});
            }
            i = std::max(next, i + 1);
            continue;
        }
        if (findGraphHeader(line, open, close)) {
            ParsedGraph g;
            size_t next = i + 1;
            if (!parseGraph(i, open, close, next, g))
                return m_error;
            parsed.push_back(std::move(g));
            i = next;
            continue;
        }
        ++i;
    }
    if (parsed.empty()) {
        if (fragmentFailed)
            return firstFragmentError;
        std::string_view first = m_lines.empty() ? std::string_view() : m_lines[0];
        return Error{m_file, 1, 1,
            "expected a 'graph():' header or a '# Graph fragment:' comment, found "
                + FxArgScanner(first, FxArgScanner::Syntax::FxText, nullptr).describeAt(skipBlanks(first, 0))};
    }
    size_t graphs = 0, fragments = 0;
    for (const auto &g : parsed)
        (g.fragment ? fragments : graphs)++;
    GraphFile file;
    file.path = m_file;
    file.format = format::FxText;
    size_t graphNo = 0, fragmentNo = 0;
    for (auto &g : parsed) {
        NamedGraph named;
        if (g.fragment) {
            named.name = "fragment " + std::to_string(++fragmentNo);
            named.kind = "fragment";
        } else {
            ++graphNo;
            named.name = graphs == 1 ? std::string("graph") : "graph " + std::to_string(graphNo);
        }
        named.graph = std::move(g.graph);
        named.line = g.line;
        file.graphs.push_back(std::move(named));
    }
    file.warnings = std::move(m_warnings);
    return file;
}

} // namespace

Result<GraphFile> parseFxText(std::string_view text, const std::string &fileName)
{
    FxTextParser parser(text, fileName);
    return parser.run();
}

} // namespace fxs
