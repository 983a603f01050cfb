class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 32]", arg1_1: "f32[2, 32]", arg2_1: "f32[32, 32]", arg3_1: "f32[32]", arg4_1: "f32[32]", arg5_1: "f32[32, 32]", arg6_1: "f32[32]", arg7_1: "f32[32, 32]", arg8_1: "f32[32]", arg9_1: "f32[32, 32]", arg10_1: "f32[32]", arg11_1: "f32[32, 32]", arg12_1: "f32[32]", arg13_1: "f32[32]", arg14_1: "f32[32]", arg15_1: "f32[64, 32]", arg16_1: "f32[64]", arg17_1: "f32[32, 64]", arg18_1: "f32[32]", arg19_1: "f32[32]", arg20_1: "f32[32]", arg21_1: "f32[32, 32]", arg22_1: "f32[32]", arg23_1: "f32[32, 32]", arg24_1: "f32[32]", arg25_1: "f32[32, 32]", arg26_1: "f32[32]", arg27_1: "f32[32, 32]", arg28_1: "f32[32]", arg29_1: "f32[32]", arg30_1: "f32[32]", arg31_1: "f32[64, 32]", arg32_1: "f32[64]", arg33_1: "f32[32, 64]", arg34_1: "f32[32]", arg35_1: "f32[32]", arg36_1: "f32[32]", arg37_1: "f32[32, 32]", arg38_1: "f32[32]", arg39_1: "f32[32]", arg40_1: "f32[32]", arg41_1: "f32[64, 32]", arg42_1: "f32[64]", arg43_1: "i64[1, 32]", arg44_1: "i64[1, 32]", arg45_1: "i64[1, 16]"):
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:974, code: attention_mask = torch.ones(((batch_size, seq_length + past_key_values_length)), device=device)
        full: "f32[1, 16]" = torch.ops.aten.full.default([1, 16], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:978, code: buffered_token_type_ids = self.embeddings.token_type_ids[:, :seq_length]
        slice_1: "i64[1, 32]" = torch.ops.aten.slice.Tensor(arg43_1, 0, 0, 9223372036854775807);  arg43_1 = None
        slice_2: "i64[1, 16]" = torch.ops.aten.slice.Tensor(slice_1, 1, 0, 16);  slice_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:979, code: buffered_token_type_ids_expanded = buffered_token_type_ids.expand(batch_size, seq_length)
        expand: "i64[1, 16]" = torch.ops.aten.expand.default(slice_2, [1, 16]);  slice_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/modeling_utils.py:978, code: extended_attention_mask = attention_mask[:, None, None, :]
        slice_3: "f32[1, 16]" = torch.ops.aten.slice.Tensor(full, 0, 0, 9223372036854775807);  full = None
        unsqueeze: "f32[1, 1, 16]" = torch.ops.aten.unsqueeze.default(slice_3, 1);  slice_3 = None
        unsqueeze_1: "f32[1, 1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze, 2);  unsqueeze = None
        slice_4: "f32[1, 1, 1, 16]" = torch.ops.aten.slice.Tensor(unsqueeze_1, 3, 0, 9223372036854775807);  unsqueeze_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/modeling_utils.py:990, code: extended_attention_mask = (1.0 - extended_attention_mask) * torch.finfo(dtype).min
        sub: "f32[1, 1, 1, 16]" = torch.ops.aten.sub.Tensor(1.0, slice_4);  slice_4 = None
        full_default: "f32[1, 1, 1, 16]" = torch.ops.aten.full.default([1, 1, 1, 16], -0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:218, code: position_ids = self.position_ids[:, past_key_values_length : seq_length + past_key_values_length]
        slice_5: "i64[1, 32]" = torch.ops.aten.slice.Tensor(arg44_1, 0, 0, 9223372036854775807);  arg44_1 = None
        slice_6: "i64[1, 16]" = torch.ops.aten.slice.Tensor(slice_5, 1, 0, 16);  slice_5 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:232, code: inputs_embeds = self.word_embeddings(input_ids)
        embedding: "f32[1, 16, 32]" = torch.ops.aten.embedding.default(arg0_1, arg45_1, 0);  arg0_1 = arg45_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:233, code: token_type_embeddings = self.token_type_embeddings(token_type_ids)
        embedding_1: "f32[1, 16, 32]" = torch.ops.aten.embedding.default(arg1_1, expand);  arg1_1 = expand = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:235, code: embeddings = inputs_embeds + token_type_embeddings
        add: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(embedding, embedding_1);  embedding = embedding_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:237, code: position_embeddings = self.position_embeddings(position_ids)
        embedding_2: "f32[1, 16, 32]" = torch.ops.aten.embedding.default(arg2_1, slice_6);  arg2_1 = slice_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:238, code: embeddings += position_embeddings
        add_1: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(add, embedding_2);  add = embedding_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:239, code: embeddings = self.LayerNorm(embeddings)
        var_mean = torch.ops.aten.var_mean.correction(add_1, [2], correction = 0, keepdim = True)
        getitem: "f32[1, 16, 1]" = var_mean[0]
        getitem_1: "f32[1, 16, 1]" = var_mean[1];  var_mean = None
        add_2: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-12);  getitem = None
        rsqrt: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_2);  add_2 = None
        sub_1: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_1, getitem_1);  add_1 = getitem_1 = None
        mul_1: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_1, rsqrt);  sub_1 = rsqrt = None
        mul_2: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_1, arg3_1);  mul_1 = arg3_1 = None
        add_3: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_2, arg4_1);  mul_2 = arg4_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:240, code: embeddings = self.dropout(embeddings)
        clone: "f32[1, 16, 32]" = torch.ops.aten.clone.default(add_3);  add_3 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:286, code: mixed_query_layer = self.query(hidden_states)
        view: "f32[16, 32]" = torch.ops.aten.view.default(clone, [16, 32])
        permute: "f32[32, 32]" = torch.ops.aten.permute.default(arg5_1, [1, 0]);  arg5_1 = None
        addmm: "f32[16, 32]" = torch.ops.aten.addmm.default(arg6_1, view, permute);  arg6_1 = view = permute = None
        view_1: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm, [1, 16, 32]);  addmm = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:308, code: key_layer = self.transpose_for_scores(self.key(hidden_states))
        view_2: "f32[16, 32]" = torch.ops.aten.view.default(clone, [16, 32])
        permute_1: "f32[32, 32]" = torch.ops.aten.permute.default(arg7_1, [1, 0]);  arg7_1 = None
        addmm_1: "f32[16, 32]" = torch.ops.aten.addmm.default(arg8_1, view_2, permute_1);  arg8_1 = view_2 = permute_1 = None
        view_3: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_1, [1, 16, 32]);  addmm_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:273, code: x = x.view(new_x_shape)
        view_4: "f32[1, 16, 2, 16]" = torch.ops.aten.view.default(view_3, [1, 16, 2, 16]);  view_3 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:274, code: return x.permute(0, 2, 1, 3)
        permute_2: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(view_4, [0, 2, 1, 3]);  view_4 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:309, code: value_layer = self.transpose_for_scores(self.value(hidden_states))
        view_5: "f32[16, 32]" = torch.ops.aten.view.default(clone, [16, 32])
        permute_3: "f32[32, 32]" = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        addmm_2: "f32[16, 32]" = torch.ops.aten.addmm.default(arg10_1, view_5, permute_3);  arg10_1 = view_5 = permute_3 = None
        view_6: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_2, [1, 16, 32]);  addmm_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:273, code: x = x.view(new_x_shape)
        view_7: "f32[1, 16, 2, 16]" = torch.ops.aten.view.default(view_6, [1, 16, 2, 16]);  view_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:274, code: return x.permute(0, 2, 1, 3)
        permute_4: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(view_7, [0, 2, 1, 3]);  view_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:273, code: x = x.view(new_x_shape)
        view_8: "f32[1, 16, 2, 16]" = torch.ops.aten.view.default(view_1, [1, 16, 2, 16]);  view_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:274, code: return x.permute(0, 2, 1, 3)
        permute_5: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(view_8, [0, 2, 1, 3]);  view_8 = None
        
        # No stacktrace found for following nodes
        clone_default_3: "f32[1, 2, 16, 16]" = torch.ops.aten.clone.default(permute_5, memory_format = torch.contiguous_format);  permute_5 = None
        clone_default_4: "f32[1, 2, 16, 16]" = torch.ops.aten.clone.default(permute_2, memory_format = torch.contiguous_format);  permute_2 = None
        clone_default_5: "f32[1, 2, 16, 16]" = torch.ops.aten.clone.default(permute_4, memory_format = torch.contiguous_format);  permute_4 = None
        _scaled_dot_product_flash_attention_default_1 = torch.ops.aten._scaled_dot_product_flash_attention.default(clone_default_3, clone_default_4, clone_default_5, scale = 0.25);  clone_default_3 = clone_default_4 = clone_default_5 = None
        getitem_13: "f32[1, 2, 16, 16]" = _scaled_dot_product_flash_attention_default_1[0];  _scaled_dot_product_flash_attention_default_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:367, code: context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        permute_7: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(getitem_13, [0, 2, 1, 3]);  getitem_13 = None
        clone_2: "f32[1, 16, 2, 16]" = torch.ops.aten.clone.default(permute_7, memory_format = torch.contiguous_format);  permute_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:369, code: context_layer = context_layer.view(new_context_layer_shape)
        view_15: "f32[1, 16, 32]" = torch.ops.aten.view.default(clone_2, [1, 16, 32]);  clone_2 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:386, code: hidden_states = self.dense(hidden_states)
        view_16: "f32[16, 32]" = torch.ops.aten.view.default(view_15, [16, 32]);  view_15 = None
        permute_8: "f32[32, 32]" = torch.ops.aten.permute.default(arg11_1, [1, 0]);  arg11_1 = None
        addmm_3: "f32[16, 32]" = torch.ops.aten.addmm.default(arg12_1, view_16, permute_8);  arg12_1 = view_16 = permute_8 = None
        view_17: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_3, [1, 16, 32]);  addmm_3 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:387, code: hidden_states = self.dropout(hidden_states)
        clone_3: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_17);  view_17 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:388, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_5: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_3, clone);  clone_3 = clone = None
        var_mean_1 = torch.ops.aten.var_mean.correction(add_5, [2], correction = 0, keepdim = True)
        getitem_2: "f32[1, 16, 1]" = var_mean_1[0]
        getitem_3: "f32[1, 16, 1]" = var_mean_1[1];  var_mean_1 = None
        add_6: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_2, 1e-12);  getitem_2 = None
        rsqrt_1: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_6);  add_6 = None
        sub_3: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_5, getitem_3);  add_5 = getitem_3 = None
        mul_3: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_3, rsqrt_1);  sub_3 = rsqrt_1 = None
        mul_4: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_3, arg13_1);  mul_3 = arg13_1 = None
        add_7: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_4, arg14_1);  mul_4 = arg14_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:451, code: hidden_states = self.dense(hidden_states)
        view_18: "f32[16, 32]" = torch.ops.aten.view.default(add_7, [16, 32])
        permute_9: "f32[32, 64]" = torch.ops.aten.permute.default(arg15_1, [1, 0]);  arg15_1 = None
        addmm_4: "f32[16, 64]" = torch.ops.aten.addmm.default(arg16_1, view_18, permute_9);  arg16_1 = view_18 = permute_9 = None
        view_19: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_4, [1, 16, 64]);  addmm_4 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/activations.py:79, code: return self.act(input)
        mul_5: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_19, 0.5)
        mul_6: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_19, 0.7071067811865476);  view_19 = None
        erf: "f32[1, 16, 64]" = torch.ops.aten.erf.default(mul_6);  mul_6 = None
        add_8: "f32[1, 16, 64]" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_7: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(mul_5, add_8);  mul_5 = add_8 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:464, code: hidden_states = self.dense(hidden_states)
        view_20: "f32[16, 64]" = torch.ops.aten.view.default(mul_7, [16, 64]);  mul_7 = None
        permute_10: "f32[64, 32]" = torch.ops.aten.permute.default(arg17_1, [1, 0]);  arg17_1 = None
        addmm_5: "f32[16, 32]" = torch.ops.aten.addmm.default(arg18_1, view_20, permute_10);  arg18_1 = view_20 = permute_10 = None
        view_21: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_5, [1, 16, 32]);  addmm_5 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:465, code: hidden_states = self.dropout(hidden_states)
        clone_4: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_21);  view_21 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:466, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_9: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_4, add_7);  clone_4 = add_7 = None
        var_mean_2 = torch.ops.aten.var_mean.correction(add_9, [2], correction = 0, keepdim = True)
        getitem_4: "f32[1, 16, 1]" = var_mean_2[0]
        getitem_5: "f32[1, 16, 1]" = var_mean_2[1];  var_mean_2 = None
        add_10: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_4, 1e-12);  getitem_4 = None
        rsqrt_2: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_10);  add_10 = None
        sub_4: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_9, getitem_5);  add_9 = getitem_5 = None
        mul_8: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_4, rsqrt_2);  sub_4 = rsqrt_2 = None
        mul_9: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_8, arg19_1);  mul_8 = arg19_1 = None
        add_11: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_9, arg20_1);  mul_9 = arg20_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:286, code: mixed_query_layer = self.query(hidden_states)
        view_22: "f32[16, 32]" = torch.ops.aten.view.default(add_11, [16, 32])
        permute_11: "f32[32, 32]" = torch.ops.aten.permute.default(arg21_1, [1, 0]);  arg21_1 = None
        addmm_6: "f32[16, 32]" = torch.ops.aten.addmm.default(arg22_1, view_22, permute_11);  arg22_1 = view_22 = permute_11 = None
        view_23: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_6, [1, 16, 32]);  addmm_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:308, code: key_layer = self.transpose_for_scores(self.key(hidden_states))
        view_24: "f32[16, 32]" = torch.ops.aten.view.default(add_11, [16, 32])
        permute_12: "f32[32, 32]" = torch.ops.aten.permute.default(arg23_1, [1, 0]);  arg23_1 = None
        addmm_7: "f32[16, 32]" = torch.ops.aten.addmm.default(arg24_1, view_24, permute_12);  arg24_1 = view_24 = permute_12 = None
        view_25: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_7, [1, 16, 32]);  addmm_7 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:273, code: x = x.view(new_x_shape)
        view_26: "f32[1, 16, 2, 16]" = torch.ops.aten.view.default(view_25, [1, 16, 2, 16]);  view_25 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:274, code: return x.permute(0, 2, 1, 3)
        permute_13: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(view_26, [0, 2, 1, 3]);  view_26 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:309, code: value_layer = self.transpose_for_scores(self.value(hidden_states))
        view_27: "f32[16, 32]" = torch.ops.aten.view.default(add_11, [16, 32])
        permute_14: "f32[32, 32]" = torch.ops.aten.permute.default(arg25_1, [1, 0]);  arg25_1 = None
        addmm_8: "f32[16, 32]" = torch.ops.aten.addmm.default(arg26_1, view_27, permute_14);  arg26_1 = view_27 = permute_14 = None
        view_28: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_8, [1, 16, 32]);  addmm_8 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:273, code: x = x.view(new_x_shape)
        view_29: "f32[1, 16, 2, 16]" = torch.ops.aten.view.default(view_28, [1, 16, 2, 16]);  view_28 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:274, code: return x.permute(0, 2, 1, 3)
        permute_15: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(view_29, [0, 2, 1, 3]);  view_29 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:273, code: x = x.view(new_x_shape)
        view_30: "f32[1, 16, 2, 16]" = torch.ops.aten.view.default(view_23, [1, 16, 2, 16]);  view_23 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:274, code: return x.permute(0, 2, 1, 3)
        permute_16: "f32[1, 2, 16, 16]" = torch.ops.aten.permute.default(view_30, [0, 2, 1, 3]);  view_30 = None
        
        # No stacktrace found for following nodes
        clone_default: "f32[1, 2, 16, 16]" = torch.ops.aten.clone.default(permute_16, memory_format = torch.contiguous_format);  permute_16 = None
        clone_default_1: "f32[1, 2, 16, 16]" = torch.ops.aten.clone.default(permute_13, memory_format = torch.contiguous_format);  permute_13 = None
        clone_default_2: "f32[1, 2, 16, 16]" = torch.ops.aten.clone.default(permute_15, memory_format = torch.contiguous_format);  permute_15 = None
        _scaled_dot_product_flash_attention_default = torch.ops.aten._scaled_dot_product_flash_attention.default(clone_default, clone_default_1, clone_default_2, scale = 0.25);  clone_default = clone_default_1 = clone_default_2 = None
        getitem_12: "f32[1, 2, 16, 16]" = _scaled_dot_product_flash_attention_default[0];  _scaled_dot_product_flash_attention_default = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:367, code: context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        permute_18: "f32[1, 16, 2, 16]" = torch.ops.aten.permute.default(getitem_12, [0, 2, 1, 3]);  getitem_12 = None
        clone_6: "f32[1, 16, 2, 16]" = torch.ops.aten.clone.default(permute_18, memory_format = torch.contiguous_format);  permute_18 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:369, code: context_layer = context_layer.view(new_context_layer_shape)
        view_37: "f32[1, 16, 32]" = torch.ops.aten.view.default(clone_6, [1, 16, 32]);  clone_6 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:386, code: hidden_states = self.dense(hidden_states)
        view_38: "f32[16, 32]" = torch.ops.aten.view.default(view_37, [16, 32]);  view_37 = None
        permute_19: "f32[32, 32]" = torch.ops.aten.permute.default(arg27_1, [1, 0]);  arg27_1 = None
        addmm_9: "f32[16, 32]" = torch.ops.aten.addmm.default(arg28_1, view_38, permute_19);  arg28_1 = view_38 = permute_19 = None
        view_39: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_9, [1, 16, 32]);  addmm_9 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:387, code: hidden_states = self.dropout(hidden_states)
        clone_7: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_39);  view_39 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:388, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_13: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_7, add_11);  clone_7 = add_11 = None
        var_mean_3 = torch.ops.aten.var_mean.correction(add_13, [2], correction = 0, keepdim = True)
        getitem_6: "f32[1, 16, 1]" = var_mean_3[0]
        getitem_7: "f32[1, 16, 1]" = var_mean_3[1];  var_mean_3 = None
        add_14: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_6, 1e-12);  getitem_6 = None
        rsqrt_3: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_14);  add_14 = None
        sub_6: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_13, getitem_7);  add_13 = getitem_7 = None
        mul_10: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_6, rsqrt_3);  sub_6 = rsqrt_3 = None
        mul_11: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_10, arg29_1);  mul_10 = arg29_1 = None
        add_15: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_11, arg30_1);  mul_11 = arg30_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:451, code: hidden_states = self.dense(hidden_states)
        view_40: "f32[16, 32]" = torch.ops.aten.view.default(add_15, [16, 32])
        permute_20: "f32[32, 64]" = torch.ops.aten.permute.default(arg31_1, [1, 0]);  arg31_1 = None
        addmm_10: "f32[16, 64]" = torch.ops.aten.addmm.default(arg32_1, view_40, permute_20);  arg32_1 = view_40 = permute_20 = None
        view_41: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_10, [1, 16, 64]);  addmm_10 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/activations.py:79, code: return self.act(input)
        mul_12: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_41, 0.5)
        mul_13: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(view_41, 0.7071067811865476);  view_41 = None
        erf_1: "f32[1, 16, 64]" = torch.ops.aten.erf.default(mul_13);  mul_13 = None
        add_16: "f32[1, 16, 64]" = torch.ops.aten.add.Tensor(erf_1, 1);  erf_1 = None
        mul_14: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(mul_12, add_16);  mul_12 = add_16 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:464, code: hidden_states = self.dense(hidden_states)
        view_42: "f32[16, 64]" = torch.ops.aten.view.default(mul_14, [16, 64]);  mul_14 = None
        permute_21: "f32[64, 32]" = torch.ops.aten.permute.default(arg33_1, [1, 0]);  arg33_1 = None
        addmm_11: "f32[16, 32]" = torch.ops.aten.addmm.default(arg34_1, view_42, permute_21);  arg34_1 = view_42 = permute_21 = None
        view_43: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_11, [1, 16, 32]);  addmm_11 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:465, code: hidden_states = self.dropout(hidden_states)
        clone_8: "f32[1, 16, 32]" = torch.ops.aten.clone.default(view_43);  view_43 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:466, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_17: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(clone_8, add_15);  clone_8 = add_15 = None
        var_mean_4 = torch.ops.aten.var_mean.correction(add_17, [2], correction = 0, keepdim = True)
        getitem_8: "f32[1, 16, 1]" = var_mean_4[0]
        getitem_9: "f32[1, 16, 1]" = var_mean_4[1];  var_mean_4 = None
        add_18: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_8, 1e-12);  getitem_8 = None
        rsqrt_4: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_18);  add_18 = None
        sub_7: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(add_17, getitem_9);  add_17 = getitem_9 = None
        mul_15: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_7, rsqrt_4);  sub_7 = rsqrt_4 = None
        mul_16: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_15, arg35_1);  mul_15 = arg35_1 = None
        add_19: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_16, arg36_1);  mul_16 = arg36_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:675, code: hidden_states = self.dense(hidden_states)
        view_44: "f32[16, 32]" = torch.ops.aten.view.default(add_19, [16, 32]);  add_19 = None
        permute_22: "f32[32, 32]" = torch.ops.aten.permute.default(arg37_1, [1, 0]);  arg37_1 = None
        addmm_12: "f32[16, 32]" = torch.ops.aten.addmm.default(arg38_1, view_44, permute_22);  arg38_1 = view_44 = permute_22 = None
        view_45: "f32[1, 16, 32]" = torch.ops.aten.view.default(addmm_12, [1, 16, 32]);  addmm_12 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/activations.py:79, code: return self.act(input)
        mul_17: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(view_45, 0.5)
        mul_18: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(view_45, 0.7071067811865476);  view_45 = None
        erf_2: "f32[1, 16, 32]" = torch.ops.aten.erf.default(mul_18);  mul_18 = None
        add_20: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(erf_2, 1);  erf_2 = None
        mul_19: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_17, add_20);  mul_17 = add_20 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:677, code: hidden_states = self.LayerNorm(hidden_states)
        var_mean_5 = torch.ops.aten.var_mean.correction(mul_19, [2], correction = 0, keepdim = True)
        getitem_10: "f32[1, 16, 1]" = var_mean_5[0]
        getitem_11: "f32[1, 16, 1]" = var_mean_5[1];  var_mean_5 = None
        add_21: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(getitem_10, 1e-12);  getitem_10 = None
        rsqrt_5: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_21);  add_21 = None
        sub_8: "f32[1, 16, 32]" = torch.ops.aten.sub.Tensor(mul_19, getitem_11);  mul_19 = getitem_11 = None
        mul_20: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sub_8, rsqrt_5);  sub_8 = rsqrt_5 = None
        mul_21: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(mul_20, arg39_1);  mul_20 = arg39_1 = None
        add_22: "f32[1, 16, 32]" = torch.ops.aten.add.Tensor(mul_21, arg40_1);  mul_21 = arg40_1 = None
        
        # File: /work/oldzoo-venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py:697, code: hidden_states = self.decoder(hidden_states)
        view_46: "f32[16, 32]" = torch.ops.aten.view.default(add_22, [16, 32]);  add_22 = None
        permute_23: "f32[32, 64]" = torch.ops.aten.permute.default(arg41_1, [1, 0]);  arg41_1 = None
        addmm_13: "f32[16, 64]" = torch.ops.aten.addmm.default(arg42_1, view_46, permute_23);  arg42_1 = view_46 = permute_23 = None
        view_47: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_13, [1, 16, 64]);  addmm_13 = None
        return (view_47,)
        