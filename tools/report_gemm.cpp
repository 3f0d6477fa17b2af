// report_gemm: the Markdown report of the MFMA GEMM family (codegen/gemm.cpp): for square bf16
// NT GEMMs of N = 1024..8192 on each modelled product, the modelled time and TFLOP/s of the
// best of a few candidate configurations, the share of the product's MFMA peak and the model's
// limiter, beside HipKittens' kernels modelled by the same model (tools/report_gemm.hipkittens.tsv,
// produced by tools/validation/hipkittens/run.sh) and HipKittens' published measurements; fp8 (E4M3)
// on gfx950 products; the MX-scaled GEMM (codegen/gemm_mx.hpp) at 4096 and 8192 beside fp8; where
// the time goes at 4096; plus the functional check (bit-exact vs the HIP reference, fp64 bound) of
// small sizes per arch and input type.
//
//   build/tools/report_gemm [--sizes 1024,2048,4096,8192] [--products mi325x,mi355x]
//                           [--hipkittens tools/report_gemm.hipkittens.tsv] [--out FILE.md]
//   build/tools/report_gemm --mx-only [--products ...]   # only the MX section (to stdout or --out)
//   build/tools/report_gemm --only square16384,hipblaslt,skinny,gluon   # only these sections (to stdout or --out)
//   build/tools/report_gemm --only square --sizes 4096 --products mi325x   # the square table's rows, the
//                           # standing lines and the 4096 "where" rows of those sizes and products (for splicing)
//
// Progress goes to stderr; the report to stdout or --out. Everything runs on the host CPU (the
// simulator and the timing model); no time in the report is a GPU measurement.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "tools/jobs/gemm_job.hpp"
#include "tools/jobs/gemm_mx_host.hpp"
#include "jit/isa/error.hpp"
#include "runtime/model/product_file.hpp"
#include "runtime/utc_time.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

struct Options {
  std::vector<int> sizes{1024, 2048, 4096, 8192};
  std::vector<std::string> products{"mi325x", "mi355x"};  // the products HipKittens published figures for
  std::string hipkittens = "tools/report_gemm.hipkittens.tsv";
  std::string out;
  bool mx_only = false;
  std::vector<std::string> only;  // --only: these sections alone (square, square16384, hipblaslt, skinny, gluon)
};

const std::vector<std::string> kOnlySections = {"square", "square16384", "hipblaslt", "skinny", "gluon"};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');) v.push_back(x);
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(fmt::format("report_gemm: {} needs a value", a));
      return argv[++i];
    };
    if (a == "--sizes") {
      o.sizes.clear();
      for (const std::string& x : split(value())) {
        char* end = nullptr;
        long v = std::strtol(x.c_str(), &end, 10);
        if (x.empty() || *end || v < 64 || v > 16384)
          throw Error(fmt::format("report_gemm: --sizes value '{}'; valid: integers 64..16384, comma-separated", x));
        o.sizes.push_back(int(v));
      }
    } else if (a == "--products") {
      o.products = split(value());
      for (const std::string& p : o.products) model::resolve_product(p);  // unknown names are errors before any work
    } else if (a == "--out") {
      o.out = value();
    } else if (a == "--hipkittens") {
      o.hipkittens = value();
    } else if (a == "--mx-only") {
      o.mx_only = true;
    } else if (a == "--only") {
      o.only = split(value());
      for (const std::string& x : o.only)
        if (std::find(kOnlySections.begin(), kOnlySections.end(), x) == kOnlySections.end())
          throw Error(fmt::format("report_gemm: --only section '{}'; valid: square (the square table's rows for "
                                  "--sizes and --products), square16384, hipblaslt, skinny, gluon "
                                  "(comma-separated)",
                                  x));
    } else {
      throw Error(fmt::format("report_gemm: unknown option '{}'; valid: --sizes N,N,..., --products P,P,..., "
                              "--hipkittens FILE.tsv, --out FILE.md, --mx-only, --only SECTION,...",
                              a));
    }
  }
  return o;
}

// HipKittens' published BF16 GEMM measurements (TFLOP/s, square N), quoted as their measurements.
double hipkittens_tflops(const std::string& product, int n) {
  static const int kN[] = {1024, 2048, 4096, 8192, 16384};
  static const double kMi355x[] = {139.5, 665.1, 1412.9, 1610.5, 1571.5};
  static const double kMi325x[] = {60.2, 298.3, 713.7, 749.4, 714.3};
  for (int i = 0; i < 5; ++i)
    if (kN[i] == n) {
      if (product == "mi355x") return kMi355x[i];
      if (product == "mi325x") return kMi325x[i];
    }
  return 0;
}

GemmConfig cfg(int tm, int tn, int tk, int wm, int wn, int stages, int group_m = 0, bool dma = false,
               bool pingpong = false, bool read_ahead = false) {
  GemmConfig c;
  c.tile_m = tm; c.tile_n = tn; c.tile_k = tk; c.waves_m = wm; c.waves_n = wn; c.stages = stages;
  c.group_m = group_m; c.lds_dma = dma; c.pingpong = pingpong; c.read_ahead = read_ahead;
  return c;
}

GemmConfig with_split(GemmConfig c, int split_k) {
  c.split_k = split_k;
  return c;
}

GemmConfig with_stream(GemmConfig c, int workgroups) {
  c.stream_k = workgroups;
  return c;
}

