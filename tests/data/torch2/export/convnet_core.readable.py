class GraphModule(torch.nn.Module):
    def forward(self, p_conv1_weight: "f32[4, 3, 3, 3]", p_conv1_bias: "f32[4]", p_bn1_weight: "f32[4]", p_bn1_bias: "f32[4]", p_conv2_weight: "f32[8, 4, 3, 3]", p_conv2_bias: "f32[8]", p_fc_weight: "f32[10, 8]", p_fc_bias: "f32[10]", b_bn1_running_mean: "f32[4]", b_bn1_running_var: "f32[4]", b_bn1_num_batches_tracked: "i64[]", x: "f32[2, 3, 16, 16]"):
        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/conv.py:565 in forward, code: return self._conv_forward(input, self.weight, self.bias)
        convolution: "f32[2, 4, 16, 16]" = torch.ops.aten.convolution.default(x, p_conv1_weight, p_conv1_bias, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  x = p_conv1_weight = p_conv1_bias = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:210 in forward, code: return F.batch_norm(
        _native_batch_norm_legit_no_training = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution, p_bn1_weight, p_bn1_bias, b_bn1_running_mean, b_bn1_running_var, 0.1, 1e-05);  convolution = p_bn1_weight = p_bn1_bias = b_bn1_running_mean = b_bn1_running_var = None
        getitem: "f32[2, 4, 16, 16]" = _native_batch_norm_legit_no_training[0];  _native_batch_norm_legit_no_training = None

        # File: /work/main/python/tools/make_torch_fixtures.py:124 in forward, code: x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        relu: "f32[2, 4, 16, 16]" = torch.ops.aten.relu.default(getitem);  getitem = None
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(relu, [2, 2]);  relu = None
        getitem_3: "f32[2, 4, 8, 8]" = max_pool2d_with_indices[0];  max_pool2d_with_indices = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/conv.py:565 in forward, code: return self._conv_forward(input, self.weight, self.bias)
        convolution_1: "f32[2, 8, 8, 8]" = torch.ops.aten.convolution.default(getitem_3, p_conv2_weight, p_conv2_bias, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  getitem_3 = p_conv2_weight = p_conv2_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:125 in forward, code: x = F.relu(self.conv2(x))
        relu_1: "f32[2, 8, 8, 8]" = torch.ops.aten.relu.default(convolution_1);  convolution_1 = None

        # File: /work/main/python/tools/make_torch_fixtures.py:126 in forward, code: x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        mean: "f32[2, 8, 1, 1]" = torch.ops.aten.mean.dim(relu_1, [-1, -2], True);  relu_1 = None
        view: "f32[2, 8]" = torch.ops.aten.view.default(mean, [2, 8]);  mean = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        permute: "f32[8, 10]" = torch.ops.aten.permute.default(p_fc_weight, [1, 0]);  p_fc_weight = None
        addmm: "f32[2, 10]" = torch.ops.aten.addmm.default(p_fc_bias, view, permute);  p_fc_bias = view = permute = None
        return (addmm,)
