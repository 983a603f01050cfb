"""fxscope JSON -> torch.fx.GraphModule, as Inductor's pattern matcher sees a graph in a real compile.

load_graph_module(path) rebuilds the graph node for node with the dump's node names, call_function targets resolved
to torch.ops overloads (torch.ops.npu.* through npu_ops' stand-ins when torch_npu is absent, torch.ops.air.* through
the stand-ins below), and meta["val"] as FakeTensors of one FakeTensorMode (symbolic sizes as SymInts of one
ShapeEnv, hinted by the dump's symbol_hints) plus meta["tensor_meta"]. Other meta keys the dump keeps under "extra"
(stream_label, custom, ...) are put back as they were. canonical(graph) is the text both fxscope's and Inductor's
fused graphs are compared in.
"""

import builtins
import json
import math
import operator
import re

import sympy
import torch
import torch.fx
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv
from torch.fx.passes.shape_prop import _extract_tensor_metadata

from . import npu_ops


class GraphLoadError(ValueError):
    """A dump torch cannot rebuild (unknown op, unsupported node kind); the message names the node."""


# TorchAir's scope ops (stream and scope labels). Their schemas return nothing and mutate nothing, which is what
# keeps Inductor from counting them as mutations (is_mutation_op reads the schema of an OpOverload).
_AIR_OPS = {
    "scope_enter": "scope_enter(str[] keys, str[] values, bool need_execute=False) -> ()",
    "scope_exit": "scope_exit(bool need_execute=False) -> ()",
}
_AIR_LIBRARY = None


def air_op(name):
    global _AIR_LIBRARY
    try:
        return getattr(torch.ops.air, name)
    except (AttributeError, RuntimeError):
        pass
    if name not in _AIR_OPS:
        raise AttributeError(name)
    if _AIR_LIBRARY is None:
        _AIR_LIBRARY = torch.library.Library("air", "FRAGMENT")
    _AIR_LIBRARY.define(_AIR_OPS[name])
    _AIR_LIBRARY.impl(name, lambda *a, **k: None, "CompositeExplicitAutograd")
    return getattr(torch.ops.air, name)


def define_stand_in_ops():
    """The npu and air ops a dump may name, where torch_npu/torchair do not define them."""
    npu_ops.define_known_ops()
    for name in _AIR_OPS:
        air_op(name)


_DTYPES = {str(getattr(torch, n)): getattr(torch, n) for n in dir(torch) if isinstance(getattr(torch, n), torch.dtype)}


def resolve_target(text):
    """A call_function target as dumps write it (torch.ops.aten.add.Tensor, aten.add.Tensor, operator.getitem,
    npu.npu_rms_norm.default, torch.sym_sum, math.sqrt) -> the callable."""
    parts = text.split(".")
    if parts[0] in ("operator", "_operator"):
        return getattr(operator, parts[-1])
    if parts[0] == "builtins":
        return getattr(builtins, parts[-1])
    if parts[0] == "math":
        return getattr(math, parts[-1])
    if text.startswith("torch.ops."):
        parts = parts[2:]
    elif parts[0] == "torch" or len(parts) not in (2, 3):
        parts = None
    if parts:
        ns, op = parts[0], parts[1]
        try:
            if ns == "npu":
                packet = npu_ops.npu_op(op)
            elif ns == "air":
                packet = air_op(op)
            else:
                packet = getattr(getattr(torch.ops, ns), op)
            return getattr(packet, parts[2]) if len(parts) > 2 else packet  # aten.sym_size: the packet
        except (AttributeError, RuntimeError) as e:
            raise GraphLoadError(f"unknown op {text}: {e}") from None
    if text.startswith("torch."):
        obj = torch
        for p in text.split(".")[1:]:
            obj = getattr(obj, p, None)
            if obj is None:
                break
        if obj is not None:
            return obj
    if hasattr(builtins, text):
        return getattr(builtins, text)
    raise GraphLoadError(f"cannot resolve target {text!r}")