// Candidates per arch, input type and size: LDS (64 KiB on gfx942, 160 KiB on gfx950) and the
// unified register file (an 8-wave workgroup needs 2 waves per SIMD: VGPRs + AGPRs <= 256) decide
// what fits; 128-row tiles for N <= 2048 (where 256x256 tiles leave most CUs idle), 256-row tiles
// from 2048 on. "ra" is the read-ahead schedule (gemm.cpp, "Read-ahead"). gfx950 bf16: the
// register-staged 128x128 kernel with and without read-ahead, the DMA 128x128 read-ahead kernel
// (HipKittens' 2048 shape), and HipKittens' 4096 shape: 256x256 tiles with 128-byte K rows
// (tile_k 64), 8 waves, LDS DMA into XOR-swizzled rows, 2 stages, grouped XCD-contiguous order,
// read-ahead or the 8-wave ping-pong ("pp", codegen/pingpong_schedule.hpp); at 4096 also the
// lock-step DMA schedule for comparison. gfx950 fp8: the DMA kernels with 128-byte rows (tile_k 128),
// from 2048 on read-ahead or ping-pong. gfx942 (no 16-byte LDS DMA): one LDS stage
// (64 KiB), the next tile's loads flying into registers during the MFMAs: 128x128 with 128-byte rows
// (tile_k 64), at 1024 also 64x64 with 256-byte rows (tile_k 128: 256 workgroups), and 256x256 with
// 8 waves in the grouped order, with padded 64-byte rows (tile_k 32) and with unpadded XOR-swizzled
// 128-byte rows (tile_k 64, "xor", read in two K sub-tiles "ra/2" to keep two waves per SIMD), from
// 4096 on also 128x128 with XOR rows (32 KiB: two workgroups per CU), each with read-ahead; at 4096
// also without. gfx942's products have 304 CUs, which 256 tiles (4096^2 in 256x256, 2048^2 in
// 128x128) leave 48 idle; so also 224x256 with XOR rows at 4096 and 128x112 at 2048: 19 x 16 = 304
// tiles, one round of 7/8 the work per CU (7 MFMA blocks per wave along the 224 / 112 side).
std::vector<GemmConfig> candidates(Arch a, GemmDType t, int n) {
  std::vector<GemmConfig> c;
  const bool small = n <= 2048, large = n >= 2048;
  if (t != GemmDType::bf16) {
    if (small) c.push_back(cfg(128, 128, 128, 2, 2, 2, 8, true));
    if (small) c.push_back(cfg(128, 128, 128, 2, 4, 2, 8, true, false, true));
    if (large) c.push_back(cfg(256, 256, 128, 2, 4, 2, 8, true, false, true));
    if (large) c.push_back(cfg(256, 256, 128, 2, 4, 2, 8, true, true));
  } else if (a == Arch::gfx950) {
    if (small) c.push_back(cfg(128, 128, 64, 2, 2, 2));
    if (small) c.push_back(cfg(128, 128, 64, 2, 2, 1, 0, false, false, true));
    if (small) c.push_back(cfg(128, 128, 64, 2, 4, 2, 8, true, false, true));
    if (large) c.push_back(cfg(256, 256, 64, 2, 4, 2, 8, true, false, true));
    if (large) c.push_back(cfg(256, 256, 64, 2, 4, 2, 8, true, true));
    if (n == 4096) c.push_back(cfg(256, 256, 64, 2, 4, 2, 8, true));
  } else {
    if (small) c.push_back(cfg(128, 128, 64, 2, 2, 1));
    if (small) c.push_back(cfg(128, 128, 64, 2, 2, 1, 0, false, false, true));
    if (n <= 1024) c.push_back(cfg(64, 64, 128, 2, 2, 1, 0, false, false, true));
    if (large) c.push_back(cfg(256, 256, 32, 2, 4, 1, 8, false, false, true));
    if (large) {
      GemmConfig x = cfg(256, 256, 64, 2, 4, 1, 8, false, false, true);
      x.lds_xor = true;
      x.ra_split = 2;
      c.push_back(x);
    }
    if (n >= 4096) {  // 32 KiB unpadded: two workgroups per CU, so the tail round is a smaller share
      GemmConfig x = cfg(128, 128, 64, 2, 2, 1, 8, false, false, true);
      x.lds_xor = true;
      c.push_back(x);
    }
    if (n == 4096) c.push_back(cfg(256, 256, 32, 2, 4, 1, 8));
    // Tiles that fill the 304 CUs of the gfx942 products in one round (N / 256 or N / 128 tiles on
    // one side, 19 on the other): odd MFMA block counts per wave, the read-ahead's uneven quadrants
    if (n == 2048) c.push_back(cfg(128, 112, 64, 4, 1, 1, 0, false, false, true));
    if (n == 4096) {
      GemmConfig x = cfg(224, 256, 64, 2, 4, 1, 8, false, false, true);
      x.lds_xor = true;
      x.ra_split = 2;
      c.push_back(x);
    }
  }
  return c;
}

// HipKittens' kernels modelled by this project (id "<product>_bf16_<N>" -> TFLOP/s), '#' lines skipped.
std::map<std::string, double> read_hipkittens(const std::string& path) {
  std::map<std::string, double> m;
  std::ifstream f(path);
  if (!f) throw Error(fmt::format("report_gemm: cannot read '{}' (HipKittens' modelled figures; --hipkittens FILE)", path));
  for (std::string line; std::getline(f, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos)
      throw Error(fmt::format("report_gemm: {}: line '{}' is not 'id<TAB>TFLOP/s'", path, line));
    m[line.substr(0, tab)] = std::stod(line.substr(tab + 1));
  }
  return m;
}

double busy_share(const model::ModelReport& r, const char* unit) {
  for (auto& [n, v] : r.busy)
    if (n == unit) return v;
  return 0;
}

std::string top(const std::vector<std::pair<std::string, double>>& v, size_t n) {
  std::string s;
  for (size_t i = 0; i < std::min(n, v.size()); ++i) s += fmt::format("{}{} {:.0f}%", i ? "; " : "", v[i].first, 100 * v[i].second);
  return s;
}

struct Best {
  std::optional<GemmModelled> best;
  std::vector<GemmModelled> all;
  std::string others;
  double host = 0;
};

Best model_candidates(const model::Hardware& hw, const GemmShape& s, const std::vector<GemmConfig>& cands) {
  Best b;
  for (const GemmConfig& c : cands) {
    if (!b.others.empty()) b.others += "; ";
    try {
      std::cerr << fmt::format("model {} {} [{}] ...\n", hw.name, s.str(), c.str());
      GemmModelled m = model_gemm(hw, s, c);
      b.host += m.host_seconds;
      std::cerr << format_gemm_modelled(m);
      b.others += fmt::format("{}: {:.0f}", m.config, m.tflops());
      if (!b.best || m.ms() < b.best->ms()) b.best = m;
      b.all.push_back(m);
    } catch (const Error& e) {
      b.others += fmt::format("{}: invalid ({})", c.str(), e.what());
    }
  }
  return b;
}

// The MX-scaled GEMM at N = 4096 and 8192 on each gfx950 product: the candidates' modelled time
// beside the fp8 GEMM's best configuration (256x256x128, 8 waves, LDS DMA, read-ahead or ping-pong) modelled in
// the same run, both with bf16 output. MXFP4 with km scales (SA[k/32][m], a K tile's scales of
// consecutive rows contiguous; gemm_mx.hpp), LDS read-ahead pipeline: 8 waves with 64-byte K rows
// (tile_k 128: two k-steps at 8 waves need more than 128 VGPRs) and 4 waves with 128-byte rows,
// the latter also with persistent workgroups where each CU gets two tiles or more; MXFP8 with 8
// waves and 128-byte rows at 8192.
// The MX GEMM's LDS read-ahead configuration (grouped order, 8 tile rows per group).
GemmMxConfig mx(int tm, int tn, int tk, int wm, int wn) {
  GemmMxConfig c;
  c.tile_m = tm; c.tile_n = tn; c.tile_k = tk; c.waves_m = wm; c.waves_n = wn; c.group_m = 8; c.read_ahead = true;
  return c;
}

