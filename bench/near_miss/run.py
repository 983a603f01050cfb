"""What near-miss hints cost (issue 25, item 2): `fxscope-cli match --hints` with the torch host, its hints_ms (finding
the changes, re-matching each changed pattern at every candidate, the user's extra_check on each match) beside
match_ms, and Inductor's own PatternMatcherPass.apply on the same graph and pattern file, the nearest job PyTorch
does (it gives no hints). Graphs from 12 to 23k nodes: the near-miss tests' graphs, the bundled llama sample, HF
BERT's joint graph with a BertOutput-style file, T5's joint graph with Inductor's joint_graph set (108k candidates)
and HRNet's joint graph.

    .venv/bin/python bench/near_miss/run.py --cli build/bin/fxscope-cli [--out bench/results/near_miss.json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench", "host"))
import run as host_bench  # noqa: E402  (the match and Inductor's apply, timed as bench/host times them)

NEAR = os.path.join(REPO, "tests", "data", "near_miss")
CORPUS = os.path.join(REPO, "tests", "data", "corpus", "readable")
CASES = [
    ("cast (bf16 RMSNorm)", os.path.join(NEAR, "rms_norm_bf16.json"), os.path.join(NEAR, "cast_near.py")),
    ("cast + extra_check", os.path.join(NEAR, "two_rms_norms_bf16.json"), os.path.join(NEAR, "cast_checked_near.py")),
    ("optional argument", os.path.join(NEAR, "rms_factor.json"), os.path.join(NEAR, "argument_near.py")),
    ("overload", os.path.join(NEAR, "squared_scale.json"), os.path.join(NEAR, "overload_near.py")),
    ("outside user", os.path.join(NEAR, "silu_gate_reused.json"), os.path.join(NEAR, "outside_near.py")),
    ("literal", os.path.join(NEAR, "scaled_residual.json"), os.path.join(NEAR, "literal_near.py")),
    ("llama sample + rotary", os.path.join(REPO, "resources", "samples", "llama_block.py"),
     os.path.join(REPO, "resources", "patterns", "rotary_mul.py")),
    ("BERT joint + BertOutput", os.path.join(CORPUS, "learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_joint_graph.py"),
     os.path.join(REPO, "tests", "oracle", "public", "norms", "bert_output_layer_norm.py")),
    ("T5 joint + inductor:joint_graph", os.path.join(CORPUS, "learn_torch_compile__tb_hf_T5_training_cpu__aot_joint_graph.py"),
     "inductor:joint_graph"),
    ("HRNet joint + relu_add", os.path.join(CORPUS, "learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py"),
     os.path.join(REPO, "bench", "host", "relu_add.py")),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "results", "near_miss.json"))
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, graph, source in CASES:
            gj = os.path.join(tmp, "g.json")
            subprocess.run([args.cli, "convert", graph, "-o", gj], check=True, capture_output=True)
            row = {"case": label, "graph": os.path.basename(graph), "source": os.path.basename(source)}
            row["fxscope"] = host_bench.cli_match(args.cli, graph, source, "host", ["--hints"])
            row["inductor"] = host_bench.inductor_apply(args.python, gj, source)
            rows.append(row)
            print(json.dumps(row), flush=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"rows": rows}, f, indent=1)
    nan = float("nan")
    print(f"{'case':<34} {'nodes':>6} {'cands':>7} {'hints':>5} {'match ms':>9} {'hints ms':>9} "
          f"{'Inductor apply ms':>17} {'hints/apply':>11}")
    for r in rows:
        fx, ind = r["fxscope"], r["inductor"]
        ratio = fx.get("hints_ms", nan) / ind["apply_ms"] if ind.get("apply_ms") else nan
        print(f"{r['case']:<34} {fx.get('nodes') or 0:>6} {fx.get('candidates', 0):>7} {len(fx.get('hints', [])):>5} "
              f"{fx.get('match_ms', nan):>9.1f} {fx.get('hints_ms') or nan:>9.1f} {ind.get('apply_ms', nan):>17.1f} "
              f"{ratio:>11.2f}")


if __name__ == "__main__":
    main()