class _Symbols:
    """The dump's symbols (s0, s52, ...) as SymInts of one ShapeEnv, hinted by symbol_hints."""

    def __init__(self, hints):
        self.env = ShapeEnv()
        self.fake_mode = FakeTensorMode(shape_env=self.env, allow_non_fake_inputs=True)
        self.hints = dict(hints or {})
        self.symbols = {}

    def symbol(self, name):
        if name not in self.symbols:
            from torch._dynamo.source import ConstantSource
            hint = int(self.hints.get(name, 64))  # a dump without hints: any size above the 0/1 specialisation
            self.hints.setdefault(name, hint)
            self.symbols[name] = self.env.create_symbol(hint, ConstantSource(f"fxscope_{name}"),
                                                        dynamic_dim=DimDynamic.DYNAMIC)
        return self.symbols[name]

    def value(self, text):
        """An int or a SymInt from a dump's size ("s0", "2*s0 + 1", "8")."""
        if isinstance(text, int):
            return text
        text = str(text)
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        names = set(re.findall(r"[A-Za-z_]\w*", text)) - {"Max", "Min", "floor", "ceiling", "FloorDiv", "Mod"}
        local = {n: self.symbol(n) for n in names}
        expr = sympy.sympify(text, locals=local)
        if "//" in text:  # torch prints its FloorDiv as a // b, which sympy reads as floor(a/b): back to FloorDiv
            from torch.utils._sympy.functions import FloorDiv
            expr = expr.replace(lambda e: isinstance(e, sympy.floor),
                                lambda e: FloorDiv(*e.args[0].as_numer_denom()))
        hint = int(expr.subs({local[n]: self.hints[n] for n in names}))
        return self.env.create_symintnode(expr, hint=hint)


def _fake_tensor(meta, syms):
    shape = [syms.value(d) for d in meta.get("shape", [])]
    stride = meta.get("stride")
    dtype = _DTYPES.get(meta.get("dtype", "torch.float32"), torch.float32)
    device = meta.get("device") or "cpu"
    if not re.match(r"(cpu|cuda|meta)(:\d+)?$", device):
        device = "cpu"  # npu tensors live on the CPU here, as in export_patterns
    strides = [syms.value(s) for s in stride] if stride is not None and len(stride) == len(shape) else None
    if all(type(d) is int for d in shape + (strides or [])):
        # A FakeTensor around a meta tensor, made directly: 7x cheaper than torch.empty under the mode (which
        # dispatches), and a 23k-node mirror makes one per node. Symbolic shapes go through the mode.
        try:
            elem = (torch.empty_strided(shape, strides, dtype=dtype, device="meta") if strides is not None
                    else torch.empty(shape, dtype=dtype, device="meta"))
            return FakeTensor(syms.fake_mode, elem, torch.device(device))
        except TypeError:  # a torch whose FakeTensor takes other arguments
            pass
    with syms.fake_mode:
        if strides is not None:
            return torch.empty_strided(shape, strides, dtype=dtype, device=device)
        return torch.empty(shape, dtype=dtype, device=device)


def _val(v, syms):
    if v is None:
        return None
    if "tensor" in v:
        return _fake_tensor(v["tensor"], syms)
    if "sym_int" in v:
        return syms.value(v["sym_int"])
    if "tuple" in v:
        items = [_val(x, syms) for x in v["tuple"]]
        return tuple(items)
    return None


def _arg(a, nodes, syms, where):
    if isinstance(a, dict):
        if "node" in a:
            if a["node"] not in nodes:
                raise GraphLoadError(f"{where}: argument names node {a['node']!r}, which is not defined before it")
            return nodes[a["node"]]
        if "list" in a:
            return [_arg(x, nodes, syms, where) for x in a["list"]]
        if "tuple" in a:
            return tuple(_arg(x, nodes, syms, where) for x in a["tuple"])
        if "dict" in a:
            return {k: _arg(v, nodes, syms, where) for k, v in a["dict"]}
        if "dtype" in a:
            return _DTYPES[a["dtype"]]
        if "device" in a:
            return torch.device(a["device"].replace("npu", "cpu"))
        if "layout" in a:
            return getattr(torch, a["layout"].split(".")[-1])
        if "memory_format" in a:
            return getattr(torch, a["memory_format"].split(".")[-1])
        if "slice" in a:
            return slice(*[_arg(x, nodes, syms, where) for x in a["slice"]])
        if "ellipsis" in a:
            return Ellipsis
        if "sym" in a:
            return syms.value(a["sym"])
        if "float" in a:
            return float(a["float"])
        if "repr" in a:
            try:
                return resolve_target(a["repr"])
            except GraphLoadError:
                raise GraphLoadError(f"{where}: argument {a['repr']!r} has no Python value here") from None
        raise GraphLoadError(f"{where}: unknown argument encoding {a!r}")
    return a


