"""The oracle's cases: (graph, pattern files, dump form) with a one-line purpose each. cases() returns them all.

A case: {"id", "purpose", "graph": (model name in models.py, kwargs), "patterns": [paths from the repository root],
"form": "json" | "readable" | "fx_text" (the dump fxscope reads; Inductor always works on the traced graph)}."""

P = "resources/patterns/"
O = "tests/oracle/patterns/"
EX = "../shared/examples/torchair_add_rms_norm.py"
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


def cases():
    return issue_cases()
