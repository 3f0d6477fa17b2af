// Property test on random programs (fixed seed): after Auto, Verify finds nothing,
// no wait is redundant, and running Auto again changes nothing.
#include <catch2/catch.hpp>

#include "tests/test_support.hpp"

#include <cstdio>
#include <random>

#include "jit/isa/same_instruction.hpp"
#include "program_text.hpp"

using namespace cdnajit;
using passes::Mode;
using passes_test::findings_text;
using passes_test::program;
using passes_test::text;

namespace {

std::string v(int r) { return std::string("v").append(std::to_string(r)); }
std::string sg(int r) { return std::string("s").append(std::to_string(r)); }
std::string vp(int r) {
  return std::string("v[").append(std::to_string(r)).append(":").append(std::to_string(r + 1)).append("]");
}

std::vector<std::string> random_program(std::mt19937& rng, bool gfx950) {
  auto reg = [&](int n) { return static_cast<int>(rng() % n); };
  std::vector<std::string> lines;
  int labels = 0;
  const int n = 30 + reg(30);
  for (int k = 0; k < n; ++k) {
    switch (reg(gfx950 ? 15 : 14)) {
      case 0: lines.push_back("global_load_dword " + v(reg(16)) + ", " + vp(20 + 2 * reg(4)) + ", off"); break;
      case 1: lines.push_back("ds_read_b32 " + v(reg(16)) + ", " + v(reg(16))); break;
      case 2: lines.push_back("s_load_dword " + sg(4 + reg(8)) + ", s[0:1], " + std::to_string(4 * reg(8))); break;
      case 3: lines.push_back("v_add_f32_e32 " + v(reg(16)) + ", " + v(reg(16)) + ", " + v(reg(16))); break;
      case 4: lines.push_back("v_mov_b32_e32 " + v(reg(16)) + ", " + sg(4 + reg(8))); break;
      case 5: lines.push_back("global_store_dword " + vp(20 + 2 * reg(4)) + ", " + v(reg(16)) + ", off"); break;
      case 6: lines.push_back("v_readfirstlane_b32 " + sg(4 + reg(8)) + ", " + v(reg(16))); break;
      case 7:
        lines.push_back("buffer_load_dword " + v(reg(16)) + ", " + v(reg(16)) + ", s[8:11], " + sg(4 + reg(8)) +
                        " offen");
        break;
      case 8: lines.push_back("v_exp_f32_e32 " + v(reg(16)) + ", " + v(reg(16))); break;
      case 9: lines.push_back("v_mfma_f32_16x16x16_f16 v[40:43], " + vp(2 * reg(8)) + ", " + vp(2 * reg(8)) + ", v[40:43]"); break;
      case 10: lines.push_back("v_add_f32_e32 " + v(reg(16)) + ", " + v(40 + reg(4)) + ", " + v(reg(16))); break;
      case 11: lines.push_back("global_load_lds_dword " + vp(20 + 2 * reg(4)) + ", off"); break;
      case 12: {  // forward branch over a few instructions
        std::string l = std::string("L").append(std::to_string(labels++));
        lines.push_back("s_cbranch_scc0 " + l);
        lines.push_back("v_add_f32_e32 " + v(reg(16)) + ", " + v(reg(16)) + ", " + v(reg(16)));
        lines.push_back(l + ":");
        break;
      }
      case 13: {  // backward branch: a loop over the last instructions
        std::string l = std::string("B").append(std::to_string(labels++));
        size_t at = lines.size() - std::min<size_t>(lines.size(), 1 + reg(5));
        // Do not jump into the middle of a forward-branch shape.
        while (at > 0 && at < lines.size() && lines[at].back() == ':') --at;
        lines.insert(lines.begin() + static_cast<long>(at), l + ":");
        lines.push_back("s_cbranch_scc1 " + l);
        break;
      }
      case 14: lines.push_back("v_dot2_f32_bf16 " + v(reg(16)) + ", " + v(reg(16)) + ", " + v(reg(16)) + ", " + v(reg(16))); break;
    }
  }
  lines.push_back("s_endpgm");
  return lines;
}

}  // namespace

