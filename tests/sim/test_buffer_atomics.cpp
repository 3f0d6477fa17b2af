// Buffer atomics (runtime/sim/ops_atomic.cpp buf_atomic_ext) as clang-22 emits them from the
// __builtin_amdgcn_raw_ptr_buffer_atomic_* builtins, and hand-written structured (idxen) and
// no-return forms: contended addresses (results that do not depend on the order of the lanes:
// integer sums, min/max, the set of returned old values), lanes beyond num_records (the hardware
// skips the atomic and returns 0; Options::check_buffer_range reports it instead).
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

#include "tests/sim/ext_harness.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace exttest;

namespace {

const char* kSource = R"(
typedef __amdgpu_buffer_rsrc_t rsrc_t;
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
// p: 32 ints; dwords [0, nrec/4) are in range. Every lane adds 1 to dword t % 16 and keeps the old
// value; then adds t + 1 to dword 16 + t % 16 without using the result.
extern "C" __global__ void iadd(int* p, int nrec, int* old) {
  unsigned t = tid();
  rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(p, 0, nrec, 0x00020000);
  old[t] = __builtin_amdgcn_raw_ptr_buffer_atomic_add_i32(1, r, (t % 16) * 4, 0, 0);
  rsrc_t r2 = __builtin_amdgcn_make_buffer_rsrc(p + 16, 0, nrec, 0x00020000);
  (void)__builtin_amdgcn_raw_ptr_buffer_atomic_add_i32(int(t) + 1, r2, (t % 16) * 4, 0, 0);
}
// f: 8 floats (whole-number sums are exact in any order), h: 8 half pairs, d: 8 doubles.
extern "C" __global__ void fatom(float* f, half2* h, double* d, int nrec, float* fold) {
  unsigned t = tid();
  rsrc_t rf = __builtin_amdgcn_make_buffer_rsrc(f, 0, nrec, 0x00020000);
  fold[t] = __builtin_amdgcn_raw_ptr_buffer_atomic_fadd_f32(1.0f, rf, (t % 8) * 4, 0, 0);
  rsrc_t rh = __builtin_amdgcn_make_buffer_rsrc(h, 0, nrec, 0x00020000);
  half2 one = {(_Float16)1.0f, (_Float16)2.0f};
  (void)__builtin_amdgcn_raw_ptr_buffer_atomic_fadd_v2f16(one, rh, (t % 8) * 4, 0, 0);
  rsrc_t rd = __builtin_amdgcn_make_buffer_rsrc(d, 0, 2 * nrec, 0x00020000);
  (void)__builtin_amdgcn_raw_ptr_buffer_atomic_fmax_f64((double)t - 100.0, rd, (t % 4) * 8, 0, 0);
  (void)__builtin_amdgcn_raw_ptr_buffer_atomic_fmin_f64((double)t - 100.0, rd, 32 + (t % 4) * 8, 0, 0);
}
)";

// For each arch: kSource built, a fresh device, and `kernel`'s disassembly, handed to body(dev, co, dis).
// False, with the reason in `why`, when clang++-22 is missing (the caller skips).
template <class F>
bool on_each_arch(const char* kernel, std::string& why, F body) {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    auto co = simtest::load_hip_or_skip(kSource, arch, why);
    if (!co) return false;
    simtest::Device dev(arch);
    body(dev, *co, dev.sim.disassemble(*co, kernel));
  }
  return true;
}

}  // namespace

TEST_CASE("clang buffer atomics: contended integer adds, with and without return, straddling num_records",
          "[sim][buffer-atomics][clang]") {
  std::string why;
  const bool ran = on_each_arch("iadd", why, [](simtest::Device& dev, const cdnajit::CodeObject& co, const std::string& dis) {
    REQUIRE(dis.find("buffer_atomic_add v") != std::string::npos);
    REQUIRE(dis.find(" sc0") != std::string::npos);  // the returning form is there ...
    size_t nret = 0;
    for (size_t p = dis.find("buffer_atomic_add"); p != std::string::npos; p = dis.find("buffer_atomic_add", p + 1))
      nret += dis.substr(p, dis.find('\n', p) - p).find("sc0") == std::string::npos;
    REQUIRE(nret >= 1);  // ... and the one without

    for (int nrec : {40, 64, 0, 38}) {
      INFO("num_records " << nrec);
      std::vector<int> p(32);
      for (int i = 0; i < 32; ++i) p[i] = 1000 * i;
      uint64_t dp = dev.upload(p), dold = dev.upload(std::vector<int>(256, -1));
      dev.run(co, "iadd", simtest::ArgPack().add(dp).add(nrec).add(dold), simtest::dims1(1, 256));
      auto got = dev.download<int>(dp, 32), old = dev.download<int>(dold, 256);
      for (int i = 0; i < 16; ++i) {
        INFO("dword " << i);
        const bool in = 4 * i + 4 <= nrec;
        CHECK(got[i] == p[i] + (in ? 16 : 0));
        std::vector<int> olds;  // the 16 lanes of this dword
        for (int t = i; t < 256; t += 16) olds.push_back(old[t]);
        std::sort(olds.begin(), olds.end());
        for (int k = 0; k < 16; ++k) CHECK(olds[k] == (in ? p[i] + k : 0));
        int sum = 0;
        for (int t = i; t < 256; t += 16) sum += t + 1;
        CHECK(got[16 + i] == p[16 + i] + (in ? sum : 0));
      }
    }

    // The strict check reports the first out-of-range lane instead of skipping it.
    std::vector<int> p(32, 0);
    uint64_t dp = dev.upload(p), dold = dev.upload(std::vector<int>(256, -1));
    cdnajit::sim::Options strict;
    strict.check_buffer_range = true;
    CHECK_THROWS_WITH(dev.run(co, "iadd", simtest::ArgPack().add(dp).add(40).add(dold), simtest::dims1(1, 256), strict),
                      Catch::Contains("out-of-range buffer atomic"));
    CHECK_NOTHROW(dev.run(co, "iadd", simtest::ArgPack().add(dp).add(64).add(dold), simtest::dims1(1, 256), strict));
  });
  if (!ran) CDNAJIT_SKIP(why);
}