std::string mx_section(const Options& o) {
  std::string rows;
  for (const std::string& prod : o.products) {
    const model::Hardware& hw = model::resolve_product(prod);
    if (hw.arch != Arch::gfx950) continue;
    for (int n : {4096, 8192}) {
      GemmShape f8;
      f8.M = f8.N = f8.K = n;
      f8.dtype = GemmDType::e4m3;
      std::cerr << fmt::format("model {} {} (fp8 baseline) ...\n", prod, f8.str());
      // The faster of the fp8 table's two 256x256 schedules (read-ahead, ping-pong): the ratio is
      // against the best fp8 kernel this family has, not a fixed one.
      GemmModelled base = model_gemm(hw, f8, cfg(256, 256, 128, 2, 4, 2, 8, true, false, true));
      std::cerr << format_gemm_modelled(base);
      const GemmModelled pp = model_gemm(hw, f8, cfg(256, 256, 128, 2, 4, 2, 8, true, true, false));
      std::cerr << format_gemm_modelled(pp);
      if (pp.report.ms < base.report.ms) base = pp;
      struct Cand {
        MxFormat f;
        GemmMxConfig c;
      };
      std::vector<Cand> cands = {Cand{MxFormat::fp4, mx(256, 256, 128, 2, 4)}, Cand{MxFormat::fp4, mx(256, 256, 256, 2, 2)}};
      // Persistent workgroups (GemmMxConfig::persistent) where the grid has at least two 256x256
      // tiles per CU: a CU's tiles are one K pipeline, each tile's stores draining under the next
      // tile's MFMAs.
      const int tiles = (n / 256) * (n / 256), per_cu = (tiles + hw.cus - 1) / hw.cus;
      if (per_cu >= 2) {
        GemmMxConfig p = mx(256, 256, 256, 2, 2);
        p.persistent = per_cu;
        cands.push_back(Cand{MxFormat::fp4, p});
      }
      if (n == 8192) cands.push_back(Cand{MxFormat::fp8, mx(256, 256, 128, 2, 4)});
      for (const Cand& cd : cands) {
        GemmMxShape s;
        s.M = s.N = s.K = n;
        s.format = cd.f;
        s.output = GemmMxOutput::bf16;
        s.scales = GemmMxScaleLayout::km;
        std::cerr << fmt::format("model {} {} [{}] ...\n", prod, s.str(), cd.c.str());
        const auto t0 = std::chrono::steady_clock::now();
        const GemmMxModelled m = model_gemm_mx(hw, s, cd.c);
        const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cerr << m.describe() << "\n";
        const double ratio = m.tflops() / base.tflops();
        rows += fmt::format("| {} | {} | mx{} | {} | {:.4f} | {:.3f} | {:.1f} | {:.1f}% | {} | {} {:.1f} | {:.2f}x{} | {:.0f} |\n",
                            prod, n, mx_format_name(cd.f), m.config, m.report.ms, m.report.clock_ghz, m.tflops(),
                            100 * m.peak_share(), m.report.limiter, base.config, base.tflops(), ratio,
                            cd.f == MxFormat::fp4 && n == 8192 ? (ratio >= 2 ? " (target >= 2x: met)" : " (target >= 2x: not met)")
                                                               : "",
                            host);
      }
    }
  }
  if (rows.empty()) return "";
  return "\n## MX-scaled GEMM (MXFP4 / MXFP8 with E8M0 block scales) on gfx950, square N x N x N\n\n"
         "Modelled (model <product>, the first column), generated by `build/tools/report_gemm --mx-only` (this section "
         "only) or with the whole report. bf16 output, km scales (SA[k/32][m]: a K tile's scales of consecutive rows "
         "contiguous, codegen/gemm_mx.hpp), the LDS read-ahead pipeline (codegen/gemm_mx_lds.cpp; `pP`: persistent "
         "workgroups of P output tiles each, one K pipeline per workgroup); the fp8 column is "
         "the faster of the fp8 GEMM's two 256x256x128 schedules of the table above (read-ahead, ping-pong), modelled in the same run. Issue 31's target: MXFP4 at "
         "8192^3 at least twice the fp8 TFLOP/s. The % column is of the product's dense peak for the scaled MFMA as "
         "the ISA table's pass count for the format gives it (MXFP4 twice MXFP8).\n\n"
         "| product | N | format | config | modelled ms | modelled clock GHz | modelled TFLOP/s | % of MX peak | limiter "
         "(model) | fp8 config, modelled TFLOP/s | MX / fp8 | host s |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n" +
         rows;
}

double effective_gbs(const GemmShape& s, double ms) {
  const double bytes = 2.0 * (double(s.M) * s.K + double(s.K) * s.N + double(s.M) * s.N);  // bf16 A, B, C once
  return bytes / (ms * 1e6);
}

// bf16 at 16384^3 on the report's products (HipKittens published mi325x and mi355x there), the
// large-size candidates of the square table.
std::string square16384_section(const Options& o) {
  std::string rows;
  for (const std::string& prod : o.products) {
    const model::Hardware& hw = model::resolve_product(prod);
    GemmShape s;
    s.M = s.N = s.K = 16384;
    const Best b = model_candidates(hw, s, candidates(hw.arch, s.dtype, 16384));
    if (!b.best) continue;
    const GemmModelled& m = *b.best;
    const double hk = hipkittens_tflops(prod, 16384);
    rows += fmt::format("| {} | 16384 | {} | {:.4f} | {:.3f} | {:.1f} | {:.1f}% | {} | {} | {} | {} | {:.0f} |\n", prod,
                        m.config, m.ms(), m.report.clock_ghz, m.tflops(), 100 * m.peak_share(), m.report.limiter,
                        hk > 0 ? fmt::format("{:.1f}", hk) : "-", hk > 0 ? fmt::format("{:.2f}x", m.tflops() / hk) : "-",
                        b.others, b.host);
  }
  return "\n## bf16, square 16384 x 16384 x 16384\n\n"
         "Generated by `build/tools/report_gemm --only square16384` (or with the whole report). Every time, TFLOP/s "
         "and clock is modelled (model <product>, the first column) in the sampled mode (the simulator runs the "
         "workgroups of the replayed CU and the traced sample only); the HipKittens column is their published "
         "measurement (arXiv:2511.08083, as quoted in issue 31), not modelled. Candidates: the 8192 table's "
         "large-tile configurations.\n\n"
         "| product | N | best config | modelled ms | modelled clock GHz | modelled TFLOP/s | % of MFMA peak | limiter "
         "(model) | HipKittens measured TFLOP/s (published) | ours modelled / HipKittens measured | candidates "
         "(modelled TFLOP/s) | host s |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n" +
         rows;
}

// The products of the inference-shaped sections: the two hipBLASLt / inference targets of issue 31.
const std::vector<std::string> kInferenceProducts = {"mi300x", "mi355x"};

