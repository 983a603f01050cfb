"""torch.fx graphs to fxscope's JSON (format version 1, defined by optimizer/io/fxscope_json.cpp).

GRAPH = {"nodes": [{"name", "op", "target", "args", "kwargs", "meta"}], "subgraphs": [{"name", "graph"}],
         "symbol_hints": {"s0": 8}}    (the size each symbol of a dynamic shape had when the graph was traced)
Arguments: JSON scalars map directly (floats always carry '.' or an exponent, as Python's json writes them); every
other kind is a one-key object ({"node": name}, {"list"}, {"tuple"}, {"dict"}, {"dtype"}, {"device"}, {"layout"},
{"memory_format"}, {"slice"}, {"ellipsis"}, {"sym"}, {"repr"}, {"float": "inf"|"-inf"|"nan"}).
Meta: "val" ({"tensor": {dtype, shape, stride, device}}, {"sym_int"}, {"sym_float"}, {"sym_bool"}, {"tuple"}),
"source" {file, line, function, code}, "stack_trace", "nn_module_stack" [{key, path, type}], "type", "extra".
"""

import builtins
import contextlib
import enum
import math
import operator
import re
import types

import torch
import torch.fx

FORMAT_VERSION = 1

# Meta keys written in their own fields, or too bulky / not meaningful outside the process.
_HANDLED_META = {"val", "example_value", "tensor_meta", "stack_trace", "nn_module_stack", "source"}
_SKIPPED_META = {"grapharg", "from_node", "unbacked_bindings", "eager_input_vals", "autograd_backward_hooks",
                 "fwd_source_fn_stack", "fwd_nn_module_stack", "_fxscope_source"}

_SYM_TYPES = (torch.SymInt, torch.SymFloat, torch.SymBool)


def qualified_name(obj):
    """The name of a function, op overload or class as print(gm.graph) writes targets: torch.ops.aten.add.Tensor,
    operator.getitem, torch.nn.functional.relu."""
    if isinstance(obj, str):
        return obj
    if isinstance(obj, torch._ops.OpOverload):
        packet = obj.overloadpacket
        ns = getattr(obj, "namespace", None) or packet._qualified_op_name.split("::")[0]
        return f"torch.ops.{ns}.{packet.__name__}.{obj._overloadname}"
    if isinstance(obj, torch._ops.OpOverloadPacket):
        ns, name = obj._qualified_op_name.split("::")
        return f"torch.ops.{ns}.{name}"
    if getattr(builtins, getattr(obj, "__name__", ""), None) is obj:
        return obj.__name__
    if getattr(operator, getattr(obj, "__name__", ""), None) is obj:
        return "operator." + obj.__name__
    try:
        name = torch.fx.node._get_qualified_name(obj)
    except Exception:
        module = getattr(obj, "__module__", None) or type(obj).__module__
        name = f"{module}.{getattr(obj, '__qualname__', getattr(obj, '__name__', repr(obj)))}"
    # FX reports a few builtins under their implementation module (_operator.getitem).
    return re.sub(r"^_operator\.", "operator.", name)


def _dim(d):
    if isinstance(d, int):
        return int(d)
    # A SymInt: its sympy expression ("s0", "2*s0"); a SymInt with a known value prints as the value.
    text = str(d)
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def value_meta(v):
    """node.meta["val"] as fxscope JSON, or None when the value has no form there (None, Python scalars, ...)."""
    if isinstance(v, torch.Tensor):
        t = {"dtype": str(v.dtype), "shape": [_dim(d) for d in v.shape]}
        try:
            if v.layout == torch.strided:
                t["stride"] = [_dim(d) for d in v.stride()]
        except (RuntimeError, NotImplementedError):
            pass
        t["device"] = str(v.device)
        return {"tensor": t}
    if isinstance(v, _SYM_TYPES):
        kind = {"SymInt": "sym_int", "SymFloat": "sym_float", "SymBool": "sym_bool"}[type(v).__name__]
        return {kind: str(v)}
    if isinstance(v, (list, tuple)):
        items = [value_meta(x) for x in v]
        if all(item is not None for item in items):
            return {"tuple": items}
    return None


def tensor_metadata_meta(tm):
    """A val from torch.fx.passes.shape_prop.TensorMetadata (no device there)."""
    if hasattr(tm, "shape") and hasattr(tm, "dtype"):
        t = {"dtype": str(tm.dtype), "shape": [_dim(d) for d in tm.shape]}
        if getattr(tm, "stride", None) is not None:
            t["stride"] = [_dim(d) for d in tm.stride]
        t["device"] = ""
        return {"tensor": t}
    if isinstance(tm, (list, tuple)):
        items = [tensor_metadata_meta(x) for x in tm]
        if all(item is not None for item in items):
            return {"tuple": items}
    return None


