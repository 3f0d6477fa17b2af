// jit::Interleave: streams placed in groups like sched_group_barrier, with
// dependencies respected, the wait-count pass adding the waits of the placed
// order, and clear errors for streams it cannot move.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sstream>
#include <string>
#include <vector>

#include "jit/interleave.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"

using namespace cdnajit;

namespace {

// The mnemonics of the .s body in order, without directives, labels and comments.
std::vector<std::string> mnemonics(const std::string& assembly) {
  std::vector<std::string> out;
  std::istringstream in(assembly);
  for (std::string line; std::getline(in, line);) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    std::string word = line.substr(b, line.find_first_of(" \t;", b) - b);
    if (word.empty() || word[0] == '.' || word[0] == ';' || word.back() == ':') continue;
    if (word.rfind("s_", 0) != 0 && word.rfind("v_", 0) != 0 && word.rfind("ds_", 0) != 0 &&
        word.rfind("global_", 0) != 0)
      continue;
    out.push_back(word);
  }
  return out;
}

// Streams and groups as a compact string: "AAABBBB..." with one letter per stream.
std::string letters(const std::vector<int>& streams) {
  std::string s;
  for (int x : streams) s += char('A' + x);
  return s;
}

// out[tid] = sum over i of (lds[tid + 64*i] * (i + 1)), i = 0..n-1, after each
// thread stores lds[tid + 64*i] = tid + 64*i as float. The reads are one
// stream, the multiply-adds another; `place` decides their order.
struct LdsSumKernel {
  static constexpr int kThreads = 64;
  int n = 6;
  BuildResult build(Arch arch, const std::function<void(Interleave&, int reads, int math)>& place,
                    std::vector<int>* placed = nullptr) const {
    Kernel k("lds_sum", arch);
    k.set_workgroup_size(kThreads);
    k.lds_alloc("buf", uint32_t(n * kThreads * 4));
    Reg out = k.load_arg(k.arg<float*>("out"));
    Reg tid = k.workitem_id(0);
    Reg addr = k.vgpr("addr");
    k.v_lshlrev_b32(addr, 2, tid);
    for (int i = 0; i < n; ++i) {
      Reg idx = k.vgpr("idx"), f = k.vgpr("f");
      k.v_add_u32(idx, i * kThreads, tid);
      k.v_cvt_f32_u32(f, idx);
      k.ds_write_b32(addr, f, Offset(i * kThreads * 4));
    }
    k.s_waitcnt(lgkmcnt(0));
    k.s_barrier();
    RegArray x = k.vgprs("x", {n});
    Reg acc = k.vgpr("acc");
    Interleave il(k);
    int reads = il.stream("reads", [&] {
      for (int i = 0; i < n; ++i) k.ds_read_b32(x.at({i}), addr, Offset(i * kThreads * 4));
    });
    int math = il.stream("math", [&] {
      k.v_mul_f32(acc, 1.0f, x.at({0}));
      for (int i = 1; i < n; ++i) k.v_fmac_f32(acc, float(i + 1), x.at({i}));
    });
    place(il, reads, math);
    if (placed) *placed = il.placed_streams();
    Reg off = k.vgpr("off");
    k.v_lshlrev_b32(off, 2, tid);
    k.s_waitcnt(lgkmcnt(0));
    k.global_store_dword(off, acc, out);
    k.s_endpgm();
    return k.build();
  }
  float expected(int t) const {
    float acc = 0;
    for (int i = 0; i < n; ++i) acc = i == 0 ? float(t) : std::fma(float(i + 1), float(t + 64 * i), acc);
    return acc;
  }
};

}  // namespace

TEST_CASE("groups are taken in pattern order, each stream in its own order", "[jit][interleave]") {
  LdsSumKernel ks;
  std::vector<int> placed;
  // x[i] is first needed by the i-th math instruction, so 2 reads then 2 math never waits for a later read.
  BuildResult r = ks.build(Arch::gfx950, [](Interleave& il, int reads, int math) {
    il.place({{reads, 2}, {math, 2}});
  }, &placed);
  CHECK(letters(placed) == "AABBAABBAABB");
  // In the .s: the compute region alternates 2 ds_read_b32 with 2 VALU, with the waits the pass derived.
  std::vector<std::string> m = mnemonics(r.assembly);
  std::string seq;
  for (const std::string& s : m)
    if (s == "ds_read_b32") seq += 'R';
    else if (s == "v_mul_f32" || s.rfind("v_fmac_f32", 0) == 0) seq += 'M';
    else if (s == "s_waitcnt" && !seq.empty()) seq += 'w';
  INFO(r.assembly);
  CHECK(seq.find("RRwMwMRRwMwMRRwMwM") != std::string::npos);
}

TEST_CASE("a group that needs a later read pulls it forward", "[jit][interleave]") {
  LdsSumKernel ks;
  std::vector<int> placed;
  // Math first: its first instruction needs x[0], so read 0 is placed before it (not counted
  // against the math group); the math group then needs x[1], x[2] as well. The read group
  // then takes x[3], x[4]; the last math group pulls x[5].
  ks.build(Arch::gfx942, [](Interleave& il, int reads, int math) { il.place({{math, 3}, {reads, 2}}); }, &placed);
  CHECK(letters(placed) == "ABABABAABBAB");
}