// hipBLASLt's published shape (M = 4096, N = 4864, K = 32896, bf16): the large-tile candidates,
// unsplit and with 2 K slices (K / 64 = 514 K tiles: 2 slices of 257; 4 slices do not divide).
// 4096 x 4864 is 16 x 19 = 304 tiles of 256 x 256: one tile per CU on mi300x (304 CUs), 1.19 waves
// of tiles on mi355x (256 CUs).
std::string hipblaslt_section() {
  std::string rows;
  for (const std::string& prod : kInferenceProducts) {
    const model::Hardware& hw = model::resolve_product(prod);
    GemmShape s;
    s.M = 4096;
    s.N = 4864;
    s.K = 32896;
    std::vector<GemmConfig> cands;
    // split-K 2 only where the 304 tiles leave CUs idle in their last wave (mi355x's 256 CUs)
    for (const GemmConfig& c : candidates(hw.arch, s.dtype, 8192))
      for (int sk : {1, 2})
        if (sk == 1 || hw.cus % 304 != 0) cands.push_back(with_split(c, sk));
    // register-staged 256 x 256 with K tile 32 (64 needs 148 VGPRs on gfx950: one wave per SIMD)
    cands.push_back(with_stream(cfg(256, 256, 32, 2, 4, hw.arch == Arch::gfx950 ? 2 : 1), hw.cus));
    const Best b = model_candidates(hw, s, cands);
    if (!b.best) continue;
    const GemmModelled& m = *b.best;
    const bool published = prod == "mi300x";
    rows += fmt::format("| {} | {} | {:.4f}{} | {:.3f} | {:.1f} | {:.1f}% | {} | {} | {} | {} | {:.0f} |\n", prod,
                        m.config, m.ms(),
                        m.reduce ? fmt::format(" ({:.4f} + {:.4f})", m.report.ms, m.reduce->ms) : "",
                        m.report.clock_ghz, m.tflops(), 100 * m.peak_share(), m.report.limiter,
                        published ? "708" : "-", published ? fmt::format("{:.2f}x", m.tflops() / 708.0) : "-",
                        b.others, b.host);
  }
  return "\n## bf16, hipBLASLt's shape M = 4096, N = 4864, K = 32896\n\n"
         "Generated by `build/tools/report_gemm --only hipblaslt` (or with the whole report). Every time, TFLOP/s "
         "and clock is modelled (model <product>, the first column). The published figure is hipBLASLt's 708 "
         "TFLOP/s BF16 on an MI300X GPU for this shape (a measurement, as quoted in issue 31); none is published "
         "here for MI355X. Candidates: the large-tile configurations of the square table, unsplit and (where the "
         "304 tiles leave CUs idle in their last wave) with split-K 2 (sk2: two launches, GEMM + reduction, times "
         "summed), and stream-K over the product's CUs on the "
         "register-staged 256 x 256 kernel (streamkG: G persistent workgroups, then the fix-up kernel, times "
         "summed). 4096 x 4864 is 16 x 19 = 304 tiles of 256 x 256: one per CU on mi300x (304 CUs), 1.19 waves of "
         "tiles on mi355x (256 CUs), the case stream-K is for.\n\n"
         "| product | best config | modelled ms (two launches: GEMM + second) | modelled clock GHz | modelled TFLOP/s | % of MFMA peak | limiter "
         "(model, GEMM kernel) | hipBLASLt measured TFLOP/s (published) | ours modelled / hipBLASLt measured | "
         "candidates (modelled TFLOP/s) | host s |\n|---|---|---|---|---|---|---|---|---|---|---|\n" +
         rows;
}

// AMD's Gluon (Triton) GEMM tutorial's published MI355X measurements: ROCm/gfx950-gluon-tutorials
// @ c9d501b8df05, kernels/gemm/README.md, section "1. Performance Summary" (single MI355X, rocprof,
// 1000 dispatches, last-100 average), the faster of its 4-wave and 8-wave kernels per data type.
// Their kernels are Python (Triton / Gluon) and do not compile with clang-22, so they are not
// modelled: ours modelled beside theirs measured. Our candidates: the square table's large bf16
// configurations, the fp8 table's for BF8 (E5M2), the MX table's two 256 x 256 read-ahead ones
// (4096^2 is 256 tiles: one per CU, so persistent workgroups do not apply).
std::string gluon_section() {
  const model::Hardware& hw = model::resolve_product("mi355x");
  struct Published {
    int k;
    GemmDType dtype;
    double tflops;
    const char* kernel;
  };
  std::string rows;
  for (const Published& pub : {Published{8192, GemmDType::bf16, 1534, "8-wave inter_wave/a16w16 v1"},
                               Published{16384, GemmDType::e5m2, 3232, "4-wave intra_wave/a8w8"}}) {
    GemmShape s;
    s.M = s.N = 4096;
    s.K = pub.k;
    s.dtype = pub.dtype;
    const Best b = model_candidates(hw, s, candidates(hw.arch, s.dtype, 8192));
    if (!b.best) continue;
    const GemmModelled& m = *b.best;
    rows += fmt::format("| {} | {} | {:.4f} | {:.3f} | {:.1f} | {:.1f}% | {} | {:.0f} ({}) | {:.2f}x | {} | {:.0f} |\n",
                        s.str(), m.config, m.ms(), m.report.clock_ghz, m.tflops(), 100 * m.peak_share(),
                        m.report.limiter, pub.tflops, pub.kernel, m.tflops() / pub.tflops, b.others, b.host);
  }
  GemmMxShape s;
  s.M = s.N = 4096;
  s.K = 32768;
  s.format = MxFormat::fp4;
  s.output = GemmMxOutput::bf16;
  s.scales = GemmMxScaleLayout::km;
  std::optional<GemmMxModelled> best;
  std::string others;
  double host = 0;
  for (const GemmMxConfig& c : {mx(256, 256, 128, 2, 4), mx(256, 256, 256, 2, 2)}) {
    std::cerr << fmt::format("model {} {} [{}] ...\n", hw.name, s.str(), c.str());
    const auto t0 = std::chrono::steady_clock::now();
    const GemmMxModelled m = model_gemm_mx(hw, s, c);
    host += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << m.describe() << "\n";
    others += fmt::format("{}{}: {:.0f}", others.empty() ? "" : "; ", m.config, m.tflops());
    if (!best || m.report.ms < best->report.ms) best = m;
  }
  const double pub_mx = 5189;
  rows += fmt::format("| {} | {} | {:.4f} | {:.3f} | {:.1f} | {:.1f}% | {} | {:.0f} ({}) | {:.2f}x | {} | {:.0f} |\n",
                      best->shape, best->config, best->report.ms, best->report.clock_ghz, best->tflops(),
                      100 * best->peak_share(), best->report.limiter, pub_mx, "4-wave intra_wave/a4w4 v1",
                      best->tflops() / pub_mx, others, host);
  return "\n## Beside Triton: AMD's Gluon GEMM tutorial on MI355X\n\n"
         "Generated by `build/tools/report_gemm --only gluon` (or with the whole report). Ours: modelled (model "
         "mi355x), kernel time, bf16 output (MXFP4: km scales). Theirs: AMD's published measurements of its Gluon "
         "(Triton) kernels on one MI355X, ROCm/gfx950-gluon-tutorials @ c9d501b8df05, kernels/gemm/README.md, "
         "\"1. Performance Summary\" (the faster of its 4-wave and 8-wave kernels for each data type; the same "
         "page notes that its numbers vary run to run with the GPU clock and that its BF16 runs measured ~6% above "
         "FP16 on that build; AMD's blog post on the tutorial quotes 1489 (FP16), 3257 (BF8) and 5255 (MXFP4) for "
         "an earlier build). Their kernels are Python (Triton / Gluon), which clang-22 does not compile, so they "
         "are not modelled here: the ratio column is ours modelled over theirs measured, and the model's error "
         "(tools/report_model.md) applies to it.\n\n"
         "| shape | best config | modelled ms | modelled clock GHz | modelled TFLOP/s | % of MFMA peak | limiter (model) "
         "| Gluon measured TFLOP/s (published; kernel) | ours modelled / Gluon measured | candidates (modelled "
         "TFLOP/s) | host s |\n|---|---|---|---|---|---|---|---|---|---|---|\n" +
         rows;
}

