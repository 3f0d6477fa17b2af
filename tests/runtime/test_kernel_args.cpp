// pack_kernargs: metadata-driven packing of explicit and hidden arguments.
#include <catch2/catch.hpp>

#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/kernel_args.hpp"

using namespace cdnajit;

namespace {

// The argument list clang emits for `k(float* out, int n, double s)`, with the
// code-object-v5 hidden arguments at their ABI offsets.
KernelInfo sample_kernel() {
  KernelInfo k;
  k.name = std::string("k");
  k.kernarg_size = 280;
  k.max_flat_workgroup_size = 1024;
  auto arg = [&](const char* name, uint32_t off, uint32_t size, const char* kind) {
    KernelArgInfo& a = k.args.emplace_back();
    a.name.assign(name);
    a.offset = off;
    a.size = size;
    a.value_kind.assign(kind);
    if (std::strcmp(kind, "global_buffer") == 0) a.address_space.assign("global");
  };
  arg("out", 0, 8, "global_buffer");
  arg("n", 8, 4, "by_value");
  arg("s", 16, 8, "by_value");
  const uint32_t h = 24;  // start of the hidden block
  arg("", h + 0, 4, "hidden_block_count_x");
  arg("", h + 4, 4, "hidden_block_count_y");
  arg("", h + 8, 4, "hidden_block_count_z");
  arg("", h + 12, 2, "hidden_group_size_x");
  arg("", h + 14, 2, "hidden_group_size_y");
  arg("", h + 16, 2, "hidden_group_size_z");
  arg("", h + 18, 2, "hidden_remainder_x");
  arg("", h + 20, 2, "hidden_remainder_y");
  arg("", h + 22, 2, "hidden_remainder_z");
  arg("", h + 40, 8, "hidden_global_offset_x");
  arg("", h + 64, 2, "hidden_grid_dims");
  arg("", h + 120, 4, "hidden_dynamic_lds_size");
  return k;
}

template <class T>
T at(const std::vector<uint8_t>& v, size_t off) {
  T x;
  std::memcpy(&x, v.data() + off, sizeof x);
  return x;
}

std::string error_of(const KernelInfo& k, const KernelArgs& a) {
  try {
    pack_kernargs(k, a, {2, 1, 1}, {64, 1, 1}, 0);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("pack_kernargs places explicit arguments at metadata offsets", "[runtime][kernargs]") {
  KernelInfo k = sample_kernel();
  Buffer out{0x1234500000ull, 1024, "out"};
  auto v = pack_kernargs(k, KernelArgs().ptr(out).i32(-7).f64(2.5), {3, 2, 1}, {64, 4, 1}, 512);
  REQUIRE(v.size() == 280);
  CHECK(at<uint64_t>(v, 0) == out.addr);
  CHECK(at<int32_t>(v, 8) == -7);
  CHECK(at<double>(v, 16) == 2.5);
  CHECK(at<uint32_t>(v, 12) == 0);  // padding stays zero
}

TEST_CASE("pack_kernargs fills the code object v5 hidden arguments from the launch", "[runtime][kernargs]") {
  KernelInfo k = sample_kernel();
  Buffer out{0x1000, 64, "out"};
  auto v = pack_kernargs(k, KernelArgs().ptr(out).i32(1).f64(0), {3, 2, 5}, {16, 4, 2}, 768);
  const size_t h = 24;
  CHECK(at<uint32_t>(v, h + 0) == 3);
  CHECK(at<uint32_t>(v, h + 4) == 2);
  CHECK(at<uint32_t>(v, h + 8) == 5);
  CHECK(at<uint16_t>(v, h + 12) == 16);
  CHECK(at<uint16_t>(v, h + 14) == 4);
  CHECK(at<uint16_t>(v, h + 16) == 2);
  CHECK(at<uint16_t>(v, h + 18) == 0);  // whole workgroups: no remainder
  CHECK(at<uint64_t>(v, h + 40) == 0);
  CHECK(at<uint16_t>(v, h + 64) == 3);
  CHECK(at<uint32_t>(v, h + 120) == 768);

  auto v1 = pack_kernargs(k, KernelArgs().ptr(out).i32(1).f64(0), {7, 1, 1}, {64, 1, 1}, 0);
  CHECK(at<uint16_t>(v1, h + 64) == 1);
  auto v2 = pack_kernargs(k, KernelArgs().ptr(out).i32(1).f64(0), {7, 2, 1}, {64, 1, 1}, 0);
  CHECK(at<uint16_t>(v2, h + 64) == 2);
}

TEST_CASE("pack_kernargs binds named arguments in any order", "[runtime][kernargs]") {
  KernelInfo k = sample_kernel();
  Buffer out{0xabc000, 64, "out"};
  auto v = pack_kernargs(k, KernelArgs().f64("s", -1.0).ptr("out", out).i32("n", 99), {1, 1, 1}, {64, 1, 1}, 0);
  CHECK(at<uint64_t>(v, 0) == out.addr);
  CHECK(at<int32_t>(v, 8) == 99);
  CHECK(at<double>(v, 16) == -1.0);
}

TEST_CASE("pack_kernargs rejects wrong kinds and sizes, naming the argument", "[runtime][kernargs]") {
  KernelInfo k = sample_kernel();
  Buffer out{0x1000, 64, "out"};

  std::string e = error_of(k, KernelArgs().ptr(out).f64(1.0).f64(2.0));  // n is 4 bytes
  CHECK_THAT(e, Catch::Contains("#1 'n' by_value 4 bytes") && Catch::Contains("expects a 4-byte value") &&
                    Catch::Contains("got f64 (8 bytes)"));

  e = error_of(k, KernelArgs().i32(5).i32(1).f64(2.0));  // pointer expected
  CHECK_THAT(e, Catch::Contains("#0 'out' global_buffer") && Catch::Contains("expects a pointer") &&
                    Catch::Contains("got i32"));

  e = error_of(k, KernelArgs().ptr(out).ptr(out).f64(2.0));  // value expected, buffer given
  CHECK_THAT(e, Catch::Contains("'n'") && Catch::Contains("got buffer 'out'"));
}

TEST_CASE("pack_kernargs reports missing, extra, unknown and duplicate arguments", "[runtime][kernargs]") {
  KernelInfo k = sample_kernel();
  Buffer out{0x1000, 64, "out"};
  CHECK_THAT(error_of(k, KernelArgs().ptr(out).i32(1)),
             Catch::Contains("#2 's' by_value 8 bytes was not given") && Catch::Contains("2 argument(s) given"));
  CHECK_THAT(error_of(k, KernelArgs().ptr(out).i32(1).f64(0).i32(4)),
             Catch::Contains("argument #3 (i32; numbered from 0) given, but the kernel takes only 3"));
  CHECK_THAT(error_of(k, KernelArgs().ptr(out).i32("count", 1).f64(0)), Catch::Contains("no argument named 'count'"));
  CHECK_THAT(error_of(k, KernelArgs().ptr(out).i32(1).i32("n", 2)), Catch::Contains("given twice"));
}

TEST_CASE("pack_kernargs validates launch dimensions", "[runtime][kernargs]") {
  KernelInfo k = sample_kernel();
  k.max_flat_workgroup_size = 256;
  Buffer out{0x1000, 64, "out"};
  KernelArgs a;
  a.ptr(out).i32(1).f64(0);
  CHECK_THROWS_WITH(pack_kernargs(k, a, {0, 1, 1}, {64, 1, 1}, 0), Catch::Contains("zero dimension"));
  CHECK_THROWS_WITH(pack_kernargs(k, a, {1, 1, 1}, {512, 1, 1}, 0),
                    Catch::Contains("512 work-items; valid is 1..256"));
}

TEST_CASE("Buffer::sub checks its range", "[runtime][kernargs]") {
  Buffer b{0x10000, 100, "b"};
  CHECK(b.sub(40).addr == 0x10000 + 40);
  CHECK(b.sub(40).bytes == 60);
  CHECK(b.sub(40, 10).bytes == 10);
  CHECK_THROWS_WITH(b.sub(90, 20), Catch::Contains("outside buffer 'b' of 100 bytes"));
}
