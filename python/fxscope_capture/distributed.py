"""Capture of a tensor-parallel program under torch.distributed: one graph, one inputs file and one outputs file per
rank, for `fxscope-cli profile GRAPH.rank{r}.json --ranks N --inputs GRAPH.rank{r}.safetensors`.

    def build(rank, world_size):           # module level: spawned processes import it
        return shard_of_my_model(rank, world_size), (x,)
    fxscope_capture.distributed.capture_ranks(build, world_size=2, out_dir="fx", name="tp_mlp")

Each rank runs in its own process (torch.multiprocessing.spawn) with a Gloo process group over a TCPStore on
loopback; build(rank, world_size) returns the program and its inputs, and fxscope_capture.capture traces it with
make_fx. Functional collectives (torch.distributed._functional_collectives, or torch.ops._c10d_functional.*) are
recorded as the graph's own nodes, with the group name the process group has ("0" for the world).
"""

import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from ._capture import capture


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank_main(rank, build, world_size, port, out_dir, name, backend, seed, results):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group(backend, rank=rank, world_size=world_size)
    try:
        torch.manual_seed(seed + rank)
        program, inputs = build(rank, world_size)
        result = capture(program, *inputs, out_dir=out_dir, name=f"{name}.rank{rank}")
        results[rank] = {"json_path": result.json_path, "tensors_path": result.tensors_path,
                         "outputs_path": result.outputs_path, "node_count": result.node_count,
                         "graph_matches_eager": result.graph_matches_eager,
                         "group_name": dist.group.WORLD.group_name}
        dist.barrier()
    finally:
        dist.destroy_process_group()


def capture_ranks(build, world_size=2, *, out_dir, name, backend="gloo", seed=0):
    """Runs build(rank, world_size) -> (program, inputs) on world_size ranks and captures each (see capture()):
    <name>.rank<r>.json, .safetensors and .outputs.safetensors in out_dir. build must be importable (module level).
    Returns one dict per rank: json_path, tensors_path, outputs_path, node_count, graph_matches_eager, group_name."""
    with mp.Manager() as manager:
        results = manager.dict()
        mp.spawn(_rank_main, args=(build, world_size, _free_port(), out_dir, name, backend, seed, results),
                 nprocs=world_size, join=True)
        return [dict(results[r]) for r in range(world_size)]