// Skinny (inference) candidates for M rows: a tile of min(M, 64) rows (the 16x16 MFMA block needs
// tile_m a multiple of 16 per wave along M) and 64 or 128 columns, and from M = 128 on the 128 x 128
// tiles of the square table; each unsplit and split into K slices. Register-staged 2-stage pipeline
// (1 stage for 128 x 128 on gfx942, whose 64 KiB LDS holds one), the DMA read-ahead kernel on gfx950.
std::vector<GemmConfig> skinny_candidates(Arch a, int m, int cus) {
  std::vector<GemmConfig> c;
  const int tm = std::min(m, 64), wm = tm >= 32 ? 2 : 1;
  for (int sk : {1, 4, 8}) c.push_back(with_split(cfg(tm, 64, 64, wm, 2, 2), sk));
  for (int sk : {1, 4}) c.push_back(with_split(cfg(tm, 128, 64, wm, 2, 2), sk));
  c.push_back(with_stream(cfg(tm, 64, 64, wm, 2, 2), cus));
  if (m >= 128) {
    const GemmConfig big = a == Arch::gfx950 ? cfg(128, 128, 64, 2, 4, 2, 8, true, false, true) : cfg(128, 128, 64, 2, 2, 1);
    for (int sk : {1, 2, 4}) c.push_back(with_split(big, sk));
    c.push_back(with_stream(cfg(128, 128, 64, 2, 2, a == Arch::gfx950 ? 2 : 1), cus));
  }
  return c;
}

// Skinny GEMMs (M = 16..256 rows, N = K = 8192) on the inference products, best with and without
// split-K, plus the split-K correctness check on the simulator at a small size per arch.
std::string skinny_section() {
  std::string rows, overhead;
  for (const std::string& prod : kInferenceProducts) {
    const model::Hardware& hw = model::resolve_product(prod);
    for (int m : {16, 32, 64, 128, 256}) {
      GemmShape s;
      s.M = m;
      s.N = s.K = 8192;
      const Best b = model_candidates(hw, s, skinny_candidates(hw.arch, m, hw.cus));
      std::optional<GemmModelled> unsplit;  // the best single-launch kernel (neither split-K nor stream-K)
      for (const GemmModelled& x : b.all)
        if (!x.reduce && (!unsplit || x.ms() < unsplit->ms())) unsplit = x;
      if (!b.best || !unsplit) continue;
      const GemmModelled& best = *b.best;
      // the reduction is one more launch: with the model's fixed launch overhead counted for it
      const double extra_ms = best.reduce ? hw.launch_overhead_us * 1e-3 : 0.0;
      rows += fmt::format(
          "| {} | {} | {} | {:.4f}{} | {:.1f} | {:.1f}% | {:.0f} | {} | {} {:.4f} | {:.2f}x | {:.2f}x | {} | {:.0f} |\n",
          prod, m, best.config, best.ms(),
          best.reduce ? fmt::format(" ({:.4f} + {:.4f})", best.report.ms, best.reduce->ms) : "",
          best.tflops(), 100 * best.peak_share(), effective_gbs(s, best.ms()), best.report.limiter, unsplit->config,
          unsplit->ms(), unsplit->ms() / best.ms(), unsplit->ms() / (best.ms() + extra_ms), b.others, b.host);
      if (overhead.empty())
        overhead = fmt::format("{:.2f} us ({})", hw.launch_overhead_us, prod);
      else if (overhead.find(prod) == std::string::npos)
        overhead += fmt::format(", {:.2f} us ({})", hw.launch_overhead_us, prod);
    }
  }
  std::string check;
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    GemmShape s;
    s.M = 32;
    s.N = 256;
    s.K = 2048;
    GemmJobOptions jo;
    jo.model = "none";
    for (const GemmConfig& c : {with_split(cfg(32, 64, 64, 2, 2, 2), 8), with_stream(cfg(32, 64, 64, 2, 2, 2), 12)}) {
      std::ostringstream log;
      const GemmJobResult r = run_gemm_job(log, a, s, c, jo);
      std::cerr << log.str();
      check += fmt::format("| {} | {} | {} | {} | {} |\n", arch_name(a), r.shape, r.config, r.compare, r.bound.describe());
    }
  }
  return "\n## Skinny bf16 GEMMs for inference: M = 16..256, N = K = 8192, with and without split-K / stream-K\n\n"
         "Generated by `build/tools/report_gemm --only skinny` (or with the whole report). Every time is modelled "
         "(model <product>, the first column); no published figure for these shapes is quoted. N = K = 8192 is "
         "the hidden size of 70B-class language models (a decode step's projection with a batch of M tokens), "
         "square in N and K so only M varies. Split-K (\"skS\", codegen/gemm_split_k.hpp) cuts K into S slices, "
         "one workgroup per (tile, slice) writing an fp32 partial tile, then a reduction kernel sums the slices "
         "in order and rounds: two launches, whose modelled kernel times are summed (GEMM + reduction; no gap "
         "between the launches is modelled). Stream-K (\"streamkG\", G = the product's CU count) runs G persistent "
         "workgroups, each walking a contiguous range of the tiles x K-tiles iterations across tiles, then a fix-up "
         "kernel sums the split tiles in K order: also two launches, summed. At these sizes the kernel is bound by reading B (128 MiB), so the "
         "GB/s column (A, B and C bytes once / modelled time) says more than the % of the MFMA peak. The last "
         "speed-up column also charges the second launch (reduction or fix-up) the model's fixed launch overhead (" +
         overhead +
         ", Hardware::launch_overhead_us, the cost the drop-in runtime adds per event-timed launch), which the "
         "kernel times do not contain. Candidates: a tile of min(M, 64) rows by 64 or 128 columns (16-row tiles "
         "are one wave along M: the 16x16 MFMA block is the smallest), from M = 128 on also the 128 x 128 tile, "
         "each with several split-K factors and with stream-K (register-staged path only: the gfx950 DMA "
         "read-ahead kernel has no stream-K form).\n\n"
         "| product | M | best config | modelled ms (two launches: GEMM + reduction or fix-up) | modelled TFLOP/s | % of MFMA peak "
         "| modelled GB/s (A+B+C once) | limiter (model, GEMM kernel) | best single-launch kernel (no split-K or "
         "stream-K), modelled ms | speed-up (kernel times) | speed-up with the second launch's overhead | candidates (modelled "
         "TFLOP/s) | host s |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n" +
         rows +
         "\nSplit-K and stream-K on the simulator (both launches; JIT vs the HIP reference doing the same "
         "fixed-order sums, and the fp64 bound):\n\n| arch | shape | config | JIT vs HIP reference | JIT vs fp64 bound |\n"
         "|---|---|---|---|---|\n" +
         check;
}

// The square bf16 table for --sizes x --products: its rows, the standing against issue 31's
// targets, the MFMA peaks and the N = 4096 "where the time goes" rows (main's report, --only square).
struct SquareTable {
  std::string rows, standing, peaks, where;
};