TEST_CASE("clang buffer atomics: f32 and packed f16 adds, f64 min/max", "[sim][buffer-atomics][clang]") {
  std::string why;
  const bool ran = on_each_arch("fatom", why, [](simtest::Device& dev, const cdnajit::CodeObject& co, const std::string& dis) {
    for (const char* m : {"buffer_atomic_add_f32", "buffer_atomic_pk_add_f16", "buffer_atomic_max_f64", "buffer_atomic_min_f64"})
      REQUIRE(dis.find(m) != std::string::npos);
    for (int nrec : {32, 20}) {
      INFO("num_records " << nrec);
      std::vector<float> f(8);
      std::vector<uint32_t> h(8);
      std::vector<double> d(8);
      for (int i = 0; i < 8; ++i) {
        f[i] = float(i) - 3.0f;
        h[i] = 0x3c00u | 0x4000u << 16;  // {1.0h, 2.0h}
        d[i] = i % 2 ? 1e6 : -1e6;
      }
      uint64_t df = dev.upload(f), dh = dev.upload(h), dd = dev.upload(d), dfold = dev.upload(std::vector<float>(256, -1));
      dev.run(co, "fatom", simtest::ArgPack().add(df).add(dh).add(dd).add(nrec).add(dfold), simtest::dims1(1, 256));
      auto gf = dev.download<float>(df, 8);
      auto gh = dev.download<uint32_t>(dh, 8);
      auto gd = dev.download<double>(dd, 8);
      auto fold = dev.download<float>(dfold, 256);
      for (int i = 0; i < 8; ++i) {
        INFO("element " << i);
        const bool in = 4 * i + 4 <= nrec;
        CHECK(gf[i] == f[i] + (in ? 32.0f : 0.0f));
        std::vector<float> olds;
        for (int t = i; t < 256; t += 8) olds.push_back(fold[t]);
        std::sort(olds.begin(), olds.end());
        for (int k = 0; k < 32; ++k) CHECK(olds[k] == (in ? f[i] + float(k) : 0.0f));
        // 32 adds of {1, 2} to {1, 2}: {33, 66} = 0x5020, 0x5420 in f16.
        CHECK(gh[i] == (in ? (0x5020u | 0x5420u << 16) : h[i]));
      }
      // f64 over 2 * nrec bytes: slot i in range iff 8 i + 8 <= 2 nrec. max over lanes t % 4 == i of t - 100
      // is (252 + i) - 100; min is i - 100.
      for (int i = 0; i < 8; ++i) {
        INFO("f64 slot " << i);
        const bool in = 8 * i + 8 <= 2 * nrec;
        const double want = i < 4 ? std::max(d[i], double(252 + i) - 100.0) : std::min(d[i], double(i - 4) - 100.0);
        CHECK(gd[i] == (in ? want : d[i]));
      }
    }
  });
  if (!ran) CDNAJIT_SKIP(why);
}

