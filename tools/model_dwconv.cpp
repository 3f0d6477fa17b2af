#include "tools/model_dwconv.hpp"

#include <algorithm>
#include <cstring>

#include "codegen/dwconv3d_shape.hpp"
#include "jit/isa/error.hpp"
#include "jit/codeobject/code_object.hpp"

namespace cdnajit::model_dwconv {
namespace {

std::vector<uint16_t> bf16_data(size_t n, uint64_t seed) {
  std::vector<uint16_t> v(n);
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& e : v) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    float f = float(int(x % 2001) - 1000) / 1000.0f;
    uint32_t u;
    std::memcpy(&u, &f, 4);
    e = uint16_t(u >> 16);
  }
  return v;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

SeedModel model_seed_kernel(const model::Hardware& hw, const std::vector<uint8_t>& code, const std::string& kname,
                            int channels, const model::ModelOptions& opt, int cost_runs) {
  const codegen::DwConvShape s = codegen::seed_shape();
  CodeObject co = read_code_object(code);
  const KernelInfo* ki = co.find(kname);
  if (!ki) throw Error("model: no kernel '" + kname + "' in the code object");
  sim::LaunchDims full;
  full.grid[0] = uint32_t(s.C * s.D_out());
  full.block[0] = 256;
  const model::LaunchPlan plan = model::plan_launch(*ki, co.arch, full, hw);
  // The V97-style kernels address their channel relative to the workgroup id, so a launch of
  // the first workgroups computes exactly what those workgroups compute in the full grid.
  const uint32_t needed = uint32_t(plan.record.back() + 1);
  const uint32_t per_channel = uint32_t(s.D_out());
  const int min_channels = int((needed + per_channel - 1) / per_channel);
  if (channels == 0) channels = min_channels;
  if (channels < min_channels || channels > s.C)
    throw Error("model: the seed model records workgroup " + std::to_string(needed - 1) + ", so it needs " +
                std::to_string(min_channels) + ".." + std::to_string(s.C) + " simulated channels, got " + std::to_string(channels));
  sim::Simulator sim(co.arch);
  const size_t in_n = size_t(s.input_elems()) / size_t(s.C) * size_t(channels);
  const size_t w_n = size_t(s.weight_elems()) / size_t(s.C) * size_t(channels);
  const size_t out_n = size_t(s.output_elems()) / size_t(s.C) * size_t(channels);
  auto x = bf16_data(in_n, 1), w = bf16_data(w_n, 1001);
  const uint64_t in = sim.memory().alloc(in_n * 2, "input"), wt = sim.memory().alloc(w_n * 2, "weight"),
                 out = sim.memory().alloc(out_n * 2, "output");
  sim.memory().write(in, x.data(), in_n * 2);
  sim.memory().write(wt, w.data(), w_n * 2);
  std::vector<uint8_t> ka(24);
  std::memcpy(ka.data(), &in, 8);
  std::memcpy(ka.data() + 8, &wt, 8);
  std::memcpy(ka.data() + 16, &out, 8);
  sim::LaunchDims part = full;
  part.grid[0] = uint32_t(channels) * per_channel;
  SeedModel m;
  m.simulated_workgroups = part.grid[0];
  sim::Recording rec;
  std::vector<double> plain_s, recorded_s;
  for (int run = 0; run < std::max(1, cost_runs); ++run) {
    if (cost_runs > 0) plain_s.push_back(sim.launch(co, kname, ka, part, {}).seconds);
    rec = model::recording_for(plan, hw);
    sim::Options so;
    so.recording = &rec;
    recorded_s.push_back(sim.launch(co, kname, ka, part, so).seconds);
  }
  m.sim_plain_seconds = median(plain_s);
  m.sim_seconds = median(recorded_s);
  model::ModelOptions mo = opt;
  if (mo.flops == 0) mo.flops = s.gflop() * 1e9;
  m.report = model::model_recording(rec, plan, hw, mo);
  m.report.sim_seconds = m.sim_seconds;
  m.recording = std::move(rec);
  m.plan = plan;
  return m;
}

}  // namespace cdnajit::model_dwconv
