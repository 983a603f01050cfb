class GraphModule(torch.nn.Module):
    def forward(self, a: "f16[1, 4, 7168]", b: "f16[1, 4, 7168]", g: "f16[7168]", c: "f16[1, 4, 4096]", d: "f16[1, 4, 4096]", h: "f16[4096]"):
        add: "f16[1, 4, 7168]" = torch.ops.aten.add.Tensor(a, b)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, g)
        getitem: "f16[1, 4, 7168]" = npu_rms_norm[0]
        add_1: "f16[1, 4, 4096]" = torch.ops.aten.add.Tensor(c, d)
        npu_rms_norm_1 = torch.ops.npu.npu_rms_norm.default(add_1, h)
        getitem_2: "f16[1, 4, 4096]" = npu_rms_norm_1[0]
        return (getitem, add, getitem_2, add_1)