def _pick(doc, graph):
    graphs = doc.get("graphs") or []
    if not graphs:
        raise GraphLoadError("no graphs in the document")
    if graph is None:
        return graphs[0]
    for i, g in enumerate(graphs):
        if g.get("name") == graph or str(i) == str(graph):
            return g
    raise GraphLoadError(f"no graph {graph!r}; the document has {', '.join(g.get('name', '?') for g in graphs)}")


def load_graph_module(source, graph=None):
    """(GraphModule, fake_mode) for an fxscope JSON document (a path or the parsed dict)."""
    doc = source
    if not isinstance(source, dict):
        with open(source, encoding="utf-8") as f:
            doc = json.load(f)
    entry = _pick(doc, graph)
    g_json = entry["graph"] if "graph" in entry else entry
    define_stand_in_ops()
    syms = _Symbols(g_json.get("symbol_hints"))
    g = torch.fx.Graph()
    root = torch.nn.Module()
    nodes = {}
    # Without strides, propagation gives each node its val (and tensor_meta) again: made once, after it.
    strideless = any(_lacks_stride(nj) for nj in g_json["nodes"] if nj["op"] == "call_function")
    for nj in g_json["nodes"]:
        nodes[nj["name"]] = build_node(g, root, nodes, syms, nj, tensor_meta=not strideless)
    gm = _graph_module(root, g)
    if strideless:
        _propagate_strides(gm, syms)
    return gm, syms


def _graph_module(root, g):
    """A GraphModule whose Python code is generated when first needed (torch 2.3+'s _LazyGraphModule): a mirror is
    matched, not run, and code generation was a fifth of a 23k-node mirror's cost."""
    try:
        from torch.fx._lazy_graph_module import _LazyGraphModule
    except ImportError:
        return torch.fx.GraphModule(root, g)
    return _LazyGraphModule(root, g)


def build_node(g, root, nodes, syms, nj, force_name=False, tensor_meta=True):
    """One fxscope JSON node appended to g (its args read from `nodes`, name -> Node), with meta["val"] as a
    FakeTensor of syms' mode; get_attr constants become buffers of root. host.py builds a mirror's edits with it."""
    name, op = nj["name"], nj["op"]
    where = f"node {name}"
    args = tuple(_arg(a, nodes, syms, where) for a in nj.get("args", []))
    kwargs = {k: _arg(v, nodes, syms, where) for k, v in (nj.get("kwargs") or {}).items()}
    meta = nj.get("meta") or {}
    if op == "placeholder":
        node = g.placeholder(name)
        node.target = nj.get("target") or name
    elif op == "output":
        node = g.output(args[0] if args else None)
    elif op == "call_function":
        node = g.create_node("call_function", resolve_target(nj["target"]), args, kwargs, name=name)
    elif op == "get_attr":
        val = _val(meta.get("val"), syms)
        if not isinstance(val, torch.Tensor):
            raise GraphLoadError(f"{where}: get_attr without a tensor val")
        attr = re.sub(r"\W", "_", nj["target"])
        shape = [_concrete(d, syms) for d in val.shape]
        root.register_buffer(attr, torch.randn(shape).to(val.dtype) if val.dtype.is_floating_point
                             else torch.zeros(shape, dtype=val.dtype))
        node = g.get_attr(attr)
        node.name = name
    else:
        raise GraphLoadError(f"{where}: op {op} is not supported by the torch loader (call_module/call_method)")
    if node.name != name and force_name and name.isidentifier():
        # A mirror's node takes fxscope's name even where FX's namespace still holds it from an erased node
        # (a step undone and redone).
        node.name = name
        g._graph_namespace._rename_object(node, name)
    if node.name != name:
        raise GraphLoadError(f"{where}: torch.fx renamed it to {node.name} (not a valid FX node name)")
    set_meta(node, meta, syms, tensor_meta)
    return node


def set_meta(node, meta, syms, tensor_meta=True):
    """node.meta from an fxscope JSON node's meta: val (FakeTensor), tensor_meta, the extra keys, stack_trace."""
    val = _val(meta.get("val"), syms)
    if val is not None and node.op != "output":
        node.meta["val"] = val
        if tensor_meta and isinstance(val, torch.Tensor):
            node.meta["tensor_meta"] = _extract_tensor_metadata(val)
    extra = meta.get("extra") or {}
    if "val" not in node.meta and "value" in extra and node.op != "output":
        node.meta["val"] = extra["value"]
    for k, v in extra.items():
        if k != "value":
            node.meta[k] = v
    if "stack_trace" in meta:
        node.meta["stack_trace"] = meta["stack_trace"]


