// bench_step GRAPH [--patterns SPEC]... [--repeat N] [--walk STEPS] [--seed S] [--no-check]
// Loads GRAPH once and drives an fxs::Session on it, printing one JSON line:
//   {"graph", "nodes", "first_step_ms" (includes the matcher's first run), "step_ms": {median, min, max},
//    "undo_ms": {...}, "redo_ms": {...}, "lint_ms", "report_ms", "edits_per_step", "walk": {...}}
// One step + undo: after a first step (which runs the matcher), N times step() then undo(), each timed on its own;
// then N times redo() + undo(). What a user waits for when stepping back and forth in the GUI.
// --walk STEPS: a seeded random walk of apply (step) / undo / redo, STEPS actions long; after every action lint()
// must find nothing, and every revision reached again through undo or redo must print the same canonical dump as
// when it was first reached (kept as a hash per revision). Action times exclude the checks.
// SPEC as for fxscope-cli: a pattern file, "builtin" or "builtin:NAME" (default "builtin").
// bench/step/run.py drives it and compares with torch.fx's subgraph_rewriter.

#include "io/loader.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"
#include "patterns/pattern_file.h"
#include "rewrite/session.h"
#include "util/json.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

int usage()
{
    std::fprintf(
        stderr, "usage: bench_step GRAPH [--patterns SPEC]... [--repeat N] [--walk STEPS] [--seed S] [--no-check]\n");
    return 1;
}

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

fxs::Json summary(std::vector<double> v)
{
    if (v.empty())
        return fxs::Json();
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return fxs::Json::object({{"median", median}, {"min", v.front()}, {"max", v.back()}, {"count", n}});
}

bool parseCount(const char *text, int64_t max, int64_t &out)
{
    char *end = nullptr;
    int64_t n = std::strtoll(text, &end, 10);
    if (*end != '\0' || n < 0 || n > max)
        return false;
    out = n;
    return true;
}

