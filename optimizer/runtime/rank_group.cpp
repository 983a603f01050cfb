#include "rank_group.h"

#include "legacy_collectives.h"

// ProcessGroupGloo.hpp declares its class only when LibTorch was built with Gloo (every Linux wheel is); its gloo/
// includes come from the system's gloo headers (Debian's libgloo-dev), used for declarations only: the code that
// runs is LibTorch's own Gloo.
#if FXSCOPE_HAVE_GLOO && !defined(USE_C10D_GLOO)
#define USE_C10D_GLOO 1
#endif
#include <torch/csrc/distributed/c10d/GroupRegistry.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#if FXSCOPE_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#if defined(FXSCOPE_WITH_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <spdlog/spdlog.h>

namespace fxs {

namespace {

std::string what(const std::exception &e)
{
    if (auto *c = dynamic_cast<const c10::Error *>(&e))
        return c->what_without_backtrace();
    return e.what();
}

} // namespace

Result<std::unique_ptr<RankGroup>> RankGroup::create(const Setup &setup)
{
    std::unique_ptr<RankGroup> group(new RankGroup);
    group->m_rank = setup.rank;
    group->m_worldSize = setup.worldSize;
    try {
        c10d::TCPStoreOptions options;
        options.port = uint16_t(setup.port);
        options.isServer = setup.rank == 0;
        options.numWorkers = size_t(setup.worldSize);
        options.waitWorkers = true;
        options.timeout = setup.timeout;
        if (setup.rank == 0 && setup.listenFd >= 0)
            options.masterListenFd = setup.listenFd; // bound by the launcher: no race for a free port
        group->m_store = c10::make_intrusive<c10d::TCPStore>(setup.host, options);
        auto processGroup = c10::make_intrusive<c10d::ProcessGroup>(group->m_store, setup.rank, setup.worldSize);
        if (setup.device.is_cpu()) {
#if FXSCOPE_HAVE_GLOO
            auto gloo = c10d::ProcessGroupGloo::Options::create(setup.timeout);
            gloo->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(setup.host));
            auto backend = c10::make_intrusive<c10d::ProcessGroupGloo>(
                group->m_store, setup.rank, setup.worldSize, gloo);
            processGroup->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO, backend);
            processGroup->setDefaultBackend(c10d::ProcessGroup::BackendType::GLOO);
            group->m_backend = "gloo";
#else
            return Error{{}, 0, 0,
                "--ranks: this runtime was built without gloo's headers, so it cannot make Gloo process groups "
                "(install libgloo-dev, scripts/install-deps.sh, and rebuild)"};
#endif
        } else if (setup.device.is_cuda()) {
#if defined(FXSCOPE_WITH_NCCL)
            auto nccl = c10d::ProcessGroupNCCL::Options::create();
            nccl->timeout = setup.timeout;
            auto backend = c10::make_intrusive<c10d::ProcessGroupNCCL>(
                group->m_store, setup.rank, setup.worldSize, nccl);
            processGroup->setBackend(c10::DeviceType::CUDA, c10d::ProcessGroup::BackendType::NCCL, backend);
            processGroup->setDefaultBackend(c10d::ProcessGroup::BackendType::NCCL);
            group->m_backend = "nccl";
#else
            return Error{{}, 0, 0,
                "--ranks on " + setup.device.str()
                    + ": this runtime was built against a LibTorch without NCCL (a CPU build); build fxscope with a "
                      "CUDA torch (FXSCOPE_PYTHON) to run ranks on NCCL"};
#endif
        } else {
            return Error{{}, 0, 0,
                "--ranks on " + setup.device.str()
                    + ": no process-group backend for this device in the C++ runtime (Gloo serves the CPU, NCCL "
                      "CUDA; torch_npu creates HCCL groups from Python only); run the ranks on --device cpu"};
        }
        std::vector<std::string> names = setup.groupNames;
        names.push_back(kWorldName);
        for (const auto &name : names) {
            c10d::register_process_group(name, processGroup);
            group->m_registered.push_back(name);
        }
        group->m_group = processGroup;
        registerLegacyCollectives(kWorldName);
        std::string list;
        for (const auto &name : names)
            list += (list.empty() ? "" : ", ") + name;
        spdlog::debug("rank {} of {}: {} process group registered as {}", setup.rank, setup.worldSize,
            group->m_backend, list);
        return group;
    } catch (const std::exception &e) {
        return Error{{}, 0, 0, "rank " + std::to_string(setup.rank) + ": cannot join the process group: " + what(e)};
    }
}

RankGroup::~RankGroup()
{
    try {
        for (const auto &name : m_registered)
            c10d::unregister_process_group(name);
    } catch (const std::exception &) {
        // Unregistering a group is best effort at teardown: the process is about to end.
    }
}

Status RankGroup::barrier()
{
    try {
        m_group->barrier()->wait();
        return Ok{};
    } catch (const std::exception &e) {
        return Error{{}, 0, 0, "barrier between runs: " + what(e)};
    }
}

} // namespace fxs
