class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]"):
        my_gelu = __main___my_gelu(x)
        add: "f32[4]" = torch.ops.aten.add.Tensor(my_gelu, x)
        return (add,)
