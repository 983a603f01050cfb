"""An extra_check explained from its real run: the lines it executed, with the values of their sub-expressions.

traced_call(check, match) runs the user's check once, as Inductor runs it, with a line tracer on the check's own
frame only. At each `if`/`return`/`assert` line it reads the values of the test's operands in the frame (only
expressions without side effects: names, attributes, subscripts, arithmetic, and calls of a few pure builtins and
tensor-size methods), and after an assignment the values it bound, in the manner of pytest's assertion rewriting:

  hidden = x.meta['val'].shape[-1] → hidden = 4096
  return hidden == 7168 → False because hidden is 4096
"""

import ast
import functools
import inspect
import sys
import textwrap

_PURE_FUNCTIONS = {"len", "isinstance", "str", "int", "float", "bool", "abs", "min", "max", "all", "any", "tuple",
                   "list", "getattr", "hasattr", "type", "round", "sorted", "set", "repr"}
_PURE_METHODS = {"size", "dim", "stride", "get", "numel", "is_contiguous", "keys", "values", "items", "ndimension",
                 "startswith", "endswith", "element_size", "is_floating_point"}
_MAX_LINES = 64


def _short(value, limit=100):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _safe(node):
    """True when evaluating the expression again cannot change anything."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.NamedExpr, ast.Lambda, ast.Yield, ast.YieldFrom, ast.Await, ast.ListComp,
                            ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return False
        if isinstance(sub, ast.Call):
            f = sub.func
            if isinstance(f, ast.Name) and f.id in _PURE_FUNCTIONS:
                continue
            if isinstance(f, ast.Attribute) and f.attr in _PURE_METHODS:
                continue
            return False
    return True


@functools.lru_cache(maxsize=256)
def _source(code):
    return _Source(code)  # read and parsed once per check function, not per candidate


class _Source:
    """The check's statements by line, from its source."""

    def __init__(self, code):
        self.ok = False
        try:
            lines, first = inspect.getsourcelines(code)
        except (OSError, TypeError):
            return
        self.text = textwrap.dedent("".join(lines))
        try:
            tree = ast.parse(self.text)
        except SyntaxError:
            return
        self.offset = first - 1
        self.codes = {}
        self.statements = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.If, ast.Return, ast.Assert, ast.Assign, ast.AnnAssign, ast.AugAssign,
                                 ast.While)):
                self.statements.setdefault(node.lineno + self.offset, node)
        self.ok = True

    def compiled(self, expr):
        code = self.codes.get(id(expr))  # the nodes live as long as this source
        if code is None:
            code = self.codes[id(expr)] = compile(ast.Expression(expr), "<fxscope extra_check trace>", "eval")
        return code

    def segment(self, node):
        return ast.get_source_segment(self.text, node) or ast.unparse(node)


def _operands(expr):
    """The sub-expressions worth naming in an explanation: a comparison's sides, a boolean operation's values,
    a negation's operand (constants left out)."""
    if isinstance(expr, ast.Compare):
        items = [expr.left, *expr.comparators]
    elif isinstance(expr, ast.BoolOp):
        items = []
        for v in expr.values:
            items.extend(_operands(v) or [v])
    elif isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        items = _operands(expr.operand) or [expr.operand]
    else:
        items = []
    return [e for e in items if not isinstance(e, ast.Constant)]


class _Explainer:
    def __init__(self, source, frame):
        self.source = source
        self.frame = frame

    def value(self, expr):
        return eval(self.source.compiled(expr), self.frame.f_globals, dict(self.frame.f_locals))

    def explain(self, expr, result=None, known=False):
        """'TEXT → VALUE because A is a, B is b' for an expression without side effects; None otherwise."""
        if not _safe(expr):
            if not known:
                return None
            return f"{self.source.segment(expr)} → {_short(result)}"
        try:
            if not known:
                result = self.value(expr)
            parts = []
            for operand in _operands(expr):
                if isinstance(operand, (ast.Compare, ast.BoolOp)):
                    continue
                text, value = self.source.segment(operand), _short(self.value(operand))
                if text != value:  # a literal list of dtypes says nothing more as its value
                    parts.append(f"{text} is {value}")
        except Exception:
            return f"{self.source.segment(expr)} → {_short(result)}" if known else None
        text = f"{self.source.segment(expr)} → {_short(result)}"
        return text + (" because " + ", ".join(parts) if parts else "")


def _target_names(stmt):
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    names = []
    for t in targets:
        for sub in ast.walk(t):
            if isinstance(sub, ast.Name):
                names.append(sub.id)
    return names


def traced_call(check, *args):
    """(what check(*args) returned, the explanation lines). What the check raises propagates unchanged."""
    fn = check
    while isinstance(fn, functools.partial):
        fn = fn.func
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    source = _source(code) if code is not None else None
    if source is None or not source.ok:
        return check(*args), []
    lines = []
    pending = []  # assignments whose values are read at the next event

    def flush(frame):
        while pending:
            stmt = pending.pop()
            values = [f"{name} = {_short(frame.f_locals[name])}" for name in _target_names(stmt)
                      if name in frame.f_locals]
            if values:
                lines.append(f"{source.segment(stmt).splitlines()[0]} → {', '.join(values)}")

    def local(frame, event, arg):
        if len(lines) >= _MAX_LINES:
            return None
        flush(frame)
        stmt = source.statements.get(frame.f_lineno)
        if event == "line" and stmt is not None:
            explainer = _Explainer(source, frame)
            if isinstance(stmt, (ast.If, ast.While, ast.Assert)):
                text = explainer.explain(stmt.test)
                if text:
                    lines.append(("assert " if isinstance(stmt, ast.Assert) else "") + text)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                pending.append(stmt)
        elif event == "return" and isinstance(stmt, ast.Return) and stmt.value is not None:
            text = _Explainer(source, frame).explain(stmt.value, arg, known=True)
            if text:
                lines.append("return " + text)
        return local

    def global_tracer(frame, event, arg):
        return local if frame.f_code is code else None

    previous = sys.gettrace()
    sys.settrace(global_tracer)
    try:
        result = check(*args)
    finally:
        sys.settrace(previous)
    return result, lines
