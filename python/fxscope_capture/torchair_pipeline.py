"""The graph passes TorchAir's _optimize_fx (torchair/npu_fx_compiler.py) runs around its pattern pass, for the
torch side of fxscope's checks where TorchAir itself is not installed. Inductor's own remove_noop_ops and
view_to_reshape are used as they are; recover_view_inplace_pattern and _optimize_sym_input are written here from
TorchAir's behaviour (fxscope's C++ side has its own: optimizer/rewrite/passes/torchair_pipeline.cpp).

Order, with experimental_config's defaults: remove_noop_ops -> recover_view_inplace_pattern (CANN >= 8.3.RC1) ->
optimize_sym_input -> stream labels -> the pattern pass -> view_to_reshape.
"""

import importlib.util
import os

import torch

# _apply_pattern_passes' registrations in TorchAir's default mode (max-autotune), after the user's patterns.
BUILTIN_FILES = ("add_rms_norm_dynamic_quant.py", "add_rms_norm_cast.py")


def builtins_folder():
    """TorchAir's own pattern files, as fxscope finds them (patterns/torchair_builtins.cpp): $FXSCOPE_TORCHAIR_PATTERNS
    (set but empty: none), else torch_npu's or torchair's in this Python; "" when there is none."""
    if "FXSCOPE_TORCHAIR_PATTERNS" in os.environ:
        return os.environ["FXSCOPE_TORCHAIR_PATTERNS"]
    for package, relative in (("torch_npu", ("dynamo", "torchair", "patterns")), ("torchair", ("patterns",))):
        spec = importlib.util.find_spec(package)  # finds the package without importing it
        for root in (spec.submodule_search_locations or []) if spec else []:
            folder = os.path.join(root, *relative)
            if os.path.isdir(folder):
                return folder
    return ""


def builtin_files():
    folder = builtins_folder()
    return [os.path.join(folder, f) for f in BUILTIN_FILES if folder and os.path.isfile(os.path.join(folder, f))]


_INPLACE = {"scatter_update": "scatter_update_", "npu_scatter_nd_update": "npu_scatter_nd_update_",
            "npu_quant_scatter": "npu_quant_scatter_"}


def _is(node, target):
    return isinstance(node, torch.fx.Node) and node.op == "call_function" and node.target == target


def _inplace_of(node):
    """The in-place overload for an out-of-place npu scatter node, or None."""
    if not isinstance(node, torch.fx.Node) or node.op != "call_function":
        return None
    ns, name = getattr(node.target, "namespace", None), getattr(node.target, "_opname", None)
    if ns != "npu" or name not in _INPLACE or getattr(node.target, "_overloadname", None) != "default":
        return None
    packet = getattr(torch.ops.npu, _INPLACE[name], None)
    return packet.default if packet is not None else None


def recover_view_inplace(gm):
    """placeholder -> view -> npu scatter -> view -> copy_(placeholder, .) of one shape: the scatter made in place,
    and the copy_ gone unless its result is used (TorchAir as shipped in torch_npu 2.13)."""
    graph = gm.graph
    def shape(n):
        val = n.meta.get("val")
        return tuple(val.size()) if isinstance(val, torch.Tensor) else None

    copies = [n for n in graph.nodes if _is(n, torch.ops.aten.copy_.default) and len(n.args) == 2
              and isinstance(n.args[0], torch.fx.Node) and isinstance(n.args[1], torch.fx.Node)
              and n.args[0].op == "placeholder" and n.args[1].op != "placeholder"
              and shape(n.args[0]) is not None and shape(n.args[0]) == shape(n.args[1])]
    changed = False
    for copy in copies:
        inp, post_view = copy.args
        scatter = post_view.args[0] if _is(post_view, torch.ops.aten.view.default) else None
        inplace = _inplace_of(scatter)
        if inplace is None:
            continue
        pre_view = scatter.args[0]
        if not (_is(pre_view, torch.ops.aten.view.default) and pre_view.args[0] is inp
                and len(pre_view.users) == 1 and len(inp.users) == 2):
            continue
        with graph.inserting_after(scatter):
            new = graph.call_function(inplace, scatter.args, scatter.kwargs)
        new.name = f"{scatter.name}_inplace"
        scatter.replace_all_uses_with(new, propagate_meta=True)
        if not copy.users:  # a copy_ whose result is used stays
            graph.erase_node(copy)
        graph.erase_node(scatter)
        changed = True
    if changed:
        gm.recompile()
    return changed


def optimize_sym_input(gm):
    """Uses of a SymInt input read it from the first tensor input that has it as a size: aten.sym_size(t, i)."""
    graph = gm.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    syms = [n for n in placeholders if isinstance(n.meta.get("val"), torch.SymInt)]
    tensors = [n for n in placeholders if isinstance(n.meta.get("val"), torch.Tensor)]
    changed = False
    for sym in syms:
        if not sym.users:
            continue
        found = next(((t, i) for t in tensors for i, d in enumerate(t.meta["val"].size())
                      if str(d) == str(sym.meta["val"])), None)
        if found is None:
            continue
        tensor, dim = found
        with graph.inserting_after(tensor):
            size = graph.create_node("call_function", torch.ops.aten.sym_size, (tensor, dim))
        sym.replace_all_uses_with(size, propagate_meta=True)
        changed = True
    if changed:
        gm.recompile()
    return changed


def _observed(gm, name, pass_fn):
    """Runs a pass as Inductor runs its own, under a GraphTransformObserver: TORCH_COMPILE_DEBUG's graph diffs and
    fxscope_capture.record see it by TorchAir's name."""
    from torch.fx.passes.graph_transform_observer import GraphTransformObserver
    return GraphTransformObserver(gm, name).apply_gm_pass(pass_fn)


def before(gm):
    """The passes before the pattern pass; the names of those that changed the graph."""
    from torch._inductor.fx_passes.post_grad import remove_noop_ops
    done = []
    count = len(gm.graph.nodes)
    _observed(gm, "remove_noop_ops", lambda m: remove_noop_ops(m.graph))
    if len(gm.graph.nodes) != count:
        done.append("remove_noop_ops")
    if _observed(gm, "recover_view_inplace_pattern", recover_view_inplace):
        done.append("recover_view_inplace")
    if _observed(gm, "optimize_sym_input", optimize_sym_input):
        done.append("optimize_sym_input")
    return done


def after(gm):
    from torch._inductor.fx_passes.post_grad import view_to_reshape
    _observed(gm, "view_to_reshape", view_to_reshape)
    gm.recompile()


def backend(pattern_pass):
    """A torch.compile backend that treats each AOT graph as TorchAir's npu backend does around its pattern pass
    (_optimize_fx), for a machine without TorchAir: the passes before it, stream labels, `pattern_pass` (the
    PatternMatcherPass the patterns were registered into), view_to_reshape; then the graph runs as it is (no NPU
    here). Recording such a run (fxscope_capture.record) shows TorchAir's order."""
    from torch._dynamo.backends.common import aot_autograd
    from .inductor_check import add_stream_labels

    def compile_graph(gm, example_inputs):
        before(gm)
        add_stream_labels(gm.graph)
        pattern_pass.apply(gm)
        after(gm)
        return gm.forward

    return aot_autograd(fw_compiler=compile_graph, bw_compiler=compile_graph)
