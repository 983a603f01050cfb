#include "torchair_parser.h"

#include "../util/text.h"

#include "format.h"
#include "fx_arg_scanner.h"

#include <unordered_map>
#include <unordered_set>

namespace fxs {

namespace {

// GE's DataType enum (torchair/ge/_ge_graph.py DataType) to torch dtype names.
std::string dtypeFromGe(int64_t ge)
{
    switch (ge) {
    case 0: return "torch.float32";
    case 1: return "torch.float16";
    case 2: return "torch.int8";
    case 3: return "torch.int32";
    case 4: return "torch.uint8";
    case 6: return "torch.int16";
    case 7: return "torch.uint16";
    case 8: return "torch.uint32";
    case 9: return "torch.int64";
    case 10: return "torch.uint64";
    case 11: return "torch.float64";
    case 12: return "torch.bool";
    case 16: return "torch.complex64";
    case 17: return "torch.complex128";
    case 18: return "torch.qint8";
    case 20: return "torch.qint32";
    case 21: return "torch.quint8";
    case 27: return "torch.bfloat16";
    case 33: return "torch.complex32";
    case 35: return "torch.float8_e5m2";
    case 36: return "torch.float8_e4m3fn";
    case 37: return "torch.float8_e8m0fnu";
    default: return {};
    }
}

// Rebuilds the FX graph of a TorchAir `graph_dump.type = "py"` file from its `## FX Code:` lines and its
// ge.Data inputs, and keeps the GE op lines each FX node lowered to.
class TorchAirParser {
public:
    TorchAirParser(std::string_view text, const std::string &fileName) : m_file(fileName)
    {
        size_t start = 0;
        while (start < text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string_view::npos)
                end = text.size();
            std::string_view line = text.substr(start, end - start);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            m_lines.push_back(line);
            start = end + 1;
        }
    }

    Result<GraphFile> run();

private:
    bool parseData(size_t lineIndex, std::string_view line, size_t callOpen, std::string_view lhs);
    bool parseFxCode(size_t lineIndex, std::string_view line, size_t pos);
    bool parseNetOutput(size_t lineIndex, std::string_view line, size_t callOpen);
    void parseSource(std::string_view comment);
    void addGeOp(std::string_view line, std::string_view lhs);
    void buildOutput();
    FxArgScanner::Resolver fxResolver(size_t lineIndex, const std::string &defining);

    bool error(size_t lineIndex, size_t offset, std::string message)
    {
        m_error = Error{m_file, int(lineIndex + 1), int(offset + 1), std::move(message)};
        return false;
    }
    bool scannerError(size_t lineIndex, const FxArgScanner &scanner)
    {
        return error(lineIndex, scanner.errorOffset(), scanner.errorMessage());
    }

    std::string m_file;
    std::vector<std::string_view> m_lines;
    std::unique_ptr<Graph> m_graph = std::make_unique<Graph>();
    Error m_error;

