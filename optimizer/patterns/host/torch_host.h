#pragma once
// The torch host: `python -m fxscope_capture.host` in the user's own Python, a long-lived worker that runs their
// pattern sources with their torch. One JSON object per line each way (protocol in host.py). Started on demand,
// in the background, by the first request; a host that dies or stops answering is reported with the end of its
// stderr and started again by the next request. Qt-free: the CLI and the GUI use it alike. Thread-safe: requests
// are served one at a time.

#include "util/json.h"
#include "util/result.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <thread>

namespace fxs {

struct TorchHostSettings {
    std::string python; // the interpreter (FXSCOPE_PYTHON, or the one fxscope was built with)
    std::string packageDir; // put first on PYTHONPATH: where fxscope_capture lives; empty: installed in python
    std::chrono::seconds timeout{300}; // for one request; a host past it is killed (FXSCOPE_HOST_TIMEOUT)
};

class TorchHost {
public:
    static constexpr int kProtocol = 1;

    explicit TorchHost(TorchHostSettings settings);
    ~TorchHost(); // asks the host to shut down, then kills what is left
    TorchHost(const TorchHost &) = delete;
    TorchHost &operator=(const TorchHost &) = delete;

    // Starts the process and its `hello` in a background thread, so the caller parses while torch imports.
    void startInBackground();
    // One request: {"cmd": cmd, ...params}; the reply's object when "ok", else its error (and traceback).
    Result<Json> request(const std::string &cmd, Json params = Json::object());

    // The hello reply of the running host (torch_version, python, pid); null before it answered.
    Json hello() const;
    // How many times a host was started (a second start follows a death or a hang).
    int starts() const;
    // A host is running or starting: false after a death or a hang, until the next request.
    bool running() const;
    const TorchHostSettings &settings() const { return m_settings; }

private:
    Status ensureStarted(std::unique_lock<std::mutex> &lock);
    Status spawn();
    Result<Json> exchange(const std::string &line, const std::string &cmd);
    Result<std::string> readLine(std::chrono::steady_clock::time_point deadline, const std::string &cmd);
    Error died(const std::string &what);
    void stop(bool polite);
    std::string stderrTail() const;

    TorchHostSettings m_settings;
    mutable std::mutex m_mutex; // one request at a time
    std::condition_variable m_started;
    bool m_starting = false;
    std::thread m_starter;
    pid_t m_pid = -1;
    int m_in = -1; // the host's stdin
    int m_out = -1; // its stdout
    std::string m_buffer; // read from m_out past the last line returned
    Json m_hello;
    int m_starts = 0;
    int64_t m_nextId = 1;
    Error m_startError;
    bool m_startFailed = false;

    struct StderrSink; // drains the host's stderr into a bounded tail (and the log)
    std::shared_ptr<StderrSink> m_stderr;
};

} // namespace fxs
