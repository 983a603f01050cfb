#include "rank_launcher.h"

#include "collective_ops.h"
#include "ir/graph.h"
#include "rank_slot.h"
#include "util/progress.h"
#include "io/loader.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace fxs {

namespace {

constexpr int kSlotsFd = 3; // where a worker finds the slots
constexpr int kListenFd = 4; // rank 0: the store's listening socket

int64_t nowNs()
{
    timespec t {};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

std::string executableDirectory()
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return ".";
    std::string p(path, size_t(n));
    return p.substr(0, p.rfind('/'));
}

// Above the standard descriptors, so a worker's dup2 to 3 and 4 never meets its own source.
int highCloexec(int fd)
{
    if (fd < 0)
        return fd;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    close(fd);
    return high;
}

std::string signalText(int sig)
{
    const char *abbrev = sigabbrev_np(sig);
    return "signal " + std::to_string(sig) + (abbrev ? std::string(" (SIG") + abbrev + ")" : std::string());
}

// The process state letter from /proc/PID/stat: R, S, D, T (stopped), t (traced), Z.
char processState(pid_t pid)
{
    // /proc files report size 0: read them as a stream.
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t paren = text.rfind(')');
    return paren != std::string::npos && paren + 2 < text.size() ? text[paren + 2] : '?';
}

std::string lastLines(const std::string &path, size_t count)
{
    auto text = readFileBytes(path);
    if (!text)
        return {};
    std::vector<std::string> lines;
    size_t start = 0;
    const std::string &t = text.value();
    while (start < t.size()) {
        size_t end = t.find('\n', start);
        if (end == std::string::npos)
            end = t.size();
        if (end > start)
            lines.push_back(t.substr(start, end - start));
        start = end + 1;
    }
    std::string out;
    for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : "\n") + lines[i];
    return out;
}

} // namespace

RankLauncher::RankLauncher(Options options) : m_options(std::move(options)) { }

RankLauncher::~RankLauncher()
{
    tearDown();
    if (m_slots)
        munmap(m_slots, sizeof(RankSlot) * m_ranks);
    if (m_slotsFd >= 0)
        close(m_slotsFd);
    if (!m_folder.empty()) {
        if (DIR *dir = opendir(m_folder.c_str())) {
            while (dirent *entry = readdir(dir))
                if (std::strcmp(entry->d_name, ".") && std::strcmp(entry->d_name, ".."))
                    unlink((m_folder + "/" + entry->d_name).c_str());
            closedir(dir);
        }
        rmdir(m_folder.c_str());
    }
}

void RankLauncher::tearDown()
{
    if (m_group > 0)
        kill(-m_group, SIGKILL); // the whole group: stopped ranks too
    for (size_t r = 0; r < m_pids.size(); ++r) {
        if (m_reaped[r] || m_pids[r] <= 0)
            continue;
        kill(m_pids[r], SIGKILL); // in case it had not joined the group yet
        int status = 0;
        while (waitpid(m_pids[r], &status, 0) < 0 && errno == EINTR) { }
        m_reaped[r] = true;
        m_status[r] = status;
    }
}

