"""The oracle's cases: (graph, pattern files, dump form) with a one-line purpose each. cases() returns them all.

A case: {"id", "purpose", "graph": (model name in models.py, kwargs), "patterns": [paths from the repository root],
"form": "json" | "readable" | "fx_text" (the dump fxscope reads; Inductor always works on the traced graph)}."""

import os

P = "resources/patterns/"
O = "tests/oracle/patterns/"
EX = "tests/data/examples/torchair_add_rms_norm.py"
# The real dumps: the repository's copy, or another folder of the same layout that FXSCOPE_CORPUS_DIR names.
CORPUS = os.environ.get("FXSCOPE_CORPUS_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                                                               "corpus")
TA = "torchair:"  # TorchAir's own pattern files (oracle.py fetches them from torch_npu's wheel)
ALL = [P + f for f in ("add_rms_norm.py", "addmm.py", "gelu_tanh.py", "rms_norm.py", "rotary_mul.py", "swiglu.py")]


def _c(cid, purpose, graph, kwargs, patterns, form="json", **extra):
    d = {"id": cid, "purpose": purpose, "graph": (graph, kwargs), "patterns": list(patterns), "form": form}
    d.update(extra)
    return d


def issue_cases():
    """One or more cases per divergence named in issue 14."""
    return [
        _c("t5_f32_to_noop", "MT5/T5 RMSNorm .to(float32) of a float32 tensor traces to nothing: the pattern fires",
           "t5_rmsnorm", {"dtype": "f32", "shape": [2, 4, 8]}, [O + "t5_rms_norm.py"]),
        _c("t5_f32_stack", "MT5-like stack of three f32 T5 norms: every norm is replaced",
           "t5_stack", {"dtype": "f32", "shape": [2, 4, 8]}, [O + "t5_rms_norm.py"]),
        _c("t5_f32_compiled", "T5 norm module through torch.compile (aot inference graph) with the f32 pattern",
           "compiled_t5norm", {"dtype": "f32", "hidden": 16}, [O + "t5_rms_norm.py"]),
        _c("t5_f16_no_match", "f16 T5 norm has real casts the f32 pattern does not have: generic rejection",
           "t5_rmsnorm", {"dtype": "f16", "shape": [2, 4, 8]}, [O + "t5_rms_norm.py"]),
        _c("eps_keeps_0_5", "scalar_workaround eps: add(x, 0.5) is replaced by sub(x, -0.5), not -2e-06",
           "add_scalar", {"values": [0.5]}, [O + "eps_workaround.py"]),
        _c("eps_two_values", "two adds with different scalars: each replacement keeps its own value",
           "add_scalar", {"values": [0.5, 3.0]}, [O + "eps_workaround.py"]),
        _c("eps_equal_workaround", "add(x, 2e-6) equal to the workaround value itself",
           "add_scalar", {"values": [2e-6]}, [O + "eps_workaround.py"]),
        _c("add_rms_norm_cast_7168", "TorchAir add_rms_norm_cast: view(-1, y.size(-1)) keeps the graph's 7168",
           "npu_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 7168]}, [O + "add_rms_norm_cast.py"]),
        _c("add_rms_norm_cast_bf16_3d", "add_rms_norm_cast on a [2, 3, 64] bf16 graph: view keeps 64",
           "npu_add_rms_norm_cast", {"dtype": "bf16", "shape": [2, 3, 64]}, [O + "add_rms_norm_cast.py"]),
        _c("user_count_after_replacement", "an earlier replacement drops sin's outside user: cos(sin) then fires",
           "sin_cos_chain", {}, [O + "sin_cos_chain.py"]),
        _c("complex_anchor_skipped", "complex64 tensors: Inductor skips the anchor before matching",
           "mul_add", {"dtype": "c64", "shape": [4, 4]}, [O + "mul_add.py"]),
        _c("meta_anchor_skipped", "meta-device tensors: Inductor skips the anchor before matching",
           "mul_add", {"device": "meta", "shape": [4, 4]}, [O + "mul_add.py"]),
        _c("mul_add_f32_fires", "the same mul+add pattern on f32 CPU tensors fires (control for the skips)",
           "mul_add", {"shape": [4, 4]}, [O + "mul_add.py"]),
        _c("exclusive_args_same_node", "exclusive_arg_names a, b bound to one node: no match",
           "mul_add", {"same": True, "shape": [4, 4]}, [O + "exclusive_args.py"]),
        _c("exclusive_args_distinct", "exclusive_arg_names with distinct nodes: replaced by addcmul",
           "mul_add", {"shape": [4, 4]}, [O + "exclusive_args.py"]),
        _c("unused_scalar_raises", "a search_fn argument the graph never uses: Inductor raises at the match",
           "tanh_mul", {"shape": [4, 4]}, [O + "unused_scalar.py"]),
        _c("symbolic_rmsnorm", "symbolic batch/seq sizes: the rms_norm specific stage binds symbols",
           "llama_rmsnorm", {"dtype": "f16", "shape": [2, 4, 16], "symbolic": True}, [P + "rms_norm.py"]),
        _c("symbolic_add_rms_norm_cast", "symbolic sizes with y.size(-1) in the replacement",
           "npu_add_rms_norm_cast", {"dtype": "f16", "shape": [3, 64], "symbolic": True},
           [O + "add_rms_norm_cast.py"]),
        _c("symbolic_compiled_mlp", "torch.compile dynamic=True MLP block (Sym placeholders) with every pattern",
           "compiled_mlp", {"dtype": "f16", "hidden": 16, "dynamic": True}, ALL),
        _c("extra_check_raises", "an extra_check that raises: Inductor propagates it (an error, not a rejection)",
           "gelu_erf", {"shape": [4, 8]}, [O + "raising_check.py"]),
        _c("dtype_kwarg_f32", "two patterns differing only in dtype= (cumsum f32): the f32 one fires",
           "cumsum_scale", {"to": "f32"}, [O + "dtype_kwargs.py"]),
        _c("dtype_kwarg_f64", "two patterns differing only in dtype= (cumsum f64): the f64 one fires",
           "cumsum_scale", {"to": "f64"}, [O + "dtype_kwargs.py"]),
        _c("fwd_only_noop_dce", "fwd_only drops the no-op slice and the dead exp; reshape is a view; square a pow",
           "square_sum", {"shape": [4, 4]}, [O + "noop_dce.py"]),
        _c("decomposed_softmax_ln", "softmax and layer_norm patterns in Inductor's decomposed forms",
           "softmax_ln", {"shape": [2, 8]}, [O + "softmax_ln.py"]),
        _c("transfer_meta_rms_norm", "new nodes carry meta val as _transfer_meta/the replacement trace gives it",
           "llama_rmsnorm", {"dtype": "bf16", "shape": [1, 4, 16]}, [P + "rms_norm.py"]),
        _c("insertion_point_multi_output", "multi-output add_rms_norm: inserted before the earliest output, "
           "no topological re-sort", "add_npu_rmsnorm", {"dtype": "f16", "shape": [1, 4, 16], "interleave": True},
           [P + "add_rms_norm.py"]),
        _c("one_sweep_chained", "rms_norm then add_rms_norm: one sweep never re-anchors on created nodes",
           "residual_rmsnorm", {"dtype": "f16", "shape": [1, 4, 16]}, [P + "rms_norm.py", P + "add_rms_norm.py"]),
        _c("scope_ops_not_mutating", "air.scope_enter/exit without a user stream between pattern nodes: fires",
           "mul_add_scopes", {"keys": ["_scope_name"], "shape": [4, 4]}, [O + "mul_add.py"]),
        _c("scope_user_stream_rejected", "a user stream scope splits the match: TorchAir's stream check rejects",
           "mul_add_scopes", {"keys": ["_user_stream_label"], "shape": [4, 4]}, [O + "mul_add.py"]),
        _c("torchair_removes_noop_slice", "a TorchAir file runs in TorchAir's pipeline: remove_noop_ops drops the "
           "full slice between mul and add, so the pattern fires", "noop_slice_mul_add", {"shape": [4, 4]},
           [O + "mul_add.py"]),
        _c("inductor_keeps_noop_slice", "the same graph with an Inductor file: no pre-pass, the slice blocks the match",
           "noop_slice_mul_add", {"shape": [4, 4]}, [O + "mul_add_inductor.py"]),
        _c("torchair_recovers_view_inplace", "TorchAir's recover_view_inplace: scatter_update -> view -> copy_ into "
           "the input becomes scatter_update_, then mul_add fires after it", "scatter_view_copy", {}, [O + "mul_add.py"]),
        _c("replace_fn_number_for_tensor", "y binds the literal 0.1: replace_fn's addcmul(z, x, 0.1) is a "
           "TypeError in PyTorch (numbers stand for tensors only in add/sub/mul/div...), so the pass stops",
           "mul_add", {"scalar": 0.1, "shape": [4, 4]}, [O + "mul_add.py"]),
        # TorchAir's own built-in add_rms_norm_cast.py (torch_npu 2.13.0's wheel): 8 registrations, hand-built
        # search_fn_patterns over _to_copy or _npu_dtype_cast, with and without view(-1, h), with and without epsilon
        _c("torchair_builtin_cast_view", "TorchAir's built-in add_rms_norm_cast: y.view(-1, h).to(float32)",
           "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64]}, [TA + "add_rms_norm_cast.py"]),
        _c("torchair_builtin_cast_npu_cast", "TorchAir's built-in add_rms_norm_cast: _npu_dtype_cast of the view",
           "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64], "npu_cast": True},
           [TA + "add_rms_norm_cast.py"]),
        _c("torchair_builtin_cast_no_view", "TorchAir's built-in add_rms_norm_cast: y.to(float32) without a view",
           "torchair_add_rms_norm_cast", {"dtype": "bf16", "shape": [2, 4, 32], "view": False},
           [TA + "add_rms_norm_cast.py"]),
        _c("torchair_builtin_cast_epsilon", "TorchAir's built-in add_rms_norm_cast: epsilon given (scalar_workaround)",
           "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64], "epsilon": 1e-5},
           [TA + "add_rms_norm_cast.py"]),
        _c("torchair_builtin_cast_symbolic", "TorchAir's built-in add_rms_norm_cast on a dynamic graph (sym_size view)",
           "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64], "symbolic": True},
           [TA + "add_rms_norm_cast.py"]),
        _c("torchair_builtin_cast_y_one_user", "TorchAir's built-in add_rms_norm_cast with y used by the view only: "
           "its _users=2 is not checked on a MultiOutputPattern output, so it fires",
           "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64], "y_output": False},
           [TA + "add_rms_norm_cast.py"]),
        _c("torchair_builtin_after_user", "a user pattern file, then TorchAir's built-in: registration order decides",
           "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64]},
           [O + "add_rms_norm_cast.py", TA + "add_rms_norm_cast.py"]),
        # TorchAir's built-ins appended on their own after a TorchAir user file, as TorchAir registers them
        # (FXSCOPE_TORCHAIR_PATTERNS on both sides): add_rms_norm_dynamic_quant.py then add_rms_norm_cast.py
        _c("torchair_auto_builtins_cast", "a TorchAir user file: TorchAir's built-ins follow it; add_rms_norm_cast "
           "fires", "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64]}, [O + "mul_add.py"],
           builtins=True),
        _c("torchair_auto_builtins_dynamic_quant", "TorchAir's built-in add_rms_norm_dynamic_quant (smooth scales): "
           "npu_add_rms_norm_dynamic_quant with output_mask [True, False]", "torchair_add_rms_norm_dynamic_quant",
           {"dtype": "f16", "shape": [4, 64]}, [O + "mul_add.py"], builtins=True),
        _c("torchair_auto_builtins_dynamic_quant_rows", "TorchAir's built-in add_rms_norm_dynamic_quant, second form: "
           "the rows of y.view(B * S, h); its replacement flattens (a view, as make_fx records flatten)",
           "torchair_add_rms_norm_dynamic_quant", {"dtype": "bf16", "shape": [2, 4, 64], "flatten": True},
           [O + "mul_add.py"], builtins=True),
        _c("torchair_auto_builtins_inductor_file", "an Inductor user file: TorchAir's built-ins are not added",
           "torchair_add_rms_norm_cast", {"dtype": "f16", "shape": [4, 64]}, [O + "mul_add_inductor.py"],
           builtins=True),
        _c("mutation_region_crossed", "an in-place add_ between the pattern nodes: mutation barrier, no match",
           "mul_add_mutation", {"shape": [4, 4]}, [O + "mul_add.py"]),
        _c("skip_duplicates_second", "the same silu*up registered twice, second with skip_duplicates=True",
           "swiglu", {"dtype": "f16", "shape": [2, 16]}, [O + "meta_check.py"]),
        _c("tensor_meta_check", "extra_check on meta['val'].shape (multiple of 16) rejects a 24-wide input",
           "swiglu", {"dtype": "f16", "shape": [2, 24]}, [O + "meta_check.py"]),
        _c("shared_example_7168", "the shared TorchAir example: a_shape[-1] == 7168 accepted",
           "add_npu_rmsnorm", {"dtype": "f16", "shape": [1, 2, 7168]}, [EX]),
        _c("shared_example_4096", "the shared TorchAir example: a_shape[-1] == 4096 rejected by extra_check",
           "add_npu_rmsnorm", {"dtype": "f16", "shape": [1, 2, 4096]}, [EX]),
    ]


def _shape_id(shape):
    return "x".join(str(d) for d in shape)


def grid_cases():
    """Every pattern in resources/patterns and the oracle's own, over dtype x shape x dump-form grids."""
    out = []
    dtypes = ["f16", "bf16", "f32"]
    # rms_norm.py: LLaMA RMSNorm; 16 f16 bytes fail its 32-byte rule, f32 fails its dtype rule
    for dt in dtypes:
        for shape in ([1, 4, 16], [2, 3, 64], [2, 8], [1, 4, 8], [1, 2, 4096]):
            for form in ("json", "readable"):
                out.append(_c(f"rms_norm_{dt}_{_shape_id(shape)}_{form}",
                              f"rms_norm.py on a {dt} {shape} LLaMA RMSNorm read from {form}",
                              "llama_rmsnorm", {"dtype": dt, "shape": shape}, [P + "rms_norm.py"], form))
        out.append(_c(f"rms_norm_{dt}_outside_user", f"rms_norm.py where the {dt} upcast also feeds another output",
                      "llama_rmsnorm", {"dtype": dt, "shape": [1, 4, 16], "outside_user": True}, [P + "rms_norm.py"]))
        out.append(_c(f"rms_norm_{dt}_symbolic", f"rms_norm.py on a symbolic-shape {dt} RMSNorm",
                      "llama_rmsnorm", {"dtype": dt, "shape": [3, 5, 32], "symbolic": True}, [P + "rms_norm.py"]))
        out.append(_c(f"rms_norm_{dt}_eps1e5", f"rms_norm.py with eps=1e-5 in the graph ({dt}): eps is a workaround",
                      "llama_rmsnorm", {"dtype": dt, "shape": [1, 4, 16], "eps": 1e-5}, [P + "rms_norm.py"]))
    # add_rms_norm.py: multi-output add + npu_rms_norm
    for dt in dtypes:
        for shape in ([1, 4, 16], [2, 8], [1, 2, 7168], [1, 4, 10]):
            for inter in (False, True):
                out.append(_c(f"add_rms_norm_{dt}_{_shape_id(shape)}{'_inter' if inter else ''}",
                              f"add_rms_norm.py multi-output on {dt} {shape}" + (" with a node between the outputs"
                                                                                 if inter else ""),
                              "add_npu_rmsnorm", {"dtype": dt, "shape": shape, "interleave": inter},
                              [P + "add_rms_norm.py"]))
        out.append(_c(f"add_rms_norm_{dt}_readable", f"add_rms_norm.py on {dt} read from print_readable code",
                      "add_npu_rmsnorm", {"dtype": dt, "shape": [1, 4, 16]}, [P + "add_rms_norm.py"], "readable"))
        out.append(_c(f"shared_example_{dt}_7168", f"the shared TorchAir example on {dt} [2, 7168]",
                      "add_npu_rmsnorm", {"dtype": dt, "shape": [2, 7168]}, [EX]))
    # swiglu.py
    for dt in dtypes:
        for shape in ([2, 8, 16], [4, 32], [2, 24]):
            for bc in (False, True):
                out.append(_c(f"swiglu_{dt}_{_shape_id(shape)}{'_bcast' if bc else ''}",
                              f"swiglu.py on {dt} {shape}" + (" with a broadcast up (check rejects)" if bc else ""),
                              "swiglu", {"dtype": dt, "shape": shape, "broadcast": bc}, [P + "swiglu.py"]))
    # gelu_tanh.py
    for dt in dtypes:
        for shape in ([2, 8, 16], [4, 7]):
            for form in ("json", "readable"):
                out.append(_c(f"gelu_tanh_{dt}_{_shape_id(shape)}_{form}", f"gelu_tanh.py on {dt} {shape} ({form})",
                              "gelu_tanh", {"dtype": dt, "shape": shape}, [P + "gelu_tanh.py"], form))
    # rotary_mul.py: two registrations (head_dim 64 and 128); 32 matches neither's slices
    for dt in dtypes:
        for hd in (64, 128, 32):
            out.append(_c(f"rotary_{dt}_hd{hd}", f"rotary_mul.py on {dt} q/k with head_dim {hd}",
                          "rotary", {"dtype": dt, "head_dim": hd}, [P + "rotary_mul.py"]))
        if dt != "f32":
            out.append(_c(f"rotary_{dt}_f32_cos", f"rotary_mul.py with f32 cos/sin on {dt} q/k (check rejects)",
                          "rotary", {"dtype": dt, "head_dim": 64, "csdtype": "f32"}, [P + "rotary_mul.py"]))
    # addmm.py
    for dt in dtypes:
        for bias in ("1d", "2d", "row", "col"):
            out.append(_c(f"addmm_{dt}_{bias}", f"addmm.py on a {dt} mm + {bias} bias",
                          "linear_bias", {"dtype": dt, "bias": bias}, [P + "addmm.py"]))
        out.append(_c(f"addmm_{dt}_f32_bias", f"addmm.py with an f32 bias on a {dt} mm (check rejects a dtype "
                                               f"mismatch)" if dt != "f32" else "addmm.py with an f16 bias on f32 mm",
                      "linear_bias", {"dtype": dt, "bdtype": "f32" if dt != "f32" else "f16"}, [P + "addmm.py"]))
    # every pattern on a small LLaMA block: overlapping and chained candidates
    for dt in dtypes:
        for form in ("json", "readable"):
            out.append(_c(f"llama_block_all_{dt}_{form}", f"all resources/patterns on a {dt} LLaMA block ({form})",
                          "llama_block", {"dtype": dt}, ALL, form))
        out.append(_c(f"llama_block_rms_swiglu_{dt}", f"rms_norm then swiglu only on a {dt} LLaMA block",
                      "llama_block", {"dtype": dt}, [P + "rms_norm.py", P + "swiglu.py"]))
        out.append(_c(f"llama_block_reverse_{dt}", f"all patterns in reverse file order on a {dt} LLaMA block",
                      "llama_block", {"dtype": dt}, list(reversed(ALL))))
    # scalar_workaround values
    for dt in ("f32", "f16"):
        for vals in ([0.5], [1.0], [2e-6], [-3.0], [0.5, 0.5], [1e-5, 2.0]):
            vid = "_".join(str(v).replace(".", "p").replace("-", "m") for v in vals)
            out.append(_c(f"eps_{dt}_{vid}", f"eps_workaround.py on add(x, {vals}) in {dt}",
                          "add_scalar", {"dtype": dt, "values": vals}, [O + "eps_workaround.py"]))
        out.append(_c(f"eps_{dt}_fx_text", f"eps_workaround.py on add(x, 0.5) read from print(gm.graph) text",
                      "add_scalar", {"dtype": dt, "values": [0.5]}, [O + "eps_workaround.py"], "fx_text"))
    # T5 / MT5 norms
    for dt in dtypes:
        for shape in ([2, 4, 8], [1, 3, 32], [4, 16]):
            out.append(_c(f"t5_{dt}_{_shape_id(shape)}", f"t5_rms_norm.py (f32 example inputs) on a {dt} {shape} "
                                                          f"T5 norm", "t5_rmsnorm", {"dtype": dt, "shape": shape},
                          [O + "t5_rms_norm.py"]))
        out.append(_c(f"t5_{dt}_symbolic", f"t5_rms_norm.py on a symbolic-shape {dt} T5 norm",
                      "t5_rmsnorm", {"dtype": dt, "shape": [3, 5, 8], "symbolic": True}, [O + "t5_rms_norm.py"]))
    # TorchAir add_rms_norm_cast
    for dt in dtypes:
        for shape in ([4, 7168], [2, 3, 64], [8, 16], [1, 1, 128]):
            out.append(_c(f"add_rms_norm_cast_{dt}_{_shape_id(shape)}",
                          f"add_rms_norm_cast.py on {dt} {shape}: the view keeps the graph's last dim",
                          "npu_add_rms_norm_cast", {"dtype": dt, "shape": shape}, [O + "add_rms_norm_cast.py"]))
        out.append(_c(f"add_rms_norm_cast_{dt}_symbolic", f"add_rms_norm_cast.py on a symbolic {dt} graph",
                      "npu_add_rms_norm_cast", {"dtype": dt, "shape": [5, 32], "symbolic": True},
                      [O + "add_rms_norm_cast.py"]))
    # torch.compile captures (aot inference graphs), static and dynamic
    for what in ("mlp", "norm", "t5norm"):
        for dt in ("f16", "f32"):
            for dyn in (False, True):
                pats = ALL if what != "t5norm" else [O + "t5_rms_norm.py"]
                out.append(_c(f"compiled_{what}_{dt}{'_dynamic' if dyn else ''}",
                              f"torch.compile{' dynamic=True' if dyn else ''} {what} ({dt}) captured by "
                              f"fxscope_capture.backend", f"compiled_{what}",
                              {"dtype": dt, "hidden": 16, "dynamic": dyn}, pats))
    # anchors Inductor skips, exclusive args, scopes, mutations
    for dt in ("f32", "f16", "bf16", "c64"):
        out.append(_c(f"mul_add_{dt}", f"mul_add.py on {dt} CPU tensors" + (" (complex: skipped)" if dt == "c64"
                                                                             else ""),
                      "mul_add", {"dtype": dt, "shape": [4, 4]}, [O + "mul_add.py"]))
        if dt != "c64":
            out.append(_c(f"mul_add_{dt}_meta", f"mul_add.py on {dt} meta-device tensors (skipped)",
                          "mul_add", {"dtype": dt, "shape": [4, 4], "device": "meta"}, [O + "mul_add.py"]))
    for dt in dtypes:
        for same in (False, True):
            out.append(_c(f"exclusive_{dt}{'_same' if same else ''}",
                          f"exclusive_arg_names on {dt} " + ("x*x+z (one node for a and b)" if same else "x*y+z"),
                          "mul_add", {"dtype": dt, "shape": [4, 4], "same": same}, [O + "exclusive_args.py"]))
    for keys in (["_user_stream_label"], ["_scope_name"], ["_scope_name", "_user_stream_label"]):
        kid = "_".join(k.strip("_") for k in keys)
        out.append(_c(f"scopes_{kid}", f"air.scope_enter({keys}) between mul and add",
                      "mul_add_scopes", {"keys": keys, "shape": [4, 4]}, [O + "mul_add.py"]))
    for dt in dtypes:
        out.append(_c(f"sin_cos_chain_{dt}", f"user count after an earlier replacement ({dt})",
                      "sin_cos_chain", {"dtype": dt}, [O + "sin_cos_chain.py"]))
        out.append(_c(f"unused_scalar_{dt}", f"a search_fn argument the pattern never binds ({dt})",
                      "tanh_mul", {"dtype": dt, "shape": [4, 4]}, [O + "unused_scalar.py"]))
        out.append(_c(f"raising_check_{dt}", f"extra_check raising on a {dt} erf-GELU",
                      "gelu_erf", {"dtype": dt, "shape": [4, 8]}, [O + "raising_check.py"]))
        out.append(_c(f"meta_check_{dt}", f"extra_checks on shape and tensor_meta, {dt} silu*up",
                      "swiglu", {"dtype": dt, "shape": [2, 32]}, [O + "meta_check.py"]))
    for src in ("f32", "f16"):
        for to in ("f32", "f64"):
            out.append(_c(f"dtype_kwargs_{src}_to_{to}", f"cumsum(dtype={to}) on {src} with two dtype= patterns",
                          "cumsum_scale", {"dtype": src, "to": to}, [O + "dtype_kwargs.py"]))
    out.append(_c("dtype_kwargs_fx_text", "cumsum(dtype=f64) read from print(gm.graph) text",
                  "cumsum_scale", {"to": "f64"}, [O + "dtype_kwargs.py"], "fx_text"))
    for shape in ([4, 4], [2, 3, 5], [8]):
        out.append(_c(f"noop_dce_{_shape_id(shape)}", f"fwd_only no-op/DCE/decomposition pattern on {shape}",
                      "square_sum", {"shape": shape}, [O + "noop_dce.py"]))
        out.append(_c(f"softmax_ln_{_shape_id(shape)}", f"decomposed softmax and layer_norm patterns on {shape}",
                      "softmax_ln", {"shape": shape}, [O + "softmax_ln.py"]))
    # more forms and orders
    for dt in dtypes:
        for order, pats in (("fwd", [P + "rms_norm.py", P + "add_rms_norm.py"]),
                            ("rev", [P + "add_rms_norm.py", P + "rms_norm.py"])):
            out.append(_c(f"residual_rms_{dt}_{order}", f"residual add + RMSNorm ({dt}), rms_norm/add_rms_norm "
                                                         f"in {order} order: chained patterns, one sweep",
                          "residual_rmsnorm", {"dtype": dt, "shape": [1, 4, 16]}, pats))
        out.append(_c(f"t5_{dt}_readable", f"t5_rms_norm.py on {dt} read from print_readable code",
                      "t5_rmsnorm", {"dtype": dt, "shape": [2, 4, 8]}, [O + "t5_rms_norm.py"], "readable"))
        out.append(_c(f"swiglu_{dt}_readable", f"swiglu.py on {dt} read from print_readable code",
                      "swiglu", {"dtype": dt, "shape": [2, 8, 16]}, [P + "swiglu.py"], "readable"))
        out.append(_c(f"addmm_{dt}_readable", f"addmm.py on {dt} read from print_readable code",
                      "linear_bias", {"dtype": dt}, [P + "addmm.py"], "readable"))
        out.append(_c(f"add_rms_norm_cast_{dt}_readable", f"add_rms_norm_cast.py on {dt} read from readable code",
                      "npu_add_rms_norm_cast", {"dtype": dt, "shape": [8, 16]}, [O + "add_rms_norm_cast.py"],
                      "readable"))
        out.append(_c(f"rotary_{dt}_readable", f"rotary_mul.py on {dt} read from print_readable code",
                      "rotary", {"dtype": dt, "head_dim": 64}, [P + "rotary_mul.py"], "readable"))
    # corpus dumps torch 2.13 rebuilds (fxscope reads the published file; Inductor the rebuilt GraphModule)
    corpus = {"gpt2_post_grad": "readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py",
              "resnet50_aot": "readable/learn_torch_compile__tb_resnet50_inference_cpu__aot_forward_graph.py",
              "bert_aot": "readable/learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_forward_graph.py",
              "depyf_dynamic": "readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_forward_graph.py",
              "deberta_aot": "readable/unknown_repo__pt2_0_era_aot_forward_deberta_embeddings_unquoted_annotations.py",
              "provenance_aot": "readable/tlparse__provenance_jit_debug_handle__aot_forward_graph.py"}
    for cid, f in corpus.items():
        for pid, pats in (("all", ALL), ("oracle", [O + "eps_workaround.py", O + "raising_check.py",
                                                    O + "mul_add.py", O + "softmax_ln.py"])):
            out.append(_c(f"corpus_{cid}_{pid}", f"corpus {os.path.basename(f)} with the {pid} patterns",
                          "corpus", {"file": f}, pats, "original"))
    for dt in dtypes:  # TorchAir's built-in form: search_fn_pattern, empty search_fn
        for shape in ([4, 7168], [2, 3, 64]):
            out.append(_c(f"add_rms_norm_cast_sfp_{dt}_{_shape_id(shape)}",
                          f"add_rms_norm_cast with a hand-built search_fn_pattern on {dt} {shape}",
                          "npu_add_rms_norm_cast", {"dtype": dt, "shape": shape}, [O + "add_rms_norm_cast_sfp.py"]))
    out.append(_c("sin_cos_fx_text", "user count after a replacement, read from print(gm.graph) text",
                  "sin_cos_chain", {}, [O + "sin_cos_chain.py"], "fx_text"))
    return out


import public  # noqa: E402 (the public-style suites, public/__init__.py)


def cases():
    return issue_cases() + grid_cases() + public.cases()