SquareTable square_table(const Options& o, const std::map<std::string, double>& hk_model) {
  SquareTable t;
  for (const std::string& prod : o.products) {
    const model::Hardware& hw = model::resolve_product(prod);
    for (int n : o.sizes) {
      GemmShape s;
      s.M = s.N = s.K = n;
      const Best b = model_candidates(hw, s, candidates(hw.arch, s.dtype, n));
      if (!b.best) continue;
      const GemmModelled& m = *b.best;
      const double hk = hipkittens_tflops(prod, n);
      const auto it = hk_model.find(fmt::format("{}_bf16_{}", prod, n));
      const double hkm = it == hk_model.end() ? 0 : it->second;
      t.rows += fmt::format(
          "| {} | {} | {} | {:.4f} | {:.3f} | {:.1f} | {:.1f}% | {} | {} | {} | {} | {} | {} | {:.0f} |\n", prod, n,
          m.config, m.report.ms, m.report.clock_ghz, m.tflops(), 100 * m.peak_share(), m.report.limiter,
          hkm > 0 ? fmt::format("{:.1f}", hkm) : "-", hkm > 0 ? fmt::format("{:.2f}x", m.tflops() / hkm) : "-",
          hk > 0 ? fmt::format("{:.1f}", hk) : "-", hk > 0 ? fmt::format("{:.2f}x", m.tflops() / hk) : "-", b.others,
          b.host);
      t.standing += fmt::format("- {} N = {}: modelled {:.0f} TFLOP/s", prod, n, m.tflops());
      if (hkm > 0)
        t.standing += fmt::format(" vs HipKittens modelled {:.0f} ({}: {:.2f}x)", hkm,
                                  m.tflops() >= hkm ? "at least as fast, target met" : "slower, target not met",
                                  m.tflops() / hkm);
      if (hk > 0 && (n == 4096 || n == 8192))
        t.standing += fmt::format("; vs 1.1x HipKittens' measured {:.1f} = {:.0f}: {}", hk, 1.1 * hk,
                                  m.tflops() >= 1.1 * hk ? "met" : "not met");
      if (n == 8192)
        t.standing +=
            fmt::format("; {:.1f}% of the MFMA peak at the modelled clock ({:.3f} GHz; target 75%: {})",
                        100 * m.tflops() / (m.peak_tflops * m.report.clock_ghz / m.peak_clock_ghz), m.report.clock_ghz,
                        m.tflops() >= 0.75 * m.peak_tflops * m.report.clock_ghz / m.peak_clock_ghz ? "met" : "not met");
      t.standing += ".\n";
      if (n == o.sizes.front())
        t.peaks += fmt::format(
            "- {}: {:.1f} TFLOP/s dense {} peak at the {:.2f} GHz data-sheet peak clock; the model "
            "converts cycles to time at {:.2f} GHz without MFMA load, lower as the kernel's MFMA "
            "share grows (the clock column).\n",
            prod, m.peak_tflops, m.mfma, m.peak_clock_ghz, m.model_clock_ghz);
      if (n == 4096)
        for (const GemmModelled& c : b.all) {
          const model::ModelReport& r = c.report;
          t.where +=
              fmt::format("| {} | {} | {:.1f} | {:.0f} | {:.0f} | {:.0f} | {:.0f}% | {:.0f}% | {:.0f}% | {} |\n", prod,
                          c.config, c.tflops(), r.traffic.l2_bytes() / 1e6, r.traffic.mall_bytes() / 1e6,
                          r.traffic.hbm_bytes() / 1e6, 100 * r.mfma_busy, 100 * busy_share(r, "HBM bandwidth share"),
                          100 * busy_share(r, "LDS"), top(r.stalls, 3));
        }
    }
  }
  return t;
}

