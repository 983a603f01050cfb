#include "torch_host.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace fxs {

namespace {

constexpr size_t kStderrTail = 16 * 1024;

std::shared_ptr<spdlog::logger> hostLog()
{
    static auto log = [] {
        auto existing = spdlog::get("torch_host");
        return existing ? existing : spdlog::default_logger()->clone("torch_host");
    }();
    return log;
}

std::string exitText(int status)
{
    if (WIFEXITED(status))
        return "exit status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return std::string("killed by signal ") + strsignal(WTERMSIG(status));
    return "status " + std::to_string(status);
}

} // namespace

struct TorchHost::StderrSink {
    std::mutex mutex;
    std::string tail;
    std::thread reader;

    void start(int fd)
    {
        reader = std::thread([this, fd] {
            char buf[4096];
            std::string line;
            for (;;) {
                ssize_t n = ::read(fd, buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    break;
                std::lock_guard<std::mutex> lock(mutex);
                tail.append(buf, size_t(n));
                if (tail.size() > kStderrTail)
                    tail.erase(0, tail.size() - kStderrTail);
                for (ssize_t i = 0; i < n; ++i) {
                    if (buf[i] == '\n') {
                        hostLog()->debug("host: {}", line);
                        line.clear();
                    } else if (line.size() < 2000) {
                        line += buf[i];
                    }
                }
            }
            ::close(fd);
        });
    }
    ~StderrSink()
    {
        if (reader.joinable())
            reader.join();
    }
};

TorchHost::TorchHost(TorchHostSettings settings) : m_settings(std::move(settings)) { }

TorchHost::~TorchHost()
{
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_started.wait(lock, [this] { return !m_starting; });
        stop(true);
    }
    if (m_starter.joinable())
        m_starter.join();
}

Json TorchHost::hello() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_hello;
}

int TorchHost::starts() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_starts;
}

bool TorchHost::running() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_starting || m_pid > 0;
}

std::string TorchHost::stderrTail() const
{
    if (!m_stderr)
        return {};
    std::lock_guard<std::mutex> lock(m_stderr->mutex);
    std::string tail = m_stderr->tail;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
        tail.pop_back();
    return tail;
}

Status TorchHost::spawn()
{
    int in[2], out[2], err[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0)
        return Error{"", 0, 0, std::string("cannot start the torch host: socketpair: ") + std::strerror(errno)};
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        return Error{"", 0, 0, std::string("cannot start the torch host: pipe: ") + std::strerror(errno)};

    std::vector<std::string> env;
    std::string pythonPath = m_settings.packageDir;
    for (char **e = environ; *e; ++e) {
        std::string kv = *e;
        if (kv.rfind("PYTHONPATH=", 0) == 0) {
            std::string old = kv.substr(11);
            if (!old.empty())
                pythonPath += (pythonPath.empty() ? "" : ":") + old;
            continue;
        }
        if (kv.rfind("PYTHONUNBUFFERED=", 0) == 0)
            continue;
        env.push_back(std::move(kv));
    }
    if (!pythonPath.empty())
        env.push_back("PYTHONPATH=" + pythonPath);
    env.push_back("PYTHONUNBUFFERED=1");
    std::vector<char *> envp;
    for (auto &kv : env)
        envp.push_back(kv.data());
    envp.push_back(nullptr);
    std::string python = m_settings.python, dashM = "-m", module = "fxscope_capture.host";
    char *argv[] = {python.data(), dashM.data(), module.data(), nullptr};

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[1], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, python.c_str(), &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[1]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(in[0]);
        ::close(out[0]);
        ::close(err[0]);
        return Error{"", 0, 0, "cannot start the torch host " + python + ": " + std::strerror(rc)};
    }
    m_pid = pid;
    m_in = in[0];
    m_out = out[0];
    m_buffer.clear();
    m_stderr = std::make_shared<StderrSink>();
    m_stderr->start(err[0]);
    ++m_starts;
    hostLog()->info("torch host started: {} -m fxscope_capture.host (pid {})", python, pid);
    return Ok{};
}

void TorchHost::startInBackground()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_pid > 0 || m_starting)
        return;
    if (m_starter.joinable())
        m_starter.join();
    m_starting = true;
    m_starter = std::thread([this] {
        // The process is this thread's alone until m_starting drops: request() waits for it.
        Status st = spawn();
        if (st) {
            auto hello = exchange(Json::object({{"id", 0}, {"cmd", "hello"}}).dump(), "hello");
            if (hello)
                m_hello = hello.value();
            else
                st = hello.error();
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        m_startFailed = !st;
        if (!st)
            m_startError = st.error();
        m_starting = false;
        m_started.notify_all();
    });
}

Status TorchHost::ensureStarted(std::unique_lock<std::mutex> &lock)
{
    m_started.wait(lock, [this] { return !m_starting; });
    if (m_startFailed) {
        m_startFailed = false; // the next request tries again
        return m_startError;
    }
    if (m_pid > 0 && !m_hello.isNull())
        return Ok{};
    if (auto st = spawn(); !st)
        return st;
    auto hello = exchange(Json::object({{"id", 0}, {"cmd", "hello"}}).dump(), "hello");
    if (!hello)
        return hello.error();
    m_hello = hello.value();
    return Ok{};
}

