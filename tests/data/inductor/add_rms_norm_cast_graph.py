class GraphModule(torch.nn.Module):
    def forward(self, x1: "f16[4, 7168][7168, 1]cpu", x2: "f16[4, 7168][7168, 1]cpu", gamma: "f16[7168][1]cpu"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
        getitem: "f16[4, 7168][7168, 1]cpu" = npu_add_rms_norm[0]
        getitem_2: "f16[4, 7168][7168, 1]cpu" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        view: "f16[4, 7168][7168, 1]cpu" = torch.ops.aten.view.default(getitem, [-1, 7168])
        _to_copy: "f32[4, 7168][7168, 1]cpu" = torch.ops.aten._to_copy.default(view, dtype = torch.float32);  view = None
        return (getitem, getitem_2, _to_copy)