std::string only_sections(const Options& o) {
  std::string md;
  for (const std::string& x : o.only) {
    if (x == "square") {  // the pieces of main's report, for splicing: table rows, standing, 4096 rows
      const SquareTable t = square_table(o, read_hipkittens(o.hipkittens));
      md += "\n## bf16, square N x N x N: rows of the table (--only square)\n\n" + t.rows +
            "\n## Where the kernel stands: lines\n\n" + t.standing + "\n## Where the time goes at N = 4096: rows\n\n" +
            t.where;
    }
    if (x == "square16384") md += square16384_section(o);
    if (x == "hipblaslt") md += hipblaslt_section();
    if (x == "skinny") md += skinny_section();
    if (x == "gluon") md += gluon_section();
  }
  return md;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    if (o.mx_only || !o.only.empty()) {
      const std::string md = o.mx_only ? mx_section(o) : only_sections(o);
      if (o.out.empty()) {
        std::cout << md;
      } else {
        std::ofstream f(o.out);
        if (!f) throw Error(fmt::format("report_gemm: cannot write '{}'", o.out));
        f << md;
      }
      return 0;
    }
    const std::map<std::string, double> hk_model = read_hipkittens(o.hipkittens);
    std::ostringstream md;
    const std::string when = utc_now("%Y-%m-%d %H:%M UTC");
    md << "# MFMA GEMM report (bf16, fp8 and MX in, fp32 accumulation, bf16 out, layout NT)\n\n";
    md << fmt::format("Generated {} by `build/tools/report_gemm --out tools/report_gemm.md` on a {}-thread host.\n\n",
                      when, std::thread::hardware_concurrency());
    md << "**Every time below is modelled** by the project's timing model (runtime/model) from the simulator's "
          "run of the workgroups one CU receives (tools/jobs/model_launch.hpp), labelled \"modelled (model P)\" with P "
          "the product; none is a GPU measurement. HipKittens' kernels appear twice: **modelled** by the same model "
          "(their source compiled here by cdnajit-hipcc and run on the drop-in HIP runtime, "
          "tools/validation/hipkittens; the figures are read from `"
       << o.hipkittens
       << "`, whose header names the command and model that produced them: the kernel's own modelled time, in the "
          "same sampled mode as this family's, without the launch overhead the event-timed figures of "
          "tools/validation/hipkittens add), which is the side-by-side comparison "
          "that counts, and **measured**, their published figures on real GPUs, quoted with their source. The "
          "model traces a sample of 16 workgroups (two per XCD) for the memory hierarchy and runs the kernel at a "
          "clock that falls with its MFMA activity (the clock column); the cache bandwidths beyond HBM are assumed, "
          "not sourced (runtime/model/README.md).\n\n";

    // ---- functional check, small sizes, both archs
    md << "## Correctness (simulator)\n\n| arch | shape | config | JIT vs HIP reference (clang, same MFMA order) | "
          "JIT vs fp64 bound |\n|---|---|---|---|---|\n";
    for (Arch a : {Arch::gfx942, Arch::gfx950})
      for (GemmDType t : {GemmDType::bf16, GemmDType::e4m3, GemmDType::e5m2}) {
        std::vector<GemmConfig> cs = candidates(a, t, 2048);
        if (a == Arch::gfx950 && t == GemmDType::bf16) cs.push_back(cfg(256, 256, 64, 2, 4, 2, 8, true, true));
        if (t != GemmDType::bf16 && a == Arch::gfx942) cs = {cfg(128, 128, 64, 2, 2, 2)};
        for (const GemmConfig& c : cs) {
          GemmShape s;
          s.M = s.N = 256;
          s.K = 512;
          s.dtype = t;
          GemmJobOptions jo;
          jo.model = "none";
          std::ostringstream log;
          GemmJobResult r = run_gemm_job(log, a, s, c, jo);
          std::cerr << log.str();
          md << fmt::format("| {} | {} | {} | {} | {} |\n", arch_name(a), r.shape, r.config, r.compare, r.bound.describe());
        }
      }
    md << "\nThe fp64 bound per element is stated in tools/jobs/gemm_host.hpp (fp32 accumulation: K * 2^-23 * "
          "sum |a*b|, plus the bf16 output rounding). fp8 inputs are random bf16 values rounded to nearest even "
          "in the arch's 8-bit float (FNUZ on gfx942, OCP on gfx950), so the reference sees exactly the kernel's "
          "inputs.\n\n";

    // ---- modelled bf16 table
    md << "## bf16, square N x N x N (best of the candidate configurations)\n\n"
          "Every time, TFLOP/s and clock in this table is modelled (model <product>, the first column), except the "
          "\"HipKittens measured\" column.\n\n";
    md << "| product | N | best config | modelled ms | modelled clock GHz | modelled TFLOP/s | % of MFMA peak | "
          "limiter (model) | HipKittens modelled TFLOP/s (same model) | ours / HipKittens modelled | HipKittens "
          "measured TFLOP/s (published) | ours modelled / HipKittens measured | other candidates (modelled TFLOP/s) | "
          "host s |\n";
    md << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    const SquareTable sq = square_table(o, hk_model);
    md << sq.rows;
    const std::string &standing = sq.standing, &peaks = sq.peaks, &where = sq.where;
    md << "\n## Where the kernel stands (bf16; issue 31's targets)\n\n" << standing;

    // ---- fp8
    std::string fp8rows;
    for (const std::string& prod : o.products) {
      const model::Hardware& hw = model::resolve_product(prod);
      if (hw.arch != Arch::gfx950) continue;
      for (int n : o.sizes) {
        GemmShape s;
        s.M = s.N = s.K = n;
        s.dtype = GemmDType::e4m3;
        const Best b = model_candidates(hw, s, candidates(hw.arch, s.dtype, n));
        if (!b.best) continue;
        const GemmModelled& m = *b.best;
        fp8rows += fmt::format("| {} | {} | {} | {:.4f} | {:.3f} | {:.1f} | {:.1f}% | {} | {} | {} | {:.0f} |\n", prod, n,
                               m.config, m.report.ms, m.report.clock_ghz, m.tflops(), 100 * m.peak_share(),
                               m.report.limiter,
                               n == 4096 ? fmt::format("{} (target <= 0.046 ms: {})", "0.0512",
                                                       m.report.ms <= 0.046 ? "met" : "not met")
                                         : "-",
                               b.others, b.host);
      }
    }
    if (!fp8rows.empty())
      md << "\n## fp8 (E4M3, OCP) on gfx950, square N x N x N\n\n"
            "Modelled (model <product>, the first column). The published figure is AMD's CDNA4 FP8 GEMM "
            "walkthrough's 8-wave ping-pong kernel on an MI355X GPU, 0.0512 ms for 4096^3 (a measurement, as quoted "
            "in issue 31); issue 31's target is 0.046 ms modelled.\n\n"
            "| product | N | best config | modelled ms | modelled clock GHz | modelled TFLOP/s | % of MFMA peak | "
            "limiter (model) | published ms (measured) | other candidates (modelled TFLOP/s) | host s |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n"
         << fp8rows;

    md << mx_section(o);
    md << square16384_section(o) << hipblaslt_section() << skinny_section() << gluon_section();

    // ---- where the time goes
    md << "\n## Where the time goes at N = 4096 (bf16, every candidate)\n\n"
          "Modelled (model <product>). Traffic is the whole launch's, scaled from the traced sample; the busy and "
          "stall shares are the replayed CU's.\n\n"
          "| product | config | modelled TFLOP/s | L2 MB | Infinity Cache MB | HBM MB | MFMA busy | CU's HBM share "
          "busy | LDS busy | top stalls (share of wave time) |\n|---|---|---|---|---|---|---|---|---|---|\n"
       << where;
    md << R"(
What made this family slower than HipKittens' 8-wave kernel (analysis/bf16_gemm/mi350x/kernel_4096.cpp)
in this model, and what changed (mi355x, N = 4096, both kernels in the same sampled mode, kernel time;
HipKittens' figures from `CDNAJIT_HIP_MODEL_REPORT=1` on the run.sh build):

- **The same in both:** 256x256 tiles, 8 waves (2 x 4, 128 x 64 per wave), K step 64 (128-byte rows:
  L2 1208 MB, Infinity Cache 839 MB in both), v_mfma_f32_16x16x32_bf16 (4096 per wave), 1536
  ds_read_b128 per wave, each at the minimum 4 bank passes (XOR-swizzled rows; the test in
  tests/codegen/test_gemm.cpp fails without the swizzle), 2 waves per SIMD, LDS DMA into 2 stages,
  grouped XCD-contiguous order. Not the difference.
- **Loads in flight.** The lock-step schedule (the "dma" candidate) issued a K tile's DMA after the
  tile's fragment reads and waited for it (vmcnt(0)) before the next barrier: one tile in flight, and
  the CU's memory queue empty during every tile's reads and barrier (HBM share busy 71%, wait vmcnt
  21% of wave time). HipKittens re-issues each quarter of a stage as soon as it has been read and waits
  with vmcnt(6), about 1.5 tiles in flight (HBM share busy 99%, wait vmcnt 7%).
- **LDS reads against MFMAs.** The lock-step schedule read a whole K tile's fragments before its first
  MFMA, with both waves of a SIMD reading at once, so the MFMA pipe idled during the reads (MFMA busy
  55%); HipKittens' ping-pong overlaps one wave group's reads with the other's MFMAs (69%).
- **Why the obvious fix failed.** Issuing the DMA before the reads made it slower (863 TFLOP/s, wait
  vmcnt 45%): the wait-count pass treats all of LDS as one location (jit/passes/regs.hpp), so it put
  vmcnt(0) before every ds_read behind an outstanding LDS DMA of the same wave and before every barrier
  (clang's SIInsertWaitcnts tells such accesses apart by alias scope). The first ping-pong schedule,
  built with that pass, loaded whole tiles and so had one MFMA phase of load cover (1506 TFLOP/s).
- **The change: read-ahead ("ra", `--read-ahead`, gemm.cpp "Read-ahead").** Each wave runs its MFMAs
  by quadrant and reads the next quadrants' fragments (of this tile, then of the next) between them,
  into the registers the finished quadrants freed; LDS rows are half-major, so each half of a stage is
  whole DMA chunks and is reloaded as soon as every wave has read it (one barrier in the middle of the
  tile, one at its end): each half is in flight for 1.5 tiles of MFMAs. The generator places every
  wait and builds with the wait-count pass in verify mode (a finding other than the LDS-DMA ones is an
  error). 4096: 1084 -> 1341 TFLOP/s (HipKittens 1342); 8192: 1321 -> 1553 (1553).
- **Barriers against MFMAs: the ping-pong ("pp", `--pingpong`, codegen/pingpong_schedule.hpp).**
  With every wave in step the read-ahead still drains the MFMA pipe at each of its two barriers per
  tile (barrier 19% of wave time, MFMA busy 84%). The ping-pong runs the two waves of a SIMD half a
  phase apart: while one group issues half a tile's MFMAs (one A half times both B halves) at raised
  priority, the other reads the next fragments and loads, so at each barrier the next group's MFMAs
  follow the last ones closely. LDS is in the read-ahead's half-major rows and loaded by quarter (A
  or B, half 0 or 1): a quarter is reloaded by every wave in the read phase after both groups have
  read it, each in flight for about 1.5 tiles, and the generator places every wait as in the
  read-ahead. Whole-tile phases (the first version) gave 1506 TFLOP/s at 4096, one quadrant per
  phase (HipKittens' granularity, twice the barriers) 1580-1587, two quadrants 1603 (HipKittens 1587;
  MFMA busy 91% against 90%).
- **Real mechanisms, not model artefacts:** loads issued earlier keep more bytes in flight; a wave's DS
  reads and MFMAs go to different units and interleave in its in-order issue; and a ds_read of one LDS
  region while the wave's LDS DMA into another is in flight is legal (the ISA orders LDS-DMA data only
  through vmcnt; HipKittens relies on it). The model charges every unit involved (MFMA pipe, LDS port
  and banks, the CU's L2 / Infinity Cache / HBM shares, barriers).

At 4096 and above both kernels now sit at the replayed CU's share of HBM bandwidth (busy 98-99%):
with two traced workgroups per XCD, the sampled memory hierarchy sees little of the L2 reuse between
an XCD's workgroups, so the replayed workgroup reads much of its A and B panels from HBM (302 MB at
4096 against the 101 MB of A, B and C) at 1/256 of the achievable bandwidth. The comparison is like
for like, but neither figure is what the GPU would do, and 1.1x HipKittens' measurement is out of
reach of any schedule under this limit.

gfx942 (mi325x, no LDS DMA) has the read-ahead on its register-staged one-stage path
(read_ahead_schedule.hpp): quadrant MFMAs with the next fragments read between them; in the last
quadrant-pair's first quadrant every remaining read of LDS tile t goes out one per MFMA, then a
barrier (every wave has read tile t), tile t + 1 from the staging registers into LDS chunk by chunk,
each chunk's next global load right behind its writes, one chunk per MFMA over the two quadrants
whose operands are already in registers, a second barrier, then the last quadrant with the next
tile's first fragments read between its MFMAs (256x256x32 at 4096 in the same model: 700 TFLOP/s
with the reads spread to the barrier and the refill as one block behind one quadrant, 717 now). HipKittens' CDNA3 kernel
(kernel_4096.cpp on the cdna3 branch) keeps 128-byte K rows (K step 64) in one unpadded 64 KiB stage
(L2 1208 MB), where padded rows fit only a 64-byte K tile at 256x256 (L2 2282 MB). The "xor"
candidates do the same: unpadded rows whose 8-byte units are XOR-swizzled (unit u of row r at
u ^ (r mod 16), gemm.cpp "LDS layout"), each 16-byte staging chunk written as two ds_write_b64, so
the 16 lanes of every 8-byte read or write pass hit 16 distinct bank pairs (4 passes per DS
instruction in the model; 50 without the xor: tests/codegen/test_gemm.cpp), and the read-ahead reads
each 64-wide K tile in two K sub-tiles ("ra/2": fragment registers for one sub-tile, 104 VGPRs + 128
AGPRs, two waves per SIMD). L2 traffic halves to 1208 MB, as HipKittens'; the time barely moves
(MFMA busy 94-95% either way), since L2 was not the limit: with one workgroup per CU the MFMA pipe
idles mainly outside the main loop, in the prologue (the first tile's load latency) and the epilogue
(1078 of the wave's 1306 VALU instructions: addressing and rounding 128 bf16 outputs per lane).
What the unpadded rows do change is how many workgroups fit a CU: 128x128 tiles with 128-byte rows
take 32 KiB (34 KiB padded), so two run per CU. With 304 CUs, 256x256 tiles at 8192 make 1024
workgroups in four rounds whose last fills 112 CUs (the busiest CU does 4 where the mean is 3.37);
128x128 ones make 4096 in 608 slots (14 against 13.47): 8192^3 modelled 735 TFLOP/s (256x256x64 xor
ra/2) -> 848 (128x128x64 xor ra), MFMA busy 96%. At 4096, 256x256, 256x128 and 128x128 tiles all
leave 16% of the CUs' time idle in the last round (256 workgroups on 304 CUs; 512 on 304; 1024 in
608 slots), which caps this kernel and HipKittens' alike (64x64 tiles fill the rounds better but
model slower: 544 and 517 TFLOP/s). 224x256 tiles make 19 x 16 = 304 workgroups, one per CU, each
with 7/8 of a 256x256 tile's MFMAs (7 blocks of 16 rows per wave along M, the read-ahead's quadrants
split 3 + 4 blocks; the A tile's 1792 chunks on 512 threads, the fourth load's chunks past row 224
masked into 32 spare LDS rows, so the stage stays 64 KiB): 719 -> 812 TFLOP/s modelled at 4096
(mi300x 602 -> 686 by `cdnajit gemm --model mi300x --model-only`), MFMA busy 93%, with no second
launch. At 2048, 128x112 tiles (4 x 1 waves, 7 blocks per wave along N) fill the 304 CUs the same
way: 611 -> 649 TFLOP/s. At 8192 the 224x256 tiles make 1184 workgroups in 3.89 rounds (827
TFLOP/s), below 128x128's 848. Stream-K (register-staged padded path only) would instead spread all
256 tiles' K tiles over the 304 CUs, but not faster in this model: its fix-up kernel alone models at
0.037 ms at 4096 (256x256x32 streamk304: 0.256 ms for both launches, of which the GEMM kernel 0.219,
`cdnajit gemm --stream-k 304 --model-details`), and even a perfectly balanced stream-K form of the 719 TFLOP/s kernel (53.9 of
its 64 K tiles per CU, about 0.161 ms) plus that fix-up (0.198 ms) is slower than the one-round
224x256 kernel (0.169 ms).
)";
    md << "\nMFMA peaks used for the % columns (the product's CUs x 4 SIMDs x the instruction's FLOPs per pass count, "
          "runtime/model/hardware.cpp):\n\n"
       << peaks;
    md << "\nHipKittens' measured figures: their published BF16 GEMM measurements on MI355X and MI325X GPUs (W. Hu et "
          "al., \"HipKittens: Fast and Furious AMD Kernels\", arXiv:2511.08083, 2025, https://github.com/HazyResearch/"
          "HipKittens; square N; MI355X 139.5 / 665.1 / 1412.9 / 1610.5 / 1571.5 TFLOP/s and MI325X 60.2 / 298.3 "
          "/ 713.7 / 749.4 / 714.3 TFLOP/s for N = 1024 / 2048 / 4096 / 8192 / 16384, as quoted in issue 31). "
          "HipKittens' modelled figures: their kernels from that repository (commits in "
          "tools/validation/hipkittens/README.md) compiled unmodified here and modelled by this project.\n";
    if (o.out.empty()) {
      std::cout << md.str();
    } else {
      std::ofstream f(o.out);
      if (!f) throw Error(fmt::format("report_gemm: cannot write '{}'", o.out));
      f << md.str();
      std::cerr << "wrote " << o.out << "\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "report_gemm: error: " << e.what() << "\n";
    return 2;
  }
}
