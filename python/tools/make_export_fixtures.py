#!/usr/bin/env python3
"""Builds torch.export serialized ExportedProgram fixtures for fxscope's tests, from the schema alone.

These are the schema-built fixtures of error cases and older schema forms (fixtures that torch 2.13 itself wrote
are made by make_torch_fixtures.py into tests/data/torch2/). The programs are written by hand following torch/_export/serde/schema.py as summarised in
docs/formats.md section C (SCHEMA_VERSION 8.17): unions as one-key objects, structs with
every field except those whose None default is unset, enums as integers, non-finite floats as the
strings "Infinity", "-Infinity" and "NaN".

Writes tests/data/export/<name>.json, <name>.pt2 (PT2 archive layout: <name>/models/model.json) and
<name>.legacy.pt2 (2023 torch.export.save layout: serialized_exported_program.json), plus a few
archives for error handling. Standard library only; output is byte-for-byte reproducible.

    python3 python/tools/make_export_fixtures.py [OUTPUT_DIR]
"""

import json
import os
import struct
import sys
import zipfile
import zlib

SCHEMA_VERSION = {"major": 8, "minor": 17}

# ScalarType, Layout, MemoryFormat, ArgumentKind (schema.py)
LONG, HALF, FLOAT, BOOL = 5, 6, 7, 12
STRIDED = 7
CONTIGUOUS_FORMAT = 1
POSITIONAL, KEYWORD = 1, 2

FIXED_DATE = (1980, 1, 1, 0, 0, 0)


# ----------------------------------------------------------------------------------------- building blocks

def tensor(name):
    return {"as_tensor": {"name": name}}


def named(name, arg, kind=POSITIONAL):
    return {"name": name, "arg": arg, "kind": kind}


def sym_int(value, hint=None):
    """SymInt: a concrete {"as_int"} or a symbolic {"as_expr": SymExpr}."""
    if isinstance(value, int):
        return {"as_int": value}
    expr = {"expr_str": value}
    if hint is not None:
        expr["hint"] = {"as_int": hint}
    return {"as_expr": expr}


def contiguous_strides(sizes):
    strides, step = [], 1
    for s in reversed(sizes):
        strides.append(step)
        step *= s
    return list(reversed(strides))


def tensor_meta(sizes, dtype=FLOAT, strides=None, device="cpu", index=None, requires_grad=False):
    if strides is None:
        strides = contiguous_strides(sizes)
    dev = {"type": device}
    if index is not None:
        dev["index"] = index
    return {
        "dtype": dtype,
        "sizes": [sym_int(s) for s in sizes],
        "requires_grad": requires_grad,
        "device": dev,
        "strides": [sym_int(s) for s in strides],
        "storage_offset": sym_int(0),
        "layout": STRIDED,
    }


def node(target, inputs, outputs, metadata=None):
    return {"target": target, "inputs": inputs, "outputs": outputs, "metadata": metadata or {}}


def graph(inputs, outputs, nodes, tensor_values, sym_int_values=None, sym_bool_values=None,
          is_single_tensor_return=False):
    return {
        "inputs": inputs,
        "outputs": outputs,
        "nodes": nodes,
        "tensor_values": tensor_values,
        "sym_int_values": sym_int_values or {},
        "sym_bool_values": sym_bool_values or {},
        "is_single_tensor_return": is_single_tensor_return,
        "custom_obj_values": {},
        "sym_float_values": {},
    }


def tree_spec(n_inputs):
    leaf = {"type": None, "context": None, "children_spec": []}
    args = {"type": "builtins.tuple", "context": "null", "children_spec": [leaf] * n_inputs}
    kwargs = {"type": "builtins.dict", "context": "[]", "children_spec": []}
    return json.dumps([1, {"type": "builtins.tuple", "context": "null", "children_spec": [args, kwargs]}])


def out_spec(n_outputs):
    leaf = {"type": None, "context": None, "children_spec": []}
    return json.dumps([1, {"type": "builtins.tuple", "context": "null", "children_spec": [leaf] * n_outputs}])