def _float(x):
    if math.isfinite(x):
        return float(x)
    return {"float": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}


def argument(a, names):
    """One FX argument in fxscope's encoding; `names` maps nodes to the names written for them."""
    if isinstance(a, torch.fx.Node):
        return {"node": names[a]}
    if a is None or isinstance(a, (bool, str)):
        return a
    if isinstance(a, int):
        return int(a)
    if isinstance(a, float):
        return _float(a)
    if isinstance(a, torch.dtype):
        return {"dtype": str(a)}
    if isinstance(a, torch.device):
        return {"device": str(a)}
    if isinstance(a, torch.layout):
        return {"layout": str(a)}
    if isinstance(a, torch.memory_format):
        return {"memory_format": str(a)}
    if isinstance(a, _SYM_TYPES):
        return {"sym": str(a)}
    if isinstance(a, slice):
        return {"slice": [argument(a.start, names), argument(a.stop, names), argument(a.step, names)]}
    if a is Ellipsis:
        return {"ellipsis": True}
    if isinstance(a, tuple):  # includes torch.Size
        return {"tuple": [argument(x, names) for x in a]}
    if isinstance(a, list):  # includes FX's immutable_list
        return {"list": [argument(x, names) for x in a]}
    if isinstance(a, dict):
        return {"dict": [[str(k), argument(v, names)] for k, v in a.items()]}
    if isinstance(a, (torch._ops.OpOverload, torch._ops.OpOverloadPacket, types.FunctionType,
                      types.BuiltinFunctionType)):
        return {"repr": qualified_name(a)}
    if isinstance(a, enum.Enum):
        return {"repr": f"{type(a).__qualname__}.{a.name}"}
    return {"repr": repr(a)}


def _jsonable(v, depth=0):
    """A JSON form of a meta value for "extra", or _SKIP when it has none worth keeping."""
    if depth > 8:
        return _SKIP
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, enum.Enum):
        return f"{type(v).__qualname__}.{v.name}"
    if isinstance(v, (torch._ops.OpOverload, torch._ops.OpOverloadPacket, types.FunctionType,
                      types.BuiltinFunctionType, type)):
        return qualified_name(v)
    if isinstance(v, (list, tuple)):
        items = [_jsonable(x, depth + 1) for x in v]
        return _SKIP if any(x is _SKIP for x in items) else items
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            j = _jsonable(x, depth + 1)
            if j is not _SKIP:
                out[str(k)] = j
        return out
    return _SKIP


_SKIP = object()


def _module_type_name(t):
    if isinstance(t, type):
        return f"{t.__module__}.{t.__qualname__}"
    return str(t)


def nn_module_stack(stack):
    """node.meta["nn_module_stack"] ({key: (path, type)}, outermost first) as [{key, path, type}]."""
    out = []
    for key, entry in stack.items():
        if isinstance(entry, (tuple, list)) and len(entry) >= 2:
            path, mtype = entry[0], entry[1]
        else:
            path, mtype = str(entry), ""
        out.append({"key": str(key), "path": str(path), "type": _module_type_name(mtype)})
    return out


_FRAME_RE = re.compile(r'File "([^"]+)", line (\d+), in ([^\n]+)\n([^\n]*)')


def source_from_stack_trace(trace):
    """The innermost frame of a Python-formatted stack trace: {file, line, function, code}."""
    frames = _FRAME_RE.findall(trace or "")
    if not frames:
        return None
    file, line, function, code = frames[-1]
    return {"file": file, "line": int(line), "function": function.strip(), "code": code.strip()}


def _symbols_in(value, out):
    """Adds {symbol: hint} for the backed symbols of value (a SymInt, a tensor with symbolic sizes, nested tuples):
    the size ShapeEnv recorded for each when the graph was traced (Dynamo's real example inputs)."""
    if isinstance(value, torch.Tensor):
        dims = list(value.shape)
        if value.layout == torch.strided:
            with contextlib.suppress(RuntimeError, NotImplementedError):
                dims += list(value.stride())
        for d in dims:
            _symbols_in(d, out)
    elif isinstance(value, _SYM_TYPES):
        sym_node = value.node
        shape_env = getattr(sym_node, "shape_env", None)
        # backed_var_to_val in newer torch (2.13 deprecates var_to_val, the only name in older 2.x).
        known = getattr(shape_env, "backed_var_to_val", None)
        if known is None:
            known = getattr(shape_env, "var_to_val", None) or {}
        for symbol in getattr(sym_node.expr, "free_symbols", ()):
            hint = known.get(symbol)
            if hint is not None and getattr(hint, "is_integer", False):
                out[str(symbol)] = int(hint)
    elif isinstance(value, (list, tuple)):
        for x in value:
            _symbols_in(x, out)


