class GraphModule(torch.nn.Module):
    def forward(self, x):
        x: "f32[s77, 8, 16][128, 16, 1]cpu"; 

        x, = fx_pytree.tree_flatten_spec(([x], {}), self._in_spec)
        # No stacktrace found for following nodes
        ln1_weight: "f32[16][1]cpu" = self.ln1.weight
        ln1_bias: "f32[16][1]cpu" = self.ln1.bias
        qkv_weight: "f32[48, 16][16, 1]cpu" = self.qkv.weight
        qkv_bias: "f32[48][1]cpu" = self.qkv.bias
        proj_weight: "f32[16, 16][16, 1]cpu" = self.proj.weight
        proj_bias: "f32[16][1]cpu" = self.proj.bias
        ln2_weight: "f32[16][1]cpu" = self.ln2.weight
        ln2_bias: "f32[16][1]cpu" = self.ln2.bias
        ff1_weight: "f32[32, 16][16, 1]cpu" = self.ff1.weight
        ff1_bias: "f32[32][1]cpu" = self.ff1.bias
        ff2_weight: "f32[16, 32][32, 1]cpu" = self.ff2.weight
        ff2_bias: "f32[16][1]cpu" = self.ff2.bias
        _guards_fn = self._guards_fn(x);  _guards_fn = None
        sym_size_int_1: "Sym(s77)" = torch.ops.aten.sym_size.int(x, 0)

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/normalization.py:228 in forward, code: return F.layer_norm(
        layer_norm: "f32[s77, 8, 16][128, 16, 1]cpu" = torch.ops.aten.layer_norm.default(x, [16], ln1_weight, ln1_bias, 1e-05, False);  ln1_weight = ln1_bias = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear: "f32[s77, 8, 48][384, 48, 1]cpu" = torch.ops.aten.linear.default(layer_norm, qkv_weight, qkv_bias);  layer_norm = qkv_weight = qkv_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:109 in forward, code: q, k, v = self.qkv(self.ln1(x)).split(c, dim=-1)
        split = torch.ops.aten.split.Tensor(linear, 16, -1);  linear = None
        getitem: "f32[s77, 8, 16][384, 48, 1]cpu" = split[0]
        getitem_1: "f32[s77, 8, 16][384, 48, 1]cpu" = split[1]
        getitem_2: "f32[s77, 8, 16][384, 48, 1]cpu" = split[2];  split = None

        # File: /work/main/python/tools/make_torch_fixtures.py:110 in forward, code: q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        view: "f32[s77, 8, 2, 8][384, 48, 8, 1]cpu" = torch.ops.aten.view.default(getitem, [sym_size_int_1, 8, 2, 8]);  getitem = None
        transpose: "f32[s77, 2, 8, 8][384, 8, 48, 1]cpu" = torch.ops.aten.transpose.int(view, 1, 2);  view = None
        view_1: "f32[s77, 8, 2, 8][384, 48, 8, 1]cpu" = torch.ops.aten.view.default(getitem_1, [sym_size_int_1, 8, 2, 8]);  getitem_1 = None
        transpose_1: "f32[s77, 2, 8, 8][384, 8, 48, 1]cpu" = torch.ops.aten.transpose.int(view_1, 1, 2);  view_1 = None
        view_2: "f32[s77, 8, 2, 8][384, 48, 8, 1]cpu" = torch.ops.aten.view.default(getitem_2, [sym_size_int_1, 8, 2, 8]);  getitem_2 = None
        transpose_2: "f32[s77, 2, 8, 8][384, 8, 48, 1]cpu" = torch.ops.aten.transpose.int(view_2, 1, 2);  view_2 = None

        # File: /work/main/python/tools/make_torch_fixtures.py:111 in forward, code: a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        scaled_dot_product_attention: "f32[s77, 2, 8, 8][128, 8, 16, 1]cpu" = torch.ops.aten.scaled_dot_product_attention.default(transpose, transpose_1, transpose_2, None, 0.0, True);  transpose = transpose_1 = transpose_2 = None

        # File: /work/main/python/tools/make_torch_fixtures.py:112 in forward, code: x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
        transpose_3: "f32[s77, 8, 2, 8][128, 16, 8, 1]cpu" = torch.ops.aten.transpose.int(scaled_dot_product_attention, 1, 2);  scaled_dot_product_attention = None
        reshape: "f32[s77, 8, 16][128, 16, 1]cpu" = torch.ops.aten.reshape.default(transpose_3, [sym_size_int_1, 8, 16]);  transpose_3 = sym_size_int_1 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear_1: "f32[s77, 8, 16][128, 16, 1]cpu" = torch.ops.aten.linear.default(reshape, proj_weight, proj_bias);  reshape = proj_weight = proj_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:112 in forward, code: x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
        add: "f32[s77, 8, 16][128, 16, 1]cpu" = torch.ops.aten.add.Tensor(x, linear_1);  x = linear_1 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/normalization.py:228 in forward, code: return F.layer_norm(
        layer_norm_1: "f32[s77, 8, 16][128, 16, 1]cpu" = torch.ops.aten.layer_norm.default(add, [16], ln2_weight, ln2_bias, 1e-05, False);  ln2_weight = ln2_bias = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear_2: "f32[s77, 8, 32][256, 32, 1]cpu" = torch.ops.aten.linear.default(layer_norm_1, ff1_weight, ff1_bias);  layer_norm_1 = ff1_weight = ff1_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:113 in forward, code: return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))
        gelu: "f32[s77, 8, 32][256, 32, 1]cpu" = torch.ops.aten.gelu.default(linear_2);  linear_2 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear_3: "f32[s77, 8, 16][128, 16, 1]cpu" = torch.ops.aten.linear.default(gelu, ff2_weight, ff2_bias);  gelu = ff2_weight = ff2_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:113 in forward, code: return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))
        add_1: "f32[s77, 8, 16][128, 16, 1]cpu" = torch.ops.aten.add.Tensor(add, linear_3);  add = linear_3 = None
        return pytree.tree_unflatten((add_1,), self._out_spec)