def program(g, input_specs, output_specs, user_inputs, user_outputs, forward_arg_names,
            submodules=(), range_constraints=None):
    module_call_graph = [{
        "fqn": "",
        "signature": {
            "inputs": user_inputs,
            "outputs": user_outputs,
            "in_spec": tree_spec(len(user_inputs)),
            "out_spec": out_spec(len(user_outputs)),
            "forward_arg_names": forward_arg_names,
        },
    }] + [{"fqn": fqn} for fqn in submodules]
    return {
        "graph_module": {
            "graph": g,
            "signature": {"input_specs": input_specs, "output_specs": output_specs},
            "module_call_graph": module_call_graph,
            "metadata": {"fxscope_fixture": "built from schema.py by python/tools/make_export_fixtures.py"},
            "treespec_namedtuple_fields": {},
        },
        "opset_version": {"aten": 10},
        "range_constraints": range_constraints or {},
        "schema_version": SCHEMA_VERSION,
        "verifiers": [],
        "torch_version": "synthetic fixture (schema 8.17)",
        "guards_code": [],
    }


def trace(*frames):
    """A stack_trace as PyTorch records it: traceback frames, innermost last."""
    lines = []
    for file, line, fn, code in frames:
        lines.append(f'  File "{file}", line {line}, in {fn}')
        lines.append(f"    {code}")
    return "\n".join(lines) + "\n"


def user_input(name):
    return {"user_input": {"arg": tensor(name)}}


def user_output(name):
    return {"user_output": {"arg": tensor(name)}}


# ----------------------------------------------------------------------------------------- programs

def mlp():
    """fc1 -> relu -> block[0] -> * scale buffer -> .half(): parameters, a buffer, keyword-only args."""
    src = "/home/user/models/mlp.py"
    fc1 = "L__self___fc1,L['self'].fc1,torch.nn.modules.linear.Linear"
    block = ("L__self___block,L['self'].block,torch.nn.modules.container.Sequential;"
             "L__self___block_0,getattr(L['self'].block, '0'),torch.nn.modules.linear.Linear")
    tv = {
        "p_fc1_weight": tensor_meta([32, 16], requires_grad=True),
        "p_fc1_bias": tensor_meta([32], requires_grad=True),
        "p_block_0_weight": tensor_meta([4, 32], requires_grad=True),
        "p_block_0_bias": tensor_meta([4], requires_grad=True),
        "b_scale": tensor_meta([4]),
        "x": tensor_meta([8, 16]),
        "linear": tensor_meta([8, 32]),
        "relu": tensor_meta([8, 32]),
        "linear_1": tensor_meta([8, 4]),
        "mul": tensor_meta([8, 4]),
        "_to_copy": tensor_meta([8, 4], dtype=HALF),
    }
    nodes = [
        node("torch.ops.aten.linear.default",
             [named("input", tensor("x")), named("weight", tensor("p_fc1_weight")), named("bias", tensor("p_fc1_bias"))],
             [tensor("linear")],
             {"stack_trace": trace(("/usr/lib/python3/torch/nn/modules/module.py", 1762, "_call_impl",
                                    "return forward_call(*args, **kwargs)"),
                                   (src, 14, "forward", "x = self.fc1(x)")),
              "nn_module_stack": fc1,
              "source_fn_stack": "fc1,torch.nn.modules.linear.Linear",
              "torch_fn": "linear;builtin_function_or_method.linear"}),
        node("torch.ops.aten.relu.default", [named("self", tensor("linear"))], [tensor("relu")],
             {"stack_trace": trace((src, 15, "forward", "x = torch.relu(x)")),
              "source_fn_stack": "relu,<built-in method relu of type object>",
              "torch_fn": "relu;builtin_function_or_method.relu"}),
        node("torch.ops.aten.linear.default",
             [named("input", tensor("relu")), named("weight", tensor("p_block_0_weight")),
              named("bias", tensor("p_block_0_bias"))],
             [tensor("linear_1")],
             {"stack_trace": trace((src, 16, "forward", "x = self.block(x)")),
              "nn_module_stack": block,
              "source_fn_stack": "block_0,torch.nn.modules.linear.Linear"}),
        node("torch.ops.aten.mul.Tensor", [named("self", tensor("linear_1")), named("other", tensor("b_scale"))],
             [tensor("mul")],
             {"stack_trace": trace((src, 17, "forward", "x = x * self.scale"))}),
        node("torch.ops.aten._to_copy.default",
             [named("self", tensor("mul")),
              named("dtype", {"as_scalar_type": HALF}, KEYWORD),
              named("layout", {"as_layout": STRIDED}, KEYWORD),
              named("device", {"as_device": {"type": "cpu"}}, KEYWORD),
              named("memory_format", {"as_memory_format": CONTIGUOUS_FORMAT}, KEYWORD)],
             [tensor("_to_copy")],
             {"stack_trace": trace((src, 18, "forward", "return x.half()"))}),
    ]
    g = graph([tensor(n) for n in ("p_fc1_weight", "p_fc1_bias", "p_block_0_weight", "p_block_0_bias", "b_scale", "x")],
              [tensor("_to_copy")], nodes, tv)
    input_specs = [
        {"parameter": {"arg": {"name": "p_fc1_weight"}, "parameter_name": "fc1.weight"}},
        {"parameter": {"arg": {"name": "p_fc1_bias"}, "parameter_name": "fc1.bias"}},
        {"parameter": {"arg": {"name": "p_block_0_weight"}, "parameter_name": "block.0.weight"}},
        {"parameter": {"arg": {"name": "p_block_0_bias"}, "parameter_name": "block.0.bias"}},
        {"buffer": {"arg": {"name": "b_scale"}, "buffer_name": "scale", "persistent": True}},
        user_input("x"),
    ]
    return program(g, input_specs, [user_output("_to_copy")], [tensor("x")], [tensor("_to_copy")], ["x"],
                   submodules=("fc1", "block", "block.0"))


