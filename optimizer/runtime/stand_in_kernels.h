#pragma once
// Stand-ins: ops of a graph dumped by another torch or on another device that this LibTorch cannot run as they are,
// run through an equivalent it has. Two kinds:
//  - prims PyTorch defines in Python only (prims.rev, prims._unsafe_index_put_, prims.var, ...), which older
//    decompositions left in graphs: registered under their real schemas with kernels that do what their ATen
//    implementations in torch/_prims do;
//  - attention kernels this LibTorch lacks for the run's device (torch 2.2 ran _scaled_dot_product_flash_attention
//    on CPU; 2.13 has it on CUDA only): the CPU attention kernel on CPU, the math path elsewhere.
// Outputs are those of the original op, so they are checked like any node's; times are not the original kernel's,
// which is why every node that ran on a stand-in is marked in the profile.

#include <c10/core/Device.h>

#include <string>

namespace fxs {

// Registers the stand-ins the device needs, once per device type. An op the LibTorch (or a loaded plugin)
// already runs on that device keeps its own kernel. Idempotent and thread-safe.
void registerStandIns(c10::Device device);

// What runs in place of a node target's op on the device ("aten.flip" for prims.rev.default), or "" when the op
// runs on its own kernel.
std::string standInFor(const std::string &target, c10::Device device);

} // namespace fxs
