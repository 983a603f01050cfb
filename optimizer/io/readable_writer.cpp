#include "readable_writer.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fxs {

namespace {

struct OperatorSyntax {
    const char *target;
    const char *symbol;
};
const OperatorSyntax kBinary[] = {
    {"operator.add", "+"},
    {"operator.sub", "-"},
    {"operator.mul", "*"},
    {"operator.truediv", "/"},
    {"operator.floordiv", "//"},
    {"operator.mod", "%"},
    {"operator.pow", "**"},
    {"operator.matmul", "@"},
    {"operator.lshift", "<<"},
    {"operator.rshift", ">>"},
    {"operator.and_", "&"},
    {"operator.or_", "|"},
    {"operator.xor", "^"},
    {"operator.eq", "=="},
    {"operator.ne", "!="},
    {"operator.lt", "<"},
    {"operator.le", "<="},
    {"operator.gt", ">"},
    {"operator.ge", ">="},
};
const OperatorSyntax kUnary[] = {
    {"operator.neg", "-"},
    {"operator.pos", "+"},
    {"operator.invert", "~"},
    {"operator.not_", "not "},
};

bool isIdentifier(const std::string &s)
{
    if (s.empty() || std::isdigit((unsigned char)s[0]))
        return false;
    for (char c : s)
        if (!std::isalnum((unsigned char)c) && c != '_')
            return false;
    return true;
}

// self.a.b, or getattr(self.a, "0") for segments that are not identifiers.
std::string attributePath(const std::string &target)
{
    std::string out = "self";
    size_t start = 0;
    while (start <= target.size()) {
        size_t dot = target.find('.', start);
        std::string segment = target.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (isIdentifier(segment))
            out += "." + segment;
        else
            out = "getattr(" + out + ", " + pythonStringRepr(segment) + ")";
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return out;
}

std::string callArguments(const std::vector<Argument> &args, const Kwargs &kwargs, size_t skip = 0)
{
    std::string out;
    for (size_t i = skip; i < args.size(); ++i) {
        if (!out.empty())
            out += ", ";
        out += args[i].toPython();
    }
    for (const auto &kv : kwargs) {
        if (!out.empty())
            out += ", ";
        out += kv.first + " = " + kv.second.toPython();
    }
    return out;
}

std::string annotation(const Node &n)
{
    const auto &val = n.meta().val;
    if (!val || val->kind == ValueMeta::Kind::Tuple)
        return {};
    return ": \"" + val->toAnnotation() + "\"";
}

// print_readable spells an op overload torch.ops.aten.add.Tensor; nodes fxscope made carry aten.add.Tensor.
std::string callee(const std::string &target)
{
    static const char *const kPythonModules[] = {"torch.", "operator.", "_operator.", "builtins.", "math."};
    if (std::count(target.begin(), target.end(), '.') != 2)
        return target;
    for (const char *module : kPythonModules)
        if (target.rfind(module, 0) == 0)
            return target;
    return "torch.ops." + target;
}

std::string expression(const Node &n)
{
    const auto &args = n.args();
    switch (n.op()) {
    case OpKind::GetAttr: return attributePath(n.target());
    case OpKind::CallModule: return attributePath(n.target()) + "(" + callArguments(args, n.kwargs()) + ")";
    case OpKind::CallMethod:
        if (args.empty())
            break;
        return args[0].toPython() + "." + n.target() + "(" + callArguments(args, n.kwargs(), 1) + ")";
    case OpKind::CallFunction:
        if (n.kwargs().empty()) {
            if (n.target() == "operator.getitem" && args.size() == 2)
                return args[0].toPython() + "[" + args[1].toPython() + "]";
            for (const auto &op : kBinary)
                if (args.size() == 2 && n.target() == op.target)
                    return args[0].toPython() + " " + op.symbol + " " + args[1].toPython();
            for (const auto &op : kUnary)
                if (args.size() == 1 && n.target() == op.target)
                    return std::string(op.symbol) + args[0].toPython();
        }
        break;
    default: break;
    }
    return (n.op() == OpKind::CallFunction ? callee(n.target()) : n.target()) + "(" + callArguments(args, n.kwargs())
        + ")";
}

void writeSourceComment(const Node &n, const SourceLocation *&current, const std::string &indent, std::string &out)
{
    const SourceLocation *src = n.meta().source ? &*n.meta().source : nullptr;
    if (src == current || (src && current && *src == *current))
        return;
    current = src;
    out += "\n";
    if (!src) {
        out += indent + "# No stacktrace found for following nodes\n";
        return;
    }
    out += indent + "# File: " + src->file + ":" + std::to_string(src->line);
    if (!src->function.empty())
        out += " in " + src->function;
    out += ", code: " + src->code + "\n";
}

// The `name = parameter` lines of renamed placeholders, ordered so that no line overwrites a parameter a later line
// still reads. AOT joint graphs rename primals_1 to primals_2, primals_2 to primals_4, ...: in graph order
// `primals_2 = primals_1` would come first and `primals_4 = primals_2` then read the wrong value (torch.fx's own
// codegen writes them in that order). Each parameter is read by one line, so the lines form chains; each chain is
// written from its end. A cycle (a swap of names) cannot be written this way and keeps graph order.
std::vector<const Node *> aliasOrder(const std::vector<const Node *> &renamed)
{
    std::unordered_map<std::string, const Node *> writerOf; // variable -> the line assigning it
    std::unordered_set<std::string> read;
    for (const Node *n : renamed) {
        writerOf[n->name()] = n;
        read.insert(n->target());
    }
    std::vector<const Node *> order;
    std::unordered_set<const Node *> written;
    for (const Node *head : renamed) {
        if (read.count(head->name()))
            continue; // not the end of a chain: reached from the line that reads it
        for (const Node *n = head; n && written.insert(n).second;) {
            order.push_back(n);
            auto next = writerOf.find(n->target());
            n = next == writerOf.end() ? nullptr : next->second;
        }
    }
    for (const Node *n : renamed)
        if (written.insert(n).second)
            order.push_back(n);
    return order;
}

void writeModule(const Graph &graph, const std::string &className, const std::string &indent, std::string &out)
{
    out += indent + "class " + className + "(torch.nn.Module):\n";
    std::string params;
    std::vector<const Node *> renamed; // placeholders whose node name differs from their parameter name
    const std::string body = indent + "        ";
    for (const auto &owned : graph.nodes()) {
        const Node &n = *owned;
        if (n.op() != OpKind::Placeholder)
            continue;
        params += ", " + n.target() + annotation(n);
        if (!n.args().empty())
            params += " = " + n.args()[0].toPython();
        if (n.target() != n.name())
            renamed.push_back(&n);
    }
    out += indent + "    def forward(self" + params + "):\n";
    for (const Node *n : aliasOrder(renamed))
        out += body + n->name() + " = " + n->target() + "\n";
    const SourceLocation *current = nullptr;
    for (const auto &owned : graph.nodes()) {
        const Node &n = *owned;
        if (n.op() == OpKind::Placeholder)
            continue;
        writeSourceComment(n, current, body, out);
        if (n.op() == OpKind::Output) {
            out += body + "return " + (n.args().empty() ? std::string("None") : n.args()[0].toPython()) + "\n";
            continue;
        }
        out += body + n.name() + annotation(n) + " = " + expression(n) + "\n";
    }
    for (const auto &sub : graph.subgraphs()) {
        out += "\n";
        writeModule(*sub.second, sub.first, indent + "    ", out);
    }
}

} // namespace

std::string writeReadable(const Graph &graph, const std::string &className)
{
    std::string out;
    writeModule(graph, className, "", out);
    return out;
}

} // namespace fxs
