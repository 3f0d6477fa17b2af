#include "codegen/examples/examples.hpp"

#include <functional>

namespace cdnajit::examples {

namespace {

// Both examples share one signature (two inputs, one output, n) and one shape:
// thread idx = workgroup_id.x * 256 + workitem_id.x, work only where idx < n.
struct Prologue {
  Reg a, b, out, n, idx;
};

template <class In>
Prologue prologue(Kernel& k) {
  k.set_workgroup_size(256);
  Prologue p;
  p.a = k.load_arg(k.arg<const In*>("a"));
  p.b = k.load_arg(k.arg<const In*>("b"));
  p.out = k.load_arg(k.arg<float*>("out"));
  p.n = k.load_arg(k.arg<uint32_t>("n"));
  Reg wg_base = k.sgpr("wg_base");
  k.s_lshl_b32(wg_base, k.workgroup_id(0), 8);
  p.idx = k.vgpr("idx");
  k.v_add_u32(p.idx, wg_base, k.workitem_id(0));
  k.s_waitcnt(lgkmcnt(0));
  return p;
}

void if_in_range(Kernel& k, const Prologue& p, const std::function<void()>& body) {
  k.if_vcc([&] { k.v_cmp_gt_u32(vcc, p.n, p.idx); }, body);
  k.s_endpgm();
}

}  // namespace

void define_vector_add(Kernel& k) {
  Prologue p = prologue<float>(k);
  if_in_range(k, p, [&] {
    Reg offset = k.vgpr("byte_offset");
    k.v_lshlrev_b32(offset, 2, p.idx);
    Reg va = k.vgpr("va"), vb = k.vgpr("vb"), sum = k.vgpr("sum");
    k.global_load_dword(va, offset, p.a);
    k.global_load_dword(vb, offset, p.b);
    k.s_waitcnt(vmcnt(0));
    k.v_add_f32(sum, va, vb);
    k.global_store_dword(offset, sum, p.out);
  });
}

void define_bf16_dot(Kernel& k) {
  Prologue p = prologue<bf16>(k);
  if_in_range(k, p, [&] {
    Reg in_off = k.vgpr("in_offset");  // 8 bf16 = 16 bytes per thread
    k.v_lshlrev_b32(in_off, 4, p.idx);
    Reg va = k.vgpr("a_pairs", 4), vb = k.vgpr("b_pairs", 4);
    k.global_load_dwordx4(va, in_off, p.a);
    k.global_load_dwordx4(vb, in_off, p.b);
    Reg acc = k.vgpr("acc");
    k.v_mov_b32(acc, 0);
    k.s_waitcnt(vmcnt(0));
    if (k.arch() == Arch::gfx950) {
      for (int i = 0; i < 4; ++i) k.v_dot2_f32_bf16(acc, va[i], vb[i], acc);
    } else {
      // bf16 → f32 is a 16-bit shift: low half by v_lshlrev, high half by masking.
      Reg alo = k.vgpr("a_lo"), ahi = k.vgpr("a_hi"), blo = k.vgpr("b_lo"), bhi = k.vgpr("b_hi");
      for (int i = 0; i < 4; ++i) {
        k.v_lshlrev_b32(alo, 16, va[i]);
        k.v_lshlrev_b32(blo, 16, vb[i]);
        k.v_and_b32(ahi, int64_t(0xffff0000u), va[i]);
        k.v_and_b32(bhi, int64_t(0xffff0000u), vb[i]);
        k.v_fmac_f32(acc, alo, blo);
        k.v_fmac_f32(acc, ahi, bhi);
      }
    }
    Reg out_off = k.vgpr("out_offset");
    k.v_lshlrev_b32(out_off, 2, p.idx);
    k.global_store_dword(out_off, acc, p.out);
  });
}

bool define_builtin(Kernel& k, std::string_view name) {
  if (name == "vector_add") define_vector_add(k);
  else if (name == "bf16_dot") define_bf16_dot(k);
  else return false;
  return true;
}

}  // namespace cdnajit::examples
