// Hand-written kernels shared by the asm tests, rendered through
// kernel_descriptor_emit so the tests exercise the builder's real header path.
#pragma once
#include <string>

#include "jit/codeobject/kernel_descriptor_emit.hpp"

namespace cdnajit::test {

// out[i] = in[i] * s for i < n, one work-item per element, workgroup 256.
// Uses 5 VGPRs, 12 numbered SGPRs (s[0:1] kernarg ptr, s2 workgroup id x).
inline KernelDescriptorSpec scale_spec(Arch arch) {
  KernelDescriptorSpec k;
  k.name = "scale_kernel";
  k.arch = arch;
  k.vgpr_count = 5;
  k.sgpr_count = 12;
  k.kernarg_size = 24;
  k.max_flat_workgroup_size = 256;
  k.reqd_workgroup_size = std::array<uint32_t, 3>{256, 1, 1};
  k.args = {
      {"in", 8, 0, ArgValueKind::GlobalBuffer, "global", true, ArgAccess::ReadOnly, "float*"},
      {"out", 8, 8, ArgValueKind::GlobalBuffer, "global", false, ArgAccess::WriteOnly, "float*"},
      {"s", 4, 16, ArgValueKind::ByValue, "", false, ArgAccess::Default, "float"},
      {"n", 4, 20, ArgValueKind::ByValue, "", false, ArgAccess::Default, "int"},
  };
  return k;
}

inline const char* scale_body() {
  return R"(	s_load_dwordx2 s[4:5], s[0:1], 0x10
	v_lshl_add_u32 v0, s2, 8, v0
	s_waitcnt lgkmcnt(0)
	v_cmp_gt_i32_e32 vcc, s5, v0
	s_and_saveexec_b64 s[2:3], vcc
	s_cbranch_execz .Lscale_done
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[2:3], s[8:9], 0, v[0:1]
	global_load_dword v4, v[2:3], off
	v_lshl_add_u64 v[0:1], s[10:11], 0, v[0:1]
	s_waitcnt vmcnt(0)
	v_mul_f32_e32 v4, s4, v4
	global_store_dword v[0:1], v4, off
.Lscale_done:
	s_endpgm
)";
}

inline std::string scale_kernel_text(Arch arch) { return render_kernel_file(scale_spec(arch), scale_body()); }

// The smallest complete kernel: just s_endpgm, with chosen resource counts so
// descriptor granules can be checked.
inline KernelDescriptorSpec minimal_spec(Arch arch) {
  KernelDescriptorSpec k;
  k.name = "minimal";
  k.arch = arch;
  k.vgpr_count = 37;   // 37 VGPRs -> 5 granules of 8 -> encoded 4
  k.agpr_count = 0;
  k.sgpr_count = 20;   // 20 + 6 reserved = 26 -> 4 granules of 8 -> encoded 3
  k.lds_bytes = 4096;
  k.kernarg_size = 16;
  k.workgroup_id_y = true;
  k.workitem_id_vgprs = 1;
  k.args = {{"p", 8, 0, ArgValueKind::GlobalBuffer, "global", false, ArgAccess::ReadWrite, "int*"},
            {"x", 4, 8, ArgValueKind::ByValue, "", false, ArgAccess::Default, "int"}};
  return k;
}

}  // namespace cdnajit::test