    std::unordered_map<std::string, Node *> m_geVarOwner; // GE variable (Mul_1_0) -> FX node
    std::unordered_map<Node *, Json> m_geOps; // FX node -> its GE op lines
    std::unordered_set<Node *> m_dataPlaceholders; // val from ge.Data, refined by FX annotations
    Node *m_owner = nullptr; // the node GE op lines are attributed to
    // From the latest '# File' comment. TorchAir prints a comment only for a location it has not printed
    // before, so FX nodes take the latest one: right for the usual runs of nodes decomposed from one source
    // line, wrong for a location repeated after others (a loop over layers), which cannot be told apart.
    std::optional<SourceLocation> m_source;
    Node *m_explicitOutput = nullptr;
    std::vector<std::string> m_netOutputVars;
    bool m_netOutputTraceable = false;
    std::string m_netOutputLine;
};

FxArgScanner::Resolver TorchAirParser::fxResolver(size_t lineIndex, const std::string &defining)
{
    // An annotated name (`primals_1: torch.float32[64]npu:0`) is always an FX node; a bare name is one only
    // when known, because the un-annotated form also prints strings and (in old TorchAir) kwarg names bare.
    // FX nodes never printed (placeholders without a ge.Data line, get_attr constants, nodes without a
    // stack trace) become placeholders marked {"implicit": true}.
    return [this, lineIndex, defining](const FxArgScanner::NameRef &ref, Node *&node, std::string &message) {
        if (ref.name == defining) {
            message = "expected a node defined on an earlier line, found '" + defining + "', which this line defines";
            return FxArgScanner::Resolution::Failed;
        }
        node = m_graph->find(ref.name);
        std::optional<ValueMeta> val;
        if (ref.annotated) {
            auto parsed = ValueMeta::parseAnnotation(ref.annotation);
            if (parsed)
                val = std::move(parsed.value());
        }
        if (node) {
            if (val && m_dataPlaceholders.count(node))
                node->meta().val = val; // FX's symbolic shape is more precise than GE's -1
            return FxArgScanner::Resolution::Node;
        }
        if (!ref.annotated)
            return FxArgScanner::Resolution::NotNode;
        std::string name(ref.name);
        node = m_graph->append(OpKind::Placeholder, name, name);
        node->meta().dumpLine = int(lineIndex + 1);
        node->meta().val = val;
        node->meta().extra = Json::object({{"implicit", true}});
        return FxArgScanner::Resolution::Node;
    };
}

void TorchAirParser::parseSource(std::string_view comment)
{
    // # File "/path/test.py", line 24, in forward    x = self.linear1(x)
    m_source.reset();
    std::string_view rest = trim(comment.substr(comment.find("File") + 4));
    SourceLocation loc;
    if (!rest.empty() && rest.front() == '"') {
        size_t close = rest.find('"', 1);
        if (close == std::string_view::npos)
            return;
        loc.file = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
    } else {
        size_t comma = rest.find(',');
        loc.file = std::string(trim(rest.substr(0, comma)));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma);
    }
    if (rest.substr(0, 7) != ", line ")
        return;
    rest.remove_prefix(7);
    size_t digits = 0;
    int64_t line = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9' && line < 1000000000)
        line = line * 10 + (rest[digits++] - '0');
    if (digits == 0)
        return;
    loc.line = int(line);
    rest = rest.substr(digits);
    if (rest.substr(0, 5) == ", in ") {
        rest.remove_prefix(5);
        size_t fnEnd = 0;
        while (fnEnd < rest.size() && !isBlank(rest[fnEnd]))
            ++fnEnd;
        loc.function = std::string(rest.substr(0, fnEnd));
        loc.code = std::string(trim(rest.substr(fnEnd)));
    }
    m_source = std::move(loc);
}

bool TorchAirParser::parseData(size_t lineIndex, std::string_view line, size_t callOpen, std::string_view lhs)
{
    FxArgScanner scanner(line, FxArgScanner::Syntax::Python, nullptr);
    scanner.setPos(callOpen + 1);
    std::vector<Argument> args;
    Kwargs kwargs;
    if (!scanner.parseCallArguments(args, kwargs))
        return scannerError(lineIndex, scanner);
    auto kwarg = [&](std::string_view key) -> const Argument * {
        for (const auto &kv : kwargs)
            if (kv.first == key)
                return &kv.second;
        return nullptr;
    };
    const Argument *name = kwarg("node_name");
    if (!name || name->kind() != Argument::Kind::String || name->text().empty())
        return error(lineIndex, callOpen, "expected node_name=\"...\" in ge.Data(...), found none");
    // node_name is the FX placeholder's name; an odd one (GE-only inputs) is made a valid FX name.
    std::string nodeName = FxArgScanner::isIdentifier(name->text()) ? name->text() : m_graph->uniqueName(name->text());
    if (Node *existing = m_graph->find(nodeName))
        return error(lineIndex, callOpen,
            "expected a new node name, found '" + nodeName + "', already defined on line "
                + std::to_string(existing->meta().dumpLine));
    Node *node = m_graph->append(OpKind::Placeholder, nodeName, name->text());
    node->meta().dumpLine = int(lineIndex + 1);

    const Argument *dtype = kwarg("dtype");
    const Argument *shape = kwarg("shape");
    const Argument *placement = kwarg("placement");
    bool unknownRank = false;
    TensorMeta t;
    if (dtype && dtype->kind() == Argument::Kind::Int)
        t.dtype = dtypeFromGe(dtype->toInt());
    if (shape && shape->kind() == Argument::Kind::List) {
        for (const Argument &d : shape->items()) {
            if (d.kind() != Argument::Kind::Int)
                continue;
            if (d.toInt() == -2)
                unknownRank = true; // GE's [-2]: rank unknown
            SymInt dim;
            if (d.toInt() >= 0)
                dim.value = d.toInt();
            else
                dim.expr = "?"; // a dynamic dimension; FX Code annotations may name it later
            t.shape.push_back(dim);
        }
    } else {
        unknownRank = true;
    }
    if (placement && placement->kind() == Argument::Kind::String)
        t.device = placement->text() == "CPU" ? "cpu" : placement->text() == "NPU" ? "npu" : placement->text();
    if (!unknownRank && !t.dtype.empty())
        node->meta().val = ValueMeta::ofTensor(std::move(t));
    m_dataPlaceholders.insert(node);
    m_geOps[node] = Json::array();
    // GE ops right after an input (Shape/Gather in dynamic graphs) belong to it until an FX block starts.
    m_owner = node;
    addGeOp(line, lhs);
    return true;
}

