// Physical limits on real micro-kernels run by the simulator with the model:
// never faster than the product's peak; an N-way LDS conflict costs about N
// times the conflict-free access; the result does not depend on the number of
// host threads; recording does not change what the simulator computes.
#include <catch2/catch.hpp>

#include "runtime/model/launch_model.hpp"
#include "tools/model_micro_kernels.hpp"

using namespace cdnajit;

TEST_CASE("Physical limits: copy, MFMA and VALU loops are never modelled faster than the peak", "[model][limits]") {
  for (const char* name : {"mi300x", "mi355x"}) {
    const model::Hardware& hw = model::product(name);
    INFO(name);
    auto copy = model_micro::stream_copy(hw.arch, hw, 1024);
    const double bytes_per_s = copy.bytes / (copy.report.ms * 1e-3);
    CHECK(bytes_per_s <= hw.hbm_tbps * 1e12 * 1.0001);
    CHECK(bytes_per_s >= 0.5 * hw.hbm_tbps * 1e12);  // a plain copy should get close
    auto mf = model_micro::mfma_loop(hw.arch, hw, 512, 16);
    const double mpeak = hw.peak_mfma_flops(32 * 32 * 8 * 2, isa::mfma_passes(*isa::find("v_mfma_f32_32x32x8_bf16"), hw.arch));
    CHECK(mf.report.tflops * 1e12 <= mpeak * 1.0001);
    // Dense MFMA work runs at the product's dense-MFMA clock (Hardware::mfma_dense_clock_ghz), not the peak.
    CHECK(mf.report.tflops * 1e12 >= 0.5 * mpeak * hw.mfma_dense_clock_ghz / hw.peak_clock_ghz);
    CHECK(mf.report.clock_ghz < hw.clock_ghz);
    auto va = model_micro::valu_loop(hw.arch, hw, 2048, 32);  // ~7 workgroups per CU: start/end costs small
    CHECK(va.report.tflops * 1e12 <= hw.peak_valu_flops_f32() * 1.0001);
    CHECK(va.report.tflops * 1e12 >= 0.5 * hw.peak_valu_flops_f32());
  }
}

TEST_CASE("Physical limits: an N-way LDS bank conflict costs about N times stride 1", "[model][limits]") {
  const model::Hardware& hw = model::product("mi350x");
  // N-way as the LDS microbenchmark in runtime/model/hardware.cpp counts it: N lanes per bank
  // among the 16 lanes (64 bytes) an LDS half serves per cycle, i.e. a dword stride of 2N.
  // 2048 workgroups (8 per CU) of 16 iterations: long enough that the fixed start/end costs are small.
  auto lds_cycles_per_read = [](const model::ModelReport& r) {
    return r.cu.busy[size_t(model::Pipe::Lds)] / double(r.cu.lds_instructions);
  };
  const auto base = model_micro::lds_stride(hw.arch, hw, 2048, 1, 16).report;
  double previous_ms = 0;
  for (int n : {2, 4, 8, 16}) {
    INFO(n << "-way (dword stride " << 2 * n << ")");
    const auto r = model_micro::lds_stride(hw.arch, hw, 2048, 2 * n, 16).report;
    // The access itself: N times the conflict-free occupancy of the LDS.
    CHECK(lds_cycles_per_read(r) == Approx(n * lds_cycles_per_read(base)).epsilon(0.01));
    // The kernel: once the LDS is the limiter (from 4-way on; stride 1 waits on latency),
    // doubling the conflict degree about doubles the time.
    if (n >= 8) {
      CHECK(r.ms / previous_ms >= 1.8);
      CHECK(r.ms / previous_ms <= 2.2);
    }
    CHECK(r.ms >= base.ms);
    previous_ms = r.ms;
  }
}

TEST_CASE("Determinism: the same modelled result for 1 and 2 host threads", "[model][determinism]") {
  const model::Hardware& hw = model::product("mi355x");
  auto a = model_micro::lds_stride(hw.arch, hw, 512, 2, 4, 1);
  auto b = model_micro::lds_stride(hw.arch, hw, 512, 2, 4, 2);
  CHECK(a.report.cycles == b.report.cycles);
  CHECK(a.report.cu.stall == b.report.cu.stall);
  CHECK(a.report.cu.busy == b.report.cu.busy);
  auto c = model_micro::stream_copy(hw.arch, hw, 1024, 1);
  auto d = model_micro::stream_copy(hw.arch, hw, 1024, 2);
  CHECK(c.report.cycles == d.report.cycles);
  CHECK(c.report.global_bytes == d.report.global_bytes);
}

TEST_CASE("With recording on, the functional result stays bit-exact and every workgroup runs", "[model][record]") {
  // stream_copy checks its output bit-for-bit; the statistics must match a run without recording.
  const model::Hardware& hw = model::product("mi300x");
  auto m = model_micro::stream_copy(hw.arch, hw, 600, 2);
  CHECK(m.stats.workgroups == 600);
  CHECK(m.stats.wave_instructions > 0);
  CHECK(m.report.plan.record.size() == 2);  // 600 workgroups over 304 CUs: 2 on CU 0 (ids 0 and 304)
  CHECK(m.report.cu.issued > 0);
}