def _lacks_stride(nj):
    t = ((nj.get("meta") or {}).get("val") or {}).get("tensor")
    return t is not None and t.get("stride") is None


def _same_tensor(dumped, got):
    """Propagation kept what the dump says: both tensors, one dtype, the same sizes."""
    return (isinstance(dumped, torch.Tensor) and isinstance(got, torch.Tensor) and dumped.dtype == got.dtype
            and [str(d) for d in dumped.shape] == [str(d) for d in got.shape])


def _propagate_strides(gm, syms):
    """A dump without strides (print_readable's default): inputs are taken as contiguous, and every other tensor gets
    the strides torch's meta kernels give it from them (a permute's output is not contiguous), not contiguous ones.
    Where propagation fails or disagrees with the dump's shape or dtype, the dump's val stays."""
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp
    dumped = {n: n.meta.get("val") for n in gm.graph.nodes}
    try:
        inputs = [n.meta.get("val") for n in gm.graph.nodes if n.op == "placeholder"]
        FakeTensorProp(gm, mode=syms.fake_mode).propagate_dont_convert_inputs(*inputs)
    except Exception:
        pass
    for n, val in dumped.items():
        got = n.meta.get("val")
        if not _same_tensor(val, got):
            if val is None:
                n.meta.pop("val", None)
                continue
            n.meta["val"] = got = val
        if isinstance(got, torch.Tensor):
            n.meta["tensor_meta"] = _extract_tensor_metadata(got)


def propagate_node(n, syms):
    """The strides of one node of a stride-less dump, as _propagate_strides gives a whole graph's: its op run on its
    inputs' vals under the fake mode (a node an edit changed or added). Where that fails or disagrees with the dump's
    shape or dtype, the dump's val stays."""
    val = n.meta.get("val")
    if n.op != "call_function" or not isinstance(val, torch.Tensor):
        return
    try:
        args, kwargs = torch.fx.node.map_arg((n.args, n.kwargs), lambda a: a.meta.get("val"))
        with syms.fake_mode:
            got = n.target(*args, **kwargs)
    except Exception:
        return
    if _same_tensor(val, got):
        n.meta["val"] = got
        n.meta["tensor_meta"] = _extract_tensor_metadata(got)


# ----------------------------------------------------------------------------------------------------------------
# The canonical text compared node for node: names are left out (two tools name new nodes differently), node
# references are positions, lists and tuples print alike.


