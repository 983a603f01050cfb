class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3, 4]"):
        # File: /work/main/python/tools/make_torch_fixtures.py:147 in forward, code: n = (x > 0).sum().item()
        gt: "b8[3, 4]" = torch.ops.aten.gt.Scalar(x, 0)
        sum_1: "i64[]" = torch.ops.aten.sum.default(gt);  gt = None
        item: "Sym(u0)" = torch.ops.aten.item.default(sum_1);  sum_1 = None
        le_1: "Sym(u0 <= 12)" = item <= 12
        _assert_scalar_default = torch.ops.aten._assert_scalar.default(le_1, "Runtime assertion failed for expression u0 <= 12 on node 'le_1'");  le_1 = _assert_scalar_default = None

        # File: /work/main/python/tools/make_torch_fixtures.py:149 in forward, code: return x.flatten()[:n].cos() * 2, torch.nonzero(x)
        flatten: "f32[12]" = torch.ops.aten.flatten.using_ints(x)
        slice_1: "f32[u1]" = torch.ops.aten.slice.Tensor(flatten, 0, None, item);  flatten = item = None
        sym_size_int: "Sym(u1)" = torch.ops.aten.sym_size.int(slice_1, 0)
        ge: "Sym(u1 >= 0)" = sym_size_int >= 0
        _assert_scalar_default_1 = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion failed for expression u1 >= 0 on node 'ge'");  ge = _assert_scalar_default_1 = None
        le_2: "Sym(u1 <= 12)" = sym_size_int <= 12;  sym_size_int = None
        _assert_scalar_default_2 = torch.ops.aten._assert_scalar.default(le_2, "Runtime assertion failed for expression u1 <= 12 on node 'le_2'");  le_2 = _assert_scalar_default_2 = None
        cos: "f32[u1]" = torch.ops.aten.cos.default(slice_1);  slice_1 = None
        mul: "f32[u1]" = torch.ops.aten.mul.Tensor(cos, 2);  cos = None
        nonzero: "i64[u2, 2]" = torch.ops.aten.nonzero.default(x);  x = None
        sym_size_int_1: "Sym(u2)" = torch.ops.aten.sym_size.int(nonzero, 0)
        ge_1: "Sym(u2 >= 0)" = sym_size_int_1 >= 0
        _assert_scalar_default_3 = torch.ops.aten._assert_scalar.default(ge_1, "Runtime assertion failed for expression u2 >= 0 on node 'ge_1'");  ge_1 = _assert_scalar_default_3 = None
        le_3: "Sym(u2 <= 12)" = sym_size_int_1 <= 12;  sym_size_int_1 = None
        _assert_scalar_default_4 = torch.ops.aten._assert_scalar.default(le_3, "Runtime assertion failed for expression u2 <= 12 on node 'le_3'");  le_3 = _assert_scalar_default_4 = None
        return (mul, nonzero)
