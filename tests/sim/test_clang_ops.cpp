// Instructions clang emits for small integer idioms (16-bit compares, gfx950
// v_bitop3_b16, SDWA sign-extending source selects, v_mad_i64_i32): each kernel
// is checked to really contain the instruction, then compared bit-for-bit with
// the same C++ expression evaluated on the host.
#include <catch2/catch.hpp>

#include <random>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

// The disassembly the simulator executes must contain `what`, or the test would not test it.
void require_emitted(Device& dev, const cdnajit::CodeObject& co, const std::string& kernel, const std::string& what) {
  std::string dis = dev.sim.disassemble(co, kernel);
  INFO(dis);
  REQUIRE(dis.find(what) != std::string::npos);
  REQUIRE(dis.find("<not implemented>") == std::string::npos);
}

template <class T>
std::vector<T> random_ints(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = T(g());
  return v;
}

}  // namespace

TEST_CASE("v_cmp_*_u16 / v_cmp_*_i16 in e32 and e64 forms", "[sim][kernels][int16]") {
  const char* src = R"(
extern "C" __global__ void cmp16(const unsigned short* a, const unsigned short* b, const short* c, const short* d, unsigned* o) {
  unsigned i = bid() * 64 + tid();
  unsigned short x = a[i] * 3u + 1u, y = b[i] * 5u;
  short p = c[i] * 7, q = d[i] - 3;
  unsigned r = 0;
  r |= (x < y) << 0;  r |= (x == y) << 1; r |= (x >= y) << 2;
  r |= (x != y) << 3; r |= (x > y) << 4;  r |= (x <= y) << 5;
  r |= (p < q) << 6;  r |= (p == q) << 7; r |= (p >= q) << 8;
  r |= (p != q) << 9; r |= (p > q) << 10; r |= (p <= q) << 11;
  r |= (p < (short)-5) << 12;
  r |= (x > (unsigned short)1000) << 13;
  o[i] = r;
})";
  const int n = 512;
  auto a = random_ints<uint16_t>(n, 11), b = random_ints<uint16_t>(n, 12);
  auto c = random_ints<int16_t>(n, 13), d = random_ints<int16_t>(n, 14);
  // Some equal pairs: y = 5 * b == x when b = x * 5^-1 (mod 2^16, 5^-1 = 52429); q = d - 3 == p when d = p + 3.
  for (int i = 0; i < n; i += 8) {
    b[i] = uint16_t(uint16_t(a[i] * 3u + 1u) * 52429u);
    d[i] = int16_t(c[i] * 7 + 3);
  }
  std::vector<uint32_t> want(n);
  for (int i = 0; i < n; ++i) {
    uint16_t x = uint16_t(a[i] * 3u + 1u), y = uint16_t(b[i] * 5u);
    int16_t p = int16_t(c[i] * 7), q = int16_t(d[i] - 3);
    uint32_t r = 0;
    r |= uint32_t(x < y) << 0;  r |= uint32_t(x == y) << 1; r |= uint32_t(x >= y) << 2;
    r |= uint32_t(x != y) << 3; r |= uint32_t(x > y) << 4;  r |= uint32_t(x <= y) << 5;
    r |= uint32_t(p < q) << 6;  r |= uint32_t(p == q) << 7; r |= uint32_t(p >= q) << 8;
    r |= uint32_t(p != q) << 9; r |= uint32_t(p > q) << 10; r |= uint32_t(p <= q) << 11;
    r |= uint32_t(p < int16_t(-5)) << 12;
    r |= uint32_t(x > uint16_t(1000)) << 13;
    want[i] = r;
  }
  int equal_u = 0, equal_i = 0;
  for (uint32_t r : want) { equal_u += (r >> 1) & 1; equal_i += (r >> 7) & 1; }
  REQUIRE(equal_u >= n / 8);  // the equality cases are exercised
  REQUIRE(equal_i >= n / 8);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    require_emitted(dev, co, "cmp16", "_u16_e32");
    require_emitted(dev, co, "cmp16", "_u16_e64");
    require_emitted(dev, co, "cmp16", "_i16_e64");
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dc = dev.upload(c, "c"), dd = dev.upload(d, "d");
    uint64_t dout = dev.upload(std::vector<uint32_t>(n), "o");
    dev.run(co, "cmp16", ArgPack().add(da).add(db).add(dc).add(dd).add(dout), dims1(n / 64, 64));
    REQUIRE(dev.download<uint32_t>(dout, n) == want);
  }
}

TEST_CASE("v_bitop3_b16 (gfx950): three-input 16-bit logic", "[sim][kernels][int16]") {
  const char* src = R"(
extern "C" __global__ void bop16(const unsigned short* a, const unsigned short* b, const unsigned short* c, unsigned short* o) {
  unsigned i = bid() * 64 + tid();
  unsigned short x = a[i], y = b[i], z = c[i];
  o[i] = (x & y) ^ (~x & z) ^ (y | z);
})";
  const int n = 256;
  auto a = random_ints<uint16_t>(n, 21), b = random_ints<uint16_t>(n, 22), c = random_ints<uint16_t>(n, 23);
  std::vector<uint16_t> want(n);
  for (int i = 0; i < n; ++i) want[i] = uint16_t((a[i] & b[i]) ^ (~a[i] & c[i]) ^ (b[i] | c[i]));
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    if (arch == Arch::gfx950) require_emitted(dev, co, "bop16", "v_bitop3_b16");
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dc = dev.upload(c, "c");
    uint64_t dout = dev.upload(std::vector<uint16_t>(n), "o");
    dev.run(co, "bop16", ArgPack().add(da).add(db).add(dc).add(dout), dims1(n / 64, 64));
    REQUIRE(dev.download<uint16_t>(dout, n) == want);
  }
}

