#pragma once
// Error and Result<T>: how every fallible call in the core reports failure, without exceptions.

#include <string>
#include <utility>
#include <variant>

namespace fxs {

// A problem in an input, located as FILE:LINE:COL (line and column are 1-based; 0 means unknown).
struct Error {
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;

    std::string toString() const
    {
        // Without a file or a line there is no place to name: the message alone (not "<input>: device cuda: ...").
        if (file.empty() && line <= 0)
            return message;
        std::string out = file.empty() ? std::string("<input>") : file;
        if (line > 0) {
            out += ':' + std::to_string(line);
            if (column > 0)
                out += ':' + std::to_string(column);
        }
        return out + ": " + message;
    }
};

template <typename T>
class Result {
public:
    Result(T value) : m_state(std::move(value)) { }
    Result(Error error) : m_state(std::move(error)) { }

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_state); }
    const T &value() const & { return std::get<0>(m_state); }
    T &&value() && { return std::get<0>(std::move(m_state)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

    const Error &error() const { return std::get<1>(m_state); }

private:
    std::variant<T, Error> m_state;
};

// For calls that return nothing on success.
struct Ok { };
using Status = Result<Ok>;

} // namespace fxs