void TorchAirParser::addGeOp(std::string_view line, std::string_view lhs)
{
    if (!m_owner)
        return;
    m_geOps[m_owner].push(Json(std::string(trim(line))));
    // `Split_0, Split_1 = ...` or `[A_0, A_1] = ...`: every variable comes from this FX node.
    size_t i = 0;
    while (i < lhs.size()) {
        while (i < lhs.size() && !isIdentChar(lhs[i]))
            ++i;
        size_t start = i;
        while (i < lhs.size() && isIdentChar(lhs[i]))
            ++i;
        std::string_view var = lhs.substr(start, i - start);
        if (!var.empty() && var != "_")
            m_geVarOwner[std::string(var)] = m_owner;
    }
}

bool TorchAirParser::parseNetOutput(size_t lineIndex, std::string_view line, size_t callOpen)
{
    // The graph's outputs as GE variables; traced back to FX nodes in buildOutput.
    FxArgScanner scanner(line, FxArgScanner::Syntax::Python, nullptr);
    scanner.setPos(callOpen + 1);
    std::vector<Argument> args;
    Kwargs kwargs;
    if (!scanner.parseCallArguments(args, kwargs))
        return scannerError(lineIndex, scanner);
    m_netOutputLine = std::string(trim(line));
    m_netOutputTraceable = !args.empty() && args[0].isSequence();
    m_netOutputVars.clear();
    if (m_netOutputTraceable) {
        for (const Argument &a : args[0].items()) {
            if (a.kind() != Argument::Kind::String) {
                m_netOutputTraceable = false;
                break;
            }
            m_netOutputVars.push_back(a.text());
        }
    }
    return true;
}

