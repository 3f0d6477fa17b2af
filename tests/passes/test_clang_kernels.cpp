// Cross-check against clang: LLVM's SIInsertWaitcnts and GCNHazardRecognizer made
// these kernels correct, so Verify must find nothing in them (a finding is a bug in
// the passes), and Auto must rebuild equally safe code after every s_waitcnt and
// s_nop is stripped.
#include <catch2/catch.hpp>

#include "decoded_kernels.hpp"
#include "jit/passes/classify.hpp"
#include "jit/passes/passes.hpp"

using namespace cdnajit;
using passes::Mode;

namespace {

std::string kernels_file() { return std::string(CDNAJIT_PASSES_KERNELS) + "/passes_kernels.hip"; }

std::string list(const std::vector<passes::Finding>& fs) {
  std::string s;
  for (const auto& f : fs) s += "  [" + f.rule + "] #" + std::to_string(f.index) + ": " + f.message + "\n";
  return s;
}

const std::vector<passes_test::DecodedKernel>& kernels(Arch arch) {
  static std::vector<passes_test::DecodedKernel> k942 = passes_test::compile_and_decode(kernels_file(), Arch::gfx942);
  static std::vector<passes_test::DecodedKernel> k950 = passes_test::compile_and_decode(kernels_file(), Arch::gfx950);
  return arch == Arch::gfx942 ? k942 : k950;
}

}  // namespace

TEST_CASE("Verify accepts clang-compiled kernels", "[passes][clang]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    const auto& ks = kernels(arch);
    REQUIRE(ks.size() >= 6);
    for (const auto& k : ks) {
      INFO(arch_name(arch) << " kernel " << k.name << " (" << k.program.size() << " instructions)");
      auto prog = k.program;
      auto w = passes::run_waitcnt(prog, arch, Mode::Verify);
      CHECK(list(w.findings) == "");
      auto h = passes::run_hazards(prog, arch, Mode::Verify);
      CHECK(list(h.findings) == "");
      CHECK(prog.size() == k.program.size());  // Verify changes nothing
    }
  }
}

TEST_CASE("Auto rebuilds safe waits and nops for stripped clang kernels", "[passes][clang]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    int clang_waits = 0, our_waits = 0, clang_nop_states = 0, our_nop_states = 0;
    for (const auto& k : kernels(arch)) {
      INFO(arch_name(arch) << " kernel " << k.name);
      std::vector<isa::MachineInst> stripped;
      bool ended = false;  // clang pads the code after s_endpgm with s_nop 0
      for (const auto& mi : passes_test::to_label_form(k.program)) {
        if (passes::is_waitcnt(mi)) {
          ++clang_waits;
          continue;
        }
        if (passes::is_nop(mi)) {
          if (!ended) clang_nop_states += passes::wait_states_of(mi);
          continue;
        }
        ended = passes::branch_kind(mi) == passes::BranchKind::End;
        stripped.push_back(mi);
      }
      // Without its waits the kernel must be rejected wherever it used a load result.
      auto bare = stripped;
      bool used_loads = passes::run_waitcnt(bare, arch, Mode::Verify).findings.size() > 0;
      auto w = passes::run_waitcnt(stripped, arch, Mode::Auto);
      our_waits += w.waits_inserted;
      CHECK(used_loads == (w.waits_inserted > 0));
      auto bare_h = stripped;
      bool hazards_found = passes::run_hazards(bare_h, arch, Mode::Verify).findings.size() > 0;
      auto h = passes::run_hazards(stripped, arch, Mode::Auto);
      CHECK(hazards_found == (h.wait_states_inserted > 0));
      our_nop_states += h.wait_states_inserted;
      CHECK(list(passes::run_waitcnt(stripped, arch, Mode::Verify).findings) == "");
      CHECK(list(passes::run_hazards(stripped, arch, Mode::Verify).findings) == "");
      CHECK(list(passes::find_redundant_waits(stripped, arch)) == "");
    }
    INFO("s_waitcnt: clang " << clang_waits << ", Auto " << our_waits << "; s_nop wait states: clang "
                             << clang_nop_states << ", Auto " << our_nop_states);
    CHECK(our_waits > 0);
    CHECK(our_waits <= clang_waits);
    CHECK(our_nop_states > 0);
    CHECK(our_nop_states <= clang_nop_states);
  }
}