TEST_CASE("a prologue runs once before the pattern repeats", "[jit][interleave]") {
  LdsSumKernel ks;
  std::vector<int> placed;
  ks.build(Arch::gfx950, [](Interleave& il, int reads, int math) {
    il.place({{math, 1}, {reads, 1}}, {{reads, 2}});
  }, &placed);
  CHECK(letters(placed) == "AABABABABABB");
}

TEST_CASE("interleaved kernels compute what the stream order computes", "[jit][interleave][sim]") {
  LdsSumKernel ks;
  std::vector<std::function<void(Interleave&, int, int)>> schedules = {
      [](Interleave& il, int a, int b) { il.place({{a, 6}, {b, 6}}); },  // batched: all reads first
      [](Interleave& il, int a, int b) { il.place({{a, 2}, {b, 2}}); },
      [](Interleave& il, int a, int b) { il.place({{b, 1}, {a, 3}}); },
      [](Interleave& il, int a, int b) { il.place({{b, 1}, {a, 1}}, {{a, 3}}); },
  };
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    for (size_t i = 0; i < schedules.size(); ++i) {
      INFO(arch_name(arch) << " schedule " << i);
      BuildResult r = ks.build(arch, schedules[i]);
      Module m = dev->load(r.code_object);
      Buffer out = dev->alloc(64 * 4, "out");
      KernelArgs args;
      args.ptr(out);
      // The simulator's wait-count checker (on by default) throws on a read used before its wait.
      dev->launch(m.kernel("lds_sum"), Dim3{1, 1, 1}, Dim3{64, 1, 1}, 0, args);
      std::vector<float> got = dev->download<float>(out);
      int bad = 0;
      for (int t = 0; t < 64; ++t)
        if (got[size_t(t)] != ks.expected(t) && bad++ == 0)
          FAIL_CHECK("thread " << t << ": got " << got[size_t(t)] << ", want " << ks.expected(t));
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("scalar and special-register instructions keep their recorded order", "[jit][interleave]") {
  Kernel k("order", Arch::gfx950);
  Reg s0 = k.sgpr("s0"), s1 = k.sgpr("s1");
  Reg v0 = k.vgpr("v0"), v1 = k.vgpr("v1");
  k.v_mov_b32(v0, 5);
  Interleave il(k);
  // Independent registers, but SCC (implicit in SALU) and VCC (named) order them.
  int a = il.stream("a", [&] {
    k.s_add_u32(s0, 1, 2);      // writes SCC
    k.v_cmp_gt_u32(vcc, 1, v0); // writes VCC
  });
  int b = il.stream("b", [&] {
    k.s_addc_u32(s1, 3, 4);                  // reads SCC: after a's s_add
    k.v_cndmask_b32(v1, 0, 1, vcc);          // reads VCC: after a's v_cmp
  });
  il.place({{b, 1}, {a, 1}});
  CHECK(letters(il.placed_streams()) == "ABAB");
}

TEST_CASE("Interleave errors name the problem", "[jit][interleave][errors]") {
  Kernel k("errs", Arch::gfx942);
  Reg v = k.vgpr("v");
  SECTION("a wait inside a stream") {
    Interleave il(k);
    CHECK_THROWS_WITH(il.stream("s", [&] { k.s_waitcnt(lgkmcnt(0)); }), Catch::Contains("s_waitcnt") &&
                                                                           Catch::Contains("outside the streams"));
  }
  SECTION("a label inside a stream") {
    Interleave il(k);
    CHECK_THROWS_WITH(il.stream("s", [&] { k.bind(k.new_label("x")); }), Catch::Contains("label"));
  }
  SECTION("an instruction between streams") {
    Interleave il(k);
    il.stream("a", [&] { k.v_mov_b32(v, 1); });
    k.v_mov_b32(v, 2);
    CHECK_THROWS_WITH(il.stream("b", [&] { k.v_mov_b32(v, 3); }), Catch::Contains("back to back"));
  }
  SECTION("bad groups") {
    Interleave il(k);
    int a = il.stream("a", [&] { k.v_mov_b32(v, 1); });
    int b = il.stream("b", [&] { k.v_mov_b32(v, 2); });
    CHECK_THROWS_WITH(il.place({{5, 1}}), Catch::Contains("valid ids are 0..1"));
    CHECK_THROWS_WITH(il.place({{a, 0}}), Catch::Contains("at least 1"));
    CHECK_THROWS_WITH(il.place({}), Catch::Contains("empty"));
    CHECK_THROWS_WITH(il.place({{a, 1}}), Catch::Contains("never takes from stream(s) 'b'"));
    (void)b;
  }
  SECTION("place twice") {
    Interleave il(k);
    int a = il.stream("a", [&] { k.v_mov_b32(v, 1); });
    il.place({{a, 1}});
    CHECK_THROWS_WITH(il.place({{a, 1}}), Catch::Contains("twice"));
  }
}
