// model::model_launch on a Device: one call gives the results and the modelled time.
#include <catch2/catch.hpp>

#include <numeric>

#include "codegen/examples/examples.hpp"
#include "runtime/model/model_device.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {
BuildResult vector_add(Arch arch) {
  Kernel k("vector_add", arch);
  examples::define_vector_add(k);
  return k.build();
}
}  // namespace

TEST_CASE("model_launch on a simulator device: bit-exact results and a labelled modelled time", "[model][device]") {
  auto dev = open_device("sim:gfx942");
  BuildResult b = vector_add(Arch::gfx942);
  DeviceKernel k = dev->load(b.code_object).kernel("vector_add");
  const uint32_t n = 4096;
  std::vector<float> a(n), c(n);
  std::iota(a.begin(), a.end(), 0.0f);
  std::iota(c.begin(), c.end(), 0.5f);
  Buffer ba = dev->upload(a, "a"), bc = dev->upload(c, "b"), out = dev->alloc(n * 4, "out");
  auto m = model::model_launch(*dev, k, {n / 256}, {256}, 0, KernelArgs().ptr(ba).ptr(bc).ptr(out).u32(n),
                               model::product("mi300x"));
  std::vector<float> got = dev->download<float>(out);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(got[i] == a[i] + c[i]);
  CHECK(m.report.model == "mi300x");
  CHECK(m.report.ms > 0);
  CHECK(m.report.plan.workgroups == n / 256);
  CHECK(m.launch.sim_stats.has_value());
  CHECK_THAT(model::format_report(m.report), Contains("modelled (model mi300x)"));
  // Recording was for that launch only.
  REQUIRE(sim_options(*dev) != nullptr);
  CHECK(sim_options(*dev)->recording == nullptr);
}

TEST_CASE("model_launch refuses another arch's product and leaves the device as it was", "[model][device]") {
  auto dev = open_device("sim:gfx942");
  BuildResult b = vector_add(Arch::gfx942);
  DeviceKernel k = dev->load(b.code_object).kernel("vector_add");
  Buffer buf = dev->alloc(256 * 4, "x");
  REQUIRE_THROWS_WITH(model::model_launch(*dev, k, {1}, {256}, 0, KernelArgs().ptr(buf).ptr(buf).ptr(buf).u32(256),
                                          model::product("mi355x")),
                      Contains("mi355x") && Contains("gfx950") && Contains("sim:gfx942"));
  CHECK(sim_options(*dev)->recording == nullptr);
}

namespace {
// A raw buffer resource (V#) over the 64-bit pointer `ptr`: words 0, 1 and 3; the caller sets word 2,
// num_records.
Reg raw_buffer_resource(Kernel& k, const char* name, Reg ptr) {
  Reg r = k.sgpr(name, 4, 4);
  k.s_mov_b32(r[0], ptr[0]);
  k.s_and_b32(r[1], int64_t(0xffff), ptr[1]);
  k.s_mov_b32(r[3], int64_t(0x00020000));  // raw access, as codegen's kRsrcWord3
  return r;
}

// Each of 256 lanes stores 16 bytes at 16 * lane through a raw buffer resource over `out` whose
// num_records is the kernel argument `bytes`.
BuildResult ranged_store(Arch arch) {
  Kernel k("ranged_store", arch);
  k.set_workgroup_size(256);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg bytes = k.load_arg(k.arg<uint32_t>("bytes"));
  Reg rsrc = raw_buffer_resource(k, "rsrc", out);
  k.s_mov_b32(rsrc[2], bytes);
  Reg off = k.vgpr("off"), data = k.vgpr("data", 4);
  k.v_lshlrev_b32(off, 4, k.workitem_id(0));
  for (int i = 0; i < 4; ++i) k.v_mov_b32(data[i], int64_t(7 + i));
  k.buffer_store_dwordx4(data, off, rsrc, 0, offen);
  return k.build();
}

// Each of 256 lanes loads 16 bytes at 16 * lane through a raw buffer resource over `in` whose
// num_records is the kernel argument `bytes`, and stores them to `out` (a whole-range resource).
BuildResult ranged_load(Arch arch) {
  Kernel k("ranged_load", arch);
  k.set_workgroup_size(256);
  Reg in = k.load_arg(k.arg<uint32_t*>("in"));
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg bytes = k.load_arg(k.arg<uint32_t>("bytes"));
  Reg src = raw_buffer_resource(k, "src", in), dst = raw_buffer_resource(k, "dst", out);
  k.s_mov_b32(src[2], bytes);
  k.s_mov_b32(dst[2], int64_t(256 * 16));
  Reg off = k.vgpr("off"), data = k.vgpr("data", 4);
  k.v_lshlrev_b32(off, 4, k.workitem_id(0));
  k.buffer_load_dwordx4(data, off, src, 0, offen);
  k.s_waitcnt(vmcnt(0));
  k.buffer_store_dwordx4(data, off, dst, 0, offen);
  return k.build();
}
}  // namespace

