#include "recording_reader.h"

#include "format.h"
#include "fxscope_json.h"
#include "loader.h"
#include "../util/progress.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <tuple>

namespace fxs {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kRecordingVersion = 1;

bool isDirectory(const fs::path &p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool isFile(const fs::path &p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

// "rank12" -> 12; -1 for any other name.
int rankOf(const std::string &name)
{
    int rank = -1;
    if (name.rfind("rank", 0) != 0 || name.size() == 4)
        return -1;
    auto res = std::from_chars(name.data() + 4, name.data() + name.size(), rank);
    return res.ec == std::errc() && res.ptr == name.data() + name.size() ? rank : -1;
}

// "003.json" -> 3; -1 for any other name (temporary files of a write in progress are ".003.json.XXXX.tmp").
int stepOf(const std::string &name)
{
    if (name.size() < 8 || name.compare(name.size() - 5, 5, ".json") != 0)
        return -1;
    int index = -1;
    auto res = std::from_chars(name.data(), name.data() + name.size() - 5, index);
    return res.ec == std::errc() && res.ptr == name.data() + name.size() - 5 ? index : -1;
}

// Streams in the order torch makes them: by compile id (frame, recompile), then dynamo, joint, forward,
// inference, backward, then a repeated graph's ".2".
std::tuple<int, int, int, std::string> streamOrder(const std::string &name)
{
    int frame = 0, recompile = 0;
    const char *p = name.data(), *end = name.data() + name.size();
    auto r = std::from_chars(p, end, frame);
    if (r.ptr < end && *r.ptr == '_')
        std::from_chars(r.ptr + 1, end, recompile);
    static const char *kinds[] = {".dynamo", ".joint", ".forward", ".inference", ".backward"};
    int kind = 5;
    for (int k = 0; k < 5; ++k)
        if (name.find(kinds[k]) != std::string::npos)
            kind = k;
    return {frame, recompile, kind, name};
}

std::vector<std::string> sortedNames(const fs::path &folder, bool folders)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (folders ? isDirectory(it->path()) : isFile(it->path()))
            names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

RecordedPatternPass readPatternPass(const Json &j)
{
    RecordedPatternPass pass;
    pass.identity = j["module"].isString() ? j["module"].toString() : j["pass_name"].toString();
    pass.createdAt = j["created_at"].toString();
    pass.replaced = j["replaced"].toInt();
    pass.seconds = j["seconds"].toDouble();
    pass.otherGraph = j["other_graph"].toBool();
    for (const Json &jp : j["patterns"].items()) {
        // Entries registered by one function (a lowering handler registered for nine ops) read as one pattern.
        const std::string name = jp["name"].toString(), source = jp["source"].toString();
        auto same = std::find_if(pass.patterns.begin(), pass.patterns.end(),
            [&](const RecordedPattern &p) { return p.name == name && p.source == source; });
        RecordedPattern &p = same != pass.patterns.end() ? *same : pass.patterns.emplace_back();
        p.name = name;
        p.source = source;
        p.entry = jp["entry"].toString();
        p.tried += jp["tried"].toInt();
        p.matched += jp["matched"].toInt();
        p.replaced += jp["replaced"].toInt();
        p.extraCheckFalse += jp["extra_check_false"].toInt();
        p.discarded += jp["discarded"].toInt();
        for (const Json &ja : jp["anchors"].items())
            p.anchors.push_back({ja["anchor"].toString(), ja["target"].toString(), ja["verdict"].toString(),
                ja["reason"].toString()});
    }
    return pass;
}

// One stream's step files into `stream` and `file`; a step that cannot be read ends the stream with a warning
// (every step before it stays). False when the load was canceled.
bool readStream(const fs::path &folder, RecordedStream &stream, GraphFile &file)
{
    std::vector<std::pair<int, std::string>> steps;
    for (const std::string &name : sortedNames(folder, false))
        if (int index = stepOf(name); index >= 0)
            steps.emplace_back(index, name);
    std::sort(steps.begin(), steps.end());
    const std::string label = "rank" + std::to_string(stream.rank) + "/" + stream.name;
    int last = -1;
    for (const auto &[index, name] : steps) {
        if (progressCanceled())
            return false;
        const std::string path = (folder / name).string();
        auto warn = [&](const std::string &message) {
            file.warnings.push_back(Error{path, 0, 0, message + "; " + label + " ends at its step " +
                    std::to_string(stream.steps.size())});
        };
        if (index != int(stream.steps.size())) {
            warn("expected step " + std::to_string(stream.steps.size()) + ", found step " + std::to_string(index));
            return true;
        }
        auto bytes = readFileBytes(path);
        if (!bytes) {
            file.warnings.push_back(bytes.error());
            return true;
        }
        auto json = Json::parse(bytes.value(), path);
        if (!json) {
            file.warnings.push_back(json.error());
            return true;
        }
        const Json &meta = json.value()["fxscope_recording_step"];
        if (!meta.isObject()) {
            warn("expected an object with \"fxscope_recording_step\", found none");
            return true;
        }
        RecordedStep step;
        step.index = index;
        step.pass = meta["pass"].toString();
        step.kind = meta["kind"].toString();
        step.error = meta["error"].toString();
        step.seconds = meta["seconds"].toDouble();
        for (const Json &jp : meta["pattern_passes"].items())
            step.patternPasses.push_back(readPatternPass(jp));
        const Json &graphs = json.value()["graphs"];
        step.changed = graphs.size() > 0;
        if (step.changed) {
            auto graph = parseGraphJson(graphs.items().front()["graph"], bytes.value(), path);
            if (!graph) {
                file.warnings.push_back(graph.error());
                return true;
            }
            char number[16];
            std::snprintf(number, sizeof number, "%03d", index);
            file.graphs.push_back({label + "/" + number + " " + step.pass, stream.kind, std::move(graph.value()), 0});
            last = int(file.graphs.size()) - 1;
        } else if (last < 0) {
            warn("expected the first step to hold the graph, found none");
            return true;
        }
        step.graph = last;
        stream.steps.push_back(std::move(step));
    }
    return true;
}

} // namespace

bool isRecordingPath(const std::string &path)
{
    const fs::path p(path);
    if (isDirectory(p))
        return isFile(p / "recording.json");
    return p.filename() == "recording.json" && isFile(p);
}

Result<GraphFile> loadRecording(const std::string &path)
{
    const fs::path folder = isDirectory(fs::path(path)) ? fs::path(path) : fs::path(path).parent_path();
    const std::string indexPath = (folder / "recording.json").string();
    auto bytes = readFileBytes(indexPath);
    if (!bytes)
        return bytes.error();
    auto index = Json::parse(bytes.value(), indexPath);
    if (!index)
        return index.error();
    const Json &version = index.value()["fxscope_recording"];
    if (!version.isInt())
        return Error{indexPath, 1, 1, "expected an object with \"fxscope_recording\": <format version>, found none"};
    if (version.toInt() > kRecordingVersion)
        return Error{indexPath, 1, 1,
            "expected a recording of version " + std::to_string(kRecordingVersion) + " or older, found version " +
                version.dump()};
    auto recording = std::make_shared<Recording>();
    recording->folder = folder.string();
    recording->torchVersion = index.value()["torch"].toString();
    for (const Json &arg : index.value()["command"].items())
        recording->command += (recording->command.empty() ? "" : " ") + arg.toString();
    GraphFile file;
    file.path = path;
    file.format = format::Recording;
    std::vector<std::pair<int, std::string>> ranks;
    for (const std::string &name : sortedNames(folder, true))
        if (int rank = rankOf(name); rank >= 0)
            ranks.emplace_back(rank, name);
    std::sort(ranks.begin(), ranks.end());
    for (const auto &[rank, rankName] : ranks) {
        std::vector<std::string> streams = sortedNames(folder / rankName, true);
        std::sort(streams.begin(), streams.end(),
            [](const std::string &a, const std::string &b) { return streamOrder(a) < streamOrder(b); });
        for (const std::string &name : streams) {
            RecordedStream stream;
            stream.rank = rank;
            stream.name = name;
            const size_t dot = name.find('.');
            stream.kind = dot == std::string::npos ? name : name.substr(dot + 1);
            if (const size_t again = stream.kind.find('.'); again != std::string::npos)
                stream.kind.resize(again);
            if (!readStream(folder / rankName / name, stream, file))
                return canceledError(path);
            if (!stream.steps.empty())
                recording->streams.push_back(std::move(stream));
        }
    }
    if (file.graphs.empty())
        return Error{indexPath, 0, 0,
            "expected recorded passes in rank<N>/ folders beside it, found none (did the program compile anything "
            "with torch.compile while recording?)"};
    file.recording = std::move(recording);
    return file;
}

} // namespace fxs
