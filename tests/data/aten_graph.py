"""What the tests' make_graphs.py scripts share: a function traced to an aten graph as Inductor's decompositions
leave it (make_fx, fake tensors), written as an fxscope JSON document of one graph."""
import os
import sys

from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from fxscope_capture import _serialize  # noqa: E402
from fxscope_capture._files import write_json  # noqa: E402


def save(folder, name, fn, *args):
    """folder/name.json: fn traced on args."""
    gm = make_fx(fn, select_decomp_table(), tracing_mode="fake")(*args)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    write_json(os.path.join(folder, name + ".json"),
               _serialize.document([{"name": name, "kind": "aten", "graph": _serialize.graph_json(gm)}]))