def var_mean():
    """Multi-output ops: var_mean returns two tensors (two outputs), split a Tensor[] (one as_tensors)."""
    tv = {
        "x": tensor_meta([4, 8]),
        "getitem": tensor_meta([4, 1]),
        "getitem_1": tensor_meta([4, 1]),
        "sub": tensor_meta([4, 8]),
        "add": tensor_meta([4, 1]),
        "rsqrt": tensor_meta([4, 1]),
        "mul": tensor_meta([4, 8]),
        "getitem_2": tensor_meta([4, 4], strides=[8, 1]),
        "getitem_3": tensor_meta([4, 4], strides=[8, 1]),
        "add_1": tensor_meta([4, 4]),
    }
    src = "/home/user/models/norm.py"
    nodes = [
        node("torch.ops.aten.var_mean.correction",
             [named("self", tensor("x")), named("dim", {"as_ints": [1]}),
              named("correction", {"as_int": 0}, KEYWORD), named("keepdim", {"as_bool": True}, KEYWORD)],
             [tensor("getitem"), tensor("getitem_1")],
             {"stack_trace": trace((src, 7, "forward", "var, mean = torch.var_mean(x, 1, correction=0, keepdim=True)"))}),
        node("torch.ops.aten.sub.Tensor", [named("self", tensor("x")), named("other", tensor("getitem_1"))],
             [tensor("sub")]),
        node("torch.ops.aten.add.Scalar", [named("self", tensor("getitem")), named("other", {"as_float": 1e-05})],
             [tensor("add")]),
        node("torch.ops.aten.rsqrt.default", [named("self", tensor("add"))], [tensor("rsqrt")]),
        node("torch.ops.aten.mul.Tensor", [named("self", tensor("sub")), named("other", tensor("rsqrt"))],
             [tensor("mul")]),
        node("torch.ops.aten.split.Tensor",
             [named("self", tensor("mul")), named("split_size", {"as_int": 4}), named("dim", {"as_int": 1})],
             [{"as_tensors": [{"name": "getitem_2"}, {"name": "getitem_3"}]}],
             {"stack_trace": trace((src, 9, "forward", "a, b = y.split(4, 1)"))}),
        node("torch.ops.aten.add.Tensor", [named("self", tensor("getitem_2")), named("other", tensor("getitem_3"))],
             [tensor("add_1")]),
    ]
    g = graph([tensor("x")], [tensor("add_1"), tensor("getitem_1")], nodes, tv)
    return program(g, [user_input("x")], [user_output("add_1"), user_output("getitem_1")], [tensor("x")],
                   [tensor("add_1"), tensor("getitem_1")], ["x"])