Status RankLauncher::start(const std::vector<RankJob> &jobs)
{
    m_ranks = jobs.size();
    const char *tmp = std::getenv("TMPDIR");
    std::string folder = std::string(tmp && *tmp ? tmp : "/tmp") + "/fxscope-ranks-XXXXXX";
    if (!mkdtemp(folder.data()))
        return Error{{}, 0, 0, "cannot make a work folder for the ranks: " + std::string(std::strerror(errno))};
    m_folder = folder;
    m_slotsFd = highCloexec(int(syscall(SYS_memfd_create, "fxscope-rank-slots", 0)));
    if (m_slotsFd < 0 || ftruncate(m_slotsFd, off_t(sizeof(RankSlot) * m_ranks)) != 0)
        return Error{{}, 0, 0, "cannot share memory with the ranks: " + std::string(std::strerror(errno))};
    void *mapped = mmap(nullptr, sizeof(RankSlot) * m_ranks, PROT_READ | PROT_WRITE, MAP_SHARED, m_slotsFd, 0);
    if (mapped == MAP_FAILED)
        return Error{{}, 0, 0, "cannot map the ranks' slots: " + std::string(std::strerror(errno))};
    m_slots = static_cast<RankSlot *>(mapped);
    for (size_t r = 0; r < m_ranks; ++r)
        new (&m_slots[r]) RankSlot();

    // The store's socket is bound here and handed to rank 0, so every rank knows the port before any starts.
    int listenFd = highCloexec(socket(AF_INET, SOCK_STREAM, 0));
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (listenFd < 0 || bind(listenFd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || listen(listenFd, 128) != 0 || getsockname(listenFd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        if (listenFd >= 0)
            close(listenFd);
        return Error{{}, 0, 0, "cannot open the ranks' store on loopback: " + std::string(std::strerror(errno))};
    }
    const int port = ntohs(address.sin_port);

    std::string worker = m_options.worker;
    if (worker.empty())
        worker = std::getenv("FXSCOPE_RANK_WORKER") ? std::getenv("FXSCOPE_RANK_WORKER")
                                                     : executableDirectory() + "/fxscope-cli";
    if (access(worker.c_str(), X_OK) != 0) {
        close(listenFd);
        return Error{{}, 0, 0, "the rank worker " + worker + " is not an executable (FXSCOPE_RANK_WORKER)"};
    }
    // Collectives time out well after the launcher's own watchdog, which names the rank that stopped.
    const int64_t backendTimeoutMs = int64_t(m_options.timeout.count()) * 2 + 10000;
    Json names = Json::array();
    for (const auto &name : m_options.groupNames)
        names.push(name);

    m_pids.assign(m_ranks, 0);
    m_reaped.assign(m_ranks, false);
    m_status.assign(m_ranks, 0);
    const pid_t parent = getpid();
    for (size_t r = 0; r < m_ranks; ++r) {
        const RankJob &job = jobs[r];
        Json request = profileRequest(*job.unfused, job.fused, job.options);
        Json plugins = Json::array();
        for (const auto &p : job.options.devicePlugins)
            plugins.push(p);
        request.set("device_plugins", std::move(plugins));
        request.set("result_path", m_folder + "/rank" + std::to_string(r) + ".result.json");
        request.set("rank",
            Json::object({{"rank", int64_t(r)}, {"world_size", int64_t(m_ranks)}, {"host", "127.0.0.1"},
                {"port", int64_t(port)}, {"listen_fd", r == 0 ? int64_t(kListenFd) : int64_t(-1)},
                {"timeout_ms", backendTimeoutMs}, {"group_names", names}}));
        const std::string requestPath = m_folder + "/rank" + std::to_string(r) + ".request.json";
        if (auto written = writeFileAtomically(requestPath, request.dump()); !written) {
            close(listenFd);
            return written.error();
        }
        const std::string logPath = m_folder + "/rank" + std::to_string(r) + ".log";
        int logFd = highCloexec(open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600));
        int nullFd = highCloexec(open("/dev/null", O_RDWR));
        // Everything the child needs is made before fork: between fork and exec only async-signal-safe calls.
        std::vector<std::string> argText = {worker, "rank-worker", requestPath};
        std::vector<char *> argv;
        for (auto &a : argText)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        const pid_t group = m_group;
        const int listenSource = r == 0 ? listenFd : -1;
        pid_t pid = fork();
        if (pid == 0) {
            setpgid(0, group);
            prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlive the launcher's thread
            if (getppid() != parent)
                _exit(127);
            dup2(nullFd, 0);
            dup2(nullFd, 1);
            dup2(logFd, 2);
            dup2(m_slotsFd, kSlotsFd);
            if (listenSource >= 0)
                dup2(listenSource, kListenFd);
            syscall(SYS_close_range, listenSource >= 0 ? kListenFd + 1 : kListenFd, ~0U, 0);
            execve(argv[0], argv.data(), environ);
            _exit(127);
        }
        close(logFd);
        close(nullFd);
        if (pid < 0) {
            close(listenFd);
            return Error{{}, 0, 0, "cannot start rank " + std::to_string(r) + ": " + std::strerror(errno)};
        }
        setpgid(pid, group); // also here: whichever runs first, the child is in the group before we signal it
        if (r == 0)
            m_group = pid;
        m_pids[r] = pid;
    }
    close(listenFd); // rank 0 holds it now
    return Ok{};
}

// "node 'mm_1' (aten.mm.default) of the fused graph, iteration 3", or the phase the rank is in.
std::string RankLauncher::describe(int rank, const std::vector<RankJob> &jobs) const
{
    const RankSlot &slot = m_slots[rank];
    const int32_t phase = slot.phase.load();
    const int64_t node = slot.node.load();
    const int32_t graph = slot.graph.load();
    if (phase == int32_t(RankPhase::Running) && node == -2)
        return "waiting for the other ranks before run " + std::to_string(slot.iteration.load() + 1) + " of the "
            + rankSlotGraphName(graph) + " graph";
    if (phase != int32_t(RankPhase::Running) || node < 0)
        return std::string("while ") + rankPhaseName(phase);
    const Graph *g = graph == 1 ? jobs[rank].fused : jobs[rank].unfused;
    if (!g || size_t(node) >= g->size())
        return "at node #" + std::to_string(node);
    const Node &n = *g->nodes()[size_t(node)];
    return "at node '" + n.name() + "' (" + n.target() + ") of the " + rankSlotGraphName(graph) + " graph, run "
        + std::to_string(slot.iteration.load() + 1);
}

Result<std::vector<Json>> RankLauncher::watch(const std::vector<RankJob> &jobs)
{
    const int ranks = int(m_ranks);
    std::vector<int64_t> lastChange(m_ranks, nowNs());
    std::vector<std::tuple<int32_t, int32_t, int32_t, int64_t>> lastState(m_ranks);
    std::vector<std::optional<Json>> results(m_ranks);
    auto resultPath = [&](int r) { return m_folder + "/rank" + std::to_string(r) + ".result.json"; };
    auto others = [&](int except) {
        std::string text;
        for (int r = 0; r < ranks; ++r)
            if (r != except && !m_reaped[r])
                text += "; rank " + std::to_string(r)
                    + (m_slots[r].failedAtNs.load() ? " failed after it (its collectives lost the peer)"
                                                     : " was " + describe(r, jobs));
        return text;
    };
    const int64_t timeoutNs = int64_t(m_options.timeout.count()) * 1000000;
    int64_t firstFailureSeen = 0;
    for (;;) {
        // Ranks that ended: a crash (signal, or an exit without a report) or a report, with or without an error.
        std::optional<int> crashed;
        for (int r = 0; r < ranks; ++r) {
            if (m_reaped[r])
                continue;
            int status = 0;
            pid_t got = waitpid(m_pids[r], &status, WNOHANG);
            if (got != m_pids[r])
                continue;
            m_reaped[r] = true;
            m_status[r] = status;
            if (auto text = readFileBytes(resultPath(r)); text && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                auto json = Json::parse(text.value(), resultPath(r));
                if (json)
                    results[r] = std::move(json.value());
            }
            if (!results[r] && !crashed)
                crashed = r;
        }
        if (crashed) {
            const int r = *crashed;
            const int status = m_status[r];
            std::string cause = WIFSIGNALED(status) ? "killed by " + signalText(WTERMSIG(status))
                                                    : "exited with code " + std::to_string(WEXITSTATUS(status));
            std::string where = describe(r, jobs);
            std::string log = lastLines(m_folder + "/rank" + std::to_string(r) + ".log", 3);
            std::string rest = others(r);
            tearDown();
            return Error{{}, 0, 0,
                "rank " + std::to_string(r) + " crashed (" + cause + ") " + where + rest
                    + "; the other ranks were stopped" + (log.empty() ? "" : "\nrank " + std::to_string(r) + ": " + log)};
        }
        // A reported error: the first rank to find one (its peers' collectives fail after it, from losing it).
        std::optional<int> failed;
        for (int r = 0; r < ranks; ++r)
            if (results[r] && (*results[r])["error"].isString()
                && (!failed || m_slots[r].failedAtNs.load() < m_slots[*failed].failedAtNs.load()))
                failed = r;
        // A rank that failed earlier may still be writing its report: wait for it (a little) to name the right one.
        if (failed) {
            std::optional<int> first;
            for (int r = 0; r < ranks; ++r)
                if (const int64_t at = m_slots[r].failedAtNs.load();
                    at && (!first || at < m_slots[*first].failedAtNs.load()))
                    first = r;
            if (!firstFailureSeen)
                firstFailureSeen = nowNs();
            if (first && *first != *failed && !m_reaped[*first] && nowNs() - firstFailureSeen < 3000000000LL) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
                continue;
            }
        }
        if (failed) {
            const int r = *failed;
            const Json &report = *results[r];
            std::string node;
            for (const char *side : {"unfused", "fused"})
                if (report[side]["failed_node"].isString() && !report[side]["failed_node"].toString().empty()) {
                    node = "at node '" + report[side]["failed_node"].toString() + "' of the " + side + " graph";
                    break;
                }
            if (node.empty())
                node = describe(r, jobs);
            std::string rest = others(r);
            tearDown();
            const Json &at = report["error_at"];
            Error error{at["file"].toString(), int(at["line"].toInt()), int(at["column"].toInt()),
                "rank " + std::to_string(r) + " failed " + node + ": " + report["error"].toString() + rest
                    + (rest.empty() ? "" : "; the other ranks were stopped")};
            return error;
        }
        if (std::all_of(results.begin(), results.end(), [](const auto &j) { return j.has_value(); })) {
            std::vector<Json> out;
            for (auto &j : results)
                out.push_back(std::move(*j));
            return out;
        }
        // Progress: a rank whose phase, graph, run and node stay the same for the timeout has hung; the one that
        // stopped first is named (its peers stop after it, waiting in a collective for it).
        const int64_t now = nowNs();
        double fraction = 1;
        std::optional<int> stalest;
        for (int r = 0; r < ranks; ++r) {
            if (m_reaped[r])
                continue;
            const RankSlot &s = m_slots[r];
            auto state = std::make_tuple(s.phase.load(), s.graph.load(), s.iteration.load(), s.node.load());
            if (state != lastState[r]) {
                lastState[r] = state;
                lastChange[r] = now;
            }
            fraction = std::min(fraction, s.permille.load() / 1000.0);
            if (!stalest || lastChange[r] < lastChange[*stalest])
                stalest = r;
        }
        if (m_options.rankProgress) {
            std::vector<RankProgress> each(m_ranks);
            for (int r = 0; r < ranks; ++r) {
                const RankSlot &s = m_slots[r];
                each[r].fraction = s.permille.load() / 1000.0;
                const int32_t phase = s.phase.load();
                if (m_reaped[r])
                    each[r].state = "finished";
                else if (phase == int32_t(RankPhase::Running))
                    each[r].state = std::string("running the ") + rankSlotGraphName(s.graph.load()) + " graph";
                else
                    each[r].state = rankPhaseName(phase);
            }
            m_options.rankProgress(each);
        }
        if (m_options.progress && !m_options.progress(fraction)) {
            tearDown();
            return canceledError({});
        }
        if (stalest && now - lastChange[*stalest] > timeoutNs) {
            // The rank to name: a stopped process, else one that waits on no peer (not in a collective or the
            // barrier), else the one that has not moved for longest.
            auto waiting = [&](int q) {
                const int64_t node = m_slots[q].node.load();
                const Graph *g = m_slots[q].graph.load() == 1 ? jobs[q].fused : jobs[q].unfused;
                return node == -2 || (node >= 0 && g && size_t(node) < g->size()
                    && isCollectiveTarget(g->nodes()[size_t(node)]->target()));
            };
            int r = *stalest;
            for (int q = ranks - 1; q >= 0; --q)
                if (!m_reaped[q] && !waiting(q))
                    r = q;
            for (int q = ranks - 1; q >= 0; --q)
                if (!m_reaped[q] && (processState(m_pids[q]) == 'T' || processState(m_pids[q]) == 't'))
                    r = q;
            const char state = processState(m_pids[r]);
            std::string cause = state == 'T' || state == 't' ? " (the process is stopped)"
                : state == 'D'                              ? " (the process waits on I/O)"
                                                            : "";
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%.1f", (now - lastChange[r]) / 1e9);
            char timeoutText[32];
            std::snprintf(timeoutText, sizeof timeoutText, "%g", m_options.timeout.count() / 1000.0);
            std::string where = describe(r, jobs);
            std::string rest = others(r);
            tearDown();
            return Error{{}, 0, 0,
                "rank " + std::to_string(r) + " hung: no progress for " + seconds + " s " + where + cause + rest
                    + " (--rank-timeout " + timeoutText + " s); the ranks were stopped"};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

Result<std::vector<Json>> RankLauncher::run(const std::vector<RankJob> &jobs)
{
    if (jobs.empty())
        return Error{{}, 0, 0, "no ranks to run"};
    if (auto started = start(jobs); !started) {
        tearDown();
        return started.error();
    }
    return watch(jobs);
}

} // namespace fxs
