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

// One wave; `body` leaves its results in s[4:13], stored as 10 dwords at the kernarg pointer's buffer.
std::string kernel(const std::string& body, Arch arch) {
  std::string text = "  s_load_dwordx2 s[2:3], s[0:1], 0x0\n  s_waitcnt lgkmcnt(0)\n" + body + "\n  v_mov_b32 v3, 0\n";
  for (int k = 0; k < 10; ++k)
    text += "  v_mov_b32 v2, s" + std::to_string(4 + k) + "\n  global_store_dword v3, v2, s[2:3] offset:" +
            std::to_string(4 * k) + "\n";
  std::string cpu(cdnajit::arch_name(arch));
  return ".amdgcn_target \"amdgcn-amd-amdhsa--" + cpu + "\"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n" + text +
         "  s_endpgm\n.size k, .-k\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
         "  .amdhsa_kernarg_size 8\n  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 24\n  .amdhsa_accum_offset 8\n"
         ".end_amdhsa_kernel\n";
}

std::vector<uint32_t> run(Device& dev, const std::string& body) {
  auto co = cdnajit::read_code_object(assemble(kernel(body, dev.arch), dev.arch));
  uint64_t out = dev.upload(std::vector<uint32_t>(10, 0xdeadbeefu), "out");
  std::vector<uint8_t> ka(8);
  std::memcpy(ka.data(), &out, 8);
  dev.sim.launch(co, "k", ka, dims1(1, 64));
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
    CHECK_THAT(m, Contains("still to do") && Contains("exception flags"));
    m = error_of(dev, "  s_getreg_b32 s4, hwreg(HW_REG_GPR_ALLOC)");
    CHECK_THAT(m, Contains("not modelled") && Contains("units"));
    m = error_of(dev, "  s_mov_b32 s4, 0\n  s_setreg_b32 hwreg(HW_REG_STATUS, 0, 1), s4");
    CHECK_THAT(m, Contains("s_setreg of hwreg(2, 0, 1) is not modelled"));
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