int fail(const std::string &what)
{
    std::fprintf(stderr, "bench_step: %s\n", what.c_str());
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    std::string graphPath;
    std::vector<std::string> specs;
    int64_t repeat = 21, walkSteps = 0, seed = 1;
    bool check = true;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--repeat" && i + 1 < argc) {
            if (!parseCount(argv[++i], 1000000, repeat) || repeat < 1)
                return usage();
        } else if (arg == "--walk" && i + 1 < argc) {
            if (!parseCount(argv[++i], 100000000, walkSteps))
                return usage();
        } else if (arg == "--seed" && i + 1 < argc) {
            if (!parseCount(argv[++i], int64_t(1) << 40, seed))
                return usage();
        } else if (arg == "--patterns" && i + 1 < argc) {
            specs.push_back(argv[++i]);
        } else if (arg == "--no-check") {
            check = false;
        } else if (graphPath.empty() && !arg.empty() && arg[0] != '-') {
            graphPath = arg;
        } else {
            return usage();
        }
    }
    if (graphPath.empty())
        return usage();
    if (specs.empty())
        specs.push_back("builtin");

    auto registry = std::make_shared<fxs::PatternRegistry>();
    for (const auto &spec : specs)
        if (auto st = fxs::loadPatternSpec(spec, *registry); !st)
            return fail(st.error().toString());
    auto file = fxs::loadGraphFile(graphPath);
    if (!file)
        return fail(file.error().toString());
    if (file->graphs.empty())
        return fail(graphPath + ": no graph");
    std::unique_ptr<fxs::Graph> graph = std::move(file->graphs.front().graph);
    const size_t nodes = graph->size();

    // Lint is timed on its own (it is O(graph) by nature); the session's own per-step lint is what it runs.
    auto t0 = Clock::now();
    std::vector<std::string> problems = fxs::lint(*graph);
    const double lintMs = msSince(t0);
    if (!problems.empty())
        return fail(graphPath + ": the input does not lint clean: " + problems.front());

    fxs::Json root = fxs::Json::object({{"graph", graphPath}, {"nodes", nodes}, {"lint_ms", lintMs}});

    if (repeat > 0) {
        fxs::Session session(graph->clone(), registry);
        t0 = Clock::now();
        auto report = session.report();
        root.set("report_ms", msSince(t0));
        if (!report)
            return fail(report.error().toString());
        t0 = Clock::now();
        auto first = session.step();
        root.set("first_step_ms", msSince(t0));
        if (!first)
            return fail(first.error().toString());
        if (!first.value()) {
            root.set("error", "no accepted match to step");
        } else {
            std::vector<double> stepMs, undoMs, redoMs;
            size_t edits = session.history().back().edits.size();
            if (!session.undo())
                return fail("undo failed");
            for (int64_t i = 0; i < repeat; ++i) {
                t0 = Clock::now();
                auto r = session.step();
                stepMs.push_back(msSince(t0));
                if (!r || !r.value())
                    return fail("step after undo failed");
                t0 = Clock::now();
                auto u = session.undo();
                undoMs.push_back(msSince(t0));
                if (!u)
                    return fail(u.error().toString());
            }
            for (int64_t i = 0; i < repeat; ++i) {
                t0 = Clock::now();
                auto r = session.redo();
                redoMs.push_back(msSince(t0));
                if (!r)
                    return fail(r.error().toString());
                if (!session.undo())
                    return fail("undo after redo failed");
            }
            root.set("step_ms", summary(stepMs));
            root.set("undo_ms", summary(undoMs));
            root.set("redo_ms", summary(redoMs));
            root.set("edits_per_step", edits);
        }
    }

    if (walkSteps > 0) {
        // The walk lints after every action itself, so the session does not (that would time lint twice).
        fxs::SessionOptions options;
        options.lintEachStep = !check;
        fxs::Session session(graph->clone(), registry, options);
        std::mt19937_64 rng{static_cast<uint64_t>(seed)};
        std::vector<size_t> dumpHash; // per revision, when first reached
        auto hashNow = [&] { return std::hash<std::string>()(fxs::printCanonical(session.graph())); };
        if (check)
            dumpHash.push_back(hashNow());
        size_t applied = 0, undone = 0, redone = 0, fixedPoints = 0, checked = 0;
        std::vector<double> applyMs, undoMs, redoMs;
        double checkMs = 0;
        for (int64_t i = 0; i < walkSteps; ++i) {
            // apply 1/2, undo 1/3, redo 1/6: the walk drifts forward and revisits revisions often.
            int roll = int(rng() % 6);
            std::string action = roll < 3 ? "apply" : roll < 5 ? "undo" : "redo";
            if (action == "undo" && !session.canUndo())
                action = "apply";
            if (action == "redo" && !session.canRedo())
                action = session.canUndo() ? "undo" : "apply";
            t0 = Clock::now();
            if (action == "apply") {
                auto r = session.step();
                double ms = msSince(t0);
                if (!r)
                    return fail("walk step " + std::to_string(i) + ": " + r.error().toString());
                if (!r.value()) {
                    ++fixedPoints; // nothing left to apply: go back instead
                    if (!session.canUndo())
                        break;
                    t0 = Clock::now();
                    if (auto u = session.undo(); !u)
                        return fail(u.error().toString());
                    undoMs.push_back(msSince(t0));
                    action = "undo";
                } else {
                    applyMs.push_back(ms);
                    ++applied;
                }
            } else if (action == "undo") {
                if (auto u = session.undo(); !u)
                    return fail(u.error().toString());
                undoMs.push_back(msSince(t0));
            } else {
                if (auto r = session.redo(); !r)
                    return fail(r.error().toString());
                redoMs.push_back(msSince(t0));
            }
            undone += action == "undo";
            redone += action == "redo";
            if (!check)
                continue;
            auto c0 = Clock::now();
            std::vector<std::string> walkProblems = fxs::lint(session.graph());
            if (!walkProblems.empty())
                return fail("walk action " + std::to_string(i) + " (" + action + "): lint: " + walkProblems.front());
            size_t h = hashNow();
            size_t rev = session.revision();
            if (action == "apply") {
                dumpHash.resize(rev); // a new step drops the redo tail's revisions
                dumpHash.push_back(h);
            } else {
                ++checked;
                if (rev >= dumpHash.size() || dumpHash[rev] != h)
                    return fail("walk action " + std::to_string(i) + " (" + action + ") to revision "
                        + std::to_string(rev) + ": the canonical dump differs from when it was first reached");
            }
            checkMs += msSince(c0);
        }
        root.set("walk",
            fxs::Json::object({{"actions", walkSteps}, {"seed", seed}, {"applied", applied}, {"undone", undone},
                {"redone", redone}, {"fixed_points", fixedPoints}, {"revisions_checked", checked},
                {"final_revision", session.revision()}, {"checked", check}, {"apply_ms", summary(applyMs)},
                {"undo_ms", summary(undoMs)}, {"redo_ms", summary(redoMs)}, {"check_ms_total", checkMs}}));
    }
    std::printf("%s\n", root.dump().c_str());
    return 0;
}
