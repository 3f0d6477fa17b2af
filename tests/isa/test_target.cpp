// The target description (jit/isa/target.hpp): each architecture's TargetInfo agrees with
// the instruction table and with the s_waitcnt encoder it summarises.
#include <catch2/catch.hpp>

#include <algorithm>

#include "jit/isa/isa.hpp"
#include "jit/isa/target.hpp"
#include "jit/isa/waitcnt.hpp"

using namespace cdnajit;
namespace target = cdnajit::isa::target;

namespace {
bool on(const char* mnemonic, Arch a) {
  const isa::InstrInfo* info = isa::find(mnemonic);
  REQUIRE(info != nullptr);
  return info->on(a);
}
}  // namespace

TEST_CASE("TargetInfo's MFMA and dot availability is what the instruction table says", "[isa][target]") {
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(a));
    const target::TargetInfo& t = target::target_info(a);
    CHECK(t.arch == a);
    const auto rows = isa::table();
    CHECK(t.has_mfma == std::any_of(rows.begin(), rows.end(), [&](const isa::InstrInfo& i) {
            return i.unit == isa::Unit::MFMA && i.on(a);
          }));
    CHECK(t.has_scaled_mfma == on("v_mfma_scale_f32_16x16x128_f8f6f4", a));
    CHECK(t.has_double_k_mfma == on("v_mfma_f32_16x16x32_bf16", a));
    CHECK(t.has_dot2_f32_bf16 == on("v_dot2_f32_bf16", a));
  }
}

TEST_CASE("TargetInfo's waitcnt field helpers decode every s_waitcnt immediate as decode_waitcnt does",
          "[isa][target]") {
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    const target::WaitcntLayout& w = target::target_info(a).waitcnt;
    CHECK(w.max_vmcnt == isa::kMaxVmcnt);
    CHECK(w.max_lgkmcnt == isa::kMaxLgkmcnt);
    CHECK(w.max_expcnt == isa::kMaxExpcnt);
    CHECK(w.max_vmcnt == (1 << (w.vmcnt_lo_bits + w.vmcnt_hi_bits)) - 1);
    CHECK(w.max_lgkmcnt == (1 << w.lgkmcnt_bits) - 1);
  }
  int mismatches = 0;
  for (uint32_t imm = 0; imm <= 0xffff; ++imm) {
    const isa::WaitcntFields f = isa::decode_waitcnt(uint16_t(imm));
    if (target::waitcnt_vmcnt(imm) != f.vmcnt || target::waitcnt_lgkmcnt(imm) != f.lgkmcnt) ++mismatches;
  }
  CHECK(mismatches == 0);
  CHECK(target::waitcnt_vmcnt(isa::encode_waitcnt(37, -1, -1)) == 37);
  CHECK(target::waitcnt_lgkmcnt(isa::encode_waitcnt(-1, -1, 9)) == 9);
}

TEST_CASE("TargetInfo's LDS and register facts", "[isa][target]") {
  CHECK(target::lds_bytes(Arch::gfx942) == 64u * 1024u);
  CHECK(target::lds_bytes(Arch::gfx950) == 160u * 1024u);
  CHECK(target::kMaxLdsBytes == std::max(target::lds_bytes(Arch::gfx942), target::lds_bytes(Arch::gfx950)));
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    const target::TargetInfo& t = target::target_info(a);
    CHECK(t.lds_bytes % t.lds_block_bytes == 0);
    CHECK(t.unified_vector_regs == t.vgprs + t.agprs);
    CHECK(t.addressable_sgprs - t.reserved_sgprs == target::kAllocatableSgprs);
  }
  // GRANULATED_WORKITEM_VGPR_COUNT: 0 -> 8 registers, 63 -> 512 (the whole unified file).
  CHECK(target::descriptor_vector_regs(0) == 8);
  CHECK(target::descriptor_vector_regs(63) == 512);
  CHECK(target::descriptor_vector_regs(0xffffffc0u | 5) == 48);  // other rsrc1 fields ignored
}
