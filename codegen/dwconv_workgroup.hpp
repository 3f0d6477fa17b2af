// The depthwise generators' workgroup decomposition, V97's order: workgroup = (n*C + c)*D_out + d_out.
// One workgroup computes one output plane (n, c, d_out); the VALU variants (dwconv3d.cpp) and the
// matrix-core variant (dwconv_mfma.cpp) both start from these scalar registers.
#pragma once
#include "codegen/dsl_emitter.hpp"
#include "codegen/dwconv3d_shape.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

struct DwWorkgroupPlane {
  Reg d_out;      // the output depth slice
  Reg in_nc_off;  // byte offset of input slice 0 of this (n, c): nc * D*H*W*2
  Reg out_plane;  // out + wg * H_out*W_out*2
  Reg weights;    // wt + c * taps*2: the channel's filter
};

// `out` and `wt` are the kernel-argument pointers (SGPR pairs, their s_load still in flight: the
// function waits for them after the arithmetic that does not need them).
inline DwWorkgroupPlane dw_workgroup_plane(Kernel& k, DslEmitter& e, const DwConvShape& s, Reg wg, Reg out, Reg wt) {
  DwWorkgroupPlane p;
  Reg nc = e.sdiv(wg, uint32_t(s.D_out()), "nc");
  p.d_out = e.smod(wg, nc, uint32_t(s.D_out()), "d_out");
  Reg n = e.sdiv(nc, uint32_t(s.C), "n");
  Reg c = e.smod(nc, n, uint32_t(s.C), "c");
  p.in_nc_off = e.smul_i32(nc, uint32_t(s.D) * s.H * s.W * 2, "in_nc_off");
  Reg out_off = e.smul_i32(wg, uint32_t(s.H_out()) * s.W_out() * 2, "out_off");
  Reg wt_off = e.smul_i32(c, uint32_t(s.taps()) * 2, "wt_off");
  k.s_waitcnt(lgkmcnt(0));  // the kernel-argument pointers
  p.out_plane = e.sptr_add(out, out_off, "out_plane");
  p.weights = e.sptr_add(wt, wt_off, "wt_c");
  return p;
}

}  // namespace cdnajit::codegen