def cond():
    """torch.cond with true/false branches serialized inline as as_graph arguments."""
    def branch(op, out):
        return graph([tensor("arg0_1")], [tensor(out)],
                     [node(f"torch.ops.aten.{op}.default", [named("self", tensor("arg0_1"))], [tensor(out)])],
                     {"arg0_1": tensor_meta([4, 4]), out: tensor_meta([4, 4])})

    src = "/home/user/models/branchy.py"
    tv = {
        "x": tensor_meta([4, 4]),
        "sum_1": tensor_meta([]),
        "gt": tensor_meta([], dtype=BOOL),
        "getitem": tensor_meta([4, 4]),
        "add": tensor_meta([4, 4]),
    }
    nodes = [
        node("torch.ops.aten.sum.default", [named("self", tensor("x"))], [tensor("sum_1")]),
        node("torch.ops.aten.gt.Scalar", [named("self", tensor("sum_1")), named("other", {"as_int": 0})],
             [tensor("gt")]),
        node("torch.ops.higher_order.cond",
             [named("", tensor("gt")),
              named("", {"as_graph": {"name": "true_graph_0", "graph": branch("cos", "cos")}}),
              named("", {"as_graph": {"name": "false_graph_0", "graph": branch("sin", "sin")}}),
              named("", {"as_tensors": [{"name": "x"}]})],
             [{"as_tensors": [{"name": "getitem"}]}],
             {"stack_trace": trace((src, 11, "forward", "y = torch.cond(x.sum() > 0, torch.cos, torch.sin, (x,))")),
              "source_fn_stack": "cond,<function cond>"}),
        node("torch.ops.aten.add.Tensor", [named("self", tensor("getitem")), named("other", tensor("x"))],
             [tensor("add")]),
    ]
    g = graph([tensor("x")], [tensor("add")], nodes, tv)
    return program(g, [user_input("x")], [user_output("add")], [tensor("x")], [tensor("add")], ["x"])


def symbolic():
    """Dynamic shapes: x is [s0, 4], n a SymInt input s1; sym_size, operator arithmetic, a runtime assert."""
    tv = {
        "x": tensor_meta(["s0", 4], strides=[4, 1]),
        "view": tensor_meta(["2*s0", 2], strides=[2, 1]),
        "relu": tensor_meta(["2*s0", 2], strides=[2, 1]),
    }
    tv["x"]["sizes"][0] = sym_int("s0", hint=8)
    sym_ints = {
        "n": sym_int("s1", hint=3),
        "sym_size_int": sym_int("s0", hint=8),
        "mul": sym_int("2*s0", hint=16),
        "add": sym_int("2*s0 + s1", hint=19),
    }
    sym_bools = {"ge": {"as_expr": {"expr_str": "s0 >= 2"}}}
    nodes = [
        node("torch.ops.aten.sym_size.int", [named("self", tensor("x")), named("dim", {"as_int": 0})],
             [{"as_sym_int": {"as_name": "sym_size_int"}}]),
        node("_operator.mul", [named("a", {"as_sym_int": {"as_name": "sym_size_int"}}), named("b", {"as_int": 2})],
             [{"as_sym_int": {"as_name": "mul"}}]),
        node("_operator.ge", [named("a", {"as_sym_int": {"as_name": "sym_size_int"}}), named("b", {"as_int": 2})],
             [{"as_sym_bool": {"as_name": "ge"}}]),
        node("torch.ops.aten._assert_scalar.default",
             [named("self", {"as_sym_bool": {"as_name": "ge"}}),
              named("assert_msg", {"as_string": "Runtime assertion failed for expression s0 >= 2 on node 'ge'"})],
             [{"as_none": True}]),
        node("torch.ops.aten.view.default",
             [named("self", tensor("x")), named("size", {"as_sym_ints": [{"as_name": "mul"}, {"as_int": 2}]})],
             [tensor("view")]),
        node("torch.ops.aten.relu.default", [named("self", tensor("view"))], [tensor("relu")]),
        node("_operator.add", [named("a", {"as_sym_int": {"as_name": "mul"}}), named("b", {"as_sym_int": {"as_name": "n"}})],
             [{"as_sym_int": {"as_name": "add"}}]),
    ]
    g = graph([tensor("x"), {"as_sym_int": {"as_name": "n"}}], [tensor("relu"), {"as_sym_int": {"as_name": "add"}}],
              nodes, tv, sym_int_values=sym_ints, sym_bool_values=sym_bools)
    specs = [user_input("x"), {"user_input": {"arg": {"as_sym_int": {"as_name": "n"}}}}]
    outputs = [user_output("relu"), {"user_output": {"arg": {"as_sym_int": {"as_name": "add"}}}}]
    return program(g, specs, outputs, [tensor("x"), {"as_sym_int": {"as_name": "n"}}],
                   [tensor("relu"), {"as_sym_int": {"as_name": "add"}}], ["x", "n"],
                   range_constraints={"s0": {"min_val": 2, "max_val": 1024}, "s1": {"min_val": 0, "max_val": 64}})


