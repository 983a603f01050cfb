class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[32, 32]", arg1_1: "f32[32]", arg2_1: "f32[32, 32]", arg3_1: "f32[32]", arg4_1: "f32[32, 32]", arg5_1: "f32[32]", arg6_1: "f32[32, 32]", arg7_1: "f32[32]", arg8_1: "f32[32]", arg9_1: "f32[32]", arg10_1: "f32[64, 32]", arg11_1: "f32[64]", arg12_1: "f32[32, 64]", arg13_1: "f32[32]", arg14_1: "f32[32]", arg15_1: "f32[32]", arg16_1: "f32[32, 32]", arg17_1: "f32[32]", arg18_1: "f32[32, 32]", arg19_1: "f32[32]", arg20_1: "f32[32, 32]", arg21_1: "f32[32]", arg22_1: "f32[32, 32]", arg23_1: "f32[32]", arg24_1: "f32[32]", arg25_1: "f32[32]", arg26_1: "f32[64, 32]", arg27_1: "f32[64]", arg28_1: "f32[32, 64]", arg29_1: "f32[32]", arg30_1: "f32[32]", arg31_1: "f32[32]", arg32_1: "f32[1, 16, 32]", arg33_1: "f32[1, 16]", arg34_1: "b8[1, 16]"):
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:553, code: hidden_states = hidden_states.transpose(0, 1)
        permute: "f32[16, 1, 32]" = torch.ops.aten.permute.default(arg32_1, [1, 0, 2])
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:556, code: query_vectors = self.query(hidden_states)
        view: "f32[16, 32]" = torch.ops.aten.view.default(permute, [16, 32])
        permute_1: "f32[32, 32]" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[16, 32]" = torch.ops.aten.addmm.default(arg1_1, view, permute_1);  arg1_1 = view = permute_1 = None
        view_1: "f32[16, 1, 32]" = torch.ops.aten.view.default(addmm, [16, 1, 32]);  addmm = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:557, code: key_vectors = self.key(hidden_states)
        view_2: "f32[16, 32]" = torch.ops.aten.view.default(permute, [16, 32])
        permute_2: "f32[32, 32]" = torch.ops.aten.permute.default(arg2_1, [1, 0]);  arg2_1 = None
        addmm_1: "f32[16, 32]" = torch.ops.aten.addmm.default(arg3_1, view_2, permute_2);  arg3_1 = view_2 = permute_2 = None
        view_3: "f32[16, 1, 32]" = torch.ops.aten.view.default(addmm_1, [16, 1, 32]);  addmm_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:558, code: value_vectors = self.value(hidden_states)
        view_4: "f32[16, 32]" = torch.ops.aten.view.default(permute, [16, 32]);  permute = None
        permute_3: "f32[32, 32]" = torch.ops.aten.permute.default(arg4_1, [1, 0]);  arg4_1 = None
        addmm_2: "f32[16, 32]" = torch.ops.aten.addmm.default(arg5_1, view_4, permute_3);  arg5_1 = view_4 = permute_3 = None
        view_5: "f32[16, 1, 32]" = torch.ops.aten.view.default(addmm_2, [16, 1, 32]);  addmm_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:566, code: query_vectors /= math.sqrt(self.head_dim)
        div: "f32[16, 1, 32]" = torch.ops.aten.div.Tensor(view_1, 4.0);  view_1 = None
        view_6: "f32[16, 32]" = torch.ops.aten.view.default(div, [16, 32]);  div = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:569, code: key_vectors = key_vectors.view(seq_len, batch_size, self.num_heads, self.head_dim).transpose(0, 1)
        view_9: "f32[16, 1, 2, 16]" = torch.ops.aten.view.default(view_3, [16, 1, 2, 16]);  view_3 = None
        permute_5: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_9, [1, 0, 2, 3]);  view_9 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:834, code: key = key.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_7: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(permute_5, [0, 2, 1, 3]);  permute_5 = None
        view_11: "f32[2, 16, 16]" = torch.ops.aten.view.default(permute_7, [2, 16, 16]);  permute_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:766, code: hidden_states = hidden_states.view(
        view_13: "f32[2, 4, 4, 16]" = torch.ops.aten.view.default(view_11, [2, 4, 4, 16]);  view_11 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:778, code: return hidden_states.as_strided(size=chunk_size, stride=chunk_stride)
        as_strided_1: "f32[2, 7, 4, 16]" = torch.ops.aten.as_strided.default(view_13, [2, 7, 4, 16], [16, 64, 32, 1]);  view_13 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:843, code: diagonal_chunked_attention_scores = torch.einsum("bcxd,bcyd->bcxy", (query, key))  # multiply
        unsqueeze_1: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.unsqueeze.default(as_strided_1, 4);  as_strided_1 = None
        permute_9: "f32[2, 7, 1, 4, 16]" = torch.ops.aten.permute.default(unsqueeze_1, [0, 1, 4, 2, 3]);  unsqueeze_1 = None
        view_14: "f32[16, 1, 32]" = torch.ops.aten.view.default(view_6, [16, 1, 32]);  view_6 = None
        view_15: "f32[16, 1, 2, 16]" = torch.ops.aten.view.default(view_14, [16, 1, 2, 16]);  view_14 = None
        permute_11: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_15, [1, 0, 2, 3]);  view_15 = None
        permute_12: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(permute_11, [0, 2, 1, 3]);  permute_11 = None
        view_16: "f32[2, 16, 16]" = torch.ops.aten.view.default(permute_12, [2, 16, 16]);  permute_12 = None
        view_17: "f32[2, 4, 4, 16]" = torch.ops.aten.view.default(view_16, [2, 4, 4, 16]);  view_16 = None
        as_strided_2: "f32[2, 7, 4, 16]" = torch.ops.aten.as_strided.default(view_17, [2, 7, 4, 16], [16, 64, 32, 1]);  view_17 = None
        unsqueeze_2: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.unsqueeze.default(as_strided_2, 4);  as_strided_2 = None
        permute_13: "f32[2, 7, 4, 1, 16]" = torch.ops.aten.permute.default(unsqueeze_2, [0, 1, 2, 4, 3]);  unsqueeze_2 = None
        permute_14: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.permute.default(permute_13, [0, 1, 2, 4, 3]);  permute_13 = None
        clone: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.clone.default(permute_14, memory_format = torch.contiguous_format);  permute_14 = None
        view_18: "f32[14, 4, 16]" = torch.ops.aten.view.default(clone, [14, 4, 16]);  clone = None
        permute_15: "f32[2, 7, 16, 4, 1]" = torch.ops.aten.permute.default(permute_9, [0, 1, 4, 3, 2]);  permute_9 = None
        clone_1: "f32[2, 7, 16, 4, 1]" = torch.ops.aten.clone.default(permute_15, memory_format = torch.contiguous_format);  permute_15 = None
        view_19: "f32[14, 16, 4]" = torch.ops.aten.view.default(clone_1, [14, 16, 4]);  clone_1 = None
        bmm: "f32[14, 4, 4]" = torch.ops.aten.bmm.default(view_18, view_19);  view_18 = view_19 = None
        view_20: "f32[2, 7, 4, 1, 4]" = torch.ops.aten.view.default(bmm, [2, 7, 4, 1, 4]);  bmm = None
        permute_16: "f32[2, 7, 4, 4, 1]" = torch.ops.aten.permute.default(view_20, [0, 1, 2, 4, 3]);  view_20 = None
        view_21: "f32[2, 7, 4, 4]" = torch.ops.aten.view.default(permute_16, [2, 7, 4, 4]);  permute_16 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:704, code: hidden_states_padded = nn.functional.pad(
        constant_pad_nd: "f32[2, 7, 5, 4]" = torch.ops.aten.constant_pad_nd.default(view_21, [0, 0, 0, 1], 0.0);  view_21 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:707, code: hidden_states_padded = hidden_states_padded.view(
        view_22: "f32[2, 7, 4, 5]" = torch.ops.aten.view.default(constant_pad_nd, [2, 7, 4, 5]);  constant_pad_nd = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:855, code: diagonal_attention_scores = diagonal_chunked_attention_scores.new_zeros(
        full: "f32[2, 8, 2, 5]" = torch.ops.aten.full.default([2, 8, 2, 5], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:861, code: diagonal_attention_scores[:, :-1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_1: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_22, 0, 0, 9223372036854775807)
        slice_2: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_1, 1, 0, 9223372036854775807);  slice_1 = None
        slice_3: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_2, 2, 0, 2);  slice_2 = None
        slice_4: "f32[2, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_3, 3, 0, 3);  slice_3 = None
        slice_5: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full, 0, 0, 9223372036854775807)
        slice_6: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_5, 1, 0, -1);  slice_5 = None
        slice_7: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_6, 2, 0, 9223372036854775807);  slice_6 = None
        slice_8: "f32[2, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_7, 3, 2, 9223372036854775807);  slice_7 = None
        copy: "f32[2, 7, 2, 3]" = torch.ops.aten.copy.default(slice_8, slice_4);  slice_8 = slice_4 = None
        slice_9: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full, 0, 0, 9223372036854775807)
        slice_10: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_9, 1, 0, -1)
        slice_11: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_10, 2, 0, 9223372036854775807)
        slice_scatter: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_11, copy, 3, 2, 9223372036854775807);  slice_11 = copy = None
        slice_scatter_1: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_10, slice_scatter, 2, 0, 9223372036854775807);  slice_10 = slice_scatter = None
        slice_scatter_2: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_9, slice_scatter_1, 1, 0, -1);  slice_9 = slice_scatter_1 = None
        slice_scatter_3: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(full, slice_scatter_2, 0, 0, 9223372036854775807);  full = slice_scatter_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:864, code: diagonal_attention_scores[:, -1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_16: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_22, 0, 0, 9223372036854775807)
        select: "f32[2, 4, 5]" = torch.ops.aten.select.int(slice_16, 1, -1);  slice_16 = None
        slice_17: "f32[2, 2, 5]" = torch.ops.aten.slice.Tensor(select, 1, 2, 9223372036854775807);  select = None
        slice_18: "f32[2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_17, 2, 0, 3);  slice_17 = None
        slice_22: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_3, 0, 0, 9223372036854775807)
        select_2: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_22, 1, -1);  slice_22 = None
        slice_23: "f32[2, 2, 5]" = torch.ops.aten.slice.Tensor(select_2, 1, 0, 9223372036854775807);  select_2 = None
        slice_24: "f32[2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_23, 2, 2, 9223372036854775807);  slice_23 = None
        copy_1: "f32[2, 2, 3]" = torch.ops.aten.copy.default(slice_24, slice_18);  slice_24 = slice_18 = None
        slice_25: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_3, 0, 0, 9223372036854775807)
        select_3: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_25, 1, -1)
        slice_26: "f32[2, 2, 5]" = torch.ops.aten.slice.Tensor(select_3, 1, 0, 9223372036854775807)
        slice_scatter_4: "f32[2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_26, copy_1, 2, 2, 9223372036854775807);  slice_26 = copy_1 = None
        slice_scatter_5: "f32[2, 2, 5]" = torch.ops.aten.slice_scatter.default(select_3, slice_scatter_4, 1, 0, 9223372036854775807);  select_3 = slice_scatter_4 = None
        select_scatter: "f32[2, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_25, slice_scatter_5, 1, -1);  slice_25 = slice_scatter_5 = None
        slice_scatter_6: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_3, select_scatter, 0, 0, 9223372036854775807);  slice_scatter_3 = select_scatter = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:868, code: diagonal_attention_scores[:, 1:, :, :window_overlap] = diagonal_chunked_attention_scores[
        slice_30: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_22, 0, 0, 9223372036854775807)
        slice_31: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_30, 1, 0, 9223372036854775807);  slice_30 = None
        slice_32: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_31, 2, -3, -1);  slice_31 = None
        slice_33: "f32[2, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_32, 3, 3, 9223372036854775807);  slice_32 = None
        slice_38: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_6, 0, 0, 9223372036854775807)
        slice_39: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_38, 1, 1, 9223372036854775807);  slice_38 = None
        slice_40: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_39, 2, 0, 9223372036854775807);  slice_39 = None
        slice_41: "f32[2, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_40, 3, 0, 2);  slice_40 = None
        copy_2: "f32[2, 7, 2, 2]" = torch.ops.aten.copy.default(slice_41, slice_33);  slice_41 = slice_33 = None
        slice_42: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_6, 0, 0, 9223372036854775807)
        slice_43: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_42, 1, 1, 9223372036854775807)
        slice_44: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_43, 2, 0, 9223372036854775807)
        slice_scatter_7: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_44, copy_2, 3, 0, 2);  slice_44 = copy_2 = None
        slice_scatter_8: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_43, slice_scatter_7, 2, 0, 9223372036854775807);  slice_43 = slice_scatter_7 = None
        slice_scatter_9: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_42, slice_scatter_8, 1, 1, 9223372036854775807);  slice_42 = slice_scatter_8 = None
        slice_scatter_10: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_6, slice_scatter_9, 0, 0, 9223372036854775807);  slice_scatter_6 = slice_scatter_9 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:872, code: diagonal_attention_scores[:, 0, 1:window_overlap, 1:window_overlap] = diagonal_chunked_attention_scores[
        slice_49: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_22, 0, 0, 9223372036854775807);  view_22 = None
        select_5: "f32[2, 4, 5]" = torch.ops.aten.select.int(slice_49, 1, 0);  slice_49 = None
        slice_50: "f32[2, 1, 5]" = torch.ops.aten.slice.Tensor(select_5, 1, 0, 1);  select_5 = None
        slice_51: "f32[2, 1, 1]" = torch.ops.aten.slice.Tensor(slice_50, 2, -1, 9223372036854775807);  slice_50 = None
        slice_55: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_10, 0, 0, 9223372036854775807)
        select_7: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_55, 1, 0);  slice_55 = None
        slice_56: "f32[2, 1, 5]" = torch.ops.aten.slice.Tensor(select_7, 1, 1, 2);  select_7 = None
        slice_57: "f32[2, 1, 1]" = torch.ops.aten.slice.Tensor(slice_56, 2, 1, 2);  slice_56 = None
        copy_3: "f32[2, 1, 1]" = torch.ops.aten.copy.default(slice_57, slice_51);  slice_57 = slice_51 = None
        slice_58: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_10, 0, 0, 9223372036854775807)
        select_8: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_58, 1, 0)
        slice_59: "f32[2, 1, 5]" = torch.ops.aten.slice.Tensor(select_8, 1, 1, 2)
        slice_scatter_11: "f32[2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_59, copy_3, 2, 1, 2);  slice_59 = copy_3 = None
        slice_scatter_12: "f32[2, 2, 5]" = torch.ops.aten.slice_scatter.default(select_8, slice_scatter_11, 1, 1, 2);  select_8 = slice_scatter_11 = None
        select_scatter_1: "f32[2, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_58, slice_scatter_12, 1, 0);  slice_58 = slice_scatter_12 = None
        slice_scatter_13: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_10, select_scatter_1, 0, 0, 9223372036854775807);  slice_scatter_10 = select_scatter_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:804, code: beginning_mask_2d = input_tensor.new_ones(affected_seq_len, affected_seq_len + 1).tril().flip(dims=[0])
        full_default: "f32[2, 3]" = torch.ops.aten.full.default([2, 3], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        iota: "i64[3]" = torch.ops.prims.iota.default(3, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_3: "i64[1, 3]" = torch.ops.aten.unsqueeze.default(iota, -2);  iota = None
        iota_1: "i64[2]" = torch.ops.prims.iota.default(2, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_4: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(iota_1, -1);  iota_1 = None
        sub_1: "i64[2, 3]" = torch.ops.aten.sub.Tensor(unsqueeze_3, unsqueeze_4);  unsqueeze_3 = unsqueeze_4 = None
        le: "b8[2, 3]" = torch.ops.aten.le.Scalar(sub_1, 0);  sub_1 = None
        full_default_1: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where: "f32[2, 3]" = torch.ops.aten.where.self(le, full_default, full_default_1);  le = full_default = full_default_1 = None
        rev: "f32[2, 3]" = torch.ops.prims.rev.default(where, [0]);  where = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:805, code: beginning_mask = beginning_mask_2d[None, :, None, :]
        unsqueeze_5: "f32[1, 2, 3]" = torch.ops.aten.unsqueeze.default(rev, 0);  rev = None
        slice_63: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_5, 1, 0, 9223372036854775807);  unsqueeze_5 = None
        unsqueeze_6: "f32[1, 2, 1, 3]" = torch.ops.aten.unsqueeze.default(slice_63, 2);  slice_63 = None
        slice_64: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_6, 3, 0, 9223372036854775807);  unsqueeze_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:806, code: ending_mask = beginning_mask.flip(dims=(1, 3))
        rev_1: "f32[1, 2, 1, 3]" = torch.ops.prims.rev.default(slice_64, [1, 3])
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:808, code: beginning_mask = beginning_mask.expand(beginning_input.size())
        expand: "f32[1, 2, 2, 3]" = torch.ops.aten.expand.default(slice_64, [1, 2, 2, 3]);  slice_64 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_25: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(slice_scatter_13, [1, 2, 16, 5])
        permute_19: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_25, [0, 2, 1, 3]);  view_25 = None
        slice_69: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_19, 0, 0, 9223372036854775807);  permute_19 = None
        slice_70: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_69, 1, 0, 2);  slice_69 = None
        slice_71: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_70, 2, 0, 9223372036854775807);  slice_70 = None
        slice_72: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_71, 3, 0, 3);  slice_71 = None
        full_default_2: "f32[1, 2, 2, 3]" = torch.ops.aten.full.default([1, 2, 2, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:811, code: ).where(beginning_mask.bool(), beginning_input)
        convert_element_type: "b8[1, 2, 2, 3]" = torch.ops.prims.convert_element_type.default(expand, torch.bool);  expand = None
        where_1: "f32[1, 2, 2, 3]" = torch.ops.aten.where.self(convert_element_type, full_default_2, slice_72);  convert_element_type = full_default_2 = slice_72 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_26: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(slice_scatter_13, [1, 2, 16, 5])
        permute_20: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_26, [0, 2, 1, 3]);  view_26 = None
        slice_77: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_20, 0, 0, 9223372036854775807);  permute_20 = None
        slice_78: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_77, 1, 0, 2);  slice_77 = None
        slice_79: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_78, 2, 0, 9223372036854775807);  slice_78 = None
        slice_80: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_79, 3, 0, 3);  slice_79 = None
        copy_4: "f32[1, 2, 2, 3]" = torch.ops.aten.copy.default(slice_80, where_1);  slice_80 = where_1 = None
        view_27: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(slice_scatter_13, [1, 2, 16, 5]);  slice_scatter_13 = None
        permute_21: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_27, [0, 2, 1, 3]);  view_27 = None
        slice_81: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_21, 0, 0, 9223372036854775807)
        slice_82: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_81, 1, 0, 2)
        slice_83: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_82, 2, 0, 9223372036854775807)
        slice_scatter_14: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_83, copy_4, 3, 0, 3);  slice_83 = copy_4 = None
        slice_scatter_15: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_82, slice_scatter_14, 2, 0, 9223372036854775807);  slice_82 = slice_scatter_14 = None
        slice_scatter_16: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_81, slice_scatter_15, 1, 0, 2);  slice_81 = slice_scatter_15 = None
        slice_scatter_17: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(permute_21, slice_scatter_16, 0, 0, 9223372036854775807);  permute_21 = slice_scatter_16 = None
        permute_22: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_17, [0, 2, 1, 3]);  slice_scatter_17 = None
        view_28: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_22, [2, 8, 2, 5]);  permute_22 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:813, code: ending_mask = ending_mask.expand(ending_input.size())
        expand_1: "f32[1, 2, 2, 3]" = torch.ops.aten.expand.default(rev_1, [1, 2, 2, 3]);  rev_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_30: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_28, [1, 2, 16, 5])
        permute_24: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_30, [0, 2, 1, 3]);  view_30 = None
        slice_92: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_24, 0, 0, 9223372036854775807);  permute_24 = None
        slice_93: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_92, 1, -2, 9223372036854775807);  slice_92 = None
        slice_94: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_93, 2, 0, 9223372036854775807);  slice_93 = None
        slice_95: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_94, 3, -3, 9223372036854775807);  slice_94 = None
        full_default_3: "f32[1, 2, 2, 3]" = torch.ops.aten.full.default([1, 2, 2, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:816, code: ).where(ending_mask.bool(), ending_input)
        convert_element_type_1: "b8[1, 2, 2, 3]" = torch.ops.prims.convert_element_type.default(expand_1, torch.bool);  expand_1 = None
        where_2: "f32[1, 2, 2, 3]" = torch.ops.aten.where.self(convert_element_type_1, full_default_3, slice_95);  convert_element_type_1 = full_default_3 = slice_95 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_31: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_28, [1, 2, 16, 5])
        permute_25: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_31, [0, 2, 1, 3]);  view_31 = None
        slice_100: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_25, 0, 0, 9223372036854775807);  permute_25 = None
        slice_101: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_100, 1, -2, 9223372036854775807);  slice_100 = None
        slice_102: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_101, 2, 0, 9223372036854775807);  slice_101 = None
        slice_103: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_102, 3, -3, 9223372036854775807);  slice_102 = None
        copy_5: "f32[1, 2, 2, 3]" = torch.ops.aten.copy.default(slice_103, where_2);  slice_103 = where_2 = None
        view_32: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_28, [1, 2, 16, 5]);  view_28 = None
        permute_26: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_32, [0, 2, 1, 3]);  view_32 = None
        slice_104: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_26, 0, 0, 9223372036854775807)
        slice_105: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_104, 1, -2, 9223372036854775807)
        slice_106: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_105, 2, 0, 9223372036854775807)
        slice_scatter_18: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_106, copy_5, 3, -3, 9223372036854775807);  slice_106 = copy_5 = None
        slice_scatter_19: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_105, slice_scatter_18, 2, 0, 9223372036854775807);  slice_105 = slice_scatter_18 = None
        slice_scatter_20: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_104, slice_scatter_19, 1, -2, 9223372036854775807);  slice_104 = slice_scatter_19 = None
        slice_scatter_21: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(permute_26, slice_scatter_20, 0, 0, 9223372036854775807);  permute_26 = slice_scatter_20 = None
        permute_27: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_21, [0, 2, 1, 3]);  slice_scatter_21 = None
        view_33: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_27, [2, 8, 2, 5]);  permute_27 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:576, code: remove_from_windowed_attention_mask = (attention_mask != 0)[:, :, None, None]
        ne: "b8[1, 16]" = torch.ops.aten.ne.Scalar(arg33_1, 0)
        slice_111: "b8[1, 16]" = torch.ops.aten.slice.Tensor(ne, 0, 0, 9223372036854775807);  ne = None
        slice_112: "b8[1, 16]" = torch.ops.aten.slice.Tensor(slice_111, 1, 0, 9223372036854775807);  slice_111 = None
        unsqueeze_7: "b8[1, 16, 1]" = torch.ops.aten.unsqueeze.default(slice_112, 2);  slice_112 = None
        unsqueeze_8: "b8[1, 16, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 3);  unsqueeze_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:579, code: float_mask = remove_from_windowed_attention_mask.type_as(query_vectors).masked_fill(
        convert_element_type_2: "f32[1, 16, 1, 1]" = torch.ops.prims.convert_element_type.default(unsqueeze_8, torch.float32)
        full_default_4: "f32[]" = torch.ops.aten.full.default([], -3.4028234663852886e+38, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where_3: "f32[1, 16, 1, 1]" = torch.ops.aten.where.self(unsqueeze_8, full_default_4, convert_element_type_2);  unsqueeze_8 = full_default_4 = convert_element_type_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:584, code: float_mask.new_ones(size=float_mask.size()), float_mask, self.one_sided_attn_window_size
        full_4: "f32[1, 16, 1, 1]" = torch.ops.aten.full.default([1, 16, 1, 1], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:833, code: query = query.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_29: "f32[1, 1, 16, 1]" = torch.ops.aten.permute.default(full_4, [0, 2, 1, 3]);  full_4 = None
        view_35: "f32[1, 16, 1]" = torch.ops.aten.view.default(permute_29, [1, 16, 1]);  permute_29 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:834, code: key = key.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_30: "f32[1, 1, 16, 1]" = torch.ops.aten.permute.default(where_3, [0, 2, 1, 3]);  where_3 = None
        view_36: "f32[1, 16, 1]" = torch.ops.aten.view.default(permute_30, [1, 16, 1]);  permute_30 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:766, code: hidden_states = hidden_states.view(
        view_37: "f32[1, 4, 4, 1]" = torch.ops.aten.view.default(view_35, [1, 4, 4, 1]);  view_35 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:778, code: return hidden_states.as_strided(size=chunk_size, stride=chunk_stride)
        as_strided_3: "f32[1, 7, 4, 1]" = torch.ops.aten.as_strided.default(view_37, [1, 7, 4, 1], [16, 2, 1, 1]);  view_37 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:766, code: hidden_states = hidden_states.view(
        view_38: "f32[1, 4, 4, 1]" = torch.ops.aten.view.default(view_36, [1, 4, 4, 1]);  view_36 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:778, code: return hidden_states.as_strided(size=chunk_size, stride=chunk_stride)
        as_strided_4: "f32[1, 7, 4, 1]" = torch.ops.aten.as_strided.default(view_38, [1, 7, 4, 1], [16, 2, 1, 1]);  view_38 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:843, code: diagonal_chunked_attention_scores = torch.einsum("bcxd,bcyd->bcxy", (query, key))  # multiply
        unsqueeze_9: "f32[1, 7, 4, 1, 1]" = torch.ops.aten.unsqueeze.default(as_strided_3, 4);  as_strided_3 = None
        permute_31: "f32[1, 7, 4, 1, 1]" = torch.ops.aten.permute.default(unsqueeze_9, [0, 1, 2, 4, 3]);  unsqueeze_9 = None
        unsqueeze_10: "f32[1, 7, 4, 1, 1]" = torch.ops.aten.unsqueeze.default(as_strided_4, 4);  as_strided_4 = None
        permute_32: "f32[1, 7, 1, 4, 1]" = torch.ops.aten.permute.default(unsqueeze_10, [0, 1, 4, 2, 3]);  unsqueeze_10 = None
        mul: "f32[1, 7, 4, 4, 1]" = torch.ops.aten.mul.Tensor(permute_31, permute_32);  permute_31 = permute_32 = None
        view_39: "f32[1, 7, 4, 4]" = torch.ops.aten.view.default(mul, [1, 7, 4, 4]);  mul = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:704, code: hidden_states_padded = nn.functional.pad(
        constant_pad_nd_1: "f32[1, 7, 5, 4]" = torch.ops.aten.constant_pad_nd.default(view_39, [0, 0, 0, 1], 0.0);  view_39 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:707, code: hidden_states_padded = hidden_states_padded.view(
        view_40: "f32[1, 7, 4, 5]" = torch.ops.aten.view.default(constant_pad_nd_1, [1, 7, 4, 5]);  constant_pad_nd_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:855, code: diagonal_attention_scores = diagonal_chunked_attention_scores.new_zeros(
        full_5: "f32[1, 8, 2, 5]" = torch.ops.aten.full.default([1, 8, 2, 5], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:861, code: diagonal_attention_scores[:, :-1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_113: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_40, 0, 0, 9223372036854775807)
        slice_114: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_113, 1, 0, 9223372036854775807);  slice_113 = None
        slice_115: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_114, 2, 0, 2);  slice_114 = None
        slice_116: "f32[1, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_115, 3, 0, 3);  slice_115 = None
        slice_117: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full_5, 0, 0, 9223372036854775807)
        slice_118: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_117, 1, 0, -1);  slice_117 = None
        slice_119: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_118, 2, 0, 9223372036854775807);  slice_118 = None
        slice_120: "f32[1, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_119, 3, 2, 9223372036854775807);  slice_119 = None
        copy_6: "f32[1, 7, 2, 3]" = torch.ops.aten.copy.default(slice_120, slice_116);  slice_120 = slice_116 = None
        slice_121: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full_5, 0, 0, 9223372036854775807)
        slice_122: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_121, 1, 0, -1)
        slice_123: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_122, 2, 0, 9223372036854775807)
        slice_scatter_22: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_123, copy_6, 3, 2, 9223372036854775807);  slice_123 = copy_6 = None
        slice_scatter_23: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_122, slice_scatter_22, 2, 0, 9223372036854775807);  slice_122 = slice_scatter_22 = None
        slice_scatter_24: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_121, slice_scatter_23, 1, 0, -1);  slice_121 = slice_scatter_23 = None
        slice_scatter_25: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(full_5, slice_scatter_24, 0, 0, 9223372036854775807);  full_5 = slice_scatter_24 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:864, code: diagonal_attention_scores[:, -1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_128: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_40, 0, 0, 9223372036854775807)
        select_10: "f32[1, 4, 5]" = torch.ops.aten.select.int(slice_128, 1, -1);  slice_128 = None
        slice_129: "f32[1, 2, 5]" = torch.ops.aten.slice.Tensor(select_10, 1, 2, 9223372036854775807);  select_10 = None
        slice_130: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(slice_129, 2, 0, 3);  slice_129 = None
        slice_134: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_25, 0, 0, 9223372036854775807)
        select_12: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_134, 1, -1);  slice_134 = None
        slice_135: "f32[1, 2, 5]" = torch.ops.aten.slice.Tensor(select_12, 1, 0, 9223372036854775807);  select_12 = None
        slice_136: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(slice_135, 2, 2, 9223372036854775807);  slice_135 = None
        copy_7: "f32[1, 2, 3]" = torch.ops.aten.copy.default(slice_136, slice_130);  slice_136 = slice_130 = None
        slice_137: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_25, 0, 0, 9223372036854775807)
        select_13: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_137, 1, -1)
        slice_138: "f32[1, 2, 5]" = torch.ops.aten.slice.Tensor(select_13, 1, 0, 9223372036854775807)
        slice_scatter_26: "f32[1, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_138, copy_7, 2, 2, 9223372036854775807);  slice_138 = copy_7 = None
        slice_scatter_27: "f32[1, 2, 5]" = torch.ops.aten.slice_scatter.default(select_13, slice_scatter_26, 1, 0, 9223372036854775807);  select_13 = slice_scatter_26 = None
        select_scatter_2: "f32[1, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_137, slice_scatter_27, 1, -1);  slice_137 = slice_scatter_27 = None
        slice_scatter_28: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_25, select_scatter_2, 0, 0, 9223372036854775807);  slice_scatter_25 = select_scatter_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:868, code: diagonal_attention_scores[:, 1:, :, :window_overlap] = diagonal_chunked_attention_scores[
        slice_142: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_40, 0, 0, 9223372036854775807)
        slice_143: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_142, 1, 0, 9223372036854775807);  slice_142 = None
        slice_144: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_143, 2, -3, -1);  slice_143 = None
        slice_145: "f32[1, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_144, 3, 3, 9223372036854775807);  slice_144 = None
        slice_150: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_28, 0, 0, 9223372036854775807)
        slice_151: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_150, 1, 1, 9223372036854775807);  slice_150 = None
        slice_152: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_151, 2, 0, 9223372036854775807);  slice_151 = None
        slice_153: "f32[1, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_152, 3, 0, 2);  slice_152 = None
        copy_8: "f32[1, 7, 2, 2]" = torch.ops.aten.copy.default(slice_153, slice_145);  slice_153 = slice_145 = None
        slice_154: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_28, 0, 0, 9223372036854775807)
        slice_155: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_154, 1, 1, 9223372036854775807)
        slice_156: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_155, 2, 0, 9223372036854775807)
        slice_scatter_29: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_156, copy_8, 3, 0, 2);  slice_156 = copy_8 = None
        slice_scatter_30: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_155, slice_scatter_29, 2, 0, 9223372036854775807);  slice_155 = slice_scatter_29 = None
        slice_scatter_31: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_154, slice_scatter_30, 1, 1, 9223372036854775807);  slice_154 = slice_scatter_30 = None
        slice_scatter_32: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_28, slice_scatter_31, 0, 0, 9223372036854775807);  slice_scatter_28 = slice_scatter_31 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:872, code: diagonal_attention_scores[:, 0, 1:window_overlap, 1:window_overlap] = diagonal_chunked_attention_scores[
        slice_161: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_40, 0, 0, 9223372036854775807);  view_40 = None
        select_15: "f32[1, 4, 5]" = torch.ops.aten.select.int(slice_161, 1, 0);  slice_161 = None
        slice_162: "f32[1, 1, 5]" = torch.ops.aten.slice.Tensor(select_15, 1, 0, 1);  select_15 = None
        slice_163: "f32[1, 1, 1]" = torch.ops.aten.slice.Tensor(slice_162, 2, -1, 9223372036854775807);  slice_162 = None
        slice_167: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_32, 0, 0, 9223372036854775807)
        select_17: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_167, 1, 0);  slice_167 = None
        slice_168: "f32[1, 1, 5]" = torch.ops.aten.slice.Tensor(select_17, 1, 1, 2);  select_17 = None
        slice_169: "f32[1, 1, 1]" = torch.ops.aten.slice.Tensor(slice_168, 2, 1, 2);  slice_168 = None
        copy_9: "f32[1, 1, 1]" = torch.ops.aten.copy.default(slice_169, slice_163);  slice_169 = slice_163 = None
        slice_170: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_32, 0, 0, 9223372036854775807)
        select_18: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_170, 1, 0)
        slice_171: "f32[1, 1, 5]" = torch.ops.aten.slice.Tensor(select_18, 1, 1, 2)
        slice_scatter_33: "f32[1, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_171, copy_9, 2, 1, 2);  slice_171 = copy_9 = None
        slice_scatter_34: "f32[1, 2, 5]" = torch.ops.aten.slice_scatter.default(select_18, slice_scatter_33, 1, 1, 2);  select_18 = slice_scatter_33 = None
        select_scatter_3: "f32[1, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_170, slice_scatter_34, 1, 0);  slice_170 = slice_scatter_34 = None
        slice_scatter_35: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_32, select_scatter_3, 0, 0, 9223372036854775807);  slice_scatter_32 = select_scatter_3 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:804, code: beginning_mask_2d = input_tensor.new_ones(affected_seq_len, affected_seq_len + 1).tril().flip(dims=[0])
        full_default_5: "f32[2, 3]" = torch.ops.aten.full.default([2, 3], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        iota_2: "i64[3]" = torch.ops.prims.iota.default(3, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_11: "i64[1, 3]" = torch.ops.aten.unsqueeze.default(iota_2, -2);  iota_2 = None
        iota_3: "i64[2]" = torch.ops.prims.iota.default(2, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_12: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(iota_3, -1);  iota_3 = None
        sub_3: "i64[2, 3]" = torch.ops.aten.sub.Tensor(unsqueeze_11, unsqueeze_12);  unsqueeze_11 = unsqueeze_12 = None
        le_1: "b8[2, 3]" = torch.ops.aten.le.Scalar(sub_3, 0);  sub_3 = None
        full_default_6: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where_4: "f32[2, 3]" = torch.ops.aten.where.self(le_1, full_default_5, full_default_6);  le_1 = full_default_5 = full_default_6 = None
        rev_2: "f32[2, 3]" = torch.ops.prims.rev.default(where_4, [0]);  where_4 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:805, code: beginning_mask = beginning_mask_2d[None, :, None, :]
        unsqueeze_13: "f32[1, 2, 3]" = torch.ops.aten.unsqueeze.default(rev_2, 0);  rev_2 = None
        slice_175: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_13, 1, 0, 9223372036854775807);  unsqueeze_13 = None
        unsqueeze_14: "f32[1, 2, 1, 3]" = torch.ops.aten.unsqueeze.default(slice_175, 2);  slice_175 = None
        slice_176: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_14, 3, 0, 9223372036854775807);  unsqueeze_14 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:806, code: ending_mask = beginning_mask.flip(dims=(1, 3))
        rev_3: "f32[1, 2, 1, 3]" = torch.ops.prims.rev.default(slice_176, [1, 3])
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:808, code: beginning_mask = beginning_mask.expand(beginning_input.size())
        expand_2: "f32[1, 2, 1, 3]" = torch.ops.aten.expand.default(slice_176, [1, 2, 1, 3]);  slice_176 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_43: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(slice_scatter_35, [1, 1, 16, 5])
        permute_35: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_43, [0, 2, 1, 3]);  view_43 = None
        slice_181: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_35, 0, 0, 9223372036854775807);  permute_35 = None
        slice_182: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_181, 1, 0, 2);  slice_181 = None
        slice_183: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_182, 2, 0, 9223372036854775807);  slice_182 = None
        slice_184: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_183, 3, 0, 3);  slice_183 = None
        full_default_7: "f32[1, 2, 1, 3]" = torch.ops.aten.full.default([1, 2, 1, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:811, code: ).where(beginning_mask.bool(), beginning_input)
        convert_element_type_3: "b8[1, 2, 1, 3]" = torch.ops.prims.convert_element_type.default(expand_2, torch.bool);  expand_2 = None
        where_5: "f32[1, 2, 1, 3]" = torch.ops.aten.where.self(convert_element_type_3, full_default_7, slice_184);  convert_element_type_3 = full_default_7 = slice_184 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_44: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(slice_scatter_35, [1, 1, 16, 5])
        permute_36: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_44, [0, 2, 1, 3]);  view_44 = None
        slice_189: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_36, 0, 0, 9223372036854775807);  permute_36 = None
        slice_190: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_189, 1, 0, 2);  slice_189 = None
        slice_191: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_190, 2, 0, 9223372036854775807);  slice_190 = None
        slice_192: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_191, 3, 0, 3);  slice_191 = None
        copy_10: "f32[1, 2, 1, 3]" = torch.ops.aten.copy.default(slice_192, where_5);  slice_192 = where_5 = None
        view_45: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(slice_scatter_35, [1, 1, 16, 5]);  slice_scatter_35 = None
        permute_37: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_45, [0, 2, 1, 3]);  view_45 = None
        slice_193: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_37, 0, 0, 9223372036854775807)
        slice_194: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_193, 1, 0, 2)
        slice_195: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_194, 2, 0, 9223372036854775807)
        slice_scatter_36: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_195, copy_10, 3, 0, 3);  slice_195 = copy_10 = None
        slice_scatter_37: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_194, slice_scatter_36, 2, 0, 9223372036854775807);  slice_194 = slice_scatter_36 = None
        slice_scatter_38: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_193, slice_scatter_37, 1, 0, 2);  slice_193 = slice_scatter_37 = None
        slice_scatter_39: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(permute_37, slice_scatter_38, 0, 0, 9223372036854775807);  permute_37 = slice_scatter_38 = None
        permute_38: "f32[1, 1, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_39, [0, 2, 1, 3]);  slice_scatter_39 = None
        view_46: "f32[1, 8, 2, 5]" = torch.ops.aten.view.default(permute_38, [1, 8, 2, 5]);  permute_38 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:813, code: ending_mask = ending_mask.expand(ending_input.size())
        expand_3: "f32[1, 2, 1, 3]" = torch.ops.aten.expand.default(rev_3, [1, 2, 1, 3]);  rev_3 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_48: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_46, [1, 1, 16, 5])
        permute_40: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_48, [0, 2, 1, 3]);  view_48 = None
        slice_204: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_40, 0, 0, 9223372036854775807);  permute_40 = None
        slice_205: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_204, 1, -2, 9223372036854775807);  slice_204 = None
        slice_206: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_205, 2, 0, 9223372036854775807);  slice_205 = None
        slice_207: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_206, 3, -3, 9223372036854775807);  slice_206 = None
        full_default_8: "f32[1, 2, 1, 3]" = torch.ops.aten.full.default([1, 2, 1, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:816, code: ).where(ending_mask.bool(), ending_input)
        convert_element_type_4: "b8[1, 2, 1, 3]" = torch.ops.prims.convert_element_type.default(expand_3, torch.bool);  expand_3 = None
        where_6: "f32[1, 2, 1, 3]" = torch.ops.aten.where.self(convert_element_type_4, full_default_8, slice_207);  convert_element_type_4 = full_default_8 = slice_207 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_49: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_46, [1, 1, 16, 5])
        permute_41: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_49, [0, 2, 1, 3]);  view_49 = None
        slice_212: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_41, 0, 0, 9223372036854775807);  permute_41 = None
        slice_213: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_212, 1, -2, 9223372036854775807);  slice_212 = None
        slice_214: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_213, 2, 0, 9223372036854775807);  slice_213 = None
        slice_215: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_214, 3, -3, 9223372036854775807);  slice_214 = None
        copy_11: "f32[1, 2, 1, 3]" = torch.ops.aten.copy.default(slice_215, where_6);  slice_215 = where_6 = None
        view_50: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_46, [1, 1, 16, 5]);  view_46 = None
        permute_42: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_50, [0, 2, 1, 3]);  view_50 = None
        slice_216: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_42, 0, 0, 9223372036854775807)
        slice_217: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_216, 1, -2, 9223372036854775807)
        slice_218: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_217, 2, 0, 9223372036854775807)
        slice_scatter_40: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_218, copy_11, 3, -3, 9223372036854775807);  slice_218 = copy_11 = None
        slice_scatter_41: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_217, slice_scatter_40, 2, 0, 9223372036854775807);  slice_217 = slice_scatter_40 = None
        slice_scatter_42: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_216, slice_scatter_41, 1, -2, 9223372036854775807);  slice_216 = slice_scatter_41 = None
        slice_scatter_43: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(permute_42, slice_scatter_42, 0, 0, 9223372036854775807);  permute_42 = slice_scatter_42 = None
        permute_43: "f32[1, 1, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_43, [0, 2, 1, 3]);  slice_scatter_43 = None
        view_51: "f32[1, 8, 2, 5]" = torch.ops.aten.view.default(permute_43, [1, 8, 2, 5]);  permute_43 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:588, code: attn_scores += diagonal_mask
        view_53: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_33, [1, 2, 16, 5]);  view_33 = None
        permute_45: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_53, [0, 2, 1, 3]);  view_53 = None
        view_54: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_51, [1, 1, 16, 5]);  view_51 = None
        permute_46: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_54, [0, 2, 1, 3]);  view_54 = None
        add_2: "f32[1, 16, 2, 5]" = torch.ops.aten.add.Tensor(permute_45, permute_46);  permute_45 = permute_46 = None
        permute_47: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(add_2, [0, 2, 1, 3]);  add_2 = None
        view_56: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_47, [2, 8, 2, 5]);  permute_47 = None
        view_57: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_56, [1, 2, 16, 5]);  view_56 = None
        permute_48: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_57, [0, 2, 1, 3]);  view_57 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:626, code: attn_probs = nn.functional.softmax(
        clone_2: "f32[1, 16, 2, 5]" = torch.ops.aten.clone.default(permute_48, memory_format = torch.contiguous_format);  permute_48 = None
        amax: "f32[1, 16, 2, 1]" = torch.ops.aten.amax.default(clone_2, [-1], True)
        sub_4: "f32[1, 16, 2, 5]" = torch.ops.aten.sub.Tensor(clone_2, amax);  clone_2 = amax = None
        exp: "f32[1, 16, 2, 5]" = torch.ops.aten.exp.default(sub_4);  sub_4 = None
        sum_1: "f32[1, 16, 2, 1]" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div_7: "f32[1, 16, 2, 5]" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:637, code: attn_probs = torch.masked_fill(attn_probs, is_index_masked[:, :, None, None], 0.0)
        slice_223: "b8[1, 16]" = torch.ops.aten.slice.Tensor(arg34_1, 0, 0, 9223372036854775807)
        slice_224: "b8[1, 16]" = torch.ops.aten.slice.Tensor(slice_223, 1, 0, 9223372036854775807);  slice_223 = None
        unsqueeze_15: "b8[1, 16, 1]" = torch.ops.aten.unsqueeze.default(slice_224, 2);  slice_224 = None
        unsqueeze_16: "b8[1, 16, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_15, 3);  unsqueeze_15 = None
        full_default_9: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where_7: "f32[1, 16, 2, 5]" = torch.ops.aten.where.self(unsqueeze_16, full_default_9, div_7);  unsqueeze_16 = full_default_9 = div_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:644, code: attn_probs = nn.functional.dropout(attn_probs, p=self.dropout, training=self.training)
        clone_3: "f32[1, 16, 2, 5]" = torch.ops.aten.clone.default(where_7);  where_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:646, code: value_vectors = value_vectors.view(seq_len, batch_size, self.num_heads, self.head_dim).transpose(0, 1)
        view_58: "f32[16, 1, 2, 16]" = torch.ops.aten.view.default(view_5, [16, 1, 2, 16]);  view_5 = None
        permute_49: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_58, [1, 0, 2, 3]);  view_58 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:899, code: chunked_attn_probs = attn_probs.transpose(1, 2).reshape(
        permute_50: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(clone_3, [0, 2, 1, 3]);  clone_3 = None
        view_59: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_50, [2, 8, 2, 5]);  permute_50 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:907, code: value = value.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_51: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(permute_49, [0, 2, 1, 3]);  permute_49 = None
        view_60: "f32[2, 16, 16]" = torch.ops.aten.view.default(permute_51, [2, 16, 16]);  permute_51 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:910, code: padded_value = nn.functional.pad(value, (0, 0, window_overlap, window_overlap), value=-1)
        constant_pad_nd_2: "f32[2, 20, 16]" = torch.ops.aten.constant_pad_nd.default(view_60, [0, 0, 2, 2], -1.0);  view_60 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:921, code: chunked_value = padded_value.as_strided(size=chunked_value_size, stride=chunked_value_stride)
        as_strided_5: "f32[2, 8, 6, 16]" = torch.ops.aten.as_strided.default(constant_pad_nd_2, [2, 8, 6, 16], [320, 32, 16, 1]);  constant_pad_nd_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:746, code: chunked_hidden_states = nn.functional.pad(
        constant_pad_nd_3: "f32[2, 8, 2, 8]" = torch.ops.aten.constant_pad_nd.default(view_59, [0, 3], 0.0);  view_59 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:749, code: chunked_hidden_states = chunked_hidden_states.view(
        view_61: "f32[2, 8, 16]" = torch.ops.aten.view.default(constant_pad_nd_3, [2, 8, -1]);  constant_pad_nd_3 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:752, code: chunked_hidden_states = chunked_hidden_states[
        slice_225: "f32[2, 8, 16]" = torch.ops.aten.slice.Tensor(view_61, 0, 0, 9223372036854775807);  view_61 = None
        slice_226: "f32[2, 8, 16]" = torch.ops.aten.slice.Tensor(slice_225, 1, 0, 9223372036854775807);  slice_225 = None
        slice_227: "f32[2, 8, 14]" = torch.ops.aten.slice.Tensor(slice_226, 2, 0, -2);  slice_226 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:755, code: chunked_hidden_states = chunked_hidden_states.view(
        view_62: "f32[2, 8, 2, 7]" = torch.ops.aten.view.default(slice_227, [2, 8, 2, 7]);  slice_227 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:758, code: chunked_hidden_states = chunked_hidden_states[:, :, :, :-1]
        slice_228: "f32[2, 8, 2, 7]" = torch.ops.aten.slice.Tensor(view_62, 0, 0, 9223372036854775807);  view_62 = None
        slice_229: "f32[2, 8, 2, 7]" = torch.ops.aten.slice.Tensor(slice_228, 1, 0, 9223372036854775807);  slice_228 = None
        slice_230: "f32[2, 8, 2, 7]" = torch.ops.aten.slice.Tensor(slice_229, 2, 0, 9223372036854775807);  slice_229 = None
        slice_231: "f32[2, 8, 2, 6]" = torch.ops.aten.slice.Tensor(slice_230, 3, 0, -1);  slice_230 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:925, code: context = torch.einsum("bcwd,bcdh->bcwh", (chunked_attn_probs, chunked_value))
        unsqueeze_17: "f32[2, 8, 2, 6, 1]" = torch.ops.aten.unsqueeze.default(slice_231, 4);  slice_231 = None
        permute_52: "f32[2, 8, 2, 1, 6]" = torch.ops.aten.permute.default(unsqueeze_17, [0, 1, 2, 4, 3]);  unsqueeze_17 = None
        unsqueeze_18: "f32[2, 8, 6, 16, 1]" = torch.ops.aten.unsqueeze.default(as_strided_5, 4);  as_strided_5 = None
        permute_53: "f32[2, 8, 1, 16, 6]" = torch.ops.aten.permute.default(unsqueeze_18, [0, 1, 4, 3, 2]);  unsqueeze_18 = None
        permute_54: "f32[2, 8, 2, 6, 1]" = torch.ops.aten.permute.default(permute_52, [0, 1, 2, 4, 3]);  permute_52 = None
        view_63: "f32[16, 2, 6]" = torch.ops.aten.view.default(permute_54, [16, 2, 6]);  permute_54 = None
        permute_55: "f32[2, 8, 6, 16, 1]" = torch.ops.aten.permute.default(permute_53, [0, 1, 4, 3, 2]);  permute_53 = None
        clone_4: "f32[2, 8, 6, 16, 1]" = torch.ops.aten.clone.default(permute_55, memory_format = torch.contiguous_format);  permute_55 = None
        view_64: "f32[16, 6, 16]" = torch.ops.aten.view.default(clone_4, [16, 6, 16]);  clone_4 = None
        bmm_1: "f32[16, 2, 16]" = torch.ops.aten.bmm.default(view_63, view_64);  view_63 = view_64 = None
        view_65: "f32[2, 8, 2, 1, 16]" = torch.ops.aten.view.default(bmm_1, [2, 8, 2, 1, 16]);  bmm_1 = None
        permute_56: "f32[2, 8, 2, 16, 1]" = torch.ops.aten.permute.default(view_65, [0, 1, 2, 4, 3]);  view_65 = None
        view_66: "f32[2, 8, 2, 16]" = torch.ops.aten.view.default(permute_56, [2, 8, 2, 16]);  permute_56 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:926, code: return context.view(batch_size, num_heads, seq_len, head_dim).transpose(1, 2)
        view_67: "f32[1, 2, 16, 16]" = torch.ops.aten.view.default(view_66, [1, 2, 16, 16]);  view_66 = None
        permute_57: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_67, [0, 2, 1, 3]);  view_67 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:665, code: attn_output = attn_output.transpose(0, 1).reshape(seq_len, batch_size, embed_dim).contiguous()
        permute_58: "f32[16, 1, 2, 16]" = torch.ops.aten.permute.default(permute_57, [1, 0, 2, 3]);  permute_57 = None
        clone_5: "f32[16, 1, 2, 16]" = torch.ops.aten.clone.default(permute_58, memory_format = torch.contiguous_format);  permute_58 = None
        view_68: "f32[16, 1, 32]" = torch.ops.aten.view.default(clone_5, [16, 1, 32]);  clone_5 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:694, code: outputs = (attn_output.transpose(0, 1),)
        permute_59: "f32[1, 16, 32]" = torch.ops.aten.permute.default(view_68, [1, 0, 2]);  view_68 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1141, code: hidden_states = self.dense(hidden_states)
        view_69: "f32[16, 32]" = torch.ops.aten.view.default(permute_59, [16, 32]);  permute_59 = None
        permute_60: "f32[32, 32]" = torch.ops.aten.permute.default(arg6_1, [1, 0]);  arg6_1 = None
        addmm_3: "f32[16, 32]" = torch.ops.aten.addmm.default(arg7_1, view_69, permute_60);  arg7_1 = view_69 = permute_60 = None
        view_70: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_3, [1, 16, 32]);  addmm_3 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1142, code: hidden_states = self.dropout(hidden_states)
        clone_6: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_70);  view_70 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1143, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_4: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_6, arg32_1);  clone_6 = arg32_1 = None
        var_mean = torch.ops.aten.var_mean.correction(add_4, [2], correction = 0, keepdim = True)
        getitem: "f32[1, 16, 1]" = var_mean[0]
        getitem_1: "f32[1, 16, 1]" = var_mean[1];  var_mean = None
        add_5: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-12);  getitem = None
        rsqrt: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_5);  add_5 = None
        sub_6: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_4, getitem_1);  add_4 = getitem_1 = None
        mul_1: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_6, rsqrt);  sub_6 = rsqrt = None
        mul_2: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_1, arg8_1);  mul_1 = arg8_1 = None
        add_6: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_2, arg9_1);  mul_2 = arg9_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1207, code: hidden_states = self.dense(hidden_states)
        view_71: "f32[16, 32]" = torch.ops.aten.view.default(add_6, [16, 32])
        permute_61: "f32[32, 64]" = torch.ops.aten.permute.default(arg10_1, [1, 0]);  arg10_1 = None
        addmm_4: "f32[16, 64]" = torch.ops.aten.addmm.default(arg11_1, view_71, permute_61);  arg11_1 = view_71 = permute_61 = None
        view_72: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_4, [1, 16, 64]);  addmm_4 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/activations.py:79, code: return self.act(input)
        mul_3: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_72, 0.5)
        mul_4: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_72, 0.7071067811865476);  view_72 = None
        erf: "f32[1, 16, 64]" = torch.ops.aten.erf.default(mul_4);  mul_4 = None
        add_7: "f32[1, 16, 64]" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_5: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(mul_3, add_7);  mul_3 = add_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1221, code: hidden_states = self.dense(hidden_states)
        view_73: "f32[16, 64]" = torch.ops.aten.view.default(mul_5, [16, 64]);  mul_5 = None
        permute_62: "f32[64, 32]" = torch.ops.aten.permute.default(arg12_1, [1, 0]);  arg12_1 = None
        addmm_5: "f32[16, 32]" = torch.ops.aten.addmm.default(arg13_1, view_73, permute_62);  arg13_1 = view_73 = permute_62 = None
        view_74: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_5, [1, 16, 32]);  addmm_5 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1222, code: hidden_states = self.dropout(hidden_states)
        clone_7: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_74);  view_74 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1223, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_8: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_7, add_6);  clone_7 = add_6 = None
        var_mean_1 = torch.ops.aten.var_mean.correction(add_8, [2], correction = 0, keepdim = True)
        getitem_2: "f32[1, 16, 1]" = var_mean_1[0]
        getitem_3: "f32[1, 16, 1]" = var_mean_1[1];  var_mean_1 = None
        add_9: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_2, 1e-12);  getitem_2 = None
        rsqrt_1: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_9);  add_9 = None
        sub_7: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_8, getitem_3);  add_8 = getitem_3 = None
        mul_6: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_7, rsqrt_1);  sub_7 = rsqrt_1 = None
        mul_7: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_6, arg14_1);  mul_6 = arg14_1 = None
        add_10: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_7, arg15_1);  mul_7 = arg15_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:553, code: hidden_states = hidden_states.transpose(0, 1)
        permute_63: "f32[16, 1, 32]" = torch.ops.aten.permute.default(add_10, [1, 0, 2])
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:556, code: query_vectors = self.query(hidden_states)
        view_75: "f32[16, 32]" = torch.ops.aten.view.default(permute_63, [16, 32])
        permute_64: "f32[32, 32]" = torch.ops.aten.permute.default(arg16_1, [1, 0]);  arg16_1 = None
        addmm_6: "f32[16, 32]" = torch.ops.aten.addmm.default(arg17_1, view_75, permute_64);  arg17_1 = view_75 = permute_64 = None
        view_76: "f32[16, 1, 32]" = torch.ops.aten.view.default(addmm_6, [16, 1, 32]);  addmm_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:557, code: key_vectors = self.key(hidden_states)
        view_77: "f32[16, 32]" = torch.ops.aten.view.default(permute_63, [16, 32])
        permute_65: "f32[32, 32]" = torch.ops.aten.permute.default(arg18_1, [1, 0]);  arg18_1 = None
        addmm_7: "f32[16, 32]" = torch.ops.aten.addmm.default(arg19_1, view_77, permute_65);  arg19_1 = view_77 = permute_65 = None
        view_78: "f32[16, 1, 32]" = torch.ops.aten.view.default(addmm_7, [16, 1, 32]);  addmm_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:558, code: value_vectors = self.value(hidden_states)
        view_79: "f32[16, 32]" = torch.ops.aten.view.default(permute_63, [16, 32]);  permute_63 = None
        permute_66: "f32[32, 32]" = torch.ops.aten.permute.default(arg20_1, [1, 0]);  arg20_1 = None
        addmm_8: "f32[16, 32]" = torch.ops.aten.addmm.default(arg21_1, view_79, permute_66);  arg21_1 = view_79 = permute_66 = None
        view_80: "f32[16, 1, 32]" = torch.ops.aten.view.default(addmm_8, [16, 1, 32]);  addmm_8 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:566, code: query_vectors /= math.sqrt(self.head_dim)
        div_10: "f32[16, 1, 32]" = torch.ops.aten.div.Tensor(view_76, 4.0);  view_76 = None
        view_81: "f32[16, 32]" = torch.ops.aten.view.default(div_10, [16, 32]);  div_10 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:569, code: key_vectors = key_vectors.view(seq_len, batch_size, self.num_heads, self.head_dim).transpose(0, 1)
        view_84: "f32[16, 1, 2, 16]" = torch.ops.aten.view.default(view_78, [16, 1, 2, 16]);  view_78 = None
        permute_68: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_84, [1, 0, 2, 3]);  view_84 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:834, code: key = key.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_70: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(permute_68, [0, 2, 1, 3]);  permute_68 = None
        view_86: "f32[2, 16, 16]" = torch.ops.aten.view.default(permute_70, [2, 16, 16]);  permute_70 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:766, code: hidden_states = hidden_states.view(
        view_88: "f32[2, 4, 4, 16]" = torch.ops.aten.view.default(view_86, [2, 4, 4, 16]);  view_86 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:778, code: return hidden_states.as_strided(size=chunk_size, stride=chunk_stride)
        as_strided_7: "f32[2, 7, 4, 16]" = torch.ops.aten.as_strided.default(view_88, [2, 7, 4, 16], [16, 64, 32, 1]);  view_88 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:843, code: diagonal_chunked_attention_scores = torch.einsum("bcxd,bcyd->bcxy", (query, key))  # multiply
        unsqueeze_20: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.unsqueeze.default(as_strided_7, 4);  as_strided_7 = None
        permute_72: "f32[2, 7, 1, 4, 16]" = torch.ops.aten.permute.default(unsqueeze_20, [0, 1, 4, 2, 3]);  unsqueeze_20 = None
        view_89: "f32[16, 1, 32]" = torch.ops.aten.view.default(view_81, [16, 1, 32]);  view_81 = None
        view_90: "f32[16, 1, 2, 16]" = torch.ops.aten.view.default(view_89, [16, 1, 2, 16]);  view_89 = None
        permute_74: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_90, [1, 0, 2, 3]);  view_90 = None
        permute_75: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(permute_74, [0, 2, 1, 3]);  permute_74 = None
        view_91: "f32[2, 16, 16]" = torch.ops.aten.view.default(permute_75, [2, 16, 16]);  permute_75 = None
        view_92: "f32[2, 4, 4, 16]" = torch.ops.aten.view.default(view_91, [2, 4, 4, 16]);  view_91 = None
        as_strided_8: "f32[2, 7, 4, 16]" = torch.ops.aten.as_strided.default(view_92, [2, 7, 4, 16], [16, 64, 32, 1]);  view_92 = None
        unsqueeze_21: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.unsqueeze.default(as_strided_8, 4);  as_strided_8 = None
        permute_76: "f32[2, 7, 4, 1, 16]" = torch.ops.aten.permute.default(unsqueeze_21, [0, 1, 2, 4, 3]);  unsqueeze_21 = None
        permute_77: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.permute.default(permute_76, [0, 1, 2, 4, 3]);  permute_76 = None
        clone_8: "f32[2, 7, 4, 16, 1]" = torch.ops.aten.clone.default(permute_77, memory_format = torch.contiguous_format);  permute_77 = None
        view_93: "f32[14, 4, 16]" = torch.ops.aten.view.default(clone_8, [14, 4, 16]);  clone_8 = None
        permute_78: "f32[2, 7, 16, 4, 1]" = torch.ops.aten.permute.default(permute_72, [0, 1, 4, 3, 2]);  permute_72 = None
        clone_9: "f32[2, 7, 16, 4, 1]" = torch.ops.aten.clone.default(permute_78, memory_format = torch.contiguous_format);  permute_78 = None
        view_94: "f32[14, 16, 4]" = torch.ops.aten.view.default(clone_9, [14, 16, 4]);  clone_9 = None
        bmm_2: "f32[14, 4, 4]" = torch.ops.aten.bmm.default(view_93, view_94);  view_93 = view_94 = None
        view_95: "f32[2, 7, 4, 1, 4]" = torch.ops.aten.view.default(bmm_2, [2, 7, 4, 1, 4]);  bmm_2 = None
        permute_79: "f32[2, 7, 4, 4, 1]" = torch.ops.aten.permute.default(view_95, [0, 1, 2, 4, 3]);  view_95 = None
        view_96: "f32[2, 7, 4, 4]" = torch.ops.aten.view.default(permute_79, [2, 7, 4, 4]);  permute_79 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:704, code: hidden_states_padded = nn.functional.pad(
        constant_pad_nd_4: "f32[2, 7, 5, 4]" = torch.ops.aten.constant_pad_nd.default(view_96, [0, 0, 0, 1], 0.0);  view_96 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:707, code: hidden_states_padded = hidden_states_padded.view(
        view_97: "f32[2, 7, 4, 5]" = torch.ops.aten.view.default(constant_pad_nd_4, [2, 7, 4, 5]);  constant_pad_nd_4 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:855, code: diagonal_attention_scores = diagonal_chunked_attention_scores.new_zeros(
        full_9: "f32[2, 8, 2, 5]" = torch.ops.aten.full.default([2, 8, 2, 5], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:861, code: diagonal_attention_scores[:, :-1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_232: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_97, 0, 0, 9223372036854775807)
        slice_233: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_232, 1, 0, 9223372036854775807);  slice_232 = None
        slice_234: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_233, 2, 0, 2);  slice_233 = None
        slice_235: "f32[2, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_234, 3, 0, 3);  slice_234 = None
        slice_236: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full_9, 0, 0, 9223372036854775807)
        slice_237: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_236, 1, 0, -1);  slice_236 = None
        slice_238: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_237, 2, 0, 9223372036854775807);  slice_237 = None
        slice_239: "f32[2, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_238, 3, 2, 9223372036854775807);  slice_238 = None
        copy_12: "f32[2, 7, 2, 3]" = torch.ops.aten.copy.default(slice_239, slice_235);  slice_239 = slice_235 = None
        slice_240: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full_9, 0, 0, 9223372036854775807)
        slice_241: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_240, 1, 0, -1)
        slice_242: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_241, 2, 0, 9223372036854775807)
        slice_scatter_44: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_242, copy_12, 3, 2, 9223372036854775807);  slice_242 = copy_12 = None
        slice_scatter_45: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_241, slice_scatter_44, 2, 0, 9223372036854775807);  slice_241 = slice_scatter_44 = None
        slice_scatter_46: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_240, slice_scatter_45, 1, 0, -1);  slice_240 = slice_scatter_45 = None
        slice_scatter_47: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(full_9, slice_scatter_46, 0, 0, 9223372036854775807);  full_9 = slice_scatter_46 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:864, code: diagonal_attention_scores[:, -1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_247: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_97, 0, 0, 9223372036854775807)
        select_20: "f32[2, 4, 5]" = torch.ops.aten.select.int(slice_247, 1, -1);  slice_247 = None
        slice_248: "f32[2, 2, 5]" = torch.ops.aten.slice.Tensor(select_20, 1, 2, 9223372036854775807);  select_20 = None
        slice_249: "f32[2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_248, 2, 0, 3);  slice_248 = None
        slice_253: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_47, 0, 0, 9223372036854775807)
        select_22: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_253, 1, -1);  slice_253 = None
        slice_254: "f32[2, 2, 5]" = torch.ops.aten.slice.Tensor(select_22, 1, 0, 9223372036854775807);  select_22 = None
        slice_255: "f32[2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_254, 2, 2, 9223372036854775807);  slice_254 = None
        copy_13: "f32[2, 2, 3]" = torch.ops.aten.copy.default(slice_255, slice_249);  slice_255 = slice_249 = None
        slice_256: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_47, 0, 0, 9223372036854775807)
        select_23: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_256, 1, -1)
        slice_257: "f32[2, 2, 5]" = torch.ops.aten.slice.Tensor(select_23, 1, 0, 9223372036854775807)
        slice_scatter_48: "f32[2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_257, copy_13, 2, 2, 9223372036854775807);  slice_257 = copy_13 = None
        slice_scatter_49: "f32[2, 2, 5]" = torch.ops.aten.slice_scatter.default(select_23, slice_scatter_48, 1, 0, 9223372036854775807);  select_23 = slice_scatter_48 = None
        select_scatter_4: "f32[2, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_256, slice_scatter_49, 1, -1);  slice_256 = slice_scatter_49 = None
        slice_scatter_50: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_47, select_scatter_4, 0, 0, 9223372036854775807);  slice_scatter_47 = select_scatter_4 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:868, code: diagonal_attention_scores[:, 1:, :, :window_overlap] = diagonal_chunked_attention_scores[
        slice_261: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_97, 0, 0, 9223372036854775807)
        slice_262: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_261, 1, 0, 9223372036854775807);  slice_261 = None
        slice_263: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_262, 2, -3, -1);  slice_262 = None
        slice_264: "f32[2, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_263, 3, 3, 9223372036854775807);  slice_263 = None
        slice_269: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_50, 0, 0, 9223372036854775807)
        slice_270: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_269, 1, 1, 9223372036854775807);  slice_269 = None
        slice_271: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_270, 2, 0, 9223372036854775807);  slice_270 = None
        slice_272: "f32[2, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_271, 3, 0, 2);  slice_271 = None
        copy_14: "f32[2, 7, 2, 2]" = torch.ops.aten.copy.default(slice_272, slice_264);  slice_272 = slice_264 = None
        slice_273: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_50, 0, 0, 9223372036854775807)
        slice_274: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_273, 1, 1, 9223372036854775807)
        slice_275: "f32[2, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_274, 2, 0, 9223372036854775807)
        slice_scatter_51: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_275, copy_14, 3, 0, 2);  slice_275 = copy_14 = None
        slice_scatter_52: "f32[2, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_274, slice_scatter_51, 2, 0, 9223372036854775807);  slice_274 = slice_scatter_51 = None
        slice_scatter_53: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_273, slice_scatter_52, 1, 1, 9223372036854775807);  slice_273 = slice_scatter_52 = None
        slice_scatter_54: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_50, slice_scatter_53, 0, 0, 9223372036854775807);  slice_scatter_50 = slice_scatter_53 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:872, code: diagonal_attention_scores[:, 0, 1:window_overlap, 1:window_overlap] = diagonal_chunked_attention_scores[
        slice_280: "f32[2, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_97, 0, 0, 9223372036854775807);  view_97 = None
        select_25: "f32[2, 4, 5]" = torch.ops.aten.select.int(slice_280, 1, 0);  slice_280 = None
        slice_281: "f32[2, 1, 5]" = torch.ops.aten.slice.Tensor(select_25, 1, 0, 1);  select_25 = None
        slice_282: "f32[2, 1, 1]" = torch.ops.aten.slice.Tensor(slice_281, 2, -1, 9223372036854775807);  slice_281 = None
        slice_286: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_54, 0, 0, 9223372036854775807)
        select_27: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_286, 1, 0);  slice_286 = None
        slice_287: "f32[2, 1, 5]" = torch.ops.aten.slice.Tensor(select_27, 1, 1, 2);  select_27 = None
        slice_288: "f32[2, 1, 1]" = torch.ops.aten.slice.Tensor(slice_287, 2, 1, 2);  slice_287 = None
        copy_15: "f32[2, 1, 1]" = torch.ops.aten.copy.default(slice_288, slice_282);  slice_288 = slice_282 = None
        slice_289: "f32[2, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_54, 0, 0, 9223372036854775807)
        select_28: "f32[2, 2, 5]" = torch.ops.aten.select.int(slice_289, 1, 0)
        slice_290: "f32[2, 1, 5]" = torch.ops.aten.slice.Tensor(select_28, 1, 1, 2)
        slice_scatter_55: "f32[2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_290, copy_15, 2, 1, 2);  slice_290 = copy_15 = None
        slice_scatter_56: "f32[2, 2, 5]" = torch.ops.aten.slice_scatter.default(select_28, slice_scatter_55, 1, 1, 2);  select_28 = slice_scatter_55 = None
        select_scatter_5: "f32[2, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_289, slice_scatter_56, 1, 0);  slice_289 = slice_scatter_56 = None
        slice_scatter_57: "f32[2, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_54, select_scatter_5, 0, 0, 9223372036854775807);  slice_scatter_54 = select_scatter_5 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:804, code: beginning_mask_2d = input_tensor.new_ones(affected_seq_len, affected_seq_len + 1).tril().flip(dims=[0])
        full_default_10: "f32[2, 3]" = torch.ops.aten.full.default([2, 3], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        iota_4: "i64[3]" = torch.ops.prims.iota.default(3, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_22: "i64[1, 3]" = torch.ops.aten.unsqueeze.default(iota_4, -2);  iota_4 = None
        iota_5: "i64[2]" = torch.ops.prims.iota.default(2, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_23: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(iota_5, -1);  iota_5 = None
        sub_9: "i64[2, 3]" = torch.ops.aten.sub.Tensor(unsqueeze_22, unsqueeze_23);  unsqueeze_22 = unsqueeze_23 = None
        le_2: "b8[2, 3]" = torch.ops.aten.le.Scalar(sub_9, 0);  sub_9 = None
        full_default_11: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where_8: "f32[2, 3]" = torch.ops.aten.where.self(le_2, full_default_10, full_default_11);  le_2 = full_default_10 = full_default_11 = None
        rev_4: "f32[2, 3]" = torch.ops.prims.rev.default(where_8, [0]);  where_8 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:805, code: beginning_mask = beginning_mask_2d[None, :, None, :]
        unsqueeze_24: "f32[1, 2, 3]" = torch.ops.aten.unsqueeze.default(rev_4, 0);  rev_4 = None
        slice_294: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_24, 1, 0, 9223372036854775807);  unsqueeze_24 = None
        unsqueeze_25: "f32[1, 2, 1, 3]" = torch.ops.aten.unsqueeze.default(slice_294, 2);  slice_294 = None
        slice_295: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_25, 3, 0, 9223372036854775807);  unsqueeze_25 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:806, code: ending_mask = beginning_mask.flip(dims=(1, 3))
        rev_5: "f32[1, 2, 1, 3]" = torch.ops.prims.rev.default(slice_295, [1, 3])
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:808, code: beginning_mask = beginning_mask.expand(beginning_input.size())
        expand_4: "f32[1, 2, 2, 3]" = torch.ops.aten.expand.default(slice_295, [1, 2, 2, 3]);  slice_295 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_100: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(slice_scatter_57, [1, 2, 16, 5])
        permute_82: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_100, [0, 2, 1, 3]);  view_100 = None
        slice_300: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_82, 0, 0, 9223372036854775807);  permute_82 = None
        slice_301: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_300, 1, 0, 2);  slice_300 = None
        slice_302: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_301, 2, 0, 9223372036854775807);  slice_301 = None
        slice_303: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_302, 3, 0, 3);  slice_302 = None
        full_default_12: "f32[1, 2, 2, 3]" = torch.ops.aten.full.default([1, 2, 2, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:811, code: ).where(beginning_mask.bool(), beginning_input)
        convert_element_type_5: "b8[1, 2, 2, 3]" = torch.ops.prims.convert_element_type.default(expand_4, torch.bool);  expand_4 = None
        where_9: "f32[1, 2, 2, 3]" = torch.ops.aten.where.self(convert_element_type_5, full_default_12, slice_303);  convert_element_type_5 = full_default_12 = slice_303 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_101: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(slice_scatter_57, [1, 2, 16, 5])
        permute_83: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_101, [0, 2, 1, 3]);  view_101 = None
        slice_308: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_83, 0, 0, 9223372036854775807);  permute_83 = None
        slice_309: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_308, 1, 0, 2);  slice_308 = None
        slice_310: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_309, 2, 0, 9223372036854775807);  slice_309 = None
        slice_311: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_310, 3, 0, 3);  slice_310 = None
        copy_16: "f32[1, 2, 2, 3]" = torch.ops.aten.copy.default(slice_311, where_9);  slice_311 = where_9 = None
        view_102: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(slice_scatter_57, [1, 2, 16, 5]);  slice_scatter_57 = None
        permute_84: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_102, [0, 2, 1, 3]);  view_102 = None
        slice_312: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_84, 0, 0, 9223372036854775807)
        slice_313: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_312, 1, 0, 2)
        slice_314: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_313, 2, 0, 9223372036854775807)
        slice_scatter_58: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_314, copy_16, 3, 0, 3);  slice_314 = copy_16 = None
        slice_scatter_59: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_313, slice_scatter_58, 2, 0, 9223372036854775807);  slice_313 = slice_scatter_58 = None
        slice_scatter_60: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_312, slice_scatter_59, 1, 0, 2);  slice_312 = slice_scatter_59 = None
        slice_scatter_61: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(permute_84, slice_scatter_60, 0, 0, 9223372036854775807);  permute_84 = slice_scatter_60 = None
        permute_85: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_61, [0, 2, 1, 3]);  slice_scatter_61 = None
        view_103: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_85, [2, 8, 2, 5]);  permute_85 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:813, code: ending_mask = ending_mask.expand(ending_input.size())
        expand_5: "f32[1, 2, 2, 3]" = torch.ops.aten.expand.default(rev_5, [1, 2, 2, 3]);  rev_5 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_105: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_103, [1, 2, 16, 5])
        permute_87: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_105, [0, 2, 1, 3]);  view_105 = None
        slice_323: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_87, 0, 0, 9223372036854775807);  permute_87 = None
        slice_324: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_323, 1, -2, 9223372036854775807);  slice_323 = None
        slice_325: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_324, 2, 0, 9223372036854775807);  slice_324 = None
        slice_326: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_325, 3, -3, 9223372036854775807);  slice_325 = None
        full_default_13: "f32[1, 2, 2, 3]" = torch.ops.aten.full.default([1, 2, 2, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:816, code: ).where(ending_mask.bool(), ending_input)
        convert_element_type_6: "b8[1, 2, 2, 3]" = torch.ops.prims.convert_element_type.default(expand_5, torch.bool);  expand_5 = None
        where_10: "f32[1, 2, 2, 3]" = torch.ops.aten.where.self(convert_element_type_6, full_default_13, slice_326);  convert_element_type_6 = full_default_13 = slice_326 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_106: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_103, [1, 2, 16, 5])
        permute_88: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_106, [0, 2, 1, 3]);  view_106 = None
        slice_331: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_88, 0, 0, 9223372036854775807);  permute_88 = None
        slice_332: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_331, 1, -2, 9223372036854775807);  slice_331 = None
        slice_333: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_332, 2, 0, 9223372036854775807);  slice_332 = None
        slice_334: "f32[1, 2, 2, 3]" = torch.ops.aten.slice.Tensor(slice_333, 3, -3, 9223372036854775807);  slice_333 = None
        copy_17: "f32[1, 2, 2, 3]" = torch.ops.aten.copy.default(slice_334, where_10);  slice_334 = where_10 = None
        view_107: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_103, [1, 2, 16, 5]);  view_103 = None
        permute_89: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_107, [0, 2, 1, 3]);  view_107 = None
        slice_335: "f32[1, 16, 2, 5]" = torch.ops.aten.slice.Tensor(permute_89, 0, 0, 9223372036854775807)
        slice_336: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_335, 1, -2, 9223372036854775807)
        slice_337: "f32[1, 2, 2, 5]" = torch.ops.aten.slice.Tensor(slice_336, 2, 0, 9223372036854775807)
        slice_scatter_62: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_337, copy_17, 3, -3, 9223372036854775807);  slice_337 = copy_17 = None
        slice_scatter_63: "f32[1, 2, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_336, slice_scatter_62, 2, 0, 9223372036854775807);  slice_336 = slice_scatter_62 = None
        slice_scatter_64: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_335, slice_scatter_63, 1, -2, 9223372036854775807);  slice_335 = slice_scatter_63 = None
        slice_scatter_65: "f32[1, 16, 2, 5]" = torch.ops.aten.slice_scatter.default(permute_89, slice_scatter_64, 0, 0, 9223372036854775807);  permute_89 = slice_scatter_64 = None
        permute_90: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_65, [0, 2, 1, 3]);  slice_scatter_65 = None
        view_108: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_90, [2, 8, 2, 5]);  permute_90 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:576, code: remove_from_windowed_attention_mask = (attention_mask != 0)[:, :, None, None]
        ne_1: "b8[1, 16]" = torch.ops.aten.ne.Scalar(arg33_1, 0);  arg33_1 = None
        slice_342: "b8[1, 16]" = torch.ops.aten.slice.Tensor(ne_1, 0, 0, 9223372036854775807);  ne_1 = None
        slice_343: "b8[1, 16]" = torch.ops.aten.slice.Tensor(slice_342, 1, 0, 9223372036854775807);  slice_342 = None
        unsqueeze_26: "b8[1, 16, 1]" = torch.ops.aten.unsqueeze.default(slice_343, 2);  slice_343 = None
        unsqueeze_27: "b8[1, 16, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_26, 3);  unsqueeze_26 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:579, code: float_mask = remove_from_windowed_attention_mask.type_as(query_vectors).masked_fill(
        convert_element_type_7: "f32[1, 16, 1, 1]" = torch.ops.prims.convert_element_type.default(unsqueeze_27, torch.float32)
        full_default_14: "f32[]" = torch.ops.aten.full.default([], -3.4028234663852886e+38, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where_11: "f32[1, 16, 1, 1]" = torch.ops.aten.where.self(unsqueeze_27, full_default_14, convert_element_type_7);  unsqueeze_27 = full_default_14 = convert_element_type_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:584, code: float_mask.new_ones(size=float_mask.size()), float_mask, self.one_sided_attn_window_size
        full_13: "f32[1, 16, 1, 1]" = torch.ops.aten.full.default([1, 16, 1, 1], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:833, code: query = query.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_92: "f32[1, 1, 16, 1]" = torch.ops.aten.permute.default(full_13, [0, 2, 1, 3]);  full_13 = None
        view_110: "f32[1, 16, 1]" = torch.ops.aten.view.default(permute_92, [1, 16, 1]);  permute_92 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:834, code: key = key.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_93: "f32[1, 1, 16, 1]" = torch.ops.aten.permute.default(where_11, [0, 2, 1, 3]);  where_11 = None
        view_111: "f32[1, 16, 1]" = torch.ops.aten.view.default(permute_93, [1, 16, 1]);  permute_93 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:766, code: hidden_states = hidden_states.view(
        view_112: "f32[1, 4, 4, 1]" = torch.ops.aten.view.default(view_110, [1, 4, 4, 1]);  view_110 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:778, code: return hidden_states.as_strided(size=chunk_size, stride=chunk_stride)
        as_strided_9: "f32[1, 7, 4, 1]" = torch.ops.aten.as_strided.default(view_112, [1, 7, 4, 1], [16, 2, 1, 1]);  view_112 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:766, code: hidden_states = hidden_states.view(
        view_113: "f32[1, 4, 4, 1]" = torch.ops.aten.view.default(view_111, [1, 4, 4, 1]);  view_111 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:778, code: return hidden_states.as_strided(size=chunk_size, stride=chunk_stride)
        as_strided_10: "f32[1, 7, 4, 1]" = torch.ops.aten.as_strided.default(view_113, [1, 7, 4, 1], [16, 2, 1, 1]);  view_113 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:843, code: diagonal_chunked_attention_scores = torch.einsum("bcxd,bcyd->bcxy", (query, key))  # multiply
        unsqueeze_28: "f32[1, 7, 4, 1, 1]" = torch.ops.aten.unsqueeze.default(as_strided_9, 4);  as_strided_9 = None
        permute_94: "f32[1, 7, 4, 1, 1]" = torch.ops.aten.permute.default(unsqueeze_28, [0, 1, 2, 4, 3]);  unsqueeze_28 = None
        unsqueeze_29: "f32[1, 7, 4, 1, 1]" = torch.ops.aten.unsqueeze.default(as_strided_10, 4);  as_strided_10 = None
        permute_95: "f32[1, 7, 1, 4, 1]" = torch.ops.aten.permute.default(unsqueeze_29, [0, 1, 4, 2, 3]);  unsqueeze_29 = None
        mul_8: "f32[1, 7, 4, 4, 1]" = torch.ops.aten.mul.Tensor(permute_94, permute_95);  permute_94 = permute_95 = None
        view_114: "f32[1, 7, 4, 4]" = torch.ops.aten.view.default(mul_8, [1, 7, 4, 4]);  mul_8 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:704, code: hidden_states_padded = nn.functional.pad(
        constant_pad_nd_5: "f32[1, 7, 5, 4]" = torch.ops.aten.constant_pad_nd.default(view_114, [0, 0, 0, 1], 0.0);  view_114 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:707, code: hidden_states_padded = hidden_states_padded.view(
        view_115: "f32[1, 7, 4, 5]" = torch.ops.aten.view.default(constant_pad_nd_5, [1, 7, 4, 5]);  constant_pad_nd_5 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:855, code: diagonal_attention_scores = diagonal_chunked_attention_scores.new_zeros(
        full_14: "f32[1, 8, 2, 5]" = torch.ops.aten.full.default([1, 8, 2, 5], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:861, code: diagonal_attention_scores[:, :-1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_344: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_115, 0, 0, 9223372036854775807)
        slice_345: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_344, 1, 0, 9223372036854775807);  slice_344 = None
        slice_346: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_345, 2, 0, 2);  slice_345 = None
        slice_347: "f32[1, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_346, 3, 0, 3);  slice_346 = None
        slice_348: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full_14, 0, 0, 9223372036854775807)
        slice_349: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_348, 1, 0, -1);  slice_348 = None
        slice_350: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_349, 2, 0, 9223372036854775807);  slice_349 = None
        slice_351: "f32[1, 7, 2, 3]" = torch.ops.aten.slice.Tensor(slice_350, 3, 2, 9223372036854775807);  slice_350 = None
        copy_18: "f32[1, 7, 2, 3]" = torch.ops.aten.copy.default(slice_351, slice_347);  slice_351 = slice_347 = None
        slice_352: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(full_14, 0, 0, 9223372036854775807)
        slice_353: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_352, 1, 0, -1)
        slice_354: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_353, 2, 0, 9223372036854775807)
        slice_scatter_66: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_354, copy_18, 3, 2, 9223372036854775807);  slice_354 = copy_18 = None
        slice_scatter_67: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_353, slice_scatter_66, 2, 0, 9223372036854775807);  slice_353 = slice_scatter_66 = None
        slice_scatter_68: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_352, slice_scatter_67, 1, 0, -1);  slice_352 = slice_scatter_67 = None
        slice_scatter_69: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(full_14, slice_scatter_68, 0, 0, 9223372036854775807);  full_14 = slice_scatter_68 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:864, code: diagonal_attention_scores[:, -1, :, window_overlap:] = diagonal_chunked_attention_scores[
        slice_359: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_115, 0, 0, 9223372036854775807)
        select_30: "f32[1, 4, 5]" = torch.ops.aten.select.int(slice_359, 1, -1);  slice_359 = None
        slice_360: "f32[1, 2, 5]" = torch.ops.aten.slice.Tensor(select_30, 1, 2, 9223372036854775807);  select_30 = None
        slice_361: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(slice_360, 2, 0, 3);  slice_360 = None
        slice_365: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_69, 0, 0, 9223372036854775807)
        select_32: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_365, 1, -1);  slice_365 = None
        slice_366: "f32[1, 2, 5]" = torch.ops.aten.slice.Tensor(select_32, 1, 0, 9223372036854775807);  select_32 = None
        slice_367: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(slice_366, 2, 2, 9223372036854775807);  slice_366 = None
        copy_19: "f32[1, 2, 3]" = torch.ops.aten.copy.default(slice_367, slice_361);  slice_367 = slice_361 = None
        slice_368: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_69, 0, 0, 9223372036854775807)
        select_33: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_368, 1, -1)
        slice_369: "f32[1, 2, 5]" = torch.ops.aten.slice.Tensor(select_33, 1, 0, 9223372036854775807)
        slice_scatter_70: "f32[1, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_369, copy_19, 2, 2, 9223372036854775807);  slice_369 = copy_19 = None
        slice_scatter_71: "f32[1, 2, 5]" = torch.ops.aten.slice_scatter.default(select_33, slice_scatter_70, 1, 0, 9223372036854775807);  select_33 = slice_scatter_70 = None
        select_scatter_6: "f32[1, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_368, slice_scatter_71, 1, -1);  slice_368 = slice_scatter_71 = None
        slice_scatter_72: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_69, select_scatter_6, 0, 0, 9223372036854775807);  slice_scatter_69 = select_scatter_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:868, code: diagonal_attention_scores[:, 1:, :, :window_overlap] = diagonal_chunked_attention_scores[
        slice_373: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_115, 0, 0, 9223372036854775807)
        slice_374: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(slice_373, 1, 0, 9223372036854775807);  slice_373 = None
        slice_375: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_374, 2, -3, -1);  slice_374 = None
        slice_376: "f32[1, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_375, 3, 3, 9223372036854775807);  slice_375 = None
        slice_381: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_72, 0, 0, 9223372036854775807)
        slice_382: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_381, 1, 1, 9223372036854775807);  slice_381 = None
        slice_383: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_382, 2, 0, 9223372036854775807);  slice_382 = None
        slice_384: "f32[1, 7, 2, 2]" = torch.ops.aten.slice.Tensor(slice_383, 3, 0, 2);  slice_383 = None
        copy_20: "f32[1, 7, 2, 2]" = torch.ops.aten.copy.default(slice_384, slice_376);  slice_384 = slice_376 = None
        slice_385: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_72, 0, 0, 9223372036854775807)
        slice_386: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_385, 1, 1, 9223372036854775807)
        slice_387: "f32[1, 7, 2, 5]" = torch.ops.aten.slice.Tensor(slice_386, 2, 0, 9223372036854775807)
        slice_scatter_73: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_387, copy_20, 3, 0, 2);  slice_387 = copy_20 = None
        slice_scatter_74: "f32[1, 7, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_386, slice_scatter_73, 2, 0, 9223372036854775807);  slice_386 = slice_scatter_73 = None
        slice_scatter_75: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_385, slice_scatter_74, 1, 1, 9223372036854775807);  slice_385 = slice_scatter_74 = None
        slice_scatter_76: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_72, slice_scatter_75, 0, 0, 9223372036854775807);  slice_scatter_72 = slice_scatter_75 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:872, code: diagonal_attention_scores[:, 0, 1:window_overlap, 1:window_overlap] = diagonal_chunked_attention_scores[
        slice_392: "f32[1, 7, 4, 5]" = torch.ops.aten.slice.Tensor(view_115, 0, 0, 9223372036854775807);  view_115 = None
        select_35: "f32[1, 4, 5]" = torch.ops.aten.select.int(slice_392, 1, 0);  slice_392 = None
        slice_393: "f32[1, 1, 5]" = torch.ops.aten.slice.Tensor(select_35, 1, 0, 1);  select_35 = None
        slice_394: "f32[1, 1, 1]" = torch.ops.aten.slice.Tensor(slice_393, 2, -1, 9223372036854775807);  slice_393 = None
        slice_398: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_76, 0, 0, 9223372036854775807)
        select_37: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_398, 1, 0);  slice_398 = None
        slice_399: "f32[1, 1, 5]" = torch.ops.aten.slice.Tensor(select_37, 1, 1, 2);  select_37 = None
        slice_400: "f32[1, 1, 1]" = torch.ops.aten.slice.Tensor(slice_399, 2, 1, 2);  slice_399 = None
        copy_21: "f32[1, 1, 1]" = torch.ops.aten.copy.default(slice_400, slice_394);  slice_400 = slice_394 = None
        slice_401: "f32[1, 8, 2, 5]" = torch.ops.aten.slice.Tensor(slice_scatter_76, 0, 0, 9223372036854775807)
        select_38: "f32[1, 2, 5]" = torch.ops.aten.select.int(slice_401, 1, 0)
        slice_402: "f32[1, 1, 5]" = torch.ops.aten.slice.Tensor(select_38, 1, 1, 2)
        slice_scatter_77: "f32[1, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_402, copy_21, 2, 1, 2);  slice_402 = copy_21 = None
        slice_scatter_78: "f32[1, 2, 5]" = torch.ops.aten.slice_scatter.default(select_38, slice_scatter_77, 1, 1, 2);  select_38 = slice_scatter_77 = None
        select_scatter_7: "f32[1, 8, 2, 5]" = torch.ops.aten.select_scatter.default(slice_401, slice_scatter_78, 1, 0);  slice_401 = slice_scatter_78 = None
        slice_scatter_79: "f32[1, 8, 2, 5]" = torch.ops.aten.slice_scatter.default(slice_scatter_76, select_scatter_7, 0, 0, 9223372036854775807);  slice_scatter_76 = select_scatter_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:804, code: beginning_mask_2d = input_tensor.new_ones(affected_seq_len, affected_seq_len + 1).tril().flip(dims=[0])
        full_default_15: "f32[2, 3]" = torch.ops.aten.full.default([2, 3], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        iota_6: "i64[3]" = torch.ops.prims.iota.default(3, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_30: "i64[1, 3]" = torch.ops.aten.unsqueeze.default(iota_6, -2);  iota_6 = None
        iota_7: "i64[2]" = torch.ops.prims.iota.default(2, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        unsqueeze_31: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(iota_7, -1);  iota_7 = None
        sub_11: "i64[2, 3]" = torch.ops.aten.sub.Tensor(unsqueeze_30, unsqueeze_31);  unsqueeze_30 = unsqueeze_31 = None
        le_3: "b8[2, 3]" = torch.ops.aten.le.Scalar(sub_11, 0);  sub_11 = None
        full_default_16: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where_12: "f32[2, 3]" = torch.ops.aten.where.self(le_3, full_default_15, full_default_16);  le_3 = full_default_15 = full_default_16 = None
        rev_6: "f32[2, 3]" = torch.ops.prims.rev.default(where_12, [0]);  where_12 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:805, code: beginning_mask = beginning_mask_2d[None, :, None, :]
        unsqueeze_32: "f32[1, 2, 3]" = torch.ops.aten.unsqueeze.default(rev_6, 0);  rev_6 = None
        slice_406: "f32[1, 2, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_32, 1, 0, 9223372036854775807);  unsqueeze_32 = None
        unsqueeze_33: "f32[1, 2, 1, 3]" = torch.ops.aten.unsqueeze.default(slice_406, 2);  slice_406 = None
        slice_407: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(unsqueeze_33, 3, 0, 9223372036854775807);  unsqueeze_33 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:806, code: ending_mask = beginning_mask.flip(dims=(1, 3))
        rev_7: "f32[1, 2, 1, 3]" = torch.ops.prims.rev.default(slice_407, [1, 3])
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:808, code: beginning_mask = beginning_mask.expand(beginning_input.size())
        expand_6: "f32[1, 2, 1, 3]" = torch.ops.aten.expand.default(slice_407, [1, 2, 1, 3]);  slice_407 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_118: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(slice_scatter_79, [1, 1, 16, 5])
        permute_98: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_118, [0, 2, 1, 3]);  view_118 = None
        slice_412: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_98, 0, 0, 9223372036854775807);  permute_98 = None
        slice_413: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_412, 1, 0, 2);  slice_412 = None
        slice_414: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_413, 2, 0, 9223372036854775807);  slice_413 = None
        slice_415: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_414, 3, 0, 3);  slice_414 = None
        full_default_17: "f32[1, 2, 1, 3]" = torch.ops.aten.full.default([1, 2, 1, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:811, code: ).where(beginning_mask.bool(), beginning_input)
        convert_element_type_8: "b8[1, 2, 1, 3]" = torch.ops.prims.convert_element_type.default(expand_6, torch.bool);  expand_6 = None
        where_13: "f32[1, 2, 1, 3]" = torch.ops.aten.where.self(convert_element_type_8, full_default_17, slice_415);  convert_element_type_8 = full_default_17 = slice_415 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:809, code: input_tensor[:, :affected_seq_len, :, : affected_seq_len + 1] = torch.full_like(
        view_119: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(slice_scatter_79, [1, 1, 16, 5])
        permute_99: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_119, [0, 2, 1, 3]);  view_119 = None
        slice_420: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_99, 0, 0, 9223372036854775807);  permute_99 = None
        slice_421: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_420, 1, 0, 2);  slice_420 = None
        slice_422: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_421, 2, 0, 9223372036854775807);  slice_421 = None
        slice_423: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_422, 3, 0, 3);  slice_422 = None
        copy_22: "f32[1, 2, 1, 3]" = torch.ops.aten.copy.default(slice_423, where_13);  slice_423 = where_13 = None
        view_120: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(slice_scatter_79, [1, 1, 16, 5]);  slice_scatter_79 = None
        permute_100: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_120, [0, 2, 1, 3]);  view_120 = None
        slice_424: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_100, 0, 0, 9223372036854775807)
        slice_425: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_424, 1, 0, 2)
        slice_426: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_425, 2, 0, 9223372036854775807)
        slice_scatter_80: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_426, copy_22, 3, 0, 3);  slice_426 = copy_22 = None
        slice_scatter_81: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_425, slice_scatter_80, 2, 0, 9223372036854775807);  slice_425 = slice_scatter_80 = None
        slice_scatter_82: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_424, slice_scatter_81, 1, 0, 2);  slice_424 = slice_scatter_81 = None
        slice_scatter_83: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(permute_100, slice_scatter_82, 0, 0, 9223372036854775807);  permute_100 = slice_scatter_82 = None
        permute_101: "f32[1, 1, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_83, [0, 2, 1, 3]);  slice_scatter_83 = None
        view_121: "f32[1, 8, 2, 5]" = torch.ops.aten.view.default(permute_101, [1, 8, 2, 5]);  permute_101 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:813, code: ending_mask = ending_mask.expand(ending_input.size())
        expand_7: "f32[1, 2, 1, 3]" = torch.ops.aten.expand.default(rev_7, [1, 2, 1, 3]);  rev_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_123: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_121, [1, 1, 16, 5])
        permute_103: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_123, [0, 2, 1, 3]);  view_123 = None
        slice_435: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_103, 0, 0, 9223372036854775807);  permute_103 = None
        slice_436: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_435, 1, -2, 9223372036854775807);  slice_435 = None
        slice_437: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_436, 2, 0, 9223372036854775807);  slice_436 = None
        slice_438: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_437, 3, -3, 9223372036854775807);  slice_437 = None
        full_default_18: "f32[1, 2, 1, 3]" = torch.ops.aten.full.default([1, 2, 1, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:816, code: ).where(ending_mask.bool(), ending_input)
        convert_element_type_9: "b8[1, 2, 1, 3]" = torch.ops.prims.convert_element_type.default(expand_7, torch.bool);  expand_7 = None
        where_14: "f32[1, 2, 1, 3]" = torch.ops.aten.where.self(convert_element_type_9, full_default_18, slice_438);  convert_element_type_9 = full_default_18 = slice_438 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:814, code: input_tensor[:, -affected_seq_len:, :, -(affected_seq_len + 1) :] = torch.full_like(
        view_124: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_121, [1, 1, 16, 5])
        permute_104: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_124, [0, 2, 1, 3]);  view_124 = None
        slice_443: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_104, 0, 0, 9223372036854775807);  permute_104 = None
        slice_444: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_443, 1, -2, 9223372036854775807);  slice_443 = None
        slice_445: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_444, 2, 0, 9223372036854775807);  slice_444 = None
        slice_446: "f32[1, 2, 1, 3]" = torch.ops.aten.slice.Tensor(slice_445, 3, -3, 9223372036854775807);  slice_445 = None
        copy_23: "f32[1, 2, 1, 3]" = torch.ops.aten.copy.default(slice_446, where_14);  slice_446 = where_14 = None
        view_125: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_121, [1, 1, 16, 5]);  view_121 = None
        permute_105: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_125, [0, 2, 1, 3]);  view_125 = None
        slice_447: "f32[1, 16, 1, 5]" = torch.ops.aten.slice.Tensor(permute_105, 0, 0, 9223372036854775807)
        slice_448: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_447, 1, -2, 9223372036854775807)
        slice_449: "f32[1, 2, 1, 5]" = torch.ops.aten.slice.Tensor(slice_448, 2, 0, 9223372036854775807)
        slice_scatter_84: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_449, copy_23, 3, -3, 9223372036854775807);  slice_449 = copy_23 = None
        slice_scatter_85: "f32[1, 2, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_448, slice_scatter_84, 2, 0, 9223372036854775807);  slice_448 = slice_scatter_84 = None
        slice_scatter_86: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(slice_447, slice_scatter_85, 1, -2, 9223372036854775807);  slice_447 = slice_scatter_85 = None
        slice_scatter_87: "f32[1, 16, 1, 5]" = torch.ops.aten.slice_scatter.default(permute_105, slice_scatter_86, 0, 0, 9223372036854775807);  permute_105 = slice_scatter_86 = None
        permute_106: "f32[1, 1, 16, 5]" = torch.ops.aten.permute.default(slice_scatter_87, [0, 2, 1, 3]);  slice_scatter_87 = None
        view_126: "f32[1, 8, 2, 5]" = torch.ops.aten.view.default(permute_106, [1, 8, 2, 5]);  permute_106 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:588, code: attn_scores += diagonal_mask
        view_128: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_108, [1, 2, 16, 5]);  view_108 = None
        permute_108: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_128, [0, 2, 1, 3]);  view_128 = None
        view_129: "f32[1, 1, 16, 5]" = torch.ops.aten.view.default(view_126, [1, 1, 16, 5]);  view_126 = None
        permute_109: "f32[1, 16, 1, 5]" = torch.ops.aten.permute.default(view_129, [0, 2, 1, 3]);  view_129 = None
        add_13: "f32[1, 16, 2, 5]" = torch.ops.aten.add.Tensor(permute_108, permute_109);  permute_108 = permute_109 = None
        permute_110: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(add_13, [0, 2, 1, 3]);  add_13 = None
        view_131: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_110, [2, 8, 2, 5]);  permute_110 = None
        view_132: "f32[1, 2, 16, 5]" = torch.ops.aten.view.default(view_131, [1, 2, 16, 5]);  view_131 = None
        permute_111: "f32[1, 16, 2, 5]" = torch.ops.aten.permute.default(view_132, [0, 2, 1, 3]);  view_132 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:626, code: attn_probs = nn.functional.softmax(
        clone_10: "f32[1, 16, 2, 5]" = torch.ops.aten.clone.default(permute_111, memory_format = torch.contiguous_format);  permute_111 = None
        amax_1: "f32[1, 16, 2, 1]" = torch.ops.aten.amax.default(clone_10, [-1], True)
        sub_12: "f32[1, 16, 2, 5]" = torch.ops.aten.sub.Tensor(clone_10, amax_1);  clone_10 = amax_1 = None
        exp_1: "f32[1, 16, 2, 5]" = torch.ops.aten.exp.default(sub_12);  sub_12 = None
        sum_2: "f32[1, 16, 2, 1]" = torch.ops.aten.sum.dim_IntList(exp_1, [-1], True)
        div_17: "f32[1, 16, 2, 5]" = torch.ops.aten.div.Tensor(exp_1, sum_2);  exp_1 = sum_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:637, code: attn_probs = torch.masked_fill(attn_probs, is_index_masked[:, :, None, None], 0.0)
        slice_454: "b8[1, 16]" = torch.ops.aten.slice.Tensor(arg34_1, 0, 0, 9223372036854775807);  arg34_1 = None
        slice_455: "b8[1, 16]" = torch.ops.aten.slice.Tensor(slice_454, 1, 0, 9223372036854775807);  slice_454 = None
        unsqueeze_34: "b8[1, 16, 1]" = torch.ops.aten.unsqueeze.default(slice_455, 2);  slice_455 = None
        unsqueeze_35: "b8[1, 16, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_34, 3);  unsqueeze_34 = None
        full_default_19: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where_15: "f32[1, 16, 2, 5]" = torch.ops.aten.where.self(unsqueeze_35, full_default_19, div_17);  unsqueeze_35 = full_default_19 = div_17 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:644, code: attn_probs = nn.functional.dropout(attn_probs, p=self.dropout, training=self.training)
        clone_11: "f32[1, 16, 2, 5]" = torch.ops.aten.clone.default(where_15);  where_15 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:646, code: value_vectors = value_vectors.view(seq_len, batch_size, self.num_heads, self.head_dim).transpose(0, 1)
        view_133: "f32[16, 1, 2, 16]" = torch.ops.aten.view.default(view_80, [16, 1, 2, 16]);  view_80 = None
        permute_112: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_133, [1, 0, 2, 3]);  view_133 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:899, code: chunked_attn_probs = attn_probs.transpose(1, 2).reshape(
        permute_113: "f32[1, 2, 16, 5]" = torch.ops.aten.permute.default(clone_11, [0, 2, 1, 3]);  clone_11 = None
        view_134: "f32[2, 8, 2, 5]" = torch.ops.aten.view.default(permute_113, [2, 8, 2, 5]);  permute_113 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:907, code: value = value.transpose(1, 2).reshape(batch_size * num_heads, seq_len, head_dim)
        permute_114: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(permute_112, [0, 2, 1, 3]);  permute_112 = None
        view_135: "f32[2, 16, 16]" = torch.ops.aten.view.default(permute_114, [2, 16, 16]);  permute_114 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:910, code: padded_value = nn.functional.pad(value, (0, 0, window_overlap, window_overlap), value=-1)
        constant_pad_nd_6: "f32[2, 20, 16]" = torch.ops.aten.constant_pad_nd.default(view_135, [0, 0, 2, 2], -1.0);  view_135 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:921, code: chunked_value = padded_value.as_strided(size=chunked_value_size, stride=chunked_value_stride)
        as_strided_11: "f32[2, 8, 6, 16]" = torch.ops.aten.as_strided.default(constant_pad_nd_6, [2, 8, 6, 16], [320, 32, 16, 1]);  constant_pad_nd_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:746, code: chunked_hidden_states = nn.functional.pad(
        constant_pad_nd_7: "f32[2, 8, 2, 8]" = torch.ops.aten.constant_pad_nd.default(view_134, [0, 3], 0.0);  view_134 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:749, code: chunked_hidden_states = chunked_hidden_states.view(
        view_136: "f32[2, 8, 16]" = torch.ops.aten.view.default(constant_pad_nd_7, [2, 8, -1]);  constant_pad_nd_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:752, code: chunked_hidden_states = chunked_hidden_states[
        slice_456: "f32[2, 8, 16]" = torch.ops.aten.slice.Tensor(view_136, 0, 0, 9223372036854775807);  view_136 = None
        slice_457: "f32[2, 8, 16]" = torch.ops.aten.slice.Tensor(slice_456, 1, 0, 9223372036854775807);  slice_456 = None
        slice_458: "f32[2, 8, 14]" = torch.ops.aten.slice.Tensor(slice_457, 2, 0, -2);  slice_457 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:755, code: chunked_hidden_states = chunked_hidden_states.view(
        view_137: "f32[2, 8, 2, 7]" = torch.ops.aten.view.default(slice_458, [2, 8, 2, 7]);  slice_458 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:758, code: chunked_hidden_states = chunked_hidden_states[:, :, :, :-1]
        slice_459: "f32[2, 8, 2, 7]" = torch.ops.aten.slice.Tensor(view_137, 0, 0, 9223372036854775807);  view_137 = None
        slice_460: "f32[2, 8, 2, 7]" = torch.ops.aten.slice.Tensor(slice_459, 1, 0, 9223372036854775807);  slice_459 = None
        slice_461: "f32[2, 8, 2, 7]" = torch.ops.aten.slice.Tensor(slice_460, 2, 0, 9223372036854775807);  slice_460 = None
        slice_462: "f32[2, 8, 2, 6]" = torch.ops.aten.slice.Tensor(slice_461, 3, 0, -1);  slice_461 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:925, code: context = torch.einsum("bcwd,bcdh->bcwh", (chunked_attn_probs, chunked_value))
        unsqueeze_36: "f32[2, 8, 2, 6, 1]" = torch.ops.aten.unsqueeze.default(slice_462, 4);  slice_462 = None
        permute_115: "f32[2, 8, 2, 1, 6]" = torch.ops.aten.permute.default(unsqueeze_36, [0, 1, 2, 4, 3]);  unsqueeze_36 = None
        unsqueeze_37: "f32[2, 8, 6, 16, 1]" = torch.ops.aten.unsqueeze.default(as_strided_11, 4);  as_strided_11 = None
        permute_116: "f32[2, 8, 1, 16, 6]" = torch.ops.aten.permute.default(unsqueeze_37, [0, 1, 4, 3, 2]);  unsqueeze_37 = None
        permute_117: "f32[2, 8, 2, 6, 1]" = torch.ops.aten.permute.default(permute_115, [0, 1, 2, 4, 3]);  permute_115 = None
        view_138: "f32[16, 2, 6]" = torch.ops.aten.view.default(permute_117, [16, 2, 6]);  permute_117 = None
        permute_118: "f32[2, 8, 6, 16, 1]" = torch.ops.aten.permute.default(permute_116, [0, 1, 4, 3, 2]);  permute_116 = None
        clone_12: "f32[2, 8, 6, 16, 1]" = torch.ops.aten.clone.default(permute_118, memory_format = torch.contiguous_format);  permute_118 = None
        view_139: "f32[16, 6, 16]" = torch.ops.aten.view.default(clone_12, [16, 6, 16]);  clone_12 = None
        bmm_3: "f32[16, 2, 16]" = torch.ops.aten.bmm.default(view_138, view_139);  view_138 = view_139 = None
        view_140: "f32[2, 8, 2, 1, 16]" = torch.ops.aten.view.default(bmm_3, [2, 8, 2, 1, 16]);  bmm_3 = None
        permute_119: "f32[2, 8, 2, 16, 1]" = torch.ops.aten.permute.default(view_140, [0, 1, 2, 4, 3]);  view_140 = None
        view_141: "f32[2, 8, 2, 16]" = torch.ops.aten.view.default(permute_119, [2, 8, 2, 16]);  permute_119 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:926, code: return context.view(batch_size, num_heads, seq_len, head_dim).transpose(1, 2)
        view_142: "f32[1, 2, 16, 16]" = torch.ops.aten.view.default(view_141, [1, 2, 16, 16]);  view_141 = None
        permute_120: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(view_142, [0, 2, 1, 3]);  view_142 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:665, code: attn_output = attn_output.transpose(0, 1).reshape(seq_len, batch_size, embed_dim).contiguous()
        permute_121: "f32[16, 1, 2, 16]" = torch.ops.aten.permute.default(permute_120, [1, 0, 2, 3]);  permute_120 = None
        clone_13: "f32[16, 1, 2, 16]" = torch.ops.aten.clone.default(permute_121, memory_format = torch.contiguous_format);  permute_121 = None
        view_143: "f32[16, 1, 32]" = torch.ops.aten.view.default(clone_13, [16, 1, 32]);  clone_13 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:694, code: outputs = (attn_output.transpose(0, 1),)
        permute_122: "f32[1, 16, 32]" = torch.ops.aten.permute.default(view_143, [1, 0, 2]);  view_143 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1141, code: hidden_states = self.dense(hidden_states)
        view_144: "f32[16, 32]" = torch.ops.aten.view.default(permute_122, [16, 32]);  permute_122 = None
        permute_123: "f32[32, 32]" = torch.ops.aten.permute.default(arg22_1, [1, 0]);  arg22_1 = None
        addmm_9: "f32[16, 32]" = torch.ops.aten.addmm.default(arg23_1, view_144, permute_123);  arg23_1 = view_144 = permute_123 = None
        view_145: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_9, [1, 16, 32]);  addmm_9 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1142, code: hidden_states = self.dropout(hidden_states)
        clone_14: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_145);  view_145 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1143, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_15: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_14, add_10);  clone_14 = add_10 = None
        var_mean_2 = torch.ops.aten.var_mean.correction(add_15, [2], correction = 0, keepdim = True)
        getitem_4: "f32[1, 16, 1]" = var_mean_2[0]
        getitem_5: "f32[1, 16, 1]" = var_mean_2[1];  var_mean_2 = None
        add_16: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_4, 1e-12);  getitem_4 = None
        rsqrt_2: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_16);  add_16 = None
        sub_14: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_15, getitem_5);  add_15 = getitem_5 = None
        mul_9: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_14, rsqrt_2);  sub_14 = rsqrt_2 = None
        mul_10: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_9, arg24_1);  mul_9 = arg24_1 = None
        add_17: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_10, arg25_1);  mul_10 = arg25_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1207, code: hidden_states = self.dense(hidden_states)
        view_146: "f32[16, 32]" = torch.ops.aten.view.default(add_17, [16, 32])
        permute_124: "f32[32, 64]" = torch.ops.aten.permute.default(arg26_1, [1, 0]);  arg26_1 = None
        addmm_10: "f32[16, 64]" = torch.ops.aten.addmm.default(arg27_1, view_146, permute_124);  arg27_1 = view_146 = permute_124 = None
        view_147: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_10, [1, 16, 64]);  addmm_10 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/activations.py:79, code: return self.act(input)
        mul_11: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_147, 0.5)
        mul_12: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_147, 0.7071067811865476);  view_147 = None
        erf_1: "f32[1, 16, 64]" = torch.ops.aten.erf.default(mul_12);  mul_12 = None
        add_18: "f32[1, 16, 64]" = torch.ops.aten.add.Tensor(erf_1, 1);  erf_1 = None
        mul_13: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(mul_11, add_18);  mul_11 = add_18 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1221, code: hidden_states = self.dense(hidden_states)
        view_148: "f32[16, 64]" = torch.ops.aten.view.default(mul_13, [16, 64]);  mul_13 = None
        permute_125: "f32[64, 32]" = torch.ops.aten.permute.default(arg28_1, [1, 0]);  arg28_1 = None
        addmm_11: "f32[16, 32]" = torch.ops.aten.addmm.default(arg29_1, view_148, permute_125);  arg29_1 = view_148 = permute_125 = None
        view_149: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_11, [1, 16, 32]);  addmm_11 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1222, code: hidden_states = self.dropout(hidden_states)
        clone_15: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_149);  view_149 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1223, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_19: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_15, add_17);  clone_15 = add_17 = None
        var_mean_3 = torch.ops.aten.var_mean.correction(add_19, [2], correction = 0, keepdim = True)
        getitem_6: "f32[1, 16, 1]" = var_mean_3[0]
        getitem_7: "f32[1, 16, 1]" = var_mean_3[1];  var_mean_3 = None
        add_20: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_6, 1e-12);  getitem_6 = None
        rsqrt_3: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_20);  add_20 = None
        sub_15: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_19, getitem_7);  add_19 = getitem_7 = None
        mul_14: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_15, rsqrt_3);  sub_15 = rsqrt_3 = None
        mul_15: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_14, arg30_1);  mul_14 = arg30_1 = None
        add_21: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_15, arg31_1);  mul_15 = arg31_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/longformer/modeling_longformer.py:1343, code: hidden_states = hidden_states[:, : hidden_states.shape[1] - padding_len]
        slice_463: "f32[1, 16, 32]" = torch.ops.aten.slice.Tensor(add_21, 0, 0, 9223372036854775807);  add_21 = None
        return (slice_463,)
        