class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]"):
        relu: "f32[4]" = torch.ops.aten.relu.default(x)
        neg: "f32[4]" = torch.ops.aten.neg.default(x)
        sub = self.sub(relu)
        add: "f32[4]" = torch.ops.aten.add.Tensor(sub, x)
        return (add,)

    class sub(torch.nn.Module):
        def forward(self, a: "f32[4]", b: "f32[4]"):
            mul: "f32[4]" = torch.ops.aten.mul.Tensor(a, b)
            return mul
