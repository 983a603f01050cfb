"""An extra_check that raises (a KeyError on a name the pattern does not bind): Inductor lets the exception
propagate out of the pass, so the user sees it as an error of their check, not as a rejection."""
import torch, torchair


def gelu_erf(x):
    return 0.5 * x * (1.0 + torch.erf(x * 0.7071067811865476))


def gelu_erf_replacement(x):
    return torch.nn.functional.gelu(x)


def extra_check(match):
    return match.kwargs["inp"].meta["val"].dtype == torch.float16


torchair.register_replacement(search_fn=gelu_erf, replace_fn=gelu_erf_replacement,
                              example_inputs=(torch.empty(4, 8),), extra_check=extra_check)