Result<Json> TorchHost::request(const std::string &cmd, Json params)
{
    std::unique_lock<std::mutex> lock(m_mutex);
    if (auto st = ensureStarted(lock); !st)
        return st.error();
    if (int protocol = int(m_hello["protocol"].toInt()); protocol != kProtocol) {
        stop(true);
        m_hello = Json();
        return Error{"", 0, 0,
            "the torch host in " + m_settings.python + " speaks protocol " + std::to_string(protocol)
                + ", this fxscope speaks " + std::to_string(kProtocol)
                + " (its fxscope_capture is another version: put this fxscope's python/ first on PYTHONPATH)"};
    }
    params.set("id", Json(m_nextId++));
    params.set("cmd", cmd);
    return exchange(params.dump(), cmd);
}

Result<Json> TorchHost::exchange(const std::string &line, const std::string &cmd)
{
    const auto deadline = std::chrono::steady_clock::now() + m_settings.timeout;
    std::string data = line + "\n";
    for (size_t sent = 0; sent < data.size();) {
        ssize_t n = ::send(m_in, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return died("while it was sent '" + cmd + "'");
        sent += size_t(n);
    }
    auto reply = readLine(deadline, cmd);
    if (!reply)
        return reply.error();
    auto parsed = Json::parse(reply.value(), "torch host reply");
    if (!parsed)
        return Error{"", 0, 0, "the torch host answered '" + cmd + "' with something that is not JSON: "
                + reply.value().substr(0, 200)};
    Json &r = parsed.value();
    if (!r["ok"].toBool()) {
        std::string message = r["error"].toString();
        if (r["traceback"].isString())
            message += "\n" + r["traceback"].toString();
        return Error{"", 0, 0, message};
    }
    return std::move(parsed.value());
}

Result<std::string> TorchHost::readLine(std::chrono::steady_clock::time_point deadline, const std::string &cmd)
{
    for (;;) {
        if (size_t nl = m_buffer.find('\n'); nl != std::string::npos) {
            std::string line = m_buffer.substr(0, nl);
            m_buffer.erase(0, nl + 1);
            return line;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            stop(false);
            std::string tail = stderrTail();
            return Error{"", 0, 0,
                "the torch host did not answer '" + cmd + "' within " + std::to_string(m_settings.timeout.count())
                    + " s and was stopped (the next request starts it again)"
                    + (tail.empty() ? std::string() : "; its stderr ends:\n" + tail)};
        }
        pollfd pfd{m_out, POLLIN, 0};
        int rc = ::poll(&pfd, 1, int(std::min<int64_t>(left.count(), 1000)));
        if (rc < 0 && errno != EINTR)
            return died("while it answered '" + cmd + "'");
        if (rc <= 0)
            continue;
        char buf[65536];
        ssize_t n = ::read(m_out, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return died("while it answered '" + cmd + "'");
        m_buffer.append(buf, size_t(n));
    }
}

Error TorchHost::died(const std::string &what)
{
    int status = 0;
    std::string how = "it closed its output";
    if (m_pid > 0) {
        // The process may still be writing its traceback: give it a moment to end.
        for (int i = 0; i < 50; ++i) {
            pid_t r = ::waitpid(m_pid, &status, WNOHANG);
            if (r == m_pid) {
                how = exitText(status);
                m_pid = -1;
                break;
            }
            ::usleep(20000);
        }
    }
    stop(false);
    std::string tail = stderrTail();
    hostLog()->warn("torch host died {} ({})", what, how);
    m_hello = Json();
    return Error{"", 0, 0,
        "the torch host (" + m_settings.python + " -m fxscope_capture.host) died " + what + " (" + how
            + "); the next request starts it again" + (tail.empty() ? std::string() : ". Its stderr ends:\n" + tail)};
}

void TorchHost::stop(bool polite)
{
    if (m_pid > 0 && polite && m_in >= 0) {
        const std::string bye = Json::object({{"id", 0}, {"cmd", "shutdown"}}).dump() + "\n";
        (void)::send(m_in, bye.data(), bye.size(), MSG_NOSIGNAL);
    }
    if (m_in >= 0)
        ::close(m_in);
    m_in = -1;
    if (m_pid > 0) {
        int status = 0;
        bool gone = false;
        for (int i = 0; i < (polite ? 100 : 0) && !gone; ++i) {
            gone = ::waitpid(m_pid, &status, WNOHANG) == m_pid;
            if (!gone)
                ::usleep(20000);
        }
        if (!gone) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, &status, 0);
        }
        m_pid = -1;
    }
    if (m_out >= 0)
        ::close(m_out);
    m_out = -1;
    if (m_stderr && m_stderr->reader.joinable())
        m_stderr->reader.join(); // the pipe closed with the process
    m_hello = Json();
}

} // namespace fxs
