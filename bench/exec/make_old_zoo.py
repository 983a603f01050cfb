#!/usr/bin/env python3
"""Write a zoo of AOT-autograd inference forward graphs with an OLDER torch 2.x (2.2), as public zoos hold them.

The successor of thuml/learn_torch.compile (depyf dumps of a Dec-2023 torch 2.2 nightly: `print_readable()` of the
inference forward graph that Inductor received, with shape annotations like `arg0_1: "f32[768]"`). Every model is a
real public architecture built from its config with random weights (no hub downloads): HF transformers (config
classes in code, `_from_config`, SDPA where 4.38 supports it), timm (`create_model(name, pretrained=False)`) and
torchvision. Each is compiled under `torch.no_grad()`; of the forward graphs its backend receives (more than one
where dynamo breaks the graph) the largest is written, `--graphs first` writes the first, `--graphs all` every one,
to `OUT/<suite>__<Model>_inference_cpu__forward_graph_<k>.py`, k the graph's place in the order they were compiled
(Longformer's body is its graph 2 of 4; its graph 0 is a 41-node prelude). A model that fails is reported and
skipped; generation stops once `--limit` models have written a graph.

Backends (`--backend`):
  inductor (default): Inductor's own `compile_fx` with its `inner_compile` replaced by the dump, so the graph is the
      one depyf dumped: Inductor's decomposition table (flip -> prims.rev, nll_loss -> gather, ...), its joint-graph
      passes, input mutations kept. Nothing is code-generated, so no C++ compiler is needed.
  aot: `aot_autograd(fw_compiler=dump)` with no decompositions (plain ATen).

Run with the venv of bench/exec/requirements-old-zoo.txt (torch 2.2.2, transformers 4.38.2, timm 0.9.16):
  /work/oldzoo-venv/bin/python bench/exec/make_old_zoo.py --out /work/oldzoo
Writes OUT/MANIFEST.json (versions, per model: suite, file, node count, graphs seen, or the error).
"""

import argparse
import json
import platform
import sys
import time
import traceback
from pathlib import Path

import torch

SEQ = 64  # tokens of every text model
BATCH = 1


# ---------------------------------------------------------------------------------------------------------------
# Model list: (suite, name, builder). A builder returns (model, kwargs for forward).

def ids(vocab, seq=SEQ, gen=None):
    return torch.randint(0, vocab, (BATCH, seq), generator=gen)