TEST_CASE("random programs: Auto output verifies, has no redundant wait, is a fixed point", "[passes][random]") {
  std::mt19937 rng(uint32_t(cdnajit::test::test_seed("passes random programs", 12345)));
  int waits = 0, states = 0;
  for (int iter = 0; iter < 150; ++iter) {
    Arch arch = iter % 2 ? Arch::gfx950 : Arch::gfx942;
    auto lines = random_program(rng, arch == Arch::gfx950);
    std::string src;
    for (const auto& l : lines) src += l + "\n";
    INFO(arch_name(arch) << " program:\n" << src);
    auto p = program(lines);
    waits += passes::run_waitcnt(p, arch, Mode::Auto).waits_inserted;
    states += passes::run_hazards(p, arch, Mode::Auto).wait_states_inserted;
    CHECK(findings_text(passes::run_waitcnt(p, arch, Mode::Verify).findings) == "");
    CHECK(findings_text(passes::run_hazards(p, arch, Mode::Verify).findings) == "");
    CHECK(findings_text(passes::find_redundant_waits(p, arch)) == "");
    auto again = p;
    auto w2 = passes::run_waitcnt(again, arch, Mode::Auto);
    auto h2 = passes::run_hazards(again, arch, Mode::Auto);
    CHECK(w2.waits_inserted == 0);
    CHECK(w2.waits_removed == 0);
    CHECK(h2.wait_states_inserted == 0);
    CHECK(text(again) == text(p));
  }
  std::printf("passes random programs: 150 programs, %d waits and %d wait states inserted by Auto\n", waits, states);
  CHECK(waits > 100);   // the generator does produce work for both passes
  CHECK(states > 100);
}

TEST_CASE("random programs: the passes give the same result when equal instructions share their analysis",
          "[passes][random][same]") {
  // The build hands the passes isa::first_same_instruction's list (jit/build.cpp): equal
  // instructions then share their register accesses and classes. Same programs, reports and
  // findings as without it; the list the passes hand back still points each entry at an equal
  // one at or before it, or is empty.
  std::mt19937 rng(uint32_t(cdnajit::test::test_seed("passes random programs, shared analysis", 777)));
  int kept = 0, shared = 0;
  const Mode modes[][2] = {{Mode::Auto, Mode::Auto}, {Mode::Verify, Mode::Auto}, {Mode::Verify, Mode::Verify},
                           {Mode::Off, Mode::Auto}, {Mode::Auto, Mode::Verify}};
  for (int iter = 0; iter < 100; ++iter) {
    Arch arch = iter % 2 ? Arch::gfx950 : Arch::gfx942;
    // Every instruction that is not a branch twice in a row, so that each program repeats some.
    std::vector<std::string> lines;
    for (const std::string& l : random_program(rng, arch == Arch::gfx950)) {
      lines.push_back(l);
      if (l.back() != ':' && l.rfind("s_cbranch", 0) != 0 && l != "s_endpgm") lines.push_back(l);
    }
    for (const auto& m : modes) {
      std::string src;
      for (const auto& l : lines) src += l + "\n";
      INFO(arch_name(arch) << " modes " << int(m[0]) << "/" << int(m[1]) << " program:\n" << src);
      auto plain = program(lines), with = program(lines);
      std::vector<uint32_t> first;
      isa::first_same_instruction(with, first);
      for (uint32_t i = 0; i < first.size(); ++i) shared += first[i] != i;
      passes::Report pw, ph, ww, wh;
      passes::run_waitcnt_and_hazards(plain, arch, m[0], m[1], pw, ph);
      passes::run_waitcnt_and_hazards(with, arch, m[0], m[1], ww, wh, passes::BarrierRelease::Lds, &first);
      CHECK(text(with) == text(plain));
      CHECK(findings_text(ww.findings) == findings_text(pw.findings));
      CHECK(findings_text(wh.findings) == findings_text(ph.findings));
      CHECK(ww.waits_inserted == pw.waits_inserted);
      CHECK(ww.waits_removed == pw.waits_removed);
      CHECK(wh.wait_states_inserted == ph.wait_states_inserted);
      if (first.empty()) continue;
      REQUIRE(first.size() == with.size());
      ++kept;
      for (uint32_t i = 0; i < first.size(); ++i) {
        CHECK(first[i] <= i);
        CHECK(isa::same_instruction(with[first[i]], with[i]));
      }
    }
  }
  CHECK(shared > 10000);  // the programs repeat instructions
  CHECK(kept > 200);     // and the list survives the passes in most runs
}
