class GraphModule(torch.nn.Module):
    def forward(self, p_ln1_weight: "f32[16]", p_ln1_bias: "f32[16]", p_qkv_weight: "f32[48, 16]", p_qkv_bias: "f32[48]", p_proj_weight: "f32[16, 16]", p_proj_bias: "f32[16]", p_ln2_weight: "f32[16]", p_ln2_bias: "f32[16]", p_ff1_weight: "f32[32, 16]", p_ff1_bias: "f32[32]", p_ff2_weight: "f32[16, 32]", p_ff2_bias: "f32[16]", x: "f32[s77, 8, 16]"):
        # No stacktrace found for following nodes
        sym_size_int_1: "Sym(s77)" = torch.ops.aten.sym_size.int(x, 0)

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/normalization.py:228 in forward, code: return F.layer_norm(
        layer_norm: "f32[s77, 8, 16]" = torch.ops.aten.layer_norm.default(x, [16], p_ln1_weight, p_ln1_bias, 1e-05, False);  p_ln1_weight = p_ln1_bias = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear: "f32[s77, 8, 48]" = torch.ops.aten.linear.default(layer_norm, p_qkv_weight, p_qkv_bias);  layer_norm = p_qkv_weight = p_qkv_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:109 in forward, code: q, k, v = self.qkv(self.ln1(x)).split(c, dim=-1)
        split = torch.ops.aten.split.Tensor(linear, 16, -1);  linear = None
        getitem: "f32[s77, 8, 16]" = split[0]
        getitem_1: "f32[s77, 8, 16]" = split[1]
        getitem_2: "f32[s77, 8, 16]" = split[2];  split = None

        # File: /work/main/python/tools/make_torch_fixtures.py:110 in forward, code: q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        view: "f32[s77, 8, 2, 8]" = torch.ops.aten.view.default(getitem, [sym_size_int_1, 8, 2, 8]);  getitem = None
        transpose: "f32[s77, 2, 8, 8]" = torch.ops.aten.transpose.int(view, 1, 2);  view = None
        view_1: "f32[s77, 8, 2, 8]" = torch.ops.aten.view.default(getitem_1, [sym_size_int_1, 8, 2, 8]);  getitem_1 = None
        transpose_1: "f32[s77, 2, 8, 8]" = torch.ops.aten.transpose.int(view_1, 1, 2);  view_1 = None
        view_2: "f32[s77, 8, 2, 8]" = torch.ops.aten.view.default(getitem_2, [sym_size_int_1, 8, 2, 8]);  getitem_2 = None
        transpose_2: "f32[s77, 2, 8, 8]" = torch.ops.aten.transpose.int(view_2, 1, 2);  view_2 = None

        # File: /work/main/python/tools/make_torch_fixtures.py:111 in forward, code: a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        scaled_dot_product_attention: "f32[s77, 2, 8, 8]" = torch.ops.aten.scaled_dot_product_attention.default(transpose, transpose_1, transpose_2, None, 0.0, True);  transpose = transpose_1 = transpose_2 = None

        # File: /work/main/python/tools/make_torch_fixtures.py:112 in forward, code: x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
        transpose_3: "f32[s77, 8, 2, 8]" = torch.ops.aten.transpose.int(scaled_dot_product_attention, 1, 2);  scaled_dot_product_attention = None
        reshape: "f32[s77, 8, 16]" = torch.ops.aten.reshape.default(transpose_3, [sym_size_int_1, 8, 16]);  transpose_3 = sym_size_int_1 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear_1: "f32[s77, 8, 16]" = torch.ops.aten.linear.default(reshape, p_proj_weight, p_proj_bias);  reshape = p_proj_weight = p_proj_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:112 in forward, code: x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
        add: "f32[s77, 8, 16]" = torch.ops.aten.add.Tensor(x, linear_1);  x = linear_1 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/normalization.py:228 in forward, code: return F.layer_norm(
        layer_norm_1: "f32[s77, 8, 16]" = torch.ops.aten.layer_norm.default(add, [16], p_ln2_weight, p_ln2_bias, 1e-05, False);  p_ln2_weight = p_ln2_bias = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear_2: "f32[s77, 8, 32]" = torch.ops.aten.linear.default(layer_norm_1, p_ff1_weight, p_ff1_bias);  layer_norm_1 = p_ff1_weight = p_ff1_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:113 in forward, code: return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))
        gelu: "f32[s77, 8, 32]" = torch.ops.aten.gelu.default(linear_2);  linear_2 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear_3: "f32[s77, 8, 16]" = torch.ops.aten.linear.default(gelu, p_ff2_weight, p_ff2_bias);  gelu = p_ff2_weight = p_ff2_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:113 in forward, code: return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))
        add_1: "f32[s77, 8, 16]" = torch.ops.aten.add.Tensor(add, linear_3);  add = linear_3 = None
        return (add_1,)
