class GraphModule(torch.nn.Module):
    def forward(self, p_lin_weight: "f32[4, 4]", p_lin_bias: "f32[4]", x: "f32[3, 4]", y: "f32[3, 4]"):
        # File: /work/main/python/tools/make_torch_fixtures.py:141 in forward, code: return torch.cond(x.sum() > 0, true_fn, false_fn, (x, y))
        sum_1: "f32[]" = torch.ops.aten.sum.default(x)
        gt: "b8[]" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None

        # File: <eval_with_key>.35:12 in forward, code: cond = torch.ops.higher_order.cond(l_args_0_, cond_true_0, cond_false_0, (l_args_3_0_, l_args_3_1_, l_args_1_closure_0_cell_contents_modules_lin_parameters_bias_, l_args_1_closure_0_cell_contents_modules_lin_parameters_weight_));  l_args_0_ = cond_true_0 = cond_false_0 = l_args_3_0_ = l_args_3_1_ = l_args_1_closure_0_cell_contents_modules_lin_parameters_bias_ = l_args_1_closure_0_cell_contents_modules_lin_parameters_weight_ = None
        true_graph_0 = self.true_graph_0
        false_graph_0 = self.false_graph_0
        cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, (x, y, p_lin_bias, p_lin_weight));  gt = true_graph_0 = false_graph_0 = x = y = p_lin_bias = p_lin_weight = None
        getitem: "f32[3, 4]" = cond[0];  cond = None
        return (getitem,)

    class true_graph_0(torch.nn.Module):
        def forward(self, x: "f32[3, 4]", y: "f32[3, 4]", p_lin_bias: "f32[4]", p_lin_weight: "f32[4, 4]"):
            # File: <eval_with_key>.36:7 in forward, code: linear = torch._C._nn.linear(l_args_3_0__1, l_args_1_closure_0_cell_contents_modules_lin_parameters_weight__true_branch, l_args_1_closure_0_cell_contents_modules_lin_parameters_bias__true_branch);  l_args_3_0__1 = l_args_1_closure_0_cell_contents_modules_lin_parameters_weight__true_branch = l_args_1_closure_0_cell_contents_modules_lin_parameters_bias__true_branch = None
            linear: "f32[3, 4]" = torch.ops.aten.linear.default(x, p_lin_weight, p_lin_bias);  x = p_lin_weight = p_lin_bias = None

            # File: <eval_with_key>.36:8 in forward, code: relu = linear.relu();  linear = None
            relu: "f32[3, 4]" = torch.ops.aten.relu.default(linear);  linear = None

            # File: <eval_with_key>.36:9 in forward, code: add = relu + l_args_3_1__1;  relu = l_args_3_1__1 = None
            add: "f32[3, 4]" = torch.ops.aten.add.Tensor(relu, y);  relu = y = None
            return (add,)

    class false_graph_0(torch.nn.Module):
        def forward(self, x: "f32[3, 4]", y: "f32[3, 4]", p_lin_bias: "f32[4]", p_lin_weight: "f32[4, 4]"):
            # File: <eval_with_key>.37:7 in forward, code: cos = l_args_3_0__1.cos();  l_args_3_0__1 = None
            cos: "f32[3, 4]" = torch.ops.aten.cos.default(x);  x = None

            # File: <eval_with_key>.37:8 in forward, code: mul = cos * 2;  cos = None
            mul: "f32[3, 4]" = torch.ops.aten.mul.Tensor(cos, 2);  cos = None

            # File: <eval_with_key>.37:9 in forward, code: sub = mul - l_args_3_1__1;  mul = l_args_3_1__1 = None
            sub: "f32[3, 4]" = torch.ops.aten.sub.Tensor(mul, y);  mul = y = None
            return (sub,)
