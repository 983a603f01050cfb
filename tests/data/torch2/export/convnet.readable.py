class GraphModule(torch.nn.Module):
    def forward(self, p_conv1_weight: "f32[4, 3, 3, 3]", p_conv1_bias: "f32[4]", p_bn1_weight: "f32[4]", p_bn1_bias: "f32[4]", p_conv2_weight: "f32[8, 4, 3, 3]", p_conv2_bias: "f32[8]", p_fc_weight: "f32[10, 8]", p_fc_bias: "f32[10]", b_bn1_running_mean: "f32[4]", b_bn1_running_var: "f32[4]", b_bn1_num_batches_tracked: "i64[]", x: "f32[2, 3, 16, 16]"):
        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/conv.py:565 in forward, code: return self._conv_forward(input, self.weight, self.bias)
        conv2d: "f32[2, 4, 16, 16]" = torch.ops.aten.conv2d.default(x, p_conv1_weight, p_conv1_bias, [1, 1], [1, 1]);  x = p_conv1_weight = p_conv1_bias = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:210 in forward, code: return F.batch_norm(
        batch_norm: "f32[2, 4, 16, 16]" = torch.ops.aten.batch_norm.default(conv2d, p_bn1_weight, p_bn1_bias, b_bn1_running_mean, b_bn1_running_var, False, 0.1, 1e-05, False);  conv2d = p_bn1_weight = p_bn1_bias = b_bn1_running_mean = b_bn1_running_var = None

        # File: /work/main/python/tools/make_torch_fixtures.py:124 in forward, code: x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        relu: "f32[2, 4, 16, 16]" = torch.ops.aten.relu.default(batch_norm);  batch_norm = None
        max_pool2d: "f32[2, 4, 8, 8]" = torch.ops.aten.max_pool2d.default(relu, [2, 2]);  relu = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/conv.py:565 in forward, code: return self._conv_forward(input, self.weight, self.bias)
        conv2d_1: "f32[2, 8, 8, 8]" = torch.ops.aten.conv2d.default(max_pool2d, p_conv2_weight, p_conv2_bias, [1, 1], [1, 1]);  max_pool2d = p_conv2_weight = p_conv2_bias = None

        # File: /work/main/python/tools/make_torch_fixtures.py:125 in forward, code: x = F.relu(self.conv2(x))
        relu_1: "f32[2, 8, 8, 8]" = torch.ops.aten.relu.default(conv2d_1);  conv2d_1 = None

        # File: /work/main/python/tools/make_torch_fixtures.py:126 in forward, code: x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        adaptive_avg_pool2d: "f32[2, 8, 1, 1]" = torch.ops.aten.adaptive_avg_pool2d.default(relu_1, [1, 1]);  relu_1 = None
        flatten: "f32[2, 8]" = torch.ops.aten.flatten.using_ints(adaptive_avg_pool2d, 1);  adaptive_avg_pool2d = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear: "f32[2, 10]" = torch.ops.aten.linear.default(flatten, p_fc_weight, p_fc_bias);  flatten = p_fc_weight = p_fc_bias = None
        return (linear,)
