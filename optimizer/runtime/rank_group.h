#pragma once
// One rank's membership of a real torch.distributed process group for a multi-rank profile: a TCPStore on loopback
// (rank 0 serves it on the socket its launcher bound), a c10d ProcessGroup with the backend the device needs (Gloo
// for the CPU, NCCL for CUDA in a CUDA build), registered under every group name the graph's collectives use, so
// `_c10d_functional.*` ops resolve it as under torch.distributed. Internal to the runtime module.

#include "util/result.h"

#include <c10/core/Device.h>
#include <c10/util/intrusive_ptr.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace c10d {
class ProcessGroup;
class Store;
} // namespace c10d

namespace fxs {

class RankGroup {
public:
    struct Setup {
        int rank = 0;
        int worldSize = 1;
        std::string host = "127.0.0.1";
        int port = 0;
        int listenFd = -1; // rank 0: the store's listening socket, bound by the launcher
        std::chrono::milliseconds timeout{60000}; // store rendezvous and the backend's collectives
        c10::Device device = c10::Device(c10::kCPU);
        std::vector<std::string> groupNames; // as the graph's collectives name them
    };
    // The name under which the whole world is also registered (the older c10d_functional ops name no group).
    static constexpr const char *kWorldName = "fxscope_world";

    static Result<std::unique_ptr<RankGroup>> create(const Setup &setup);
    ~RankGroup();

    // Every rank waits for the others: each run starts together, so a node's time is its own, not a late peer's.
    Status barrier();
    int rank() const { return m_rank; }
    int worldSize() const { return m_worldSize; }
    const std::string &backend() const { return m_backend; }

private:
    RankGroup() = default;

    int m_rank = 0;
    int m_worldSize = 1;
    std::string m_backend;
    std::vector<std::string> m_registered;
    c10::intrusive_ptr<c10d::Store> m_store;
    c10::intrusive_ptr<c10d::ProcessGroup> m_group;
};

} // namespace fxs
