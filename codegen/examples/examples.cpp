#include "codegen/examples/examples.hpp"

namespace cdnajit::examples {

namespace {

// Global thread index (workgroup_id.x * 256 + workitem_id.x) and the guard idx < n.
struct Thread {
  Reg idx;
};

Thread global_index(Kernel& k) {
  Reg wg_base = k.sgpr("wg_base");
  k.s_lshl_b32(wg_base, k.workgroup_id(0), 8);
  Reg idx = k.vgpr("idx");
  k.v_add_u32(idx, wg_base, k.workitem_id(0));
  return {idx};
}

}  // namespace

void define_vector_add(Kernel& k) {
  k.set_workgroup_size(256);
  Reg a = k.load_arg(k.arg<const float*>("a"));
  Reg b = k.load_arg(k.arg<const float*>("b"));
  Reg out = k.load_arg(k.arg<float*>("out"));
  Reg n = k.load_arg(k.arg<uint32_t>("n"));
  Thread t = global_index(k);
  k.s_waitcnt(lgkmcnt(0));
  k.if_vcc([&] { k.v_cmp_gt_u32(vcc, n, t.idx); },
           [&] {
             Reg offset = k.vgpr("byte_offset");
             k.v_lshlrev_b32(offset, 2, t.idx);
             Reg va = k.vgpr("va"), vb = k.vgpr("vb"), sum = k.vgpr("sum");
             k.global_load_dword(va, offset, a);
             k.global_load_dword(vb, offset, b);
             k.s_waitcnt(vmcnt(0));
             k.v_add_f32(sum, va, vb);
             k.global_store_dword(offset, sum, out);
           });
  k.s_endpgm();
}

void define_bf16_dot(Kernel& k) {
  k.set_workgroup_size(256);
  Reg a = k.load_arg(k.arg<const bf16*>("a"));
  Reg b = k.load_arg(k.arg<const bf16*>("b"));
  Reg out = k.load_arg(k.arg<float*>("out"));
  Reg n = k.load_arg(k.arg<uint32_t>("n"));
  Thread t = global_index(k);
  k.s_waitcnt(lgkmcnt(0));
  k.if_vcc([&] { k.v_cmp_gt_u32(vcc, n, t.idx); },
           [&] {
             Reg in_off = k.vgpr("in_offset");   // 8 bf16 = 16 bytes per thread
             k.v_lshlrev_b32(in_off, 4, t.idx);
             Reg va = k.vgpr("a_pairs", 4), vb = k.vgpr("b_pairs", 4);
             k.global_load_dwordx4(va, in_off, a);
             k.global_load_dwordx4(vb, in_off, b);
             Reg acc = k.vgpr("acc");
             k.v_mov_b32(acc, 0);
             k.s_waitcnt(vmcnt(0));
             if (k.arch() == Arch::gfx950) {
               for (int p = 0; p < 4; ++p) k.v_dot2_f32_bf16(acc, va[p], vb[p], acc);
             } else {
               // bf16 → f32 is a 16-bit shift: low half by v_lshlrev, high half by masking.
               Reg alo = k.vgpr("a_lo"), ahi = k.vgpr("a_hi"), blo = k.vgpr("b_lo"), bhi = k.vgpr("b_hi");
               for (int p = 0; p < 4; ++p) {
                 k.v_lshlrev_b32(alo, 16, va[p]);
                 k.v_lshlrev_b32(blo, 16, vb[p]);
                 k.v_and_b32(ahi, int64_t(0xffff0000u), va[p]);
                 k.v_and_b32(bhi, int64_t(0xffff0000u), vb[p]);
                 k.v_fmac_f32(acc, alo, blo);
                 k.v_fmac_f32(acc, ahi, bhi);
               }
             }
             Reg out_off = k.vgpr("out_offset");
             k.v_lshlrev_b32(out_off, 2, t.idx);
             k.global_store_dword(out_off, acc, out);
           });
  k.s_endpgm();
}

bool define_builtin(Kernel& k, std::string_view name) {
  if (name == "vector_add") define_vector_add(k);
  else if (name == "bf16_dot") define_bf16_dot(k);
  else return false;
  return true;
}

}  // namespace cdnajit::examples
