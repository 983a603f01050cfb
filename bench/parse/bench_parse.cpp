// bench_parse FILE [--repeat N]: loads FILE N times through fxs::loadGraphFile and prints one JSON line
// {"file", "format", "nodes", "median_s", "min_s", "peak_rss_mb"}. bench/parse/run.py runs it once per file,
// in its own process, so peak_rss_mb belongs to that file alone.

#include "io/loader.h"
#include "util/json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace {

int usage()
{
    std::fprintf(stderr, "usage: bench_parse FILE [--repeat N]\n");
    return 1;
}

// Peak resident set size of this process in MiB. Linux keeps getrusage's ru_maxrss across execve, so a child
// of a large parent (the Python driver) would report the parent's size; VmHWM belongs to this program's own
// address space. getrusage is the fallback where /proc is missing.
double peakRssMb()
{
    if (FILE *f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        long kib = -1;
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "VmHWM: %ld kB", &kib) == 1)
                break;
        std::fclose(f);
        if (kib >= 0)
            return double(kib) / 1024.0;
    }
    struct rusage ru { };
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0; // KiB on Linux
}

} // namespace

int main(int argc, char **argv)
{
    std::string path;
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--repeat" && i + 1 < argc) {
            char *end = nullptr;
            long n = std::strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < 1 || n > 100000)
                return usage();
            repeat = int(n);
        } else if (path.empty() && !arg.empty() && arg[0] != '-') {
            path = arg;
        } else {
            return usage();
        }
    }
    if (path.empty())
        return usage();

    std::vector<double> seconds;
    std::string format;
    size_t nodes = 0;
    for (int i = 0; i < repeat; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        auto file = fxs::loadGraphFile(path);
        auto t1 = std::chrono::steady_clock::now();
        if (!file) {
            std::fprintf(stderr, "%s\n", file.error().toString().c_str());
            return 2;
        }
        seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
        format = file->format;
        nodes = 0;
        for (const auto &g : file->graphs)
            nodes += g.graph ? g.graph->size() : 0;
        // `file` is destroyed here, outside the timed region, so each load starts from the same heap state
        // and the peak RSS is that of one loaded file, not of all of them.
    }

    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    size_t n = sorted.size();
    double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;

    fxs::Json out = fxs::Json::object({
        {"file", path},
        {"format", format},
        {"nodes", nodes},
        {"median_s", median},
        {"min_s", sorted.front()},
        {"peak_rss_mb", peakRssMb()},
        {"repeat", repeat},
    });
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
