// `cdnajit conv3d`: the implicit-GEMM conv3d seed job (codegen/conv3d_igemm_job.hpp) for one
// or both archs and dtypes, with the tunable configuration on the command line.
#include "tools/conv3d_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "codegen/conv3d_igemm_job.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit {

namespace {
int integer(const cli::Args& a, const std::string& flag, int fallback) {
  std::string v = a.get(flag, std::to_string(fallback));
  try {
    size_t used = 0;
    int x = std::stoi(v, &used);
    if (used == v.size()) return x;
  } catch (const std::exception&) {
  }
  throw Error(fmt::format("conv3d: {} '{}' is not an integer", flag, v));
}

// "AxB" or "AxBxC" -> numbers; `n` of them required.
std::vector<int> dims(const std::string& flag, const std::string& v, size_t n) {
  std::vector<int> out;
  size_t start = 0;
  while (start <= v.size()) {
    size_t x = v.find('x', start);
    std::string part = v.substr(start, x == std::string::npos ? std::string::npos : x - start);
    try {
      size_t used = 0;
      out.push_back(std::stoi(part, &used));
      if (used != part.size()) throw Error("");
    } catch (const std::exception&) {
      throw Error(fmt::format("conv3d: {} '{}' must be {} numbers joined by 'x'", flag, v, n));
    }
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (out.size() != n) throw Error(fmt::format("conv3d: {} '{}' must be {} numbers joined by 'x'", flag, v, n));
  return out;
}
}  // namespace

int run_conv3d_command(const cli::Args& a) {
  std::vector<Arch> arches;
  std::string as = a.get("--arch", "gfx950");
  if (as == "all") arches = {Arch::gfx942, Arch::gfx950};
  else if (auto arch = parse_arch(as)) arches = {*arch};
  else throw Error("conv3d: unknown --arch '" + as + "' (valid: gfx942, gfx950, all)");
  std::vector<codegen::Conv3dDType> dtypes;
  std::string ds = a.get("--dtype", "all");
  if (ds == "all") dtypes = {codegen::Conv3dDType::bf16, codegen::Conv3dDType::fp8};
  else dtypes = {codegen::parse_dtype(ds)};

  codegen::Conv3dJobOptions o;
  o.device = a.get("--device", "");
  o.hw = integer(a, "--hw", 40);
  if (a.has("--tile")) {
    auto t = dims("--tile", a.get("--tile", ""), 3);
    o.cfg.tile_m = t[0];
    o.cfg.tile_n = t[1];
    o.cfg.tile_k = t[2];
  }
  if (a.has("--waves")) {
    auto w = dims("--waves", a.get("--waves", ""), 2);
    o.cfg.waves_m = w[0];
    o.cfg.waves_n = w[1];
  }
  o.cfg.stages = integer(a, "--stages", o.cfg.stages);
  o.cfg.split_k = integer(a, "--split-k", o.cfg.split_k);
  std::string mp = a.get("--mapping", "m");
  if (mp == "m") o.cfg.mapping = codegen::Conv3dMapping::m_fastest;
  else if (mp == "n") o.cfg.mapping = codegen::Conv3dMapping::n_fastest;
  else throw Error("conv3d: --mapping '" + mp + "' (valid: m = M tiles fastest, n = N tiles fastest)");
  std::string prefix = a.get("--asm", "conv3d");

  bool ok = true;
  for (Arch arch : arches)
    for (codegen::Conv3dDType t : dtypes) {
      std::string path = fmt::format("{}_{}_{}.s", prefix, codegen::dtype_name(t), arch_name(arch));
      codegen::Conv3dJobResult r = codegen::run_conv3d_job(std::cout, arch, t, path, o);
      ok = ok && r.bit_exact;
      std::cout << "\n";
    }
  return ok ? 0 : 1;
}

}  // namespace cdnajit