def _canon_arg(a, index):
    if isinstance(a, torch.fx.Node):
        return f"%{index[a]}"
    if isinstance(a, (list, tuple)):
        return "[" + ", ".join(_canon_arg(x, index) for x in a) + "]"
    if isinstance(a, dict):
        return "{" + ", ".join(f"{k}: {_canon_arg(v, index)}" for k, v in a.items()) + "}"
    if isinstance(a, bool) or a is None:
        return repr(a)
    if isinstance(a, int):
        return str(int(a))
    if isinstance(a, float):
        return repr(float(a))
    if isinstance(a, torch.dtype):
        return str(a)
    if isinstance(a, torch.device):
        return str(a.type)
    if isinstance(a, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return _target_text(a)
    if isinstance(a, torch.SymInt):
        return f"sym({a})"
    return repr(a)


def _target_text(t):
    if isinstance(t, torch._ops.OpOverload):
        return f"{t.namespace}.{t._opname}.{t._overloadname}"
    if isinstance(t, torch._ops.OpOverloadPacket):
        return f"{t._qualified_op_name.replace('::', '.')}"
    if isinstance(t, str):
        return t
    name = getattr(t, "__name__", repr(t))
    if getattr(operator, name, None) is t:
        return "operator." + name
    return f"{getattr(t, '__module__', '')}.{name}"


def _meta_text(v):
    if isinstance(v, torch.Tensor):
        return f"{str(v.dtype).replace('torch.', '')}{[str(d) for d in v.shape]}".replace("'", "")
    if isinstance(v, (tuple, list)):
        return "(" + ", ".join(_meta_text(x) for x in v) + ")"
    if v is None:
        return "?"
    return type(v).__name__


def canonical(graph, with_meta=False):
    """One line per node: `%i = op target(args, kwargs)`; placeholders keep their target (the input's name). With
    with_meta, each node also shows its meta["val"] as dtype[shape] ('?' without one)."""
    if isinstance(graph, torch.fx.GraphModule):
        graph = graph.graph
    index = {n: i for i, n in enumerate(graph.nodes)}
    lines = []
    for n in graph.nodes:
        if n.op == "placeholder":
            line = f"%{index[n]} = placeholder {n.target}"
        elif n.op == "output":
            lines.append(f"output {_canon_arg(n.args[0], index)}")
            continue
        else:
            args = ", ".join(_canon_arg(a, index) for a in n.args)
            kw = ", ".join(f"{k}={_canon_arg(v, index)}" for k, v in n.kwargs.items())
            line = f"%{index[n]} = {n.op} {_target_text(n.target)}({args}{', ' if kw else ''}{kw})"
        lines.append(f"{line} : {_meta_text(n.meta.get('val'))}" if with_meta else line)
    return lines


# ----------------------------------------------------------------------------------------------------------------
# Running a graph: inputs made from the placeholders' vals (symbols at their hints)


def _concrete(v, syms):
    if isinstance(v, torch.SymInt):
        return int(v.node.expr.subs({s: syms.hints[n] for n, s in syms.symbols.items()}))
    return int(v)


def make_inputs(gm, syms, seed=0):
    gen = torch.Generator().manual_seed(seed)
    out = []
    for n in gm.graph.nodes:
        if n.op != "placeholder":
            continue
        v = n.meta.get("val")
        if isinstance(v, torch.Tensor):
            shape = [_concrete(d, syms) for d in v.shape]
            if v.dtype.is_floating_point:
                t = torch.randn(shape, generator=gen, dtype=torch.float32).to(v.dtype)
            elif v.dtype == torch.bool:
                t = torch.randint(0, 2, shape, generator=gen).bool()
            elif v.dtype.is_complex:
                t = torch.randn(shape, generator=gen, dtype=v.dtype)
            else:
                t = torch.randint(0, 4, shape, generator=gen).to(v.dtype)
            out.append(t)
        elif isinstance(v, torch.SymInt):
            out.append(_concrete(v, syms))
        elif isinstance(v, (int, float, bool)):
            out.append(v)
        else:
            raise GraphLoadError(f"placeholder {n.name} has no val to make an input from")
    return out


def run(gm, inputs):
    """gm's outputs on copies of inputs (a graph with in-place ops must not change them for the next run)."""
    gm.recompile()
    with torch.no_grad():
        out = gm(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    return out


def _tolerance(x, y):
    """rtol for two outputs (atol is four times it): looser where either is a 16-bit float."""
    return 1e-2 if x.dtype in (torch.float16, torch.bfloat16) or y.dtype in (torch.float16, torch.bfloat16) else 1e-4


def compare_outputs(a, b):
    """(equal within the dtype's tolerance, max abs diff) for two pytrees of outputs."""
    la, lb = torch.utils._pytree.tree_leaves(a), torch.utils._pytree.tree_leaves(b)
    if len(la) != len(lb):
        return False, float("inf")
    worst, ok = 0.0, True
    for x, y in zip(la, lb):
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            if x.shape != y.shape:
                return False, float("inf")
            xd, yd = x.double(), y.double()
            diff = (xd - yd).abs()
            d = float(diff.max()) if diff.numel() else 0.0
            worst = max(worst, d)
            tol = _tolerance(x, y)
            if not torch.allclose(xd, yd, rtol=tol, atol=tol * 4, equal_nan=True):
                ok = False
        elif x != y:
            return False, float("inf")
    return ok, worst


def first_difference(got, expected):
    """Where two pytrees of outputs differ first, as fxscope's runtime says it: 'output k differs first at [i, j]: A
    against B' (A from `got`), under compare_outputs' tolerances."""
    la, lb = torch.utils._pytree.tree_leaves(got), torch.utils._pytree.tree_leaves(expected)
    if len(la) != len(lb):
        return f"{len(la)} outputs against {len(lb)}"
    for k, (x, y) in enumerate(zip(la, lb)):
        if not (isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor)):
            if x != y:
                return f"output {k} differs: {x} against {y}"
            continue
        if x.shape != y.shape:
            return f"output {k} differs in shape"
        tol = _tolerance(x, y)
        close = torch.isclose(x.double(), y.double(), rtol=tol, atol=tol * 4, equal_nan=True)
        if not bool(close.all()):
            index = tuple(int(i) for i in (~close).nonzero()[0])
            return f"output {k} differs first at {list(index)}: {float(x[index]):.6g} against {float(y[index]):.6g}"
    return "outputs differ"
