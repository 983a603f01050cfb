"""register_replacement's check_fn traces search_fn (and replace_fn, once it accepts) with each match's values: two
make_fx traces per candidate, most of what a check costs. A trace is a function of the values' metadata alone, so
the host keeps each trace by (function, metadata of every argument) and gives it again to the next match with the
same: torch's own graph for those inputs, made once. Traces with symbolic sizes are always made afresh (a trace
can add guards to the shared ShapeEnv, and Inductor's later matches see them)."""

import functools

import torch

_MAX_TRACES = 512  # per pattern: past this the memo starts over


def _key(value):
    """What a trace reads of one argument, hashable; None when it cannot be told exactly (symbolic sizes, objects)."""
    if isinstance(value, torch.Tensor):
        dims = (*value.shape, *value.stride(), value.storage_offset())
        if not all(type(d) is int for d in dims):
            return None
        return ("tensor", tuple(value.shape), value.stride(), value.storage_offset(), value.dtype, value.device,
                value.requires_grad, getattr(value, "fake_mode", None))
    if value is None or type(value) in (bool, int, str):
        return (type(value), value)
    if type(value) is float:
        return (float, repr(value))  # -0.0 and nan told apart
    if isinstance(value, (list, tuple)):
        items = tuple(_key(v) for v in value)
        return None if None in items else (type(value), items)
    return None


def memoize(trace_fn):
    traces = {}

    @functools.wraps(trace_fn)
    def trace(fn, args, *rest, **kwargs):
        key = _key(list(args))
        if key is None or rest:
            return trace_fn(fn, args, *rest, **kwargs)
        key = (fn, key, tuple(sorted(kwargs.items(), key=lambda kv: kv[0])))
        try:
            hash(key)
        except TypeError:
            return trace_fn(fn, args, **kwargs)
        if key not in traces:
            if len(traces) >= _MAX_TRACES:
                traces.clear()
            traces[key] = trace_fn(fn, args, **kwargs)
        return traces[key]

    trace._fxscope_memo = traces
    return trace


def install(check_fn):
    """Makes the check_fn of register_replacement trace through a memo (its closure's trace_fn); other checks
    (a register_graph_pattern's own) are left as they are. True when installed."""
    code, cells = getattr(check_fn, "__code__", None), getattr(check_fn, "__closure__", None)
    if code is None or not cells or "trace_fn" not in code.co_freevars:
        return False
    cell = cells[code.co_freevars.index("trace_fn")]
    if not hasattr(cell.cell_contents, "_fxscope_memo"):
        cell.cell_contents = memoize(cell.cell_contents)
    return True
