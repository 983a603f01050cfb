#include "format.h"

#include <cstring>
#include <regex>

namespace fxs {

namespace {

bool looksBinary(std::string_view head)
{
    size_t control = 0;
    for (unsigned char c : head) {
        if (c == 0)
            return true;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f')
            ++control;
    }
    return control * 20 > head.size(); // over 5% control bytes
}

bool startsWithGlogRecord(std::string_view text)
{
    // V1206 15:18:15.925000 1500233 torch/_dynamo/utils.py:1288] {"...
    static const std::regex glog(R"(^[VIWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^\]\n]*\] \{)");
    size_t pos = 0;
    for (int lines = 0; lines < 50 && pos < text.size(); ++lines) {
        size_t end = text.find('\n', pos);
        std::string line(
            text.substr(pos, std::min<size_t>(end == std::string_view::npos ? text.size() - pos : end - pos, 400)));
        if (std::regex_search(line, glog))
            return true;
        if (end == std::string_view::npos)
            break;
        pos = end + 1;
    }
    return false;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

Result<std::string> sniffFormat(std::string_view bytes, const std::string &fileName)
{
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0)
        return std::string(format::Pt2);
    std::string_view head = bytes.substr(0, 64 * 1024);
    if (bytes.empty())
        return Error{fileName, 1, 1, "expected an FX graph dump, found an empty file"};
    if (looksBinary(head))
        return Error{fileName, 1, 1, "expected an FX graph dump (text, JSON or a .pt2 zip), found binary data"};

    size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && head[first] == '{') {
        if (head.find("\"fxscope\"") != std::string_view::npos)
            return std::string(format::FxscopeJson);
        if (head.find("\"graph_module\"") != std::string_view::npos
            || head.find("\"schema_version\"") != std::string_view::npos
            || head.find("\"tensor_values\"") != std::string_view::npos)
            return std::string(format::ExportJson);
        return Error{fileName, 1, int(first + 1),
            "expected fxscope JSON (a \"fxscope\" key) or torch.export JSON (\"graph_module\"), found other JSON"};
    }
    if (startsWithGlogRecord(head))
        return std::string(format::TorchTrace);
    if (head.find("## FX Code:") != std::string_view::npos || head.find("ge.NetOutput(") != std::string_view::npos
        || head.find("torchair._ge_concrete_graph") != std::string_view::npos)
        return std::string(format::TorchAirPy);
    bool readable = head.find("def forward(") != std::string_view::npos
        || head.find("(torch.nn.Module):") != std::string_view::npos
        || head.find("ExportedProgram:") != std::string_view::npos;
    bool fxText = head.find("[target=") != std::string_view::npos;
    if (readable)
        return std::string(format::Readable);
    if (fxText)
        return std::string(format::FxText);
    return Error{fileName, 1, 1,
        "expected an FX graph dump (print(gm.graph) text, readable code with 'def forward(', a TORCH_TRACE log, "
        "torch.export JSON/.pt2, a TorchAir graph dump or fxscope JSON), found none of their markers"};
}

size_t glogPrefixLength(std::string_view line)
{
    size_t p = 0;
    if (line.substr(0, 5) == "[rank") {
        size_t close = line.find("]:");
        if (close == std::string_view::npos)
            return 0;
        p = close + 2;
    }
    auto digits = [&](size_t n) {
        for (size_t i = 0; i < n; ++i, ++p)
            if (p >= line.size() || !isDigit(line[p]))
                return false;
        return true;
    };
    auto expect = [&](char c) {
        if (p >= line.size() || line[p] != c)
            return false;
        ++p;
        return true;
    };
    if (p >= line.size() || std::string_view("DIWEFVC").find(line[p]) == std::string_view::npos)
        return 0;
    ++p;
    if (!digits(4) || !expect(' ') || !digits(2) || !expect(':') || !digits(2) || !expect(':') || !digits(2)
        || !expect('.'))
        return 0;
    size_t fraction = p;
    while (p < line.size() && isDigit(line[p]))
        ++p;
    if (p == fraction)
        return 0;
    if (!expect(' '))
        return 0;
    while (p < line.size() && line[p] == ' ')
        ++p;
    size_t pid = p;
    while (p < line.size() && isDigit(line[p]))
        ++p;
    if (p == pid || !expect(' '))
        return 0;
    size_t close = line.find("] ", p);
    if (close == std::string_view::npos)
        return 0;
    return close + 2;
}

} // namespace fxs
