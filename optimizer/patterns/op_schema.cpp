#include "op_schema.h"

#include "../util/text.h"

#include <cctype>
#include <cstdlib>

namespace fxs {

namespace {

// Splits on commas that are not inside brackets or quotes.
std::vector<std::string_view> splitTopLevel(std::string_view s)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    char quote = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[') {
            ++depth;
        } else if (c == ')' || c == ']') {
            --depth;
        } else if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (!trim(s.substr(start)).empty())
        parts.push_back(trim(s.substr(start)));
    return parts;
}

} // namespace

Argument parseSchemaDefault(std::string_view text)
{
    text = trim(text);
    if (text == "None")
        return Argument::none();
    if (text == "True" || text == "False")
        return Argument::ofBool(text == "True");
    if (!text.empty() && (text.front() == '\'' || text.front() == '"') && text.size() >= 2)
        return Argument::ofString(std::string(text.substr(1, text.size() - 2)));
    if (!text.empty() && text.front() == '[') {
        std::vector<Argument> items;
        for (auto part : splitTopLevel(text.substr(1, text.size() - 2)))
            items.push_back(parseSchemaDefault(part));
        return Argument::list(std::move(items));
    }
    std::string s(text);
    char *end = nullptr;
    long long i = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end == s.c_str() + s.size())
        return Argument::ofInt(i);
    double d = std::strtod(s.c_str(), &end);
    if (!s.empty() && end == s.c_str() + s.size())
        return Argument::ofFloat(d);
    return Argument::ofText(Argument::Kind::Verbatim, s);
}

bool OpSchema::isMutable() const
{
    for (const auto &a : arguments)
        if (a.mutated)
            return true;
    return false;
}

Result<OpSchema> OpSchema::parse(std::string_view text)
{
    OpSchema schema;
    schema.text = std::string(text);
    auto fail = [&](const std::string &what) {
        return Error{"", 0, 0,
            "expected an operator schema 'ns::name.overload(args) -> returns', " + what + " in '" + std::string(text)
                + "'"};
    };
    size_t colons = text.find("::");
    size_t open = text.find('(');
    if (colons == std::string_view::npos || open == std::string_view::npos || open < colons)
        return fail("found no 'ns::name('");
    schema.ns = std::string(trim(text.substr(0, colons)));
    std::string_view qualified = trim(text.substr(colons + 2, open - colons - 2));
    size_t dot = qualified.find('.');
    schema.name = std::string(qualified.substr(0, dot));
    schema.overload = dot == std::string_view::npos ? "default" : std::string(qualified.substr(dot + 1));
    int depth = 0;
    size_t close = std::string_view::npos;
    for (size_t i = open; i < text.size(); ++i) {
        if (text[i] == '(')
            ++depth;
        else if (text[i] == ')' && --depth == 0) {
            close = i;
            break;
        }
    }
    if (close == std::string_view::npos)
        return fail("found no closing ')'");
    size_t arrow = text.find("->", close);
    schema.returns = arrow == std::string_view::npos ? "" : std::string(trim(text.substr(arrow + 2)));
    bool kwargOnly = false;
    for (auto part : splitTopLevel(text.substr(open + 1, close - open - 1))) {
        if (part == "*") {
            kwargOnly = true;
            continue;
        }
        SchemaArgument arg;
        arg.kwargOnly = kwargOnly;
        std::string_view decl = part;
        size_t eq = decl.find('=');
        if (eq != std::string_view::npos) {
            arg.defaultValue = parseSchemaDefault(decl.substr(eq + 1));
            decl = trim(decl.substr(0, eq));
        }
        size_t space = decl.rfind(' ');
        if (space == std::string_view::npos)
            return fail("found an argument without a name ('" + std::string(part) + "')");
        arg.type = std::string(trim(decl.substr(0, space)));
        arg.name = std::string(trim(decl.substr(space + 1)));
        arg.mutated = arg.type.find('!') != std::string::npos;
        schema.arguments.push_back(std::move(arg));
    }
    return schema;
}

std::string canonicalTarget(std::string_view target)
{
    constexpr std::string_view kTorchOps = "torch.ops.";
    if (target.substr(0, kTorchOps.size()) == kTorchOps)
        target.remove_prefix(kTorchOps.size());
    if (target == "<built-in function getitem>" || target == "_operator.getitem" || target == "getitem")
        return "operator.getitem";
    return std::string(target);
}

} // namespace fxs
