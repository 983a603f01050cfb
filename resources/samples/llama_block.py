class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4096][1]cpu", arg1_1: "f16[4096, 4096][4096, 1]cpu", arg2_1: "f16[4096, 4096][4096, 1]cpu", arg3_1: "f16[4096, 4096][4096, 1]cpu", arg4_1: "f16[4096, 4096][4096, 1]cpu", arg5_1: "f16[4096][1]cpu", arg6_1: "f16[11008, 4096][4096, 1]cpu", arg7_1: "f16[11008, 4096][4096, 1]cpu", arg8_1: "f16[4096, 11008][11008, 1]cpu", arg9_1: "f16[1, 128, 4096][524288, 4096, 1]cpu", arg10_1: "f16[1, 128, 4096][524288, 4096, 1]cpu", arg11_1: "f16[1, 128, 128][16384, 128, 1]cpu", arg12_1: "f16[1, 128, 128][16384, 128, 1]cpu", arg13_1: "f16[1, 1, 128, 128][16384, 16384, 128, 1]cpu"):
         # File: /workspace/llama/model.py:112 in forward, code: hidden_states = hidden_states + residual
        add: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.add.Tensor(arg9_1, arg10_1);  arg9_1 = arg10_1 = None
        
         # File: /workspace/llama/model.py:41 in forward, code: hidden_states = hidden_states.to(torch.float32)
        convert_element_type: "f32[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.prims.convert_element_type.default(add, torch.float32)
        
         # File: /workspace/llama/model.py:42 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_1: "f32[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type, 2)
        mean: "f32[1, 128, 1][128, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None
        
         # File: /workspace/llama/model.py:43 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_1: "f32[1, 128, 1][128, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[1, 128, 1][128, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_1);  add_1 = None
        mul: "f32[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.mul.Tensor(convert_element_type, rsqrt);  convert_element_type = rsqrt = None
        
         # File: /workspace/llama/model.py:44 in forward, code: return self.weight * hidden_states.to(input_dtype)
        convert_element_type_1: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.prims.convert_element_type.default(mul, torch.float16);  mul = None
        mul_1: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, convert_element_type_1);  arg0_1 = convert_element_type_1 = None
        
         # File: /workspace/llama/model.py:76 in forward, code: query_states = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        permute: "f16[4096, 4096][1, 4096]cpu" = torch.ops.aten.permute.default(arg1_1, [1, 0]);  arg1_1 = None
        view: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.view.default(mul_1, [128, 4096])
        mm: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.mm.default(view, permute);  view = permute = None
        view_1: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.view.default(mm, [1, 128, 4096]);  mm = None
        view_2: "f16[1, 128, 32, 128][524288, 4096, 128, 1]cpu" = torch.ops.aten.view.default(view_1, [1, 128, 32, 128]);  view_1 = None
        permute_1: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.permute.default(view_2, [0, 2, 1, 3]);  view_2 = None
        
         # File: /workspace/llama/model.py:77 in forward, code: key_states = self.k_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        permute_2: "f16[4096, 4096][1, 4096]cpu" = torch.ops.aten.permute.default(arg2_1, [1, 0]);  arg2_1 = None
        view_3: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.view.default(mul_1, [128, 4096])
        mm_1: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.mm.default(view_3, permute_2);  view_3 = permute_2 = None
        view_4: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.view.default(mm_1, [1, 128, 4096]);  mm_1 = None
        view_5: "f16[1, 128, 32, 128][524288, 4096, 128, 1]cpu" = torch.ops.aten.view.default(view_4, [1, 128, 32, 128]);  view_4 = None
        permute_3: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.permute.default(view_5, [0, 2, 1, 3]);  view_5 = None
        
         # File: /workspace/llama/model.py:78 in forward, code: value_states = self.v_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        permute_4: "f16[4096, 4096][1, 4096]cpu" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        view_6: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.view.default(mul_1, [128, 4096]);  mul_1 = None
        mm_2: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.mm.default(view_6, permute_4);  view_6 = permute_4 = None
        view_7: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.view.default(mm_2, [1, 128, 4096]);  mm_2 = None
        view_8: "f16[1, 128, 32, 128][524288, 4096, 128, 1]cpu" = torch.ops.aten.view.default(view_7, [1, 128, 32, 128]);  view_7 = None
        permute_5: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.permute.default(view_8, [0, 2, 1, 3]);  view_8 = None
        
         # File: /workspace/llama/model.py:54 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(1)
        unsqueeze: "f16[1, 1, 128, 128][16384, 16384, 128, 1]cpu" = torch.ops.aten.unsqueeze.default(arg11_1, 1);  arg11_1 = None
        
         # File: /workspace/llama/model.py:55 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(1)
        unsqueeze_1: "f16[1, 1, 128, 128][16384, 16384, 128, 1]cpu" = torch.ops.aten.unsqueeze.default(arg12_1, 1);  arg12_1 = None
        
         # File: /workspace/llama/model.py:56 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_2: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.mul.Tensor(permute_1, unsqueeze)
        
         # File: /workspace/llama/model.py:48 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_1: "f16[1, 32, 128, 64][524288, 128, 4096, 1]cpu" = torch.ops.aten.slice.Tensor(permute_1, 3, 0, 64)
        
         # File: /workspace/llama/model.py:49 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_2: "f16[1, 32, 128, 64][524288, 128, 4096, 1]cpu" = torch.ops.aten.slice.Tensor(permute_1, 3, 64, 9223372036854775807);  permute_1 = None
        
         # File: /workspace/llama/model.py:50 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg: "f16[1, 32, 128, 64][262144, 64, 2048, 1]cpu" = torch.ops.aten.neg.default(slice_2);  slice_2 = None
        cat: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.cat.default([neg, slice_1], -1);  neg = slice_1 = None
        
         # File: /workspace/llama/model.py:56 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_3: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.mul.Tensor(cat, unsqueeze_1);  cat = None
        add_2: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.add.Tensor(mul_2, mul_3);  mul_2 = mul_3 = None
        
         # File: /workspace/llama/model.py:57 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_4: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.mul.Tensor(permute_3, unsqueeze);  unsqueeze = None
        
         # File: /workspace/llama/model.py:48 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_3: "f16[1, 32, 128, 64][524288, 128, 4096, 1]cpu" = torch.ops.aten.slice.Tensor(permute_3, 3, 0, 64)
        
         # File: /workspace/llama/model.py:49 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_4: "f16[1, 32, 128, 64][524288, 128, 4096, 1]cpu" = torch.ops.aten.slice.Tensor(permute_3, 3, 64, 9223372036854775807);  permute_3 = None
        
         # File: /workspace/llama/model.py:50 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_1: "f16[1, 32, 128, 64][262144, 64, 2048, 1]cpu" = torch.ops.aten.neg.default(slice_4);  slice_4 = None
        cat_1: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.cat.default([neg_1, slice_3], -1);  neg_1 = slice_3 = None
        
         # File: /workspace/llama/model.py:57 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_5: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.mul.Tensor(cat_1, unsqueeze_1);  cat_1 = unsqueeze_1 = None
        add_3: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None
        
         # File: /workspace/llama/model.py:80 in forward, code: attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(self.head_dim)
        permute_6: "f16[1, 32, 128, 128][524288, 128, 1, 4096]cpu" = torch.ops.aten.permute.default(add_3, [0, 1, 3, 2]);  add_3 = None
        expand: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.expand.default(add_2, [1, 32, 128, 128]);  add_2 = None
        view_9: "f16[32, 128, 128][128, 4096, 1]cpu" = torch.ops.aten.view.default(expand, [32, 128, 128]);  expand = None
        expand_1: "f16[1, 32, 128, 128][524288, 128, 1, 4096]cpu" = torch.ops.aten.expand.default(permute_6, [1, 32, 128, 128]);  permute_6 = None
        view_10: "f16[32, 128, 128][128, 1, 4096]cpu" = torch.ops.aten.view.default(expand_1, [32, 128, 128]);  expand_1 = None
        bmm: "f16[32, 128, 128][16384, 128, 1]cpu" = torch.ops.aten.bmm.default(view_9, view_10);  view_9 = view_10 = None
        view_11: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.view.default(bmm, [1, 32, 128, 128]);  bmm = None
        div: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.div.Tensor(view_11, 11.313708498984761);  view_11 = None
        
         # File: /workspace/llama/model.py:81 in forward, code: attn_weights = attn_weights + attention_mask
        add_4: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.add.Tensor(div, arg13_1);  div = arg13_1 = None
        
         # File: /workspace/llama/model.py:82 in forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query_states.dtype)
        convert_element_type_2: "f32[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.prims.convert_element_type.default(add_4, torch.float32);  add_4 = None
        _softmax: "f32[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten._softmax.default(convert_element_type_2, -1, False);  convert_element_type_2 = None
        convert_element_type_3: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.prims.convert_element_type.default(_softmax, torch.float16);  _softmax = None
        
         # File: /workspace/llama/model.py:83 in forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_2: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.expand.default(convert_element_type_3, [1, 32, 128, 128]);  convert_element_type_3 = None
        view_12: "f16[32, 128, 128][16384, 128, 1]cpu" = torch.ops.aten.view.default(expand_2, [32, 128, 128]);  expand_2 = None
        expand_3: "f16[1, 32, 128, 128][524288, 128, 4096, 1]cpu" = torch.ops.aten.expand.default(permute_5, [1, 32, 128, 128]);  permute_5 = None
        view_13: "f16[32, 128, 128][128, 4096, 1]cpu" = torch.ops.aten.view.default(expand_3, [32, 128, 128]);  expand_3 = None
        bmm_1: "f16[32, 128, 128][16384, 128, 1]cpu" = torch.ops.aten.bmm.default(view_12, view_13);  view_12 = view_13 = None
        view_14: "f16[1, 32, 128, 128][524288, 16384, 128, 1]cpu" = torch.ops.aten.view.default(bmm_1, [1, 32, 128, 128]);  bmm_1 = None
        
         # File: /workspace/llama/model.py:84 in forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_7: "f16[1, 128, 32, 128][524288, 128, 16384, 1]cpu" = torch.ops.aten.permute.default(view_14, [0, 2, 1, 3]);  view_14 = None
        clone: "f16[1, 128, 32, 128][524288, 4096, 128, 1]cpu" = torch.ops.aten.clone.default(permute_7, memory_format = torch.contiguous_format);  permute_7 = None
        
         # File: /workspace/llama/model.py:85 in forward, code: attn_output = attn_output.reshape(bsz, q_len, self.hidden_size)
        view_15: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.view.default(clone, [1, 128, 4096]);  clone = None
        
         # File: /workspace/llama/model.py:86 in forward, code: return self.o_proj(attn_output)
        permute_8: "f16[4096, 4096][1, 4096]cpu" = torch.ops.aten.permute.default(arg4_1, [1, 0]);  arg4_1 = None
        view_16: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.view.default(view_15, [128, 4096]);  view_15 = None
        mm_3: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.mm.default(view_16, permute_8);  view_16 = permute_8 = None
        view_17: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.view.default(mm_3, [1, 128, 4096]);  mm_3 = None
        
         # File: /workspace/llama/model.py:116 in forward, code: hidden_states = residual + hidden_states
        add_5: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.add.Tensor(add, view_17);  add = view_17 = None
        
         # File: /workspace/llama/model.py:41 in forward, code: hidden_states = hidden_states.to(torch.float32)
        convert_element_type_4: "f32[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.prims.convert_element_type.default(add_5, torch.float32)
        
         # File: /workspace/llama/model.py:42 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_2: "f32[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_4, 2)
        mean_1: "f32[1, 128, 1][128, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None
        
         # File: /workspace/llama/model.py:43 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_6: "f32[1, 128, 1][128, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[1, 128, 1][128, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_6);  add_6 = None
        mul_6: "f32[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.mul.Tensor(convert_element_type_4, rsqrt_1);  convert_element_type_4 = rsqrt_1 = None
        
         # File: /workspace/llama/model.py:44 in forward, code: return self.weight * hidden_states.to(input_dtype)
        convert_element_type_5: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.prims.convert_element_type.default(mul_6, torch.float16);  mul_6 = None
        mul_7: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.mul.Tensor(arg5_1, convert_element_type_5);  arg5_1 = convert_element_type_5 = None
        
         # File: /workspace/llama/model.py:98 in forward, code: return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_9: "f16[4096, 11008][1, 4096]cpu" = torch.ops.aten.permute.default(arg6_1, [1, 0]);  arg6_1 = None
        view_18: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.view.default(mul_7, [128, 4096])
        mm_4: "f16[128, 11008][11008, 1]cpu" = torch.ops.aten.mm.default(view_18, permute_9);  view_18 = permute_9 = None
        view_19: "f16[1, 128, 11008][1409024, 11008, 1]cpu" = torch.ops.aten.view.default(mm_4, [1, 128, 11008]);  mm_4 = None
        silu: "f16[1, 128, 11008][1409024, 11008, 1]cpu" = torch.ops.aten.silu.default(view_19);  view_19 = None
        permute_10: "f16[4096, 11008][1, 4096]cpu" = torch.ops.aten.permute.default(arg7_1, [1, 0]);  arg7_1 = None
        view_20: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.view.default(mul_7, [128, 4096]);  mul_7 = None
        mm_5: "f16[128, 11008][11008, 1]cpu" = torch.ops.aten.mm.default(view_20, permute_10);  view_20 = permute_10 = None
        view_21: "f16[1, 128, 11008][1409024, 11008, 1]cpu" = torch.ops.aten.view.default(mm_5, [1, 128, 11008]);  mm_5 = None
        mul_8: "f16[1, 128, 11008][1409024, 11008, 1]cpu" = torch.ops.aten.mul.Tensor(silu, view_21);  silu = view_21 = None
        permute_11: "f16[11008, 4096][1, 11008]cpu" = torch.ops.aten.permute.default(arg8_1, [1, 0]);  arg8_1 = None
        view_22: "f16[128, 11008][11008, 1]cpu" = torch.ops.aten.view.default(mul_8, [128, 11008]);  mul_8 = None
        mm_6: "f16[128, 4096][4096, 1]cpu" = torch.ops.aten.mm.default(view_22, permute_11);  view_22 = permute_11 = None
        view_23: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.view.default(mm_6, [1, 128, 4096]);  mm_6 = None
        
         # File: /workspace/llama/model.py:120 in forward, code: return residual + hidden_states
        add_7: "f16[1, 128, 4096][524288, 4096, 1]cpu" = torch.ops.aten.add.Tensor(add_5, view_23);  add_5 = view_23 = None
        return (add_7,)
        