bool TorchAirParser::parseFxCode(size_t lineIndex, std::string_view line, size_t pos)
{
    // name[: annotation] = target(args, k=v)
    size_t nameStart = pos;
    while (nameStart < line.size() && isBlank(line[nameStart]))
        ++nameStart;
    size_t i = nameStart;
    while (i < line.size() && isIdentChar(line[i]))
        ++i;
    std::string name(line.substr(nameStart, i - nameStart));
    FxArgScanner scanner(line, FxArgScanner::Syntax::Python, fxResolver(lineIndex, name));
    scanner.setAnnotations(true);
    if (!FxArgScanner::isIdentifier(name))
        return error(lineIndex, nameStart,
            "expected the FX node name after '## FX Code:', found " + scanner.describeAt(nameStart));
    std::string_view annotation;
    scanner.setPos(i);
    scanner.skipSpaces();
    if (scanner.consume(":")) {
        scanner.skipSpaces();
        size_t annStart = scanner.pos();
        if (scanner.peek() == '"' || scanner.peek() == '\'') {
            if (!scanner.scanAnnotation(annotation))
                return scannerError(lineIndex, scanner);
        } else {
            size_t eq = line.find(" = ", annStart);
            if (eq == std::string_view::npos)
                return error(lineIndex, annStart, "expected ' = ' after the annotation, found end of line");
            annotation = trim(line.substr(annStart, eq - annStart));
            scanner.setPos(eq);
        }
        if (annotation.empty())
            return error(
                lineIndex, annStart, "expected an annotation after ':', found " + scanner.describeAt(annStart));
        scanner.skipSpaces();
    }
    if (!scanner.expect("=", "' = ' after the node name"))
        return scannerError(lineIndex, scanner);
    scanner.skipSpaces();
    size_t targetStart = scanner.pos();
    size_t t = targetStart;
    if (t < line.size() && line[t] == '<') {
        while (t < line.size() && line[t] != '>')
            ++t;
        if (t < line.size())
            ++t;
    } else {
        while (t < line.size() && (isIdentChar(line[t]) || line[t] == '.'))
            ++t;
    }
    std::string target(line.substr(targetStart, t - targetStart));
    if (target.empty())
        return error(lineIndex, targetStart, "expected the call target, found " + scanner.describeAt(targetStart));
    scanner.setPos(t);
    if (!scanner.expect("(", "'(' after the call target"))
        return scannerError(lineIndex, scanner);
    if (Node *existing = m_graph->find(name))
        return error(lineIndex, nameStart,
            "expected a new node name, found '" + name + "', already defined on line "
                + std::to_string(existing->meta().dumpLine));
    std::vector<Argument> args;
    Kwargs kwargs;
    if (!scanner.parseCallArguments(args, kwargs))
        return scannerError(lineIndex, scanner);
    scanner.skipSpaces();
    if (!scanner.atEnd())
        return error(lineIndex, scanner.pos(),
            "expected end of line after the call, found " + scanner.describeAt(scanner.pos()));

    // Aten graphs call functions with dotted targets; a bare name is a method, or an attribute without args.
    OpKind op = OpKind::CallFunction;
    if (target == "output" && name.rfind("output", 0) == 0)
        op = OpKind::Output;
    else if (target.find('.') == std::string::npos && target.front() != '<')
        op = args.empty() && kwargs.empty() ? OpKind::GetAttr : OpKind::CallMethod;
    if (op == OpKind::Output && m_explicitOutput)
        return error(lineIndex, nameStart, "expected one output node, found a second one");
    Node *node = m_graph->append(op, name, target, std::move(args), std::move(kwargs));
    NodeMeta &meta = node->meta();
    meta.dumpLine = int(lineIndex + 1);
    if (!annotation.empty()) {
        auto val = ValueMeta::parseAnnotation(annotation);
        if (val)
            meta.val = std::move(val.value());
        else
            meta.extra = Json::object({{"annotation", std::string(annotation)}});
    }
    if (m_source)
        meta.source = m_source;
    if (op == OpKind::Output)
        m_explicitOutput = node;
    m_geOps[node] = Json::array();
    m_owner = node; // the block's last FX node takes the GE ops that follow the block
    return true;
}

