// Hardware registers other than MODE (runtime/sim/ops_hwreg.cpp): the STATUS bits that follow from the
// wave's state (SCC, EXECZ, VCCZ) and SH_MEM_BASES (the simulator's fixed apertures) against values
// worked out by hand, SH_MEM_BASES through clang's __builtin_amdgcn_s_getreg against the high dword of
// a generic pointer to LDS, and the Errors (with their reasons) for registers and bits the simulator
// cannot know.
#include <catch2/catch.hpp>

#include <cstring>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using Catch::Matchers::Contains;

namespace {

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

// The register and LDS directives of the kernel descriptor (the default unless a test sets its own).
const std::string kDefaultRegs = "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 24\n  .amdhsa_accum_offset 8\n";

// One wave; `body` leaves its results in s[4:13], stored as 10 dwords at the kernarg pointer's buffer.
std::string kernel(const std::string& body, Arch arch, const std::string& regs) {
  std::string text = "  s_load_dwordx2 s[2:3], s[0:1], 0x0\n  s_waitcnt lgkmcnt(0)\n" + body + "\n  v_mov_b32 v3, 0\n";
  for (int k = 0; k < 10; ++k)
    text += "  v_mov_b32 v2, s" + std::to_string(4 + k) + "\n  global_store_dword v3, v2, s[2:3] offset:" +
            std::to_string(4 * k) + "\n";
  std::string cpu(cdnajit::arch_name(arch));
  return ".amdgcn_target \"amdgcn-amd-amdhsa--" + cpu + "\"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n" + text +
         "  s_endpgm\n.size k, .-k\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
         "  .amdhsa_kernarg_size 8\n" + regs + ".end_amdhsa_kernel\n";
}

std::vector<uint32_t> run(Device& dev, const std::string& body, const std::string& regs = kDefaultRegs,
                          uint32_t dynamic_lds = 0) {
  auto co = cdnajit::read_code_object(assemble(kernel(body, dev.arch, regs), dev.arch));
  uint64_t out = dev.upload(std::vector<uint32_t>(10, 0xdeadbeefu), "out");
  std::vector<uint8_t> ka(8);
  std::memcpy(ka.data(), &out, 8);
  auto dims = dims1(1, 64);
  dims.dynamic_lds = dynamic_lds;
  dev.sim.launch(co, "k", ka, dims);
  return dev.download<uint32_t>(out, 10);
}

std::string error_of(Device& dev, const std::string& body) {
  try {
    run(dev, body);
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("s_getreg of STATUS.SCC/EXECZ/VCCZ and SH_MEM_BASES: hand-computed values", "[sim][hwreg]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    const auto r = run(dev,
        "  s_cmp_eq_u32 0, 0\n  s_mov_b64 vcc, 0\n"                 // SCC = 1, VCC = 0, EXEC = all lanes
        "  s_getreg_b32 s4, hwreg(HW_REG_STATUS, 0, 1)\n"           // SCC
        "  s_getreg_b32 s5, hwreg(HW_REG_STATUS, 9, 2)\n"           // EXECZ (bit 9) = 0, VCCZ (bit 10) = 1
        "  s_cmp_eq_u32 0, 1\n  s_mov_b32 vcc_lo, 0\n  s_mov_b32 vcc_hi, 0x100\n"  // SCC = 0, VCC non-zero in its high half
        "  s_getreg_b32 s6, hwreg(HW_REG_STATUS, 0, 1)\n"
        "  s_getreg_b32 s7, hwreg(HW_REG_STATUS, 9, 2)\n"
        "  s_mov_b64 s[14:15], exec\n  s_mov_b64 exec, 0\n"
        "  s_getreg_b32 s8, hwreg(HW_REG_STATUS, 9, 1)\n"           // EXECZ = 1
        "  s_mov_b64 exec, s[14:15]\n"
        "  s_getreg_b32 s9, hwreg(HW_REG_SH_MEM_BASES)\n"           // SHARED_BASE [31:16], PRIVATE_BASE [15:0]
        "  s_getreg_b32 s10, hwreg(HW_REG_SH_MEM_BASES, 16, 16)\n"
        "  s_mov_b64 s[16:17], src_shared_base\n  s_mov_b32 s11, s17\n"
        "  s_mov_b64 s[16:17], src_private_base\n  s_mov_b32 s12, s17\n"
        "  s_getreg_b32 s13, hwreg(HW_REG_STATUS, 0, 1)\n");          // SCC still 0 (s_getreg/s_mov keep it)
    CHECK(r[0] == 1);
    CHECK(r[1] == 2);
    CHECK(r[2] == 0);
    CHECK(r[3] == 0);
    CHECK(r[4] == 1);
    CHECK(r[5] == 0x00010002u);  // apertures 0x0001'0000'0000'0000 (shared) and 0x0002'0000'0000'0000 (private)
    CHECK(r[6] == 1);
    // LLVM forms an aperture's high dword as the SH_MEM_BASES field << 16: the same as src_*_base.
    CHECK(r[7] == (r[5] >> 16) << 16);
    CHECK(r[8] == (r[5] & 0xffff) << 16);
    CHECK(r[9] == 0);
  }
}

TEST_CASE("hardware registers the simulator cannot know are Errors that say why", "[sim][hwreg]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    std::string m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_STATUS)");
    CHECK_THAT(m, Contains("hwreg(2, 0, 32)") && Contains("cannot be known without hardware") &&
                      Contains("SCC (bit 0), EXECZ (bit 9) and VCCZ (bit 10)"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_HW_ID)");
    CHECK_THAT(m, Contains("cannot be known without hardware") && Contains("where the wave runs"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_XCC_ID)");
    CHECK_THAT(m, Contains("cannot be known without hardware") && Contains("where the wave runs"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_IB_STS)");
    CHECK_THAT(m, Contains("cannot be known without hardware") && Contains("outstanding"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_TBA_LO)");
    CHECK_THAT(m, Contains("set by the driver"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_TRAPSTS)");
    CHECK_THAT(m, Contains("cannot be known without hardware") && Contains("sticky IEEE flags") &&
                      Contains("per instruction"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_TRAPSTS, 0, 6)");  // EXCP's float flags alone
    CHECK_THAT(m, Contains("cannot be known without hardware") && Contains("before or after rounding"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_GPR_ALLOC)");
    CHECK_THAT(m, Contains("hwreg(5, 0, 32)") && Contains("cannot be known without hardware") &&
                      Contains("VGPR_BASE") && Contains("VGPR_SIZE (bits 6-11)"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_GPR_ALLOC, 0, 6)");  // VGPR_BASE alone
    CHECK_THAT(m, Contains("cannot be known without hardware") && Contains("VGPR_BASE"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_GPR_ALLOC, 24, 4)");  // bit 27: layout not published
    CHECK_THAT(m, Contains("hwreg(5, 24, 4)") && Contains("not published"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_LDS_ALLOC)");
    CHECK_THAT(m, Contains("cannot be known without hardware") && Contains("LDS_BASE") &&
                      Contains(arch == Arch::gfx950 ? "hwreg(HW_REG_LDS_ALLOC, 12, 11)" : "hwreg(HW_REG_LDS_ALLOC, 12, 9)"));
    m = error_of(dev, "  s_mov_b32 s4, 0\n  s_setreg_b32 hwreg(HW_REG_STATUS, 0, 1), s4");
    CHECK_THAT(m, Contains("s_setreg_b32 of hwreg(2, 0, 1) is not modelled"));
  }
}

TEST_CASE("clang's __builtin_amdgcn_s_getreg of SH_MEM_BASES matches a generic pointer to LDS", "[sim][hwreg][clang]") {
  const char* src = R"(
extern "C" __global__ void bases(unsigned* o) {
  __shared__ int lds[64];
  lds[tid()] = (int)tid();
  sync();
  volatile int* p = lds;  // a generic pointer: its high dword is the shared aperture
  if (tid() == 0) {
    o[0] = __builtin_amdgcn_s_getreg(15 | (16 << 6) | (15 << 11));  // hwreg(HW_REG_SH_MEM_BASES, 16, 16)
    o[1] = (unsigned)((unsigned long long)p >> 32);
    o[2] = __builtin_amdgcn_s_getreg(15 | (0 << 6) | (15 << 11));   // hwreg(HW_REG_SH_MEM_BASES, 0, 16)
    o[3] = (unsigned)p[5];
  }
}
)";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    REQUIRE(dev.sim.disassemble(co, "bases").find("s_getreg_b32") != std::string::npos);
    uint64_t o = dev.upload(std::vector<uint32_t>(4, 0xdeadbeefu), "o");
    dev.run(co, "bases", ArgPack().add(o), dims1(1, 64));
    auto r = dev.download<uint32_t>(o, 4);
    CHECK(r[0] == 1);
    CHECK(r[1] == r[0] << 16);  // LLVM's own rule: aperture high dword = SH_MEM_BASES field << 16
    CHECK(r[2] == 2);
    CHECK(r[3] == 5);
  }
}

// GPR_ALLOC / LDS_ALLOC size fields (runtime/sim/ops_hwreg.cpp has the sources of the layout and units),
// worked out by hand from the descriptor directives. LLVM adds the SGPRs it reserves (XNACK_MASK, at most
// 8 here with VCC off) to .amdhsa_next_free_sgpr; every expected SGPR_SIZE holds for any such addition.
TEST_CASE("s_getreg of the GPR_ALLOC and LDS_ALLOC size fields: hand-computed from the descriptor", "[sim][hwreg]") {
  const std::string body =
      "  s_getreg_b32 s4, hwreg(HW_REG_GPR_ALLOC, 6, 6)\n"    // VGPR_SIZE
      "  s_getreg_b32 s5, hwreg(HW_REG_GPR_ALLOC, 12, 6)\n"   // ACCV_OFFSET
      "  s_getreg_b32 s6, hwreg(HW_REG_GPR_ALLOC, 24, 3)\n"   // SGPR_SIZE
      "  s_getreg_b32 s7, hwreg(HW_REG_GPR_ALLOC, 6, 12)\n"   // VGPR_SIZE | ACCV_OFFSET << 6
      "  s_getreg_b32 s8, hwreg(HW_REG_LDS_ALLOC, 12, 9)\n"   // LDS_SIZE (its gfx942 width)
      "  s_getreg_b32 s9, hwreg(HW_REG_LDS_ALLOC, 13, 3)\n"   // bits 1-3 of LDS_SIZE
      "  s_mov_b32 s10, 0\n  s_mov_b32 s11, 0\n  s_mov_b32 s12, 0\n  s_mov_b32 s13, 0\n";
  for (Arch arch : kArchs) {
    const bool g950 = arch == Arch::gfx950;
    Device dev(arch);
    INFO(cdnajit::arch_name(arch));
    // 40 VGPRs, 12 of them architectural: VGPR_SIZE = 40 / 8 - 1 = 4, ACCV_OFFSET = 12 / 4 - 1 = 2. 40 SGPRs
    // (+ reserved, <= 48) = 3 blocks of 16: SGPR_SIZE = 2. LDS 1000 + 300 dynamic = 1300 bytes: gfx942
    // allocates 3 blocks of 512 = 6 units of 256, gfx950 2 blocks of 1280 = 10 units.
    auto r = run(dev, body,
                 "  .amdhsa_next_free_vgpr 40\n  .amdhsa_accum_offset 12\n  .amdhsa_next_free_sgpr 40\n"
                 "  .amdhsa_reserve_vcc 0\n  .amdhsa_group_segment_fixed_size 1000\n",
                 300);
    CHECK(r[0] == 4);
    CHECK(r[1] == 2);
    CHECK(r[2] == 2);
    CHECK(r[3] == (4u | 2u << 6));
    CHECK(r[4] == (g950 ? 10u : 6u));
    CHECK(r[5] == (g950 ? 5u : 3u));
    // 128 VGPRs, 64 architectural: 15 and 15. 96 SGPRs (+ reserved, <= 104) = 7 blocks: 6. No LDS: 0.
    r = run(dev, body,
            "  .amdhsa_next_free_vgpr 128\n  .amdhsa_accum_offset 64\n  .amdhsa_next_free_sgpr 96\n"
            "  .amdhsa_reserve_vcc 0\n");
    CHECK(r[0] == 15);
    CHECK(r[1] == 15);
    CHECK(r[2] == 6);
    CHECK(r[3] == (15u | 15u << 6));
    CHECK(r[4] == 0);
    // The default descriptor: 8 VGPRs, all architectural: 0 and 1; 24 SGPRs + VCC (+ reserved) = 2 blocks: 1.
    // LDS 1000 bytes only: gfx942 2 blocks of 512 = 4 units, gfx950 1 block of 1280 = 5 units.
    r = run(dev, body, kDefaultRegs + "  .amdhsa_group_segment_fixed_size 1000\n");
    CHECK(r[0] == 0);
    CHECK(r[1] == 1);
    CHECK(r[2] == 1);
    CHECK(r[4] == (g950 ? 5u : 4u));
    // The gfx950 LDS_SIZE is 11 bits wide: a 1280-byte block count above 511 units needs bits 21-22. 160 KiB
    // = 128 blocks of 1280 = 640 units (0x280). On gfx942 those bits are not part of LDS_SIZE: an Error.
    if (g950) {
      r = run(dev, "  s_getreg_b32 s4, hwreg(HW_REG_LDS_ALLOC, 12, 11)\n",
              kDefaultRegs + "  .amdhsa_group_segment_fixed_size 163840\n");
      CHECK(r[0] == 640);
    } else {
      CHECK_THAT(error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_LDS_ALLOC, 12, 11)"),
                 Contains("cannot be known without hardware") && Contains("hwreg(HW_REG_LDS_ALLOC, 12, 9)"));
    }
  }
}