def nonfinite():
    """Non-finite float literals ("Infinity", "-Infinity", "NaN"), optional tensors, strings, CUDA devices."""
    cuda = {"device": "cuda", "index": 0}
    tv = {
        "x": tensor_meta([2, 4], **cuda),
        "idx": tensor_meta([2], dtype=LONG, **cuda),
        "clamp": tensor_meta([2, 4], **cuda),
        "full": tensor_meta([2, 4], **cuda),
        "add": tensor_meta([2, 4], **cuda),
        "nan_to_num": tensor_meta([2, 4], **cuda),
        "index": tensor_meta([2, 4], **cuda),
        "div": tensor_meta([2, 4], **cuda),
    }
    nodes = [
        node("torch.ops.aten.clamp.default",
             [named("self", tensor("x")), named("min", {"as_float": "-Infinity"}), named("max", {"as_float": 6.0})],
             [tensor("clamp")]),
        node("torch.ops.aten.full.default",
             [named("size", {"as_ints": [2, 4]}), named("fill_value", {"as_float": "NaN"}),
              named("dtype", {"as_scalar_type": FLOAT}, KEYWORD), named("layout", {"as_layout": STRIDED}, KEYWORD),
              named("device", {"as_device": {"type": "cuda", "index": 0}}, KEYWORD),
              named("pin_memory", {"as_bool": False}, KEYWORD)],
             [tensor("full")]),
        node("torch.ops.aten.add.Tensor", [named("self", tensor("clamp")), named("other", tensor("full"))],
             [tensor("add")]),
        node("torch.ops.aten.nan_to_num.default",
             [named("self", tensor("add")), named("nan", {"as_float": 0.0}), named("posinf", {"as_float": "Infinity"}),
              named("neginf", {"as_none": True})],
             [tensor("nan_to_num")]),
        node("torch.ops.aten.index.Tensor",
             [named("self", tensor("nan_to_num")),
              named("indices", {"as_optional_tensors": [{"as_tensor": {"name": "idx"}}, {"as_none": True}]})],
             [tensor("index")]),
        node("torch.ops.aten.div.Tensor_mode",
             [named("self", tensor("index")), named("other", tensor("clamp")),
              named("rounding_mode", {"as_string": "floor"}, KEYWORD)],
             [tensor("div")]),
    ]
    g = graph([tensor("x"), tensor("idx")], [tensor("div")], nodes, tv)
    return program(g, [user_input("x"), user_input("idx")], [user_output("div")], [tensor("x"), tensor("idx")],
                   [tensor("div")], ["x", "idx"])


PROGRAMS = {"mlp": mlp, "var_mean": var_mean, "cond": cond, "symbolic": symbolic, "nonfinite": nonfinite}


# ----------------------------------------------------------------------------------------- archives

def dump(obj):
    return (json.dumps(obj, indent=2, allow_nan=False) + "\n").encode()


def zip_write(path, entries, compression=zipfile.ZIP_STORED):
    """entries: [(name, bytes)]; fixed timestamps so regenerating gives identical files."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = compression
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)


def weights_config(prog, model):
    """data/weights/<model>_weights_config.json: where each parameter's bytes are (PayloadConfig)."""
    cfg, files = {}, []
    tv = prog["graph_module"]["graph"]["tensor_values"]
    for i, spec in enumerate(s for s in prog["graph_module"]["signature"]["input_specs"] if "parameter" in s):
        body = spec["parameter"]
        meta = tv[body["arg"]["name"]]
        numel = 1
        for s in meta["sizes"]:
            numel *= s["as_int"]
        path = f"weight_{i}"
        cfg[body["parameter_name"]] = {"path_name": path, "is_param": True, "use_pickle": False, "tensor_meta": meta}
        files.append((f"data/weights/{path}", bytes(4 * numel)))
    return {"config": cfg}, files


