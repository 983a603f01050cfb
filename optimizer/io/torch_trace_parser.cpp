#include "torch_trace_parser.h"

#include "format.h"
#include "readable_parser.h"

#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fxs {

namespace {

using namespace std::string_view_literals;

// Envelopes and JSON payloads are shallow; a low limit keeps the JSON parser's recursion small.
constexpr int kMaxJsonDepth = 256;

// Record kinds whose payload is a readable FX graph.
constexpr std::string_view kGraphKinds[] = {
    "dynamo_output_graph"sv,
    "aot_forward_graph"sv,
    "aot_backward_graph"sv,
    "aot_joint_graph"sv,
    "aot_inference_graph"sv,
    "inductor_pre_grad_graph"sv,
    "inductor_post_grad_graph"sv,
    "compiled_autograd_graph"sv,
    "optimize_ddp_split_graph"sv,
    "optimize_ddp_split_child"sv,
    "exported_program"sv,
};

// `artifact` records with these names carry readable graphs too. torch 2.13 writes Inductor's post-grad graph as
// an artifact named inductor_post_grad_graph (compile_fx.py), not as a record of that kind.
constexpr std::string_view kGraphArtifacts[] = {
    "before_pre_grad_graph"sv,
    "after_pre_grad_graph"sv,
    "before_post_grad_graph"sv,
    "after_post_grad_graph"sv,
    "inductor_post_grad_graph"sv,
};

template <size_t N>
bool contains(const std::string_view (&set)[N], std::string_view s)
{
    for (std::string_view v : set)
        if (v == s)
            return true;
    return false;
}

// `V1206 15:18:15.925000 1500233 torch/_dynamo/utils.py:1288] {...}`, optionally behind a `[rank0]:` prefix
// that torchrun adds. On success `jsonStart` is the offset of the JSON envelope in the line.
bool parseGlogPrefix(std::string_view line, size_t &jsonStart)
{
    jsonStart = glogPrefixLength(line);
    return jsonStart != 0 && jsonStart < line.size() && line[jsonStart] == '{';
}

// tlparse's compile id: [frame/compile], [frame/compile_attempt], [!autograd/frame/compile]; '-' when unknown.
std::string compileId(const Json &envelope)
{
    auto part = [&](const char *key) {
        const Json &v = envelope[key];
        return v.isInt() ? std::to_string(v.toInt()) : std::string("-");
    };
    std::string id = "[";
    if (envelope["compiled_autograd_id"].isInt())
        id += "!" + std::to_string(envelope["compiled_autograd_id"].toInt()) + "/";
    id += part("frame_id") + "/" + part("frame_compile_id");
    if (envelope["attempt"].isInt() && envelope["attempt"].toInt() != 0)
        id += "_" + std::to_string(envelope["attempt"].toInt());
    return id + "]";
}

// The frame a record belongs to, attempts aside: a restarted analysis creates its symbols again.
std::string frameKey(const Json &envelope)
{
    auto part = [&](const char *key) {
        const Json &v = envelope[key];
        return v.isInt() ? std::to_string(v.toInt()) : std::string("-");
    };
    return part("compiled_autograd_id") + "/" + part("frame_id") + "/" + part("frame_compile_id");
}

// create_symbol's "val" is Python's repr of the example value: "8" for a size; floats and bools are no sizes.
std::optional<int64_t> integerRepr(const Json &val)
{
    if (val.isInt())
        return val.toInt();
    const std::string &text = val.toString();
    int64_t value = 0;
    const char *end = text.data() + text.size();
    auto parsed = std::from_chars(text.data(), end, value);
    if (parsed.ec != std::errc() || parsed.ptr != end)
        return std::nullopt;
    return value;
}

class TorchTraceParser {
public:
    TorchTraceParser(std::string_view text, const std::string &fileName) : m_text(text), m_fileName(fileName) { }

    Result<GraphFile> run();

private:
    void handleRecord(const Json &envelope, int line, std::string_view payload, int payloadLine);
    void validateJsonPayload(std::string_view payload, int payloadLine);
    void addGraphs(
        GraphFile &&parsed, const std::string &baseName, const std::string &kind, int line, const std::string &frame);

