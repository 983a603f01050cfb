#include "session_state.h"

#include "io/loader.h"
#include "util/json.h"
#include "util/text_position.h"

namespace fxs {

namespace {

Json strings(const QStringList &list)
{
    Json out = Json::array();
    for (const QString &s : list)
        out.push(s.toStdString());
    return out;
}

} // namespace

std::string SessionState::toJson() const
{
    Json view = Json::object();
    view.set("zoom", zoom);
    view.set("centre", Json::array({centreX, centreY}));
    view.set("expanded_groups", strings(expandedGroups));
    Json candidate = Json::object();
    candidate.set("pattern", candidatePattern.toStdString());
    candidate.set("anchor", candidateAnchor.toStdString());
    Json root = Json::object();
    root.set("fxscope_session", kVersion);
    root.set("graph_path", graphPath.toStdString());
    root.set("graph", graph.toStdString());
    root.set("pattern_files", strings(patternFiles));
    root.set("revision", revision);
    root.set("candidate", std::move(candidate));
    root.set("selected_node", selectedNode.toStdString());
    root.set("view", std::move(view));
    if (!profileDevice.isEmpty()) {
        Json symbols = Json::object();
        for (const auto &[name, value] : profileSymbols)
            symbols.set(name, value);
        root.set("profile",
            Json::object({{"device", profileDevice.toStdString()}, {"iterations", profileIters},
                {"warmup", profileWarmup}, {"symbols", std::move(symbols)}}));
    }
    return root.dump(2) + "\n";
}

Result<SessionState> SessionState::fromJson(std::string_view text, const std::string &fileName)
{
    auto parsed = Json::parse(text, fileName);
    if (!parsed)
        return parsed.error();
    const Json &root = parsed.value();
    const TextPosition position(text);
    // Errors point at the value that is wrong (or at the object missing a key).
    auto error = [&](const Json &at, const std::string &what) {
        const auto [line, column] = position.lineColumn(at.offset());
        return Error{fileName, line, column, what};
    };
    // What was found instead, as JSON text, cut short so one bad value can't flood the message.
    auto shown = [](const Json &value) {
        std::string text = value.dump();
        return text.size() > 40 ? text.substr(0, 37) + "..." : text;
    };
    if (!root.isObject())
        return error(root, "expected a JSON object (an fxscope session), found " + shown(root));
    const Json *version = root.find("fxscope_session");
    if (!version || !version->isInt())
        return error(version ? *version : root, "expected \"fxscope_session\": 1, found none");
    if (version->toInt() != kVersion)
        return error(*version, "expected session version 1, found " + std::to_string(version->toInt()));

    SessionState state;
    auto text_ = [&](const Json &object, const char *key, QString &out, bool required) -> Status {
        const Json *v = object.find(key);
        if (!v) {
            if (required)
                return error(object, std::string("expected a \"") + key + "\" string, found none");
            return Ok{};
        }
        if (!v->isString())
            return error(*v, std::string("expected \"") + key + "\" to be a string, found " + shown(*v));
        out = QString::fromStdString(v->toString());
        return Ok{};
    };
    auto list = [&](const Json &object, const char *key, QStringList &out) -> Status {
        const Json *v = object.find(key);
        if (!v)
            return Ok{};
        if (!v->isArray())
            return error(*v, std::string("expected \"") + key + "\" to be a list of strings, found " + shown(*v));
        for (const Json &item : v->items()) {
            if (!item.isString())
                return error(item, std::string("expected a string in \"") + key + "\", found " + shown(item));
            out << QString::fromStdString(item.toString());
        }
        return Ok{};
    };
    if (auto s = text_(root, "graph_path", state.graphPath, true); !s)
        return s.error();
    if (state.graphPath.isEmpty())
        return error(*root.find("graph_path"), "expected the graph file's path, found an empty string");
    if (auto s = text_(root, "graph", state.graph, false); !s)
        return s.error();
    if (auto s = list(root, "pattern_files", state.patternFiles); !s)
        return s.error();
    if (const Json *r = root.find("revision")) {
        if (!r->isInt() || r->toInt() < 0 || r->toInt() > 1000000)
            return error(*r, "expected \"revision\" to be a step count (0 or more), found " + shown(*r));
        state.revision = int(r->toInt());
    }
    if (auto s = text_(root, "selected_node", state.selectedNode, false); !s)
        return s.error();
    if (const Json *c = root.find("candidate")) {
        if (!c->isObject())
            return error(*c, "expected \"candidate\" to be an object with \"pattern\" and \"anchor\"");
        if (auto s = text_(*c, "pattern", state.candidatePattern, false); !s)
            return s.error();
        if (auto s = text_(*c, "anchor", state.candidateAnchor, false); !s)
            return s.error();
    }
    if (const Json *v = root.find("view")) {
        if (!v->isObject())
            return error(*v, "expected \"view\" to be an object with \"zoom\", \"centre\" and \"expanded_groups\"");
        if (const Json *z = v->find("zoom")) {
            if (!z->isNumber() || z->toDouble() < 0 || z->toDouble() > 1000)
                return error(*z, "expected \"zoom\" to be a number between 0 and 1000, found " + shown(*z));
            state.zoom = z->toDouble();
        }
        if (const Json *c = v->find("centre")) {
            if (!c->isArray() || c->size() != 2 || !c->items()[0].isNumber() || !c->items()[1].isNumber())
                return error(*c, "expected \"centre\" to be [x, y], found " + shown(*c));
            state.centreX = c->items()[0].toDouble();
            state.centreY = c->items()[1].toDouble();
        }
        if (auto s = list(*v, "expanded_groups", state.expandedGroups); !s)
            return s.error();
    }
    if (const Json *p = root.find("profile")) {
        if (!p->isObject())
            return error(*p,
                "expected \"profile\" to be an object with \"device\", \"iterations\", \"warmup\" and "
                "\"symbols\", found "
                    + shown(*p));
        if (auto s = text_(*p, "device", state.profileDevice, true); !s)
            return s.error();
        if (state.profileDevice.trimmed().isEmpty())
            return error(*p->find("device"), "expected a device (cpu, cuda:0, npu:0), found an empty string");
        auto count = [&](const char *key, int least, int most, int &out) -> Status {
            const Json *v = p->find(key);
            if (!v)
                return Ok{};
            if (!v->isInt() || v->toInt() < least || v->toInt() > most)
                return error(*v,
                    std::string("expected \"") + key + "\" to be a whole number from " + std::to_string(least) + " to "
                        + std::to_string(most) + ", found " + shown(*v));
            out = int(v->toInt());
            return Ok{};
        };
        if (auto s = count("iterations", 1, kMaxProfileIters, state.profileIters); !s)
            return s.error();
        if (auto s = count("warmup", 0, kMaxProfileWarmup, state.profileWarmup); !s)
            return s.error();
        if (const Json *symbols = p->find("symbols")) {
            if (!symbols->isObject())
                return error(*symbols,
                    "expected \"symbols\" to be an object of symbol values ({\"s0\": 128}), found " + shown(*symbols));
            for (const auto &[name, value] : symbols->members()) {
                SymbolValues one;
                if (!value.isInt() || value.toInt() < 0 || !parseSymbolAssignments(name + "=0", one))
                    return error(value,
                        "expected a symbol's value (a name and a non-negative integer), found \"" + name
                            + "\": " + shown(value));
                state.profileSymbols[name] = value.toInt();
            }
        }
    }
    return state;
}

Status saveSessionFile(const QString &path, const SessionState &state)
{
    return writeFileAtomically(path.toStdString(), state.toJson());
}

Result<SessionState> loadSessionFile(const QString &path)
{
    auto bytes = readFileBytes(path.toStdString());
    if (!bytes)
        return bytes.error();
    return SessionState::fromJson(bytes.value(), path.toStdString());
}

} // namespace fxs
