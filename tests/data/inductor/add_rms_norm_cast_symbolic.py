# TorchAir add_rms_norm + cast + view(-1, h) traced with dynamic shapes (make_fx, symbolic): h is sym_size_int(a_1, 1).
class GraphModule(torch.nn.Module):
    def forward(self, a_1: "f16[s0, s1]", b_1: "f16[s0, s1]", g_1: "f16[s1]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(a_1, b_1, g_1)
        getitem: "f16[s0, s1]" = npu_add_rms_norm[0]
        getitem_2: "f16[s0, s1]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        convert_element_type: "f32[s0, s1]" = torch.ops.prims.convert_element_type.default(getitem, torch.float32)
        sym_size_int: "Sym(s1)" = torch.ops.aten.sym_size.int(a_1, 1)
        view: "f32[s0, s1]" = torch.ops.aten.view.default(convert_element_type, [-1, sym_size_int])
        return (view, getitem_2)