TEST_CASE("SDWA sext() source selects: v_mul_i32_i24, v_sub_u32, v_cmp_lt_i32", "[sim][kernels][sdwa]") {
  const char* src = R"(
extern "C" __global__ void sdwa(const int* a, const int* b, int* o) {
  unsigned i = bid() * 64 + tid();
  int x = a[i], y = b[i];
  o[3 * i + 0] = (int)(signed char)(x >> 8) * (int)(short)(y >> 16);
  o[3 * i + 1] = ((int)(signed char)(y >> 24) < x) ? 5 : 9;
  o[3 * i + 2] = (int)(short)(y >> 16) - (int)(signed char)(x >> 16);
})";
  const int n = 512;
  auto a = random_ints<int32_t>(n, 31), b = random_ints<int32_t>(n, 32);
  // Small x values too, so the signed byte compare goes both ways.
  for (int i = 0; i < n; i += 2) a[i] = int32_t(a[i]) >> 24;
  std::vector<int32_t> want(3 * n);
  for (int i = 0; i < n; ++i) {
    int32_t x = a[i], y = b[i];
    want[3 * i + 0] = int32_t(int8_t(x >> 8)) * int32_t(int16_t(y >> 16));
    want[3 * i + 1] = (int32_t(int8_t(y >> 24)) < x) ? 5 : 9;
    want[3 * i + 2] = int32_t(int16_t(y >> 16)) - int32_t(int8_t(x >> 16));
  }
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    require_emitted(dev, co, "sdwa", "v_mul_i32_i24_sdwa");
    require_emitted(dev, co, "sdwa", "sext(");
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dout = dev.upload(std::vector<int32_t>(3 * n), "o");
    dev.run(co, "sdwa", ArgPack().add(da).add(db).add(dout), dims1(n / 64, 64));
    REQUIRE(dev.download<int32_t>(dout, 3 * n) == want);
  }
}

TEST_CASE("v_mad_i64_i32: signed 32x32 product plus a 64-bit addend", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void mad64(const int* a, const int* b, const long long* c, long long* o) {
  unsigned i = bid() * 64 + tid();
  o[i] = (long long)a[i] * b[i] + c[i];
})";
  const int n = 256;
  auto a = random_ints<int32_t>(n, 41), b = random_ints<int32_t>(n, 42);
  std::mt19937_64 g(43);
  std::vector<int64_t> c(n);
  for (auto& x : c) x = int64_t(g());
  a[0] = INT32_MIN; b[0] = INT32_MIN; c[0] = INT64_MAX;  // wraps around
  a[1] = -1; b[1] = 1; c[1] = 0;
  std::vector<int64_t> want(n);
  for (int i = 0; i < n; ++i) want[i] = int64_t(uint64_t(int64_t(a[i]) * b[i]) + uint64_t(c[i]));
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    require_emitted(dev, co, "mad64", "v_mad_i64_i32");
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dc = dev.upload(c, "c");
    uint64_t dout = dev.upload(std::vector<int64_t>(n), "o");
    dev.run(co, "mad64", ArgPack().add(da).add(db).add(dc).add(dout), dims1(n / 64, 64));
    REQUIRE(dev.download<int64_t>(dout, n) == want);
  }
}

TEST_CASE("clang's widened kernarg load past the last explicit argument (20-byte segment, s_load_dwordx4 at 8)", "[sim][kernels][kernarg]") {
  // clang-22 merges the loads of x, y and n (offsets 8, 12, 16 of a 20-byte kernarg segment, no
  // hidden arguments) into one s_load_dwordx4 at offset 8, which reads 4 bytes past the segment.
  // The hardware serves that from the runtime's kernarg buffer; the simulator pads the segment
  // (with zeros) so the kernel runs instead of stopping with an out-of-bounds kernarg load.
  const char* src = R"(
extern "C" __global__ void tail_args(unsigned* o, float x, float y, unsigned n) {
  if (tid() != 0) return;
  o[0] = __builtin_bit_cast(unsigned, x + y) + n;
})";
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    auto co = load_hip(src, arch);
    Device dev(arch);
    require_emitted(dev, co, "tail_args", "s_load_dwordx4");
    REQUIRE(co.find("tail_args")->kernarg_size == 20);
    uint64_t out = dev.upload(std::vector<uint32_t>(1));
    dev.run(co, "tail_args", ArgPack().add(out).add(1.5f).add(2.0f).add(7u), dims1(1, 64));
    CHECK(dev.download<uint32_t>(out, 1)[0] == bits(3.5f) + 7u);
  }
}
