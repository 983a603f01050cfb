#include "profile_export.h"

#include "collective_ops.h"

#include <map>

namespace fxs {

namespace {

std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string number(double v)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f", v);
    return buffer;
}

} // namespace

std::string profileChromeTrace(const Json &report)
{
    Json events = Json::array();
    const char *sides[] = {"unfused", "fused"};
    for (int pid = 1; pid <= 2; ++pid) {
        const Json &graph = report[sides[pid - 1]];
        if (!graph.isObject())
            continue;
        events.push(Json::object({{"name", "process_name"}, {"ph", "M"}, {"pid", pid},
            {"args",
                Json::object({{"name", std::string(sides[pid - 1]) + " (" + report["device"].toString() + ")"}})}}));
        events.push(Json::object({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 1},
            {"args", Json::object({{"name", "nodes"}})}}));
        std::map<std::string, std::pair<double, double>> spans; // node -> start, duration
        double ts = 0;
        for (const Json &n : graph["nodes"].items()) {
            double dur = n["median_us"].toDouble();
            spans[n["name"].toString()] = {ts, dur};
            events.push(Json::object({{"name", n["name"].toString()}, {"cat", n["target"].toString()}, {"ph", "X"},
                {"pid", pid}, {"tid", 1}, {"ts", ts}, {"dur", dur},
                {"args",
                    Json::object({{"target", n["target"].toString()}, {"min_us", n["min_us"].toDouble()},
                        {"max_us", n["max_us"].toDouble()}, {"reference_kernel", n["reference_kernel"].toBool()}})}}));
            ts += dur;
        }
        if (pid != 2)
            continue;
        for (const Json &r : report["regions"].items()) {
            double begin = -1, end = 0;
            for (const Json &name : r["nodes"].items())
                if (auto it = spans.find(name.toString()); it != spans.end()) {
                    begin = begin < 0 ? it->second.first : std::min(begin, it->second.first);
                    end = std::max(end, it->second.first + it->second.second);
                }
            if (begin < 0)
                continue;
            events.push(Json::object({{"name", r["pattern"].toString()}, {"cat", "fused region"}, {"ph", "X"},
                {"pid", pid}, {"tid", 2}, {"ts", begin}, {"dur", end - begin},
                {"args",
                    Json::object({{"anchor", r["anchor"].toString()}, {"unfused_us", r["unfused_us"].toDouble()},
                        {"fused_us", r["fused_us"].toDouble()}, {"speedup", r["speedup"].toDouble()},
                        {"reference_kernel", r["reference_kernel"].toBool()}})}}));
        }
    }
    return Json::object({{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}}).dump();
}

std::string profileCsv(const Json &report)
{
    // reference_kernel: 1 where the node ran on fxscope's CPU stand-in for a device op (its time is not the device's).
    std::string out = "graph,node,target,median_us,min_us,max_us,reference_kernel\n";
    for (const char *side : {"unfused", "fused"})
        for (const Json &n : report[side]["nodes"].items())
            out += std::string(side) + ',' + csvField(n["name"].toString()) + ',' + csvField(n["target"].toString())
                + ',' + number(n["median_us"].toDouble()) + ',' + number(n["min_us"].toDouble()) + ','
                + number(n["max_us"].toDouble()) + ',' + (n["reference_kernel"].toBool() ? "1" : "0") + '\n';
    if (report["regions"].isArray() && !report["regions"].items().empty()) {
        out += "\nregion,pattern,anchor,unfused_us,fused_us,speedup,reference_kernel\n";
        for (const Json &r : report["regions"].items())
            out += "region," + csvField(r["pattern"].toString()) + ',' + csvField(r["anchor"].toString()) + ','
                + number(r["unfused_us"].toDouble()) + ',' + number(r["fused_us"].toDouble()) + ','
                + number(r["speedup"].toDouble()) + ',' + (r["reference_kernel"].toBool() ? "1" : "0") + '\n';
    }
    return out;
}

std::string profileRanksChromeTrace(const Json &report)
{
    Json events = Json::array();
    const char *sides[] = {"unfused", "fused"};
    const std::string device = report["device"].toString();
    for (const Json &rank : report["per_rank"].items()) {
        const int64_t r = rank["rank"].toInt();
        for (int side = 0; side < 2; ++side) {
            const Json &graph = rank[sides[side]];
            if (!graph.isObject())
                continue;
            const int64_t pid = 1 + r * 2 + side;
            events.push(Json::object({{"name", "process_name"}, {"ph", "M"}, {"pid", pid},
                {"args",
                    Json::object({{"name",
                        "rank " + std::to_string(r) + " " + sides[side] + " (" + device + ")"}})}}));
            events.push(Json::object(
                {{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"args", Json::object({{"sort_index", pid}})}}));
            events.push(Json::object({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 1},
                {"args", Json::object({{"name", "compute"}})}}));
            events.push(Json::object({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 2},
                {"args", Json::object({{"name", "collectives"}})}}));
            double ts = 0;
            for (const Json &n : graph["nodes"].items()) {
                const double dur = n["median_us"].toDouble();
                const bool collective = isCollectiveTarget(n["target"].toString());
                events.push(Json::object({{"name", n["name"].toString()}, {"cat", n["target"].toString()},
                    {"ph", "X"}, {"pid", pid}, {"tid", collective ? 2 : 1}, {"ts", ts}, {"dur", dur},
                    {"args",
                        Json::object({{"target", n["target"].toString()}, {"rank", r},
                            {"min_us", n["min_us"].toDouble()}, {"max_us", n["max_us"].toDouble()},
                            {"reference_kernel", n["reference_kernel"].toBool()}})}}));
                ts += dur;
            }
        }
    }
    return Json::object({{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}}).dump();
}

std::string profileRanksCsv(const Json &report)
{
    std::string out = "rank,graph,node,target,median_us,min_us,max_us,collective\n";
    for (const Json &rank : report["per_rank"].items())
        for (const char *side : {"unfused", "fused"})
            for (const Json &n : rank[side]["nodes"].items())
                out += std::to_string(rank["rank"].toInt()) + ',' + side + ',' + csvField(n["name"].toString()) + ','
                    + csvField(n["target"].toString()) + ',' + number(n["median_us"].toDouble()) + ','
                    + number(n["min_us"].toDouble()) + ',' + number(n["max_us"].toDouble()) + ','
                    + (isCollectiveTarget(n["target"].toString()) ? "1" : "0") + '\n';
    return out;
}

} // namespace fxs