def hf(cls_name, config_name, overrides=None, inputs="mlm", attn=None, seq=SEQ):
    """An HF transformers model from its config class, random weights. inputs: which forward arguments to pass:
    mlm / clm: input_ids and labels (as torchbench's HF suite passes them, so the graph holds the loss);
    ids: input_ids only; seq2seq: input_ids, decoder_input_ids and labels."""

    def build():
        import transformers
        config = getattr(transformers, config_name)(**(overrides or {}))
        cls = getattr(transformers, cls_name)
        model = cls._from_config(config, attn_implementation=attn) if attn else cls._from_config(config)
        gen = torch.Generator().manual_seed(0)
        vocab = getattr(config, "vocab_size", None)  # none for vision and CLIP configs
        if inputs in ("mlm", "clm"):
            x = ids(vocab, seq, gen)
            return model, {"input_ids": x, "labels": ids(vocab, seq, gen)}
        if inputs == "ids":
            return model, {"input_ids": ids(vocab, seq, gen)}
        if inputs == "seq2seq":
            return model, {"input_ids": ids(vocab, seq, gen), "decoder_input_ids": ids(vocab, seq // 2, gen),
                           "labels": ids(vocab, seq // 2, gen)}
        if inputs == "whisper":
            feats = torch.randn(BATCH, config.num_mel_bins, 2 * config.max_source_positions, generator=gen)
            return model, {"input_features": feats, "decoder_input_ids": ids(vocab, 16, gen)}
        if inputs == "image":
            size = config.image_size
            return model, {"pixel_values": torch.randn(BATCH, 3, size, size, generator=gen)}
        if inputs == "clip":
            size = config.vision_config.image_size
            return model, {"input_ids": ids(config.text_config.vocab_size, 16, gen),
                           "pixel_values": torch.randn(BATCH, 3, size, size, generator=gen)}
        raise ValueError(inputs)

    return build


def timm_model(name, size=128, **kwargs):
    def build():
        import timm
        model = timm.create_model(name, pretrained=False, **kwargs)
        gen = torch.Generator().manual_seed(0)
        return model, {"x": torch.randn(BATCH, 3, size, size, generator=gen)}

    return build


def tv_model(name, size=128, **kwargs):
    def build():
        import torchvision
        model = getattr(torchvision.models, name)(weights=None, **kwargs)
        gen = torch.Generator().manual_seed(0)
        return model, {"x": torch.randn(BATCH, 3, size, size, generator=gen)}

    return build


# Decoder-only LLMs: the public architecture at a small width and depth (their default configs are 7B-scale).
SMALL_LLM = dict(hidden_size=512, intermediate_size=1376, num_hidden_layers=4, num_attention_heads=8)
# Encoder-decoder: the *-base shape.
BASE_S2S = dict(d_model=768, encoder_layers=6, decoder_layers=6, encoder_attention_heads=12,
                decoder_attention_heads=12, encoder_ffn_dim=3072, decoder_ffn_dim=3072)
SMALL_S2S = dict(d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
                 decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048)

MODELS = [
    # --- huggingface (40 + 4 spares) ---
    ("huggingface", "BertForMaskedLM", hf("BertForMaskedLM", "BertConfig")),
    ("huggingface", "BertForQuestionAnswering", hf("BertForQuestionAnswering", "BertConfig", inputs="ids")),
    ("huggingface", "AlbertForMaskedLM", hf("AlbertForMaskedLM", "AlbertConfig",
                                            dict(hidden_size=768, num_attention_heads=12, intermediate_size=3072))),
    ("huggingface", "DistilBertForMaskedLM", hf("DistilBertForMaskedLM", "DistilBertConfig")),
    ("huggingface", "RobertaForCausalLM", hf("RobertaForCausalLM", "RobertaConfig", dict(is_decoder=True), "clm")),
    ("huggingface", "ElectraForCausalLM", hf("ElectraForCausalLM", "ElectraConfig", dict(is_decoder=True), "clm")),
    ("huggingface", "DebertaForMaskedLM", hf("DebertaForMaskedLM", "DebertaConfig")),
    ("huggingface", "DebertaV2ForMaskedLM", hf("DebertaV2ForMaskedLM", "DebertaV2Config", dict(
        hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072, vocab_size=128100,
        relative_attention=True, position_buckets=256, max_relative_positions=-1, pos_att_type=["p2c", "c2p"],
        norm_rel_ebd="layer_norm", share_att_key=True, position_biased_input=False))),  # deberta-v3-base
    ("huggingface", "LongformerForMaskedLM", hf("LongformerForMaskedLM", "LongformerConfig",
                                                dict(attention_window=32))),
    ("huggingface", "BigBirdForMaskedLM", hf("BigBirdForMaskedLM", "BigBirdConfig",
                                             dict(attention_type="original_full"))),
    ("huggingface", "GPT2ForSequenceClassification", hf("GPT2ForSequenceClassification", "GPT2Config",
                                                         dict(pad_token_id=50256), "ids")),
    ("huggingface", "DistillGPT2", hf("GPT2LMHeadModel", "GPT2Config", dict(n_layer=6), "clm")),
    ("huggingface", "GPTNeoForCausalLM", hf("GPTNeoForCausalLM", "GPTNeoConfig", dict(
        hidden_size=768, num_layers=12, num_heads=12, attention_types=[[["global", "local"], 6]]), "clm")),
    ("huggingface", "GPTJForCausalLM", hf("GPTJForCausalLM", "GPTJConfig",
                                          dict(n_embd=512, n_layer=4, n_head=8, rotary_dim=32), "clm")),
    ("huggingface", "OPTForCausalLM", hf("OPTForCausalLM", "OPTConfig", None, "clm")),
    ("huggingface", "BartForConditionalGeneration", hf("BartForConditionalGeneration", "BartConfig", BASE_S2S,
                                                       "seq2seq", attn="sdpa")),
    ("huggingface", "MBartForConditionalGeneration", hf("MBartForConditionalGeneration", "MBartConfig", BASE_S2S,
                                                        "seq2seq")),
    ("huggingface", "PLBartForConditionalGeneration", hf("PLBartForConditionalGeneration", "PLBartConfig", None,
                                                         "seq2seq")),
    ("huggingface", "T5ForConditionalGeneration", hf("T5ForConditionalGeneration", "T5Config", None, "seq2seq")),
    ("huggingface", "MT5ForConditionalGeneration", hf("MT5ForConditionalGeneration", "MT5Config", None,
                                                      "seq2seq")),
    ("huggingface", "PegasusForConditionalGeneration", hf("PegasusForConditionalGeneration", "PegasusConfig",
                                                          BASE_S2S, "seq2seq")),
    ("huggingface", "BlenderbotSmallForConditionalGeneration", hf(
        "BlenderbotSmallForConditionalGeneration", "BlenderbotSmallConfig", None, "seq2seq")),
    ("huggingface", "M2M100ForConditionalGeneration", hf("M2M100ForConditionalGeneration", "M2M100Config",
                                                         SMALL_S2S, "seq2seq")),
    ("huggingface", "MarianMTModel", hf("MarianMTModel", "MarianConfig", SMALL_S2S, "seq2seq")),
    ("huggingface", "XLNetLMHeadModel", hf("XLNetLMHeadModel", "XLNetConfig",
                                           dict(d_model=768, n_layer=12, n_head=12, d_inner=3072), "clm")),
    ("huggingface", "LayoutLMForMaskedLM", hf("LayoutLMForMaskedLM", "LayoutLMConfig")),
    ("huggingface", "MobileBertForMaskedLM", hf("MobileBertForMaskedLM", "MobileBertConfig")),
    ("huggingface", "MegatronBertForCausalLM", hf("MegatronBertForCausalLM", "MegatronBertConfig",
                                                  dict(is_decoder=True, num_hidden_layers=12), "clm")),
    ("huggingface", "CamembertForMaskedLM", hf("CamembertForMaskedLM", "CamembertConfig")),
    ("huggingface", "ConvBertForMaskedLM", hf("ConvBertForMaskedLM", "ConvBertConfig")),
    ("huggingface", "TrOCRForCausalLM", hf("TrOCRForCausalLM", "TrOCRConfig",
                                           dict(d_model=512, decoder_layers=6, decoder_attention_heads=8,
                                                decoder_ffn_dim=2048), "clm")),
    ("huggingface", "LlamaForCausalLM", hf("LlamaForCausalLM", "LlamaConfig", SMALL_LLM, "clm", attn="sdpa")),
    ("huggingface", "MistralForCausalLM", hf("MistralForCausalLM", "MistralConfig",
                                             dict(SMALL_LLM, num_key_value_heads=2), "clm", attn="sdpa")),
    ("huggingface", "GemmaForCausalLM", hf("GemmaForCausalLM", "GemmaConfig",
                                           dict(SMALL_LLM, num_key_value_heads=1, head_dim=64), "clm", attn="sdpa")),
    ("huggingface", "Qwen2ForCausalLM", hf("Qwen2ForCausalLM", "Qwen2Config",
                                           dict(SMALL_LLM, num_key_value_heads=8), "clm", attn="sdpa")),
    ("huggingface", "PhiForCausalLM", hf("PhiForCausalLM", "PhiConfig", SMALL_LLM, "clm")),
    ("huggingface", "FalconForCausalLM", hf("FalconForCausalLM", "FalconConfig",
                                            dict(hidden_size=512, num_hidden_layers=4, num_attention_heads=8),
                                            "clm", attn="sdpa")),
    ("huggingface", "GPTBigCodeForCausalLM", hf("GPTBigCodeForCausalLM", "GPTBigCodeConfig", None, "clm",
                                                attn="sdpa")),
    ("huggingface", "WhisperForConditionalGeneration", hf("WhisperForConditionalGeneration", "WhisperConfig",
                                                          None, "whisper", attn="sdpa")),
    ("huggingface", "BloomForCausalLM", hf("BloomForCausalLM", "BloomConfig",
                                           dict(hidden_size=512, n_layer=4, n_head=8), "clm")),
    ("huggingface", "GPTNeoXForCausalLM", hf("GPTNeoXForCausalLM", "GPTNeoXConfig", SMALL_LLM, "clm")),
    ("huggingface", "ViTForImageClassification", hf("ViTForImageClassification", "ViTConfig",
                                                    dict(image_size=128), "image")),
    ("huggingface", "CLIPModel", hf("CLIPModel", "CLIPConfig", None, "clip")),
    ("huggingface", "XGLMForCausalLM", hf("XGLMForCausalLM", "XGLMConfig",
                                          dict(d_model=512, num_layers=4, attention_heads=8, ffn_dim=2048), "clm")),
    # --- timm (26 + 4 spares) ---
    ("timm", "vit_base_patch16_224", timm_model("vit_base_patch16_224", img_size=128)),
    ("timm", "deit_base_distilled_patch16_224", timm_model("deit_base_distilled_patch16_224", img_size=128)),
    ("timm", "beit_base_patch16_224", timm_model("beit_base_patch16_224", img_size=128)),
    ("timm", "swin_base_patch4_window7_224", timm_model("swin_base_patch4_window7_224", size=224)),
    ("timm", "twins_pcpvt_base", timm_model("twins_pcpvt_base")),
    ("timm", "convnext_base", timm_model("convnext_base")),
    ("timm", "tf_efficientnet_b0", timm_model("tf_efficientnet_b0")),
    ("timm", "mobilenetv3_large_100", timm_model("mobilenetv3_large_100")),
    ("timm", "resnest101e", timm_model("resnest101e")),
    ("timm", "regnety_002", timm_model("regnety_002")),
    ("timm", "rexnet_100", timm_model("rexnet_100")),
    ("timm", "dla102", timm_model("dla102")),
    ("timm", "ghostnet_100", timm_model("ghostnet_100")),
    ("timm", "hrnet_w18", timm_model("hrnet_w18")),
    ("timm", "inception_v3", timm_model("inception_v3")),
    ("timm", "nfnet_l0", timm_model("nfnet_l0")),
    ("timm", "pit_b_224", timm_model("pit_b_224", img_size=128)),
    ("timm", "poolformer_m36", timm_model("poolformer_m36")),
    ("timm", "res2net101_26w_4s", timm_model("res2net101_26w_4s")),
    ("timm", "tnt_s_patch16_224", timm_model("tnt_s_patch16_224", img_size=128)),
    ("timm", "visformer_small", timm_model("visformer_small", img_size=128)),
    ("timm", "volo_d1_224", timm_model("volo_d1_224", img_size=128)),
    ("timm", "crossvit_9_240", timm_model("crossvit_9_240", size=240)),
    ("timm", "coat_lite_mini", timm_model("coat_lite_mini", size=224)),
    ("timm", "levit_128", timm_model("levit_128", img_size=128)),
    ("timm", "mixer_b16_224", timm_model("mixer_b16_224", img_size=128)),
    ("timm", "convit_base", timm_model("convit_base", img_size=128)),
    ("timm", "cait_xxs24_224", timm_model("cait_xxs24_224", img_size=128)),
    ("timm", "mobilevit_s", timm_model("mobilevit_s")),
    ("timm", "xcit_tiny_12_p8_224", timm_model("xcit_tiny_12_p8_224", img_size=128)),
    # --- torchbench-style torchvision CNNs and transformers (14 + 4 spares) ---
    ("torchbench", "resnet18", tv_model("resnet18")),
    ("torchbench", "resnet50", tv_model("resnet50")),
    ("torchbench", "resnext50_32x4d", tv_model("resnext50_32x4d")),
    ("torchbench", "mobilenet_v2", tv_model("mobilenet_v2")),
    ("torchbench", "mobilenet_v3_large", tv_model("mobilenet_v3_large")),
    ("torchbench", "densenet121", tv_model("densenet121")),
    ("torchbench", "squeezenet1_1", tv_model("squeezenet1_1")),
    ("torchbench", "shufflenet_v2_x1_0", tv_model("shufflenet_v2_x1_0")),
    ("torchbench", "alexnet", tv_model("alexnet")),
    ("torchbench", "vgg16", tv_model("vgg16")),
    ("torchbench", "mnasnet1_0", tv_model("mnasnet1_0")),
    ("torchbench", "googlenet", tv_model("googlenet", aux_logits=False, init_weights=True)),
    ("torchbench", "efficientnet_b0", tv_model("efficientnet_b0")),
    ("torchbench", "regnet_y_400mf", tv_model("regnet_y_400mf")),
    ("torchbench", "vit_b_16", tv_model("vit_b_16", image_size=128)),
    ("torchbench", "swin_t", tv_model("swin_t")),
    ("torchbench", "convnext_tiny", tv_model("convnext_tiny")),
    ("torchbench", "wide_resnet50_2", tv_model("wide_resnet50_2")),
]

# Spares: written only where a model before them failed, so the zoo stays at --limit models (40 HF, 26 timm,
# 14 torchvision when none fails).
SPARES = ("CamembertForMaskedLM", "LayoutLMForMaskedLM", "ConvBertForMaskedLM", "XGLMForCausalLM",
          "convit_base", "cait_xxs24_224", "mobilevit_s", "xcit_tiny_12_p8_224",
          "mnasnet1_0", "regnet_y_400mf", "convnext_tiny", "wide_resnet50_2")
MODELS = [m for m in MODELS if m[1] not in SPARES] + [m for m in MODELS if m[1] in SPARES]


# ---------------------------------------------------------------------------------------------------------------

def make_backend(kind, graphs):
    """A torch.compile backend that records every forward graph it is given (readable text, node count) and runs
    the graph as it is (gm.forward), so the model's own call completes."""

    def dump(gm, example_inputs, **_):
        graphs.append((gm.print_readable(print_output=False), len(gm.graph.nodes)))
        return gm.forward

    if kind == "aot":
        from torch._dynamo.backends.common import aot_autograd
        return aot_autograd(fw_compiler=dump)

    from torch._inductor.compile_fx import compile_fx

    def inductor_dump(gm, example_inputs):
        return compile_fx(gm, example_inputs, inner_compile=dump)

    return inductor_dump


def merge(old, new, out, limit):
    """The old manifest's entries with the new run's entries in their place, in list order; past `limit` models
    with a graph, the rest (spares that an earlier failure had brought in) lose their files."""
    if old["versions"] != new["versions"] or old["backend"] != new["backend"]:
        raise SystemExit(f"--merge: {out}/MANIFEST.json was written with {old['versions']} {old['backend']}")
    entries = {m["model"]: m for m in old["models"]}
    entries.update({m["model"]: m for m in new["models"]})
    order = [name for _, name, _ in MODELS]
    merged, kept = [], 0
    for name in order:
        if name not in entries:
            continue
        entry = entries[name]
        if "files" in entry:
            if kept >= limit:
                for f in entry["files"]:
                    (out / f).unlink(missing_ok=True)
                print(f"merge: {name} dropped (past --limit {limit})", flush=True)
                continue
            kept += 1
        merged.append(entry)
    new["models"] = merged
    return new


def versions():
    out = {"python": platform.python_version(), "torch": torch.__version__}
    for name in ("transformers", "timm", "torchvision", "numpy"):
        try:
            out[name] = __import__(name).__version__
        except Exception:  # noqa: BLE001 - a missing package is recorded, not fatal
            out[name] = None
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", help="folder to write the graphs and MANIFEST.json into")
    parser.add_argument("--backend", choices=("inductor", "aot"), default="inductor")
    parser.add_argument("--limit", type=int, default=80, help="stop after this many models wrote a graph")
    parser.add_argument("--graphs", choices=("largest", "first", "all"), default="largest",
                        help="which of a model's forward graphs to write")
    parser.add_argument("--filter", default="", help="only models whose name contains this")
    parser.add_argument("--merge", action="store_true",
                        help="merge into OUT's MANIFEST.json: the models run replace their entries, the rest stay; "
                             "then only the first --limit models with a graph (in list order) keep their files")
    parser.add_argument("--list", action="store_true", help="print the model list and stop")
    args = parser.parse_args()
    if not args.list and not args.out:
        parser.error("--out is required (or --list)")
    if args.list:
        for suite, name, _ in MODELS:
            print(f"{suite:12} {name}")
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    manifest = {"generator": "bench/exec/make_old_zoo.py", "backend": args.backend, "seed": 0,
                "versions": versions(), "models": []}
    written = 0
    for suite, name, build in MODELS:
        if args.filter not in name:
            continue
        if written >= args.limit:
            break
        entry = {"suite": suite, "model": name}
        start = time.perf_counter()
        graphs = []
        try:
            torch._dynamo.reset()
            torch.manual_seed(0)
            model, inputs = build()
            model.eval()
            with torch.no_grad():
                torch.compile(model, backend=make_backend(args.backend, graphs))(**inputs)
            if not graphs:
                raise RuntimeError("the backend received no graph")
        except Exception as e:  # noqa: BLE001 - skip and report, go on with the next model
            entry.update(status="failed", error=f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}")
            if not graphs:
                print(f"FAILED {suite}/{name}: {entry['error']}", flush=True)
                traceback.print_exc(limit=3)
                manifest["models"].append(entry)
                continue
            # the model failed after a graph was dumped (e.g. in a later graph): the dumped graphs stand
        keep = list(enumerate(graphs))
        if args.graphs == "first":
            keep = keep[:1]
        elif args.graphs == "largest":
            keep = [max(keep, key=lambda kg: kg[1][1])]
        files = []
        for k, (text, _) in keep:
            path = out / f"{suite}__{name}_inference_cpu__forward_graph_{k}.py"
            path.write_text(text)
            files.append(path.name)
        entry.update(status=entry.get("status", "ok"), files=files, nodes=[n for _, (_, n) in keep],
                     graphs_seen=len(graphs), nodes_all=[n for _, n in graphs],
                     seconds=round(time.perf_counter() - start, 1))
        manifest["models"].append(entry)
        written += 1
        print(f"ok     {suite}/{name}: {len(graphs)} graph(s), nodes {entry['nodes_all']}, "
              f"{entry['seconds']} s  [{written}/{args.limit}]", flush=True)
        del model, inputs
    if args.merge and (out / "MANIFEST.json").exists():
        manifest = merge(json.loads((out / "MANIFEST.json").read_text()), manifest, out, args.limit)
        written = sum(1 for m in manifest["models"] if "files" in m)
    manifest["written_models"] = written
    manifest["graph_files"] = sum(len(m.get("files", [])) for m in manifest["models"])
    manifest["failed"] = [m["model"] for m in manifest["models"] if "files" not in m]
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{written} models, {manifest['graph_files']} graph files, {len(manifest['failed'])} failed "
          f"({', '.join(manifest['failed'])}); wrote {out / 'MANIFEST.json'}", flush=True)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
