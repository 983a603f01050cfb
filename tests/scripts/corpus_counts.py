#!/usr/bin/env python3
"""Checks fxscope's node counts for every corpus file against an independent count.

The counts here never use fxscope's parsers: readable code is counted with Python's own `ast`
module, print(gm.graph) text and TorchAir dumps with line patterns (FORMATS.md A and D), TORCH_TRACE
logs by splitting records and counting each payload with `ast`. fxscope's counts come from
`fxscope-cli info --json`. Usage: corpus_counts.py FXSCOPE_CLI CORPUS_DIR
"""
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

GRAPH_RECORDS = {
    "dynamo_output_graph", "aot_forward_graph", "aot_backward_graph", "aot_joint_graph", "aot_inference_graph",
    "inductor_pre_grad_graph", "inductor_post_grad_graph", "compiled_autograd_graph", "optimize_ddp_split_graph",
    "optimize_ddp_split_child", "exported_program",
}
GRAPH_ARTIFACTS = {"before_pre_grad_graph", "after_pre_grad_graph", "before_post_grad_graph", "after_post_grad_graph"}


def forward_function(tree):
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "forward":
                    return item
        if isinstance(node, ast.FunctionDef) and node.name == "forward":
            return node
    raise ValueError("no forward function")


def is_pytree_flatten(stmt):
    return isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and \
        "tree_flatten_spec" in ast.unparse(stmt.value.func)


def count_readable(text):
    """len(graph.nodes) of the top-level graph: inputs + one per computing statement + the output."""
    if text.lstrip().startswith("ExportedProgram:"):
        body = text.split("\n", 1)[1]
        body = body.split("\nGraph signature:")[0]
        text = "\n".join(line[4:] for line in body.split("\n"))
    text = text.replace("class <lambda>(", "class _lambda(")
    # PyTorch 2.0/2.1 printed annotations unquoted (x: f32[8] = ...), which is not valid Python: quote them.
    text = re.sub(r'(\w): ([a-z][a-z0-9]*\[[^\]\n]*\](?:\[[^\]\n]*\])?[\w:]*)(?=( = |, |\)))', r'\1: "\2"', text)
    fn = forward_function(ast.parse(text))
    flatten = [s for s in fn.body if is_pytree_flatten(s)]
    if flatten:
        target = flatten[0].targets[0]
        inputs = len(target.elts) if isinstance(target, ast.Tuple) else 1
    else:
        inputs = len(fn.args.args) - 1 + len(fn.args.kwonlyargs) + (1 if fn.args.vararg else 0)
    nodes = 0
    for stmt in fn.body:
        if isinstance(stmt, ast.Return):
            nodes += 1
        elif isinstance(stmt, ast.AugAssign):
            nodes += 1
        elif isinstance(stmt, ast.AnnAssign):
            nodes += stmt.value is not None
        elif isinstance(stmt, ast.Assign):
            value = stmt.value
            if is_pytree_flatten(stmt):
                continue
            if isinstance(value, ast.Name):  # l_x_ = L_x_ aliases, in-place result aliases
                continue
            if isinstance(value, ast.Constant) and value.value is None:  # x = y = None clean-ups
                continue
            nodes += 1
        elif isinstance(stmt, ast.Expr) and not isinstance(stmt.value, ast.Constant):
            nodes += 1
    return inputs + nodes


def count_fx_text(text):
    """One per '%name :' node line, plus each 'return' line (the output node)."""
    node_lines = re.findall(r"^[ #]*%[A-Za-z_][A-Za-z0-9_]* : ", text, re.M)
    returns = re.findall(r"^[ #]*return\b", text, re.M)
    return len(node_lines) + len(returns)


def count_torchair(text):
    """FX Code statements, plus inputs (ge.Data node names and names used but never defined), plus the output."""
    defined, used = [], set()
    for line in re.findall(r"^## FX Code: (.*)$", text, re.M):
        lhs, rhs = line.split(" = ", 1)
        defined.append(lhs.split(":")[0].strip())
        args = rhs[rhs.index("(") + 1:]
        # Drop the annotations (": torch.float32[s0, 64]npu:0", ': "Sym(s2)"') so only argument names remain.
        args = re.sub(r': torch\.\w+\[[^\]]*\][\w:]*|: "[^"]*"', "", args)
        used.update(re.findall(r"(?<![\w.'\"])([A-Za-z_]\w*)(?=\s*[:,)])", args))
    used -= {"True", "False", "None"}
    inputs = set(re.findall(r'ge\.Data\([^\n]*node_name="([^"]+)"', text)) | (used - set(defined))
    return len(defined) + len(inputs) + 1


def count_torch_trace(text):
    """Node counts of every graph-bearing record's payload, in file order."""
    counts = []
    lines = text.split("\n")
    glog = re.compile(r"^[VIWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^\]]*\] (\{.*)$")
    i = 0
    while i < len(lines):
        m = glog.match(lines[i])
        i += 1
        if not m:
            continue
        payload = []
        # Payload lines start with a TAB; blank lines inside a payload may have lost theirs.
        while i < len(lines) and not glog.match(lines[i]):
            payload.append(lines[i][1:] if lines[i].startswith("\t") else lines[i])
            i += 1
        try:
            meta = json.loads(m.group(1))
        except json.JSONDecodeError:
            continue
        kind = next(iter(meta))
        if kind == "artifact":
            if meta["artifact"].get("name") not in GRAPH_ARTIFACTS:
                continue
        elif kind not in GRAPH_RECORDS:
            continue
        counts.append(count_readable("\n".join(payload)))
    return counts


def independent_counts(path):
    text = path.read_text()
    folder = path.parent.name
    if folder == "fx_text":
        if "# Graph fragment" in text:
            return None  # fragments: node counts are checked by tst_fx_text_parser
        return [count_fx_text(text)]
    if folder == "torchair_py":
        return [count_torchair(text)]
    if folder == "torch_trace":
        return count_torch_trace(text)
    return [count_readable(text)]


def main():
    cli, corpus = sys.argv[1], Path(sys.argv[2])
    passed = failed = 0
    for path in sorted(corpus.rglob("*")):
        if not path.is_file() or path.suffix not in {".py", ".txt", ".log"} or path.name.startswith("README"):
            continue
        expected = independent_counts(path)
        if expected is None:
            continue
        proc = subprocess.run([cli, "info", "--json", str(path)], capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"FAIL {path.name}: fxscope-cli exit {proc.returncode}: {proc.stderr.strip()}")
            failed += 1
            continue
        actual = [g["nodes"] for g in json.loads(proc.stdout)["graphs"]]
        if actual == expected:
            passed += 1
            print(f"ok   {path.parent.name}/{path.name}: {actual if len(actual) > 1 else actual[0]}")
        else:
            failed += 1
            print(f"FAIL {path.parent.name}/{path.name}: fxscope {actual}, independent count {expected}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