def symbol_hints(graph):
    """{symbol: size} for every backed symbol in the graph's values (meta val / example_value), sorted by name."""
    hints = {}
    for n in graph.nodes:
        for key in ("val", "example_value"):
            if key in n.meta:
                _symbols_in(n.meta[key], hints)
    return dict(sorted(hints.items(), key=lambda kv: (re.sub(r"\d+$", "", kv[0]), len(kv[0]), kv[0])))


def _output_val(node):
    """The output node's val, made from the vals of the nodes it returns (FX leaves it unset)."""

    def val_of(a):
        if isinstance(a, torch.fx.Node):
            for key in ("val", "example_value"):
                v = value_meta(a.meta.get(key))
                if v is not None:
                    return v
            return None
        if isinstance(a, (list, tuple)):
            items = [val_of(x) for x in a]
            return {"tuple": items} if all(item is not None for item in items) else None
        return None

    return val_of(node.args[0]) if node.args else None


def node_meta(node, observed=None):
    """The fxscope meta object of one node. `observed` optionally maps nodes to what running the graph showed
    ({"val": ...} or {"value": scalar}, see _tracing.encode_observed); it fills in what node.meta lacks."""
    meta = {}
    m = node.meta
    seen = (observed or {}).get(node, {})
    val = None
    for key in ("val", "example_value"):
        if key in m:
            val = value_meta(m[key])
            if val is not None:
                break
    if val is None:
        val = seen.get("val")
    if val is None and "tensor_meta" in m:
        val = tensor_metadata_meta(m["tensor_meta"])
    if val is None and node.op == "output":
        val = _output_val(node)
    if val is not None:
        meta["val"] = val
    trace = m.get("stack_trace")
    source = m.get("_fxscope_source") or source_from_stack_trace(trace)
    if source:
        meta["source"] = source
    if trace:
        meta["stack_trace"] = trace
    if m.get("nn_module_stack"):
        meta["nn_module_stack"] = nn_module_stack(m["nn_module_stack"])
    if node.type is not None:
        meta["type"] = _module_type_name(node.type)
    extra = {}
    for key, v in m.items():
        if key in _HANDLED_META or key in _SKIPPED_META:
            continue
        j = _jsonable(v)
        if j is not _SKIP:
            extra[str(key)] = j
    # A Python scalar result (sym_size on static shapes, item()) has no "val" form; keep its value here.
    if "val" not in meta:
        raw = m.get("val", seen.get("value"))
        if isinstance(raw, (bool, int, float)) and not (isinstance(raw, float) and not math.isfinite(raw)):
            extra["value"] = raw
    if extra:
        meta["extra"] = extra
    return meta


def graph_json(graph, observed=None, rename=None, order=None):
    """A torch.fx.Graph as an fxscope GRAPH object. `rename` ({node: name}) overrides written names (placeholders
    renamed to a function's argument names, for instance); references follow the renaming. `order`: the nodes in
    the order to write them, when not the graph's own."""
    if isinstance(graph, torch.fx.GraphModule):
        owner, graph = graph, graph.graph
    else:
        owner = getattr(graph, "owning_module", None)
    names = {n: n.name for n in graph.nodes}
    if rename:
        names.update(rename)
        if len(set(names.values())) != len(names):
            raise ValueError("renaming would give two nodes the same name")
    nodes = []
    for n in (graph.nodes if order is None else order):
        if n.op == "call_function":
            target = qualified_name(n.target)
        elif n.op == "placeholder" and rename and n in rename:
            target = names[n]  # a placeholder's target is its argument name, so it follows the renaming
        else:
            target = str(n.target)
        entry = {
            "name": names[n],
            "op": n.op,
            "target": target,
            "args": [argument(a, names) for a in n.args],
            "kwargs": {str(k): argument(v, names) for k, v in n.kwargs.items()},
        }
        meta = node_meta(n, observed)
        if meta:
            entry["meta"] = meta
        nodes.append(entry)
    out = {"nodes": nodes}
    # Higher-order ops (cond, map, wrap, flex attention) keep their bodies as GraphModule attributes.
    subgraphs = []
    if owner is not None:
        for n in graph.nodes:
            if n.op == "get_attr":
                try:
                    attr = operator.attrgetter(n.target)(owner)
                except AttributeError:
                    continue
                if isinstance(attr, torch.fx.GraphModule):
                    subgraphs.append({"name": str(n.target), "graph": graph_json(attr)})
    if subgraphs:
        out["subgraphs"] = subgraphs
    hints = symbol_hints(graph)
    if hints:
        out["symbol_hints"] = hints
    return out


def document(graphs, **extra):
    """A whole fxscope JSON document. `graphs`: [{"name", "kind", "graph", ...}]; extra top-level keys are kept
    (the C++ reader ignores keys it does not know)."""
    doc = {"fxscope": FORMAT_VERSION}
    doc.update(extra)
    doc["graphs"] = graphs
    return doc