void TorchAirParser::buildOutput()
{
    // The FX graph's return value is not printed. It is derived, in this order:
    //  1. the FX nodes owning the GE variables passed to ge.NetOutput([...]), when every one of them traces
    //     back through the variable -> FX node map (GE ops after an FX Code block belong to the block's last
    //     FX node; ge.Data variables to their placeholder). Outputs that alias inputs are not GE outputs, so
    //     they are missing here;
    //  2. otherwise the FX nodes nobody uses (not counting placeholders unless nothing else qualifies).
    std::vector<Argument> values;
    std::unordered_set<Node *> seen;
    bool traced = m_netOutputTraceable && !m_netOutputVars.empty();
    if (traced) {
        for (const std::string &var : m_netOutputVars) {
            auto it = m_geVarOwner.find(var);
            if (it == m_geVarOwner.end()) {
                traced = false;
                break;
            }
            if (seen.insert(it->second).second)
                values.push_back(Argument::ofNode(it->second));
        }
    }
    if (!traced) {
        values.clear();
        for (int pass = 0; pass < 2 && values.empty(); ++pass)
            for (const auto &n : m_graph->nodes())
                if (n->users().empty() && (pass == 1 || n->op() != OpKind::Placeholder))
                    values.push_back(Argument::ofNode(n.get()));
    }
    Node *output = m_graph->append(
        OpKind::Output, m_graph->uniqueName("output"), "output", {Argument::tuple(std::move(values))});
    output->meta().dumpLine = int(m_lines.size());
    if (!m_netOutputLine.empty())
        m_geOps[output] = Json::array({Json(m_netOutputLine)});
    else
        m_geOps[output] = Json::array();
}

Result<GraphFile> TorchAirParser::run()
{
    bool sawFxOrData = false;
    for (size_t li = 0; li < m_lines.size(); ++li) {
        std::string_view line = m_lines[li];
        size_t pos = 0;
        while (pos < line.size() && isBlank(line[pos]))
            ++pos;
        std::string_view body = line.substr(pos);
        if (body.empty())
            continue;
        if (body.substr(0, 11) == "## FX Code:") {
            if (!parseFxCode(li, line, pos + 11))
                return m_error;
            sawFxOrData = true;
            continue;
        }
        if (body.substr(0, 7) == "# File ") {
            parseSource(body);
            continue;
        }
        if (body.front() == '#')
            continue;
        // `<variables> = ge.<Op>(...)`; anything else (imports, helper code) carries no graph.
        size_t eq = body.find(" = ge.");
        if (eq == std::string_view::npos)
            continue;
        std::string_view lhs = trim(body.substr(0, eq));
        bool lhsOk = !lhs.empty();
        for (char c : lhs)
            lhsOk = lhsOk && (isIdentChar(c) || c == ',' || c == '[' || c == ']' || c == ' ');
        size_t opStart = pos + eq + 6;
        size_t opEnd = opStart;
        while (opEnd < line.size() && isIdentChar(line[opEnd]))
            ++opEnd;
        if (!lhsOk || opEnd == opStart || opEnd >= line.size() || line[opEnd] != '(')
            continue;
        std::string_view opName = line.substr(opStart, opEnd - opStart);
        if (opName == "Data") {
            if (!parseData(li, line, opEnd, lhs))
                return m_error;
            sawFxOrData = true;
        } else if (opName == "NetOutput") {
            if (!parseNetOutput(li, line, opEnd))
                return m_error;
        } else {
            addGeOp(line, lhs);
        }
    }
    if (!sawFxOrData)
        return Error{m_file, 1, 1,
            "expected '## FX Code:' lines or ge.Data(...) inputs in a TorchAir graph dump, found neither"};
    if (!m_explicitOutput) {
        buildOutput();
    } else if (m_graph->nodes().back().get() != m_explicitOutput) {
        // Lines after an `output = output(...)` FX Code line still add nodes; the output stays last.
        std::vector<Node *> order;
        order.reserve(m_graph->size());
        for (const auto &n : m_graph->nodes())
            if (n.get() != m_explicitOutput)
                order.push_back(n.get());
        order.push_back(m_explicitOutput);
        m_graph->reorder(order);
    }
    for (auto &entry : m_geOps) {
        Json &extra = entry.first->meta().extra;
        if (!extra.isObject())
            extra = Json::object();
        extra.set("ge_ops", std::move(entry.second));
    }
    GraphFile file;
    file.path = m_file;
    file.format = format::TorchAirPy;
    NamedGraph named;
    named.name = "graph";
    named.kind = "torchair";
    named.graph = std::move(m_graph);
    named.line = 1;
    file.graphs.push_back(std::move(named));
    return file;
}

} // namespace

Result<GraphFile> parseTorchAirPy(std::string_view text, const std::string &fileName)
{
    TorchAirParser parser(text, fileName);
    return parser.run();
}

} // namespace fxs
