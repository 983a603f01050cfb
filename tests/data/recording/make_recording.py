"""Writes two_ranks/: a recording (python -m fxscope_capture.record) of one small function compiled by Inductor on two
ranks, where a pattern in the style of vLLM's fusion passes (a PatternMatcherPass run as Inductor's
post_grad_custom_post_pass, its extra_check on the hidden size) replaces x * sigmoid(x) with silu on rank 0 (hidden
size 32) and not on rank 1 (hidden size 24). The ranks run one after the other with RANK set, as torchrun sets it.

    .venv/bin/python tests/data/recording/make_recording.py      # from the repository root
"""

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "two_ranks")


def rank_main():
    import torch
    from torch._inductor import config
    from torch._inductor.custom_graph_pass import CustomGraphPass
    from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

    patterns = PatternMatcherPass(pass_name="silu_fusion")

    def silu_pattern(x):
        return x * torch.sigmoid(x)

    def silu_replacement(x):
        return torch.nn.functional.silu(x)

    def aligned(match):
        return match.kwargs["x"].meta["val"].shape[-1] % 16 == 0  # the fused kernel wants 16-wide rows

    register_replacement(silu_pattern, silu_replacement, [torch.empty(8, 32)], fwd_only, patterns,
                         extra_check=aligned)

    class SiluFusionPass(CustomGraphPass):
        def __call__(self, graph):
            patterns.apply(graph)

        def uuid(self):
            return "silu_fusion"

    config.post_grad_custom_post_pass = SiluFusionPass()
    hidden = 32 if os.environ["RANK"] == "0" else 24

    def mlp(x, w):
        return torch.mm(x * torch.sigmoid(x), w)

    with torch.no_grad():
        torch.compile(mlp)(torch.randn(8, hidden), torch.randn(hidden, 8))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--rank":
        rank_main()
        sys.exit(0)
    shutil.rmtree(OUT, ignore_errors=True)
    for rank in (0, 1):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2")
        subprocess.run([sys.executable, "-m", "fxscope_capture.record", "-o", OUT, __file__, "--rank"], env=env,
                       check=True)
    print("wrote", OUT)