// Structured buffers: index from vaddr (idxen), stride 8 in V# word 1 [29:16], num_records counts records.
// s[12:15] = V# over the 64-slot `mem` of the harness.
TEST_CASE("structured buffer atomics: 64-bit umax without return, cmpswap_x2 with return, records past num_records",
          "[sim][buffer-atomics]") {
  std::mt19937_64 g(seed() + 91);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    std::vector<uint64_t> a(64), c(64), init(64);
    for (int l = 0; l < 64; ++l) {
      a[l] = g() >> (l % 3);
      init[l] = g() >> (l % 2 ? 1 : 0);
      c[l] = l % 3 ? init[l] : g();  // two lanes in three compare equal
    }
    const std::string vsharp = "  s_mov_b32 s12, s8\n  s_and_b32 s13, s9, 0xffff\n  s_or_b32 s13, s13, 0x80000\n"
                               "  s_mov_b32 s15, 0\n";
    // Two lanes per record (lane >> 1) from record 12: records 12..43, 40.. beyond num_records = 40.
    Run r = run(arch, vsharp + "  s_mov_b32 s14, 40\n  v_lshrrev_b32 v10, 1, v0\n  v_add_u32 v10, 12, v10\n"
                               "  v_mov_b32 v12, v2\n  v_mov_b32 v13, v3\n"
                               "  buffer_atomic_umax_x2 v[12:13], v10, s[12:15], 0 idxen\n  s_waitcnt vmcnt(0)\n"
                               "  v_mov_b32 v8, v12\n  v_mov_b32 v9, v13\n",
                a, a, c, init);
    for (int rec = 0; rec < 64; ++rec) {
      INFO("record " << rec);
      uint64_t want = init[rec];
      if (rec >= 12 && rec < 40) want = std::max({want, a[2 * (rec - 12)], a[2 * (rec - 12) + 1]});
      CHECK(r.mem[rec] == want);
    }
    for (int l = 0; l < 64; ++l) CHECK(r.out[l] == a[l]);  // no return: vdata keeps the data

    // One lane per record, num_records = 60: lanes 60..63 skip and return 0.
    r = run(arch, vsharp + "  s_mov_b32 s14, 60\n"
                           "  v_mov_b32 v12, v2\n  v_mov_b32 v13, v3\n  v_mov_b32 v14, v6\n  v_mov_b32 v15, v7\n"
                           "  buffer_atomic_cmpswap_x2 v[12:15], v0, s[12:15], 0 idxen sc0\n  s_waitcnt vmcnt(0)\n"
                           "  v_mov_b32 v8, v12\n  v_mov_b32 v9, v13\n",
            a, a, c, init);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      const bool in = l < 60;
      CHECK(r.mem[l] == (in && init[l] == c[l] ? a[l] : init[l]));
      CHECK(r.out[l] == (in ? init[l] : 0));
    }

    // Raw buffer, every lane on one dword: 32-bit signed min without return.
    r = run(arch, "  s_mov_b32 s12, s8\n  s_and_b32 s13, s9, 0xffff\n  s_mov_b32 s14, 8\n  s_mov_b32 s15, 0\n"
                  "  v_mov_b32 v10, 4\n  buffer_atomic_smin v2, v10, s[12:15], 0 offen\n  s_waitcnt vmcnt(0)\n",
            a, a, c, init);
    int32_t m = int32_t(uint32_t(init[0] >> 32));
    for (int l = 0; l < 64; ++l) m = std::min(m, int32_t(uint32_t(a[l])));
    CHECK(uint32_t(r.mem[0] >> 32) == uint32_t(m));
    CHECK(uint32_t(r.mem[0]) == uint32_t(init[0]));
  }
}

// gfx950 buffer_atomic_pk_add_bf16 (two bf16 adds per dword; exact sums only): every lane its own
// dword with return, then every lane on one dword without return.
TEST_CASE("gfx950 buffer_atomic_pk_add_bf16 with and without return", "[sim][buffer-atomics]") {
  std::vector<uint64_t> a(64, 0x3f803f00u), init(64, 0x40003f80u);  // data {0.5, 1.0}, memory {1.0, 2.0}
  init[63] = 0;
  const std::string vsharp = "  s_mov_b32 s12, s8\n  s_and_b32 s13, s9, 0xffff\n  s_mov_b32 s14, 504\n  s_mov_b32 s15, 0\n";
  // Lane l adds to the low dword of slot l (byte 8 l); num_records 504 leaves slot 63 out of range.
  Run r = run(Arch::gfx950, vsharp + "  v_mov_b32 v10, v2\n  buffer_atomic_pk_add_bf16 v10, v1, s[12:15], 0 offen sc0\n"
                                     "  s_waitcnt vmcnt(0)\n  v_mov_b32 v8, v10\n",
              a, a, a, init);
  for (int l = 0; l < 64; ++l) {
    INFO("lane " << l);
    CHECK(uint32_t(r.mem[l]) == (l < 63 ? 0x40403fc0u : 0u));  // {1.5, 3.0}; slot 63 untouched
    CHECK(uint32_t(r.out[l]) == (l < 63 ? 0x40003f80u : 0u));  // the old value, 0 beyond num_records
  }
  // All lanes on dword 0 ({0, 0}) adding {1.0, 1.0}: {64.0, 64.0} = 0x4280 each, in any order.
  r = run(Arch::gfx950, vsharp + "  v_mov_b32 v10, 0x3f803f80\n  v_mov_b32 v11, 0\n"
                                 "  buffer_atomic_pk_add_bf16 v10, v11, s[12:15], 0 offen\n  s_waitcnt vmcnt(0)\n  v_mov_b32 v8, v10\n",
          a, a, a, std::vector<uint64_t>(64, 0));
  CHECK(uint32_t(r.mem[0]) == 0x42804280u);
  CHECK(uint32_t(r.out[0]) == 0x3f803f80u);  // no return: vdata keeps the data
}
