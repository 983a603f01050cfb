"""Inductor's PatternExpr objects as JSON, exactly as torch built them, for fxscope's C++ matcher (host.py).

A pattern is a DAG: a sub-pattern shared by two parents (the same KeywordArg used twice) must stay one object, or the
matcher's memo could bind it to two values. So every PatternExpr is written once into "exprs", after the expressions
it refers to, and referred to by index:

  {"root": 3, "exprs": [EXPR, ...]}
  EXPR  {"kind": "call" | "call_varargs" | "arg" | "ignored" | "keyword_arg" | "exclusive_keyword_arg" | "list_of"
                 | "multi_output" | "repeated",
         "op": "call_function" | "call_method" | "call_module",        call kinds
         "fns": ["aten.add.Tensor", ...],                             call kinds, as torch's fns list (packets expanded)
         "args": [VALUE, ...], "kwargs": [[name, VALUE], ...],         call
         "users": 1 | -1 (MULTIPLE),                                   call kinds
         "name": "x",                                                  keyword args
         "children": [index | null, ...], "partial": false}            list_of, multi_output, repeated
  VALUE {"expr": index} | {"literal": ARGUMENT} | {"list": [VALUE...]} | {"tuple": [VALUE...]}

ARGUMENT is fxscope's argument encoding (_serialize.argument).
"""

import torch
import torch._inductor.pattern_matcher as _pm

from . import _serialize


class PatternEncodeError(ValueError):
    pass


def target_name(fn):
    """A pattern fn as fxscope names graph targets (canonicalTarget): aten.add.Tensor, operator.getitem."""
    if isinstance(fn, str):
        return fn
    if isinstance(fn, type):  # call_module patterns name the module class
        return fn.__name__
    name = _serialize.qualified_name(fn)
    return name[len("torch.ops."):] if name.startswith("torch.ops.") else name


def _users(u):
    return -1 if isinstance(u, _pm.Multiple) else int(u)


class _Encoder:
    def __init__(self):
        self.exprs = []
        self.index = {}

    def expr(self, p):
        key = id(p)
        if key in self.index:
            return self.index[key]
        encoded = self._encode(p)  # children first: every index refers to an earlier expression
        self.index[key] = len(self.exprs)
        self.exprs.append(encoded)
        return self.index[key]

    def value(self, v):
        if isinstance(v, _pm.PatternExpr):
            return {"expr": self.expr(v)}
        if isinstance(v, list):
            return {"list": [self.value(x) for x in v]}
        if isinstance(v, tuple):
            return {"tuple": [self.value(x) for x in v]}
        if isinstance(v, dict):
            raise PatternEncodeError(f"a dict argument in a pattern is not supported: {v!r}")
        return {"literal": _serialize.argument(v, {})}

    def _encode(self, p):
        if isinstance(p, _pm.MultiOutputPattern):
            return {"kind": "multi_output", "children": [None if o is None else self.expr(o) for o in p.outputs]}
        if isinstance(p, _pm.RepeatedExpr):
            return {"kind": "repeated", "children": [self.expr(p.inner_pattern)]}
        if isinstance(p, _pm.ListOf):
            return {"kind": "list_of", "children": [self.expr(p.pattern)], "partial": bool(p.partial)}
        if isinstance(p, _pm.ExclusiveKeywordArg):
            return {"kind": "exclusive_keyword_arg", "name": p.name}
        if isinstance(p, _pm.KeywordArg):
            return {"kind": "keyword_arg", "name": p.name}
        if isinstance(p, _pm.Ignored):
            return {"kind": "ignored"}
        if isinstance(p, _pm.Arg):
            return {"kind": "arg"}
        if isinstance(p, _pm._TargetArgsExpr):
            return {"kind": "call", "op": p.op, "fns": [target_name(f) for f in p.fns],
                    "args": [self.value(a) for a in p.args],
                    "kwargs": [[k, self.value(v)] for k, v in p.kwargs.items()], "users": _users(p.users)}
        if isinstance(p, _pm._TargetExprVarArgs):
            return {"kind": "call_varargs", "op": p.op, "fns": [target_name(f) for f in p.fns],
                    "users": _users(p.users)}
        raise PatternEncodeError(f"{type(p).__name__} is not a pattern kind fxscope's matcher knows: {p!r}")


def encode(pattern):
    """The JSON form of one PatternExpr (see the module docstring)."""
    enc = _Encoder()
    root = enc.expr(pattern)
    return {"root": root, "exprs": enc.exprs}