def pt2_entries(prefix, models):
    """PT2 archive layout (torch.export.pt2_archive) for {model_name: program}."""
    entries = [(f"{prefix}/archive_format", b"pt2"), (f"{prefix}/byteorder", b"little"),
               (f"{prefix}/.data/version", b"0\n")]
    for model, prog in models.items():
        entries.append((f"{prefix}/models/{model}.json", dump(prog)))
    for model, prog in models.items():
        cfg, files = weights_config(prog, model)
        entries.append((f"{prefix}/data/weights/{model}_weights_config.json", dump(cfg)))
        entries.extend((f"{prefix}/{name}", data) for name, data in files)
        entries.append((f"{prefix}/data/constants/{model}_constants_config.json", dump({"config": {}})))
    return entries


def legacy_entries(prefix, prog):
    """2023 torch.export.save layout: the program JSON and a version file (no state dict: not read)."""
    p = f"{prefix}/" if prefix else ""
    return [(f"{p}serialized_exported_program.json", dump(prog)), (f"{p}version", b"1")]


def patch_sizes(data, new_size):
    """Rewrites every declared uncompressed size (local and central headers) to new_size."""
    out = bytearray(data)
    pos = 0
    while True:
        pos = out.find(b"PK\x03\x04", pos)
        if pos < 0:
            break
        struct.pack_into("<I", out, pos + 22, new_size)
        pos += 4
    pos = 0
    while True:
        pos = out.find(b"PK\x01\x02", pos)
        if pos < 0:
            break
        struct.pack_into("<I", out, pos + 24, new_size)
        pos += 4
    return bytes(out)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "tests", "data", "export")
    os.makedirs(out_dir, exist_ok=True)
    built = {name: make() for name, make in PROGRAMS.items()}
    for name, prog in built.items():
        with open(os.path.join(out_dir, f"{name}.json"), "wb") as f:
            f.write(dump(prog))
        zip_write(os.path.join(out_dir, f"{name}.pt2"), pt2_entries(name, {"model": prog}))
        # The mlp's legacy archive has no folder; the others keep one, as later writers did.
        zip_write(os.path.join(out_dir, f"{name}.legacy.pt2"), legacy_entries("" if name == "mlp" else name, prog))

    # Deflated rather than stored: the reader must inflate.
    zip_write(os.path.join(out_dir, "mlp_deflated.pt2"), pt2_entries("mlp", {"model": built["mlp"]}),
              zipfile.ZIP_DEFLATED)
    # Two models in one archive: two graphs, named by model.
    zip_write(os.path.join(out_dir, "multi_model.pt2"),
              pt2_entries("package", {"encoder": built["mlp"], "decoder": built["cond"]}))
    # Everything but a program: configs (also one under models/) are not programs.
    zip_write(os.path.join(out_dir, "no_program.pt2"),
              [("package/archive_format", b"pt2"), ("package/byteorder", b"little"),
               ("package/models/model_config.json", b"{}\n"),
               ("package/data/weights/model_weights_config.json", b"{\"config\": {}}\n")])
    # A program whose second node has no "target": the error names the entry, line and column.
    broken = json.loads(dump(built["var_mean"]))
    del broken["graph_module"]["graph"]["nodes"][1]["target"]
    zip_write(os.path.join(out_dir, "broken_model.pt2"), pt2_entries("broken", {"model": broken}))
    # One good model beside the broken one: the good graph loads, the broken one becomes a warning.
    zip_write(os.path.join(out_dir, "partly_broken.pt2"),
              pt2_entries("package", {"good": built["var_mean"], "bad": broken}))
    # A zip bomb's signature: a small deflated entry declaring 3 GiB.
    bomb = os.path.join(out_dir, "bomb.pt2")
    zip_write(bomb, [("bomb/models/model.json", b" " * 65536)], zipfile.ZIP_DEFLATED)
    with open(bomb, "rb") as f:
        data = patch_sizes(f.read(), 3 << 30)
    with open(bomb, "wb") as f:
        f.write(data)
    print(f"wrote fixtures to {out_dir}")


if __name__ == "__main__":
    main()