TEST_CASE("model_launch: a buffer load's lanes out of range return zero and read no memory",
          "[model][device][memory]") {
  // CDNA3 ISA guide, buffer range checking: an out-of-range load returns zero without reading
  // memory. The load still issues (one VMEM instruction per wave), but no line is read.
  auto dev = open_device("sim:gfx950");
  const BuildResult b = ranged_load(Arch::gfx950);
  DeviceKernel k = dev->load(b.code_object).kernel("ranged_load");
  const uint32_t size = 256 * 16;
  std::vector<uint32_t> input(size / 4);
  for (uint32_t i = 0; i < size / 4; ++i) input[i] = 100 + i;
  for (const uint32_t num_records : {size, size / 4, 0u}) {
    INFO("num_records " << num_records);
    Buffer in = dev->upload(input, "in");
    Buffer out = dev->upload(std::vector<uint32_t>(size / 4, 0xeeee), "out");
    auto m = model::model_launch(*dev, k, {1}, {256}, 0, KernelArgs().ptr(in).ptr(out).u32(num_records),
                                 model::product("mi355x"));
    const std::vector<uint32_t> got = dev->download<uint32_t>(out);
    for (uint32_t i = 0; i < size / 4; ++i) REQUIRE(got[i] == (i * 4 < num_records ? 100 + i : 0u));
    CHECK(m.report.traffic.l2_read_bytes == double(num_records));
    CHECK(m.report.traffic.hbm_read_bytes == double(num_records));
    CHECK(m.report.traffic.l2_write_bytes == double(size));
  }
}

TEST_CASE("model_launch: a buffer store's lanes out of range write nothing and cost no memory traffic",
          "[model][device][memory]") {
  // CDNA3 ISA guide, buffer range checking: an out-of-range store is dropped. The lanes still issue
  // (the instruction counts on vmcnt and takes its VMEM issue), but no line reaches the L2.
  auto dev = open_device("sim:gfx950");
  const BuildResult b = ranged_store(Arch::gfx950);
  DeviceKernel k = dev->load(b.code_object).kernel("ranged_store");
  const uint32_t size = 256 * 16;
  struct Case {
    uint32_t num_records;
    double l2_write_bytes;  // 128-byte lines the in-range lanes write
  };
  for (const Case c : {Case{size, size}, Case{size / 4, size / 4}, Case{0, 0}}) {
    INFO("num_records " << c.num_records);
    Buffer out = dev->upload(std::vector<uint32_t>(size / 4, 0xeeee), "out");
    auto m = model::model_launch(*dev, k, {1}, {256}, 0, KernelArgs().ptr(out).u32(c.num_records),
                                 model::product("mi355x"));
    const std::vector<uint32_t> got = dev->download<uint32_t>(out);
    for (uint32_t i = 0; i < size / 4; ++i) REQUIRE(got[i] == (i * 4 < c.num_records ? 7 + i % 4 : 0xeeeeu));
    CHECK(m.report.traffic.l2_write_bytes == c.l2_write_bytes);
    CHECK(m.report.traffic.hbm_write_bytes == c.l2_write_bytes);
    CHECK(m.report.cu.l2_bytes == c.l2_write_bytes);
    // the store still issues: one VMEM instruction per wave whatever its range
    bool vmem = false;
    for (const auto& [kind, n] : m.report.per_wave)
      if (kind == "VMEM") vmem = n == 1;
    CHECK(vmem);
  }
}
