class f(torch.nn.Module):
    def forward(self, x_1: "f32[4, 4]", y_1: "f32[4, 4]", z_1: "f32[4, 4]"):
        # No stacktrace found for following nodes
        mul: "f32[4, 4]" = torch.ops.aten.mul.Tensor(x_1, y_1);  x_1 = y_1 = None
        slice_1: "f32[4, 4]" = torch.ops.aten.slice.Tensor(mul, 0, 0, 9223372036854775807);  mul = None
        add: "f32[4, 4]" = torch.ops.aten.add.Tensor(slice_1, z_1);  slice_1 = z_1 = None
        return add
