// JIT generator of bf16 NCDHW depthwise conv3d kernels (groups = C, stride 1).
//
//   auto r = cdnajit::codegen::build_dwconv3d(shape, DwVariant::lds_dot2, Arch::gfx950);
//   // launch: grid = dwconv_geometry(shape, arch).grid_x workgroups of 256 threads,
//   // arguments (input, weight, output) as in kArgOrder.
//
// All variants share the V97 structure: one workgroup per (n, c, d_out); the
// workgroup zeroes an LDS tile [KD][H+2padH][even(W+2padW)] of bf16, copies the
// KD input slices into it (global -> LDS DMA with global_load_lds_dword when W
// and padW are even, otherwise global_load_ushort + ds_write_b16), converts the
// channel's weights into VGPRs, and then every thread computes two adjacent
// outputs (h, w), (h, w+1) per step from (KW+1)/2 ds_read_b32 per filter row.
#pragma once
#include <string>

#include "codegen/dwconv3d_shape.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

// Kernel symbol name of a generated kernel: "dwconv3d_<variant>" (dense mapping) or
// "dwconv3d_<variant>_<mapping>".
std::string dwconv3d_kernel_name(DwVariant v, DwMapping m = DwMapping::dense);

// Builds the kernel (regalloc + passes + assemble + link unless opts.link is false).
// The generator writes every s_waitcnt of its design itself; the default Auto
// wait pass keeps the needed ones and adds only what is missing.
// Throws cdnajit::Error for an invalid shape, an LDS tile over the arch's limit,
// or a variant the arch lacks (lds_dot2 on gfx942).
BuildResult build_dwconv3d(const DwConvShape& s, DwVariant v, Arch a, const BuildOptions& opts = {});
// The same with an explicit work mapping (DwMapping::wave_rows: the seed JIT kernels' one).
BuildResult build_dwconv3d(const DwConvShape& s, DwVariant v, Arch a, DwMapping m, const BuildOptions& opts = {});

// One-line summary of a build: VGPRs, SGPRs, LDS bytes, occupancy (min of the
// register and LDS limits), static instruction counts.
std::string format_build_stats(const BuildResult& r);

}  // namespace cdnajit::codegen
