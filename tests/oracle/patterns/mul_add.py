"""mul(x, y) + z -> addcmul(z, x, y): a plain two-node pattern for the anchor-skipping cases (complex, meta and
sparse tensors are skipped by Inductor before matching), mutation regions and stream scopes."""
import torch, torchair


def mul_add(x, y, z):
    return x * y + z


def mul_add_replacement(x, y, z):
    return torch.addcmul(z, x, y)


torchair.register_replacement(search_fn=mul_add, replace_fn=mul_add_replacement,
                              example_inputs=(torch.empty(4, 4), torch.empty(4, 4), torch.empty(4, 4)))