    std::string_view m_text;
    const std::string &m_fileName;
    GraphFile m_file;
    std::unordered_map<std::string, int> m_nameCounts;
    // create_symbol's values by frame, and each graph's frame: graphs get their frame's symbols as hints.
    std::unordered_map<std::string, std::map<std::string, int64_t>> m_frameSymbols;
    std::vector<std::string> m_graphFrames;
    std::optional<Error> m_firstGraphError;
    size_t m_records = 0;
    size_t m_unknownLines = 0;
};

Result<GraphFile> TorchTraceParser::run()
{
    m_file.path = m_fileName;
    m_file.format = format::TorchTrace;
    size_t pos = 0;
    int lineNo = 0;
    auto lineEnd = [&](size_t at) {
        size_t eol = m_text.find('\n', at);
        return eol == std::string_view::npos ? m_text.size() : eol;
    };
    while (pos < m_text.size()) {
        size_t eol = lineEnd(pos);
        size_t next = eol < m_text.size() ? eol + 1 : eol;
        std::string_view line = m_text.substr(pos, eol - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        ++lineNo;
        if (line.empty() || line.front() == '\t') {
            pos = next; // a payload line without a record (the record was unreadable) or a blank line
            continue;
        }
        // The payload: following lines that start with a tab; blank lines inside it have no tab.
        const int recordLine = lineNo;
        size_t payloadBegin = next;
        size_t payloadEnd = next;
        size_t q = next;
        while (q < m_text.size()) {
            size_t e = lineEnd(q);
            size_t n = e < m_text.size() ? e + 1 : e;
            std::string_view l = m_text.substr(q, e - q);
            if (!l.empty() && l.front() == '\t')
                payloadEnd = e;
            else if (!l.empty() && l != "\r")
                break;
            q = n;
        }
        // Lines consumed: the payload plus any blank lines after it.
        int consumed = 0;
        for (size_t i = next; i < q; ++i)
            consumed += m_text[i] == '\n';
        if (q == m_text.size() && q > next && m_text[q - 1] != '\n')
            ++consumed;
        std::string_view payload = m_text.substr(payloadBegin, payloadEnd - payloadBegin);
        pos = q;

        size_t jsonStart = 0;
        if (!parseGlogPrefix(line, jsonStart)) {
            // Only the first few unreadable lines are reported; a log full of them gets a count.
            if (++m_unknownLines <= 5)
                m_file.warnings.push_back(Error{m_fileName, recordLine, 1,
                    "expected a TORCH_TRACE record (V1206 15:18:15.925000 1500233 "
                    "file.py:12] {...}), found '"
                        + std::string(line.substr(0, 60)) + (line.size() > 60 ? "...'" : "'")});
            lineNo += consumed;
            continue;
        }
        ++m_records;
        auto envelope = Json::parse(line.substr(jsonStart), m_fileName, kMaxJsonDepth);
        if (!envelope) {
            const Error &e = envelope.error();
            m_file.warnings.push_back(Error{m_fileName, recordLine, int(jsonStart) + e.column, e.message});
        } else if (!envelope->isObject() || envelope->members().empty()) {
            m_file.warnings.push_back(Error{m_fileName, recordLine, int(jsonStart) + 1,
                "expected a JSON object naming the record kind, found " + envelope->dump().substr(0, 40)});
        } else {
            handleRecord(envelope.value(), recordLine, payload, recordLine + 1);
        }
        lineNo += consumed;
    }
    if (m_unknownLines > 5)
        m_file.warnings.push_back(Error{m_fileName, 0, 0,
            "expected TORCH_TRACE records, found " + std::to_string(m_unknownLines - 5)
                + " more lines that are not records (skipped)"});
    for (size_t i = 0; i < m_file.graphs.size(); ++i)
        if (auto symbols = m_frameSymbols.find(m_graphFrames[i]); symbols != m_frameSymbols.end())
            m_file.graphs[i].graph->setSymbolHints(symbols->second);
    if (!m_file.graphs.empty())
        return std::move(m_file);
    if (m_firstGraphError)
        return *m_firstGraphError;
    if (m_records == 0)
        return Error{m_fileName, 1, 1,
            "expected TORCH_TRACE records (V1206 15:18:15.925000 1500233 file.py:12] {...}), found none"};
    return Error{m_fileName, 0, 0,
        "expected a graph record (dynamo_output_graph, aot_*_graph, inductor_*_graph, exported_program, ...), "
        "found "
            + std::to_string(m_records) + " records and no graph"};
}

void TorchTraceParser::validateJsonPayload(std::string_view payload, int payloadLine)
{
    // tlparse reads these payloads as JSON; a broken one is reported, the rest of the log still loads.
    if (payload.empty())
        return;
    auto parsed = Json::parse(payload, m_fileName, kMaxJsonDepth);
    if (!parsed) {
        const Error &e = parsed.error();
        m_file.warnings.push_back(Error{m_fileName, payloadLine + e.line - 1, e.column, e.message});
    }
}

void TorchTraceParser::handleRecord(const Json &envelope, int line, std::string_view payload, int payloadLine)
{
    const std::string &kind = envelope.members().front().first;
    const Json &metadata = envelope.members().front().second;
    std::string graphKind;
    std::string suffix;
    if (kind == "artifact") {
        const std::string &name = metadata["name"].toString();
        if (contains(kGraphArtifacts, name))
            graphKind = name;
        else if (metadata["encoding"].toString() == "json")
            validateJsonPayload(payload, payloadLine);
    } else if (contains(kGraphKinds, kind)) {
        graphKind = kind;
        if (kind == "optimize_ddp_split_child" && metadata["name"].isString())
            suffix = " " + metadata["name"].toString();
    } else if (kind == "create_symbol") {
        // {"symbol": "s0", "val": "8", "vr": "[2, int_oo]", "source": "L['x'].size()[0]", ...}
        const std::string &symbol = metadata["symbol"].toString();
        if (auto value = integerRepr(metadata["val"]); value && !symbol.empty())
            m_frameSymbols[frameKey(envelope)][symbol] = *value;
    } else if (kind == "chromium_event" || kind == "dynamo_guards") {
        validateJsonPayload(payload, payloadLine);
    }
    if (graphKind.empty())
        return;
    if (payload.empty()) {
        Error e{m_fileName, line, 1,
            "expected a graph payload (tab-indented lines) after the " + graphKind + " record, found none"};
        m_file.warnings.push_back(e);
        if (!m_firstGraphError)
            m_firstGraphError = e;
        return;
    }
    auto parsed = parseReadablePayload(payload, m_fileName, payloadLine);
    if (!parsed) {
        m_file.warnings.push_back(parsed.error());
        if (!m_firstGraphError)
            m_firstGraphError = parsed.error();
        return;
    }
    addGraphs(
        std::move(parsed.value()), compileId(envelope) + " " + graphKind + suffix, graphKind, line, frameKey(envelope));
}

void TorchTraceParser::addGraphs(
    GraphFile &&parsed, const std::string &baseName, const std::string &kind, int line, const std::string &frame)
{
    for (NamedGraph &g : parsed.graphs) {
        // A compile id can repeat (recompiles, cache hits): later graphs get " (2)", " (3)", ...
        int &count = m_nameCounts[baseName];
        ++count;
        std::string name = count == 1 ? baseName : baseName + " (" + std::to_string(count) + ")";
        m_file.graphs.push_back(NamedGraph{std::move(name), kind, std::move(g.graph), line});
        m_graphFrames.push_back(frame);
    }
    for (Error &w : parsed.warnings)
        m_file.warnings.push_back(std::move(w));
}

} // namespace

Result<GraphFile> parseTorchTrace(std::string_view text, const std::string &fileName)
{
    TorchTraceParser parser(text, fileName);
    return parser.run();
}

} // namespace fxs
