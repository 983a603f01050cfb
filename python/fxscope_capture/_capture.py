"""capture(): one aten graph of any function or module through make_fx (no Dynamo, no graph breaks), written as
fxscope JSON with its inputs, weights and reference outputs."""

import inspect
import operator
import os
import re
import sys
import warnings

import torch
import torch.fx
import torch.utils._pytree as pytree

from . import _serialize
from ._files import write_json
from ._tracing import TraceContext, observe, trace_aten
from ._tensors import save_tensors


class CaptureResult:
    """What capture() wrote and traced."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __repr__(self):
        return f"CaptureResult(json={self.json_path!r}, nodes={self.node_count})"


def _identifier(text):
    text = re.sub(r"\W", "_", str(text))
    return text if text and not text[0].isdigit() else "_" + text


def _input_names(fn, inputs, kwargs):
    """A name per tensor leaf of (inputs, kwargs), in pytree order: the parameter's name, with _0, _1 ... for
    tensors nested in lists, tuples and dicts."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    kinds = inspect.Parameter
    positional = [p.name for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
    var = next((p.name for p in params if p.kind == kinds.VAR_POSITIONAL), None)
    bases = []
    for i, x in enumerate(inputs):
        if i < len(positional):
            base = positional[i]
        else:
            base = f"{var}_{i - len(positional)}" if var else f"arg{i}"
        bases.append((base, x))
    bases.extend(kwargs.items())
    names = []
    for base, x in bases:
        if isinstance(x, torch.Tensor):
            names.append(_identifier(base))
        else:
            count = sum(isinstance(leaf, torch.Tensor) for leaf in pytree.tree_flatten(x)[0])
            names.extend(_identifier(f"{base}_{j}") for j in range(count))
    return names


def _unique_rename(placeholders, wanted, graph):
    """{placeholder: wanted name}, keeping names unique against every other node of the graph."""
    taken = {n.name for n in graph.nodes if n not in placeholders}
    rename = {}
    for node, name in zip(placeholders, wanted):
        candidate, k = name, 1
        while candidate in taken:
            candidate = f"{name}_{k}"
            k += 1
        taken.add(candidate)
        rename[node] = candidate
    return rename


def _close(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point() or a.is_complex():
            return torch.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True)
        return torch.equal(a, b)
    return a == b


def capture(fn_or_module, *inputs, out_dir, name=None, kwargs=None, decompositions=None):
    """Traces fn_or_module(*inputs, **kwargs) to an aten graph with make_fx (real tensors, no_grad: the forward
    graph Inductor's fwd_only would give) and writes, in out_dir:

      <name>.json                 fxscope JSON: one graph, every node with meta (val: dtype, shape, stride, device;
                                  stack_trace and source; nn_module_stack)
      <name>.safetensors          every placeholder and get_attr node's tensor, keyed by node name: the inputs and
                                  the module's parameters and buffers ("weights")
      <name>.outputs.safetensors  what PyTorch computed running the program eagerly, output_0, output_1, ...

    Parameters and buffers of the module (or of the module a bound method belongs to) become get_attr nodes named
    by their module path; Python scalars among the inputs are baked into the graph as constants.
    Returns a CaptureResult (json_path, tensors_path, outputs_path, graph_module, outputs, node_count).
    """
    kwargs = dict(kwargs or {})
    module = fn_or_module if isinstance(fn_or_module, torch.nn.Module) else getattr(fn_or_module, "__self__", None)
    if not isinstance(module, torch.nn.Module):
        module = None
    signature_fn = fn_or_module.forward if isinstance(fn_or_module, torch.nn.Module) else fn_or_module
    if name is None:
        name = type(fn_or_module).__name__ if isinstance(fn_or_module, torch.nn.Module) else getattr(
            fn_or_module, "__name__", "graph")
    name = _identifier(name)

    leaves, spec = pytree.tree_flatten((tuple(inputs), kwargs))
    tensor_positions = [i for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]
    tensors = []
    seen = set()
    for i in tensor_positions:
        t = leaves[i]
        # make_fx gives one proxy per tensor object: a tensor passed twice would collapse two inputs into one.
        if id(t) in seen:
            t = t.clone()
        seen.add(id(t))
        tensors.append(t)
    input_names = _input_names(signature_fn, inputs, kwargs)

    def program(*traced):
        filled = list(leaves)
        for i, t in zip(tensor_positions, traced):
            filled[i] = t
        args, kw = pytree.tree_unflatten(filled, spec)
        return fn_or_module(*args, **kw)

    with torch.no_grad():
        expected = fn_or_module(*inputs, **kwargs)
    ctx = TraceContext(module, caller_frame=sys._getframe(0))
    gm = trace_aten(program, tensors, ctx=ctx, decomposition_table=decompositions)
    outputs, observed = observe(gm, tensors)

    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(tensors):
        raise RuntimeError(f"make_fx gave {len(placeholders)} placeholders for {len(tensors)} tensor inputs")
    rename = _unique_rename(placeholders, input_names, gm.graph)
    names = {n: rename.get(n, n.name) for n in gm.graph.nodes}

    saved = {}
    for node, t in zip(placeholders, tensors):
        saved[names[node]] = t
    weights = {}
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            value = operator.attrgetter(node.target)(gm)
            if isinstance(value, torch.Tensor):
                saved[names[node]] = value
                weights[names[node]] = str(node.target)

    expected_flat = [x for x in pytree.tree_flatten(expected)[0] if isinstance(x, torch.Tensor)]
    replayed_flat = [x for x in pytree.tree_flatten(outputs)[0] if isinstance(x, torch.Tensor)]
    matches = len(expected_flat) == len(replayed_flat) and all(map(_close, expected_flat, replayed_flat))
    if not matches:
        warnings.warn(f"fxscope_capture: the traced graph of {name} does not reproduce the eager outputs (random ops, "
                      f"dropout in train mode, or state the program changes?); the outputs file holds the eager ones",
                      RuntimeWarning, stacklevel=2)

    os.makedirs(out_dir, exist_ok=True)
    json_path = os.path.join(out_dir, name + ".json")
    tensors_path = os.path.join(out_dir, name + ".safetensors")
    outputs_path = os.path.join(out_dir, name + ".outputs.safetensors")
    common = {"format": "fxscope_capture", "graph": name, "torch_version": torch.__version__}
    save_tensors(tensors_path, saved, metadata=dict(common, placeholders=",".join(names[n] for n in placeholders),
                                                    get_attr=",".join(weights)))
    save_tensors(outputs_path, {f"output_{i}": t for i, t in enumerate(expected_flat)},
                 metadata=dict(common, graph_matches_eager=str(matches).lower()))

    graph = _serialize.graph_json(gm, observed, rename)
    entry = {"name": name, "kind": "make_fx", "graph": graph,
             "tensors": os.path.basename(tensors_path), "outputs": os.path.basename(outputs_path)}
    target = getattr(fn_or_module, "__qualname__", type(fn_or_module).__qualname__)
    doc = _serialize.document([entry], source_format="fxscope_capture", capture={
        "tool": "fxscope_capture.capture", "torch_version": torch.__version__,
        "program": f"{getattr(fn_or_module, '__module__', type(fn_or_module).__module__)}.{target}",
        "tracer": "make_fx(tracing_mode='real') under no_grad",
        "decompositions": len(decompositions) if decompositions else 0,
        "inputs": [names[n] for n in placeholders], "weights": weights,
        "graph_matches_eager": matches,
    })
    write_json(json_path, doc)
    return CaptureResult(json_path=json_path, tensors_path=tensors_path, outputs_path=outputs_path,
                         graph_module=gm, outputs=expected, node_count=len(gm.graph.nodes),
                         graph_matches_eager=matches)
