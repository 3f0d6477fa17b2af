// run: load any code object on the simulator (or a GPU) and run one kernel; or, with --family,
// build a registered family's kernel and run it on the family problem's inputs, checked against
// the family's reference (the `cdnajit job` path, tools/cli/family_job.hpp).
#include <fmt/format.h>

#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <random>

#include "runtime/backends.hpp"
#include "runtime/device.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/model/product_file.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/family_job.hpp"
#include "tools/cli/files.hpp"
#include "tools/cli/values.hpp"
#include "tools/check_code_object.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tools/model_cli.hpp"

namespace cdnajit::cli {

namespace {

// Largest work-item count per dimension (grid x block): the AQL packet's
// grid_size fields are 32-bit.
constexpr uint64_t kMaxWorkItemsPerDim = UINT32_MAX;

struct RunOptions {
  std::string file, kernel, device;
  std::string model, trace;  // timing model (tools/model_cli)
  std::optional<int> clock_runs;            // with --model: ModelOptions::clock_runs
  std::optional<uint64_t> clock_workgroups; // with --model: ModelOptions::clock_workgroups_limit
  std::optional<bool> clock_predict;        // with --model: ModelOptions::clock_predict
  double flops = 0;          // with --model: the launch's FLOPs, for TFLOP/s
  Dim3 grid, block;
  uint32_t lds = 0;
  std::vector<ArgSpec> args;
  std::vector<OutSpec> outs;
  sim::Options sim;
  FamilyJob family;  // --family: the rest of the options describe no code object
};

void check_scalar_kind(const DeviceKernel& kern, size_t index, const ScalarArg& s) {
  std::vector<const KernelArgInfo*> explicit_args;
  for (const KernelArgInfo& a : kern.info().args)
    if (!is_hidden_arg(a)) explicit_args.push_back(&a);
  if (index >= explicit_args.size()) return;  // the count is checked when the arguments are packed
  const KernelArgInfo& a = *explicit_args[index];
  if (!scalar_fits_type_name(s.type, a.type_name))
    // Numbered from 0, as the argument packer (runtime/kernel_args.cpp) numbers them.
    throw Error(fmt::format("--arg #{} ({}; arguments are numbered from 0): kernel {} declares argument #{} '{}' as "
                            "'{}', which {} does not match",
                            index, s.type, kern.name(), index, a.name, a.type_name, s.type));
}

void push_scalar(KernelArgs& args, const ScalarArg& s) {
  if (s.type == "i32") args.i32(int32_t(s.i));
  else if (s.type == "u32") args.u32(uint32_t(s.u));
  else if (s.type == "i64") args.i64(s.i);
  else if (s.type == "u64") args.u64(s.u);
  else if (s.type == "f32") args.f32(float(s.f));
  else args.f64(s.f);
}

// Writes the buffer's initial contents (--arg buf:NAME:BYTES:INIT) to the device one chunk
// at a time: a large buffer costs its device memory and one chunk of host memory, not a
// host copy of the whole buffer as well.
void upload_initial_contents(Device& dev, const Buffer& buf, const BufferArg& b, std::mt19937& rng) {
  // Simulated memory starts zeroed (runtime/sim/memory.cpp), and untouched pages cost nothing.
  if (b.init == "zero" && dev.is_simulator()) return;
  constexpr size_t kChunkBytes = size_t(16) << 20;  // a multiple of 4: iota words never straddle chunks
  std::vector<uint8_t> file;
  if (b.init.rfind("file=", 0) == 0) {
    // At most the declared size is read: a longer file (or /dev/zero, rejected as not regular) cannot grow memory.
    const std::string path = b.init.substr(5);
    file = read_regular_file(path, "--arg buf:" + b.name, b.bytes, false);
    if (file.size() < b.bytes)
      fmt::print(stderr, "cdnajit: warning: --arg buf:{}: read {} of {} bytes from '{}'; the rest is zero\n", b.name,
                 file.size(), b.bytes, path);
  }
  std::vector<uint8_t> chunk(std::min<uint64_t>(kChunkBytes, b.bytes), 0);
  for (uint64_t off = 0; off < b.bytes; off += chunk.size()) {
    const size_t n = size_t(std::min<uint64_t>(chunk.size(), b.bytes - off));
    if (b.init == "iota") {
      for (size_t i = 0; i + 4 <= n; i += 4) {
        uint32_t v = uint32_t((off + i) / 4);
        std::memcpy(&chunk[i], &v, 4);
      }
      std::fill(chunk.begin() + (n & ~size_t(3)), chunk.begin() + n, 0);  // a last partial word stays 0
    } else if (b.init == "random") {
      for (size_t i = 0; i < n; ++i) chunk[i] = uint8_t(rng());
    } else if (!file.empty()) {
      std::fill_n(chunk.begin(), n, 0);
      if (off < file.size()) std::copy_n(file.begin() + off, std::min<uint64_t>(n, file.size() - off), chunk.begin());
    }  // zero: the chunk is still all zero (no other init writes to it)
    dev.copy_to_device(buf.sub(size_t(off), n), chunk.data(), n);
  }
}

int run_kernel(const RunOptions& o) {
  std::vector<uint8_t> co = read_regular_file(o.file, "code object", kMaxCodeObjectBytes, true);
  auto model_run = model_cli::prepare_run(o.model, o.trace, o.device, co, o.kernel, o.grid, o.block, o.lds);
  if (model_run && o.clock_runs) model_run->options.clock_runs = *o.clock_runs;
  if (model_run && o.clock_workgroups) model_run->options.clock_workgroups_limit = *o.clock_workgroups;
  if (model_run && o.clock_predict) model_run->options.clock_predict = *o.clock_predict;
  auto dev = model_run ? open_sim_device(model_run->arch, o.sim) : open_device(o.device, o.sim);
  if (dev->is_simulator() && read_code_object(co).find(o.kernel)) {
    // Calls out of the kernel would run into a wrong address mid-run: refuse them before the run, by name.
    std::vector<CheckFinding> nm = not_modelled_findings(co, o.kernel);
    if (!nm.empty()) {
      std::string list;
      for (const CheckFinding& f : nm) list += fmt::format("\n  {} +0x{:x}: {}: {}", f.kernel, f.pc, f.inst, f.message);
      throw Error(fmt::format("kernel {} uses what the simulator does not model ({} instruction{}; `cdnajit check` "
                              "lists them too):{}",
                              o.kernel, nm.size(), nm.size() == 1 ? "" : "s", list));
    }
  }
  Module m = dev->load(co);
  DeviceKernel kern = m.kernel(o.kernel);
  KernelArgs args;
  std::map<std::string, Buffer> buffers;
  std::mt19937 rng(1234);
  // Every buffer first (in --arg order, so the same addresses and contents as before), so that a
  // struct's ptr:NAME field may name a buffer declared after it.
  for (const ArgSpec& a : o.args)
    if (const auto* b = std::get_if<BufferArg>(&a)) {
      Buffer buf = dev->alloc(b->bytes, b->name);
      upload_initial_contents(*dev, buf, *b, rng);
      buffers[b->name] = buf;
    }
  size_t kernel_arg = 0;  // the kernel argument an --arg binds (a mem: buffer binds none)
  for (size_t i = 0; i < o.args.size(); ++i) {
    if (const auto* b = std::get_if<BufferArg>(&o.args[i]); b && !b->passed) continue;
    const size_t index = kernel_arg++;
    if (const auto* s = std::get_if<ScalarArg>(&o.args[i])) {
      check_scalar_kind(kern, index, *s);
      push_scalar(args, *s);
      continue;
    }
    if (const auto* by = std::get_if<BytesArg>(&o.args[i])) {
      std::vector<uint8_t> data = by->data;
      if (!by->file.empty()) {
        data = read_regular_file(by->file, "--arg bytes", by->bytes, true);
        if (data.size() != by->bytes)
          throw Error(fmt::format("--arg bytes:{}:file={}: the file has {} bytes, not {}", by->bytes, by->file,
                                  data.size(), by->bytes));
      }
      args.bytes("", data.data(), data.size());
      continue;
    }
    if (const auto* st = std::get_if<StructArg>(&o.args[i])) {
      const std::vector<uint8_t> data = struct_bytes(*st, [&](const std::string& n) { return buffers.at(n).addr; });
      args.bytes("", data.data(), data.size());
      continue;
    }
    args.ptr(buffers.at(std::get<BufferArg>(o.args[i]).name));
  }
  LaunchResult lr = model_run ? model_cli::launch(*dev, *model_run, kern, o.grid, o.block, o.lds, args)
                              : dev->launch(kern, o.grid, o.block, o.lds, args);
  dev->synchronize();
  fmt::print("ran {} on {}: host wall time {:.3f} ms\n", kern.name(), dev->name(), lr.host_ms);
  if (lr.gpu_ms) {
    const std::string source = detail::hip_event_time_source(*dev);
    if (source.empty()) fmt::print("GPU time {:.3f} ms (measured with hipEvents)\n", *lr.gpu_ms);
    else fmt::print("kernel time {:.4f} ms ({}: the hipEvents of cdnajit's drop-in HIP runtime)\n", *lr.gpu_ms, source);
  }
  if (lr.sim_stats) fmt::print("{}", format_sim_stats(*lr.sim_stats));
  if (model_run) model_cli::print_run(std::cout, *model_run, o.flops);
  for (const OutSpec& out : o.outs) {
    const Buffer& b = buffers.at(out.buffer);  // names were checked against --arg before the run
    std::vector<uint8_t> host(b.bytes);
    dev->copy_to_host(host.data(), b, host.size());
    write_file(out.path, host.data(), host.size());
    fmt::print("wrote {} ({} bytes)\n", out.path, host.size());
  }
  return 0;
}

// The options of a code-object launch, which `run --family` takes from the family instead.
constexpr const char* kLaunchOptions[] = {"file", "--kernel", "--grid", "--block", "--lds", "--arg", "--out",
                                          "--trace", "--flops", "--clock-runs", "--clock-workgroups",
                                          "--clock-predict"};

// run --family: the family's kernel on its problem (the job path); a code object's launch options
// are refused, naming them, and --model is opt-in as for a code object.
void check_family_run(RunOptions& o, const CLI::App& c) {
  for (const char* name : kLaunchOptions)
    if (c.count(name))
      throw Error(fmt::format("{} describes a code object's launch; with --family the kernel, its grid and its "
                              "arguments come from the family's problem (drop {} or --family)",
                              std::string_view(name) == "file" ? "the code object file" : name, name));
  o.family.device = o.device;
  o.family.model = o.model.empty() ? "none" : o.model;
  o.family.sim = o.sim;
  check_family_job(o.family, "run --family");
}

// Checks that need several options at once; runs while parsing, before anything is loaded.
void check_run_options(const RunOptions& o, const CLI::App& c) {
  for (const char* name : {"file", "--kernel", "--grid", "--block"})
    if (!c.count(name))
      throw Error(fmt::format("{} is required (or --family FAMILY: a registered family's kernel on its problem)",
                              std::string_view(name) == "file" ? "the code object file" : name));
  for (const char* name : {"--arch", "--config", "--problem"})
    if (c.count(name)) throw Error(fmt::format("{} needs --family (a code object's kernel is built already)", name));
  if (o.model.empty() && (o.clock_runs || o.clock_workgroups || o.clock_predict))
    throw Error("--clock-runs, --clock-workgroups and --clock-predict need --model NAME (they steer the modelling of in-kernel clocks)");
  if (o.flops > 0 && o.model.empty()) throw Error("--flops gives the work for the modelled TFLOP/s; it needs --model NAME");
  uint64_t block_items = uint64_t(o.block.x) * o.block.y * o.block.z;
  if (block_items > 1024)
    throw Error(fmt::format("--block: {}x{}x{} = {} work-items per workgroup (valid: at most 1024)", o.block.x,
                            o.block.y, o.block.z, block_items));
  const uint32_t g[3] = {o.grid.x, o.grid.y, o.grid.z}, b[3] = {o.block.x, o.block.y, o.block.z};
  for (int i = 0; i < 3; ++i)
    if (uint64_t(g[i]) * b[i] > kMaxWorkItemsPerDim)
      throw Error(fmt::format("--grid: {} workgroups x {} work-items in dimension {} exceed {} work-items "
                              "(the dispatch packet's 32-bit grid size)",
                              g[i], b[i], "xyz"[i], kMaxWorkItemsPerDim));
  std::map<std::string, int> names;
  for (const ArgSpec& a : o.args)
    if (const auto* buf = std::get_if<BufferArg>(&a))
      if (names[buf->name]++) throw Error(fmt::format("--arg: buffer name '{}' is used twice", buf->name));
  for (const ArgSpec& a : o.args)
    if (const auto* st = std::get_if<StructArg>(&a))
      for (const StructArg::Field& f : st->fields)
        if (!f.pointer_to.empty() && !names.count(f.pointer_to))
          throw Error(fmt::format("--arg struct: field ptr:{} names no buffer (declare it with --arg buf:{}:BYTES)",
                                  f.pointer_to, f.pointer_to));
  std::vector<NamedFile> outputs;
  for (const OutSpec& out : o.outs) {
    if (!names.count(out.buffer)) {
      std::string known;
      for (auto& [n, c] : names) known += (known.empty() ? "" : ", ") + n;
      throw Error(fmt::format("--out names buffer '{}' that no --arg buf creates (buffers: {})", out.buffer,
                              known.empty() ? "none" : known));
    }
    outputs.push_back({"--out " + out.buffer, out.path});
  }
  // The timing model: the product by name or file, on the simulator only, its trace a writable file.
  if (!o.model.empty()) {
    model::resolve_product(o.model);  // throws listing the products
    if (auto spec = parse_device_spec(o.device); !o.device.empty() && spec && !spec->simulator)
      throw Error(fmt::format("--model runs the kernel on the simulator; drop --device {} or use sim:ARCH", o.device));
  } else if (!o.trace.empty()) {
    throw Error("--trace needs --model NAME (the trace is of the modelled CU)");
  }
  if (!o.trace.empty()) {
    check_writable(o.trace, "--trace");
    outputs.push_back({"--trace", o.trace});
  }
  // Outputs by identity (a hard link, "./f" for "f"), not by spelling: none may overwrite another or the input.
  check_distinct_files(outputs, {{"code object", o.file}});
}

}  // namespace

void add_run_command(CommandLine& cl) {
  auto o = std::make_shared<RunOptions>();
  o->sim.instruction_budget = 1ull << 32;
  o->sim.time_limit_seconds = 60;
  CLI::App* c = cl.add("run",
                       "run a kernel of a code object on the simulator or a GPU; or, with --family, a registered "
                       "family's kernel on its problem, checked against the family's reference",
                       [o] { return o->family.kernel.given() ? run_family_job(o->family, "run --family") : run_kernel(*o); });
  c->add_option("file", o->file, "the code object (.co)");
  c->add_option("--kernel", o->kernel, "kernel name inside the code object");
  c->add_option("--device", o->device, "sim:gfx950, sim:gfx942, sim, hip:N (default: CDNAJIT_DEVICE, else a GPU, else sim:gfx950)")->check(check_device_spec);
  add_typed_option(c, "--grid", o->grid,
                   [](std::string_view t, std::string_view w) { return parse_dim3(t, w, UINT32_MAX); },
                   "workgroups: X[,Y,Z]");
  add_typed_option(c, "--block", o->block, [](std::string_view t, std::string_view w) { return parse_dim3(t, w, isa::target::kMaxWorkgroupSize); },
                   "work-items per workgroup: X[,Y,Z] (at most 1024 in all)");
  add_typed_option(c, "--lds", o->lds,
                   [](std::string_view t, std::string_view w) { return uint32_t(parse_uint(t, w, 0, isa::target::kMaxLdsBytes)); },
                   "dynamic LDS bytes beyond the kernel's own (0..163840; the device's limit is checked at launch)");
  c->add_option_function<std::vector<std::string>>(
      "--arg",
      [o](const std::vector<std::string>& v) {
        for (const std::string& t : v) o->args.push_back(parse_arg(t));
      },
      "a kernel argument, in order: buf:NAME:BYTES[:zero|iota|random|file=PATH] (file: at most BYTES read), "
      "i32:V, u32:V, i64:V, u64:V, f32:V, f64:V (a float V may also be nan, inf or -inf), "
      "bytes:N:hex=HEX|file=PATH (a by-value struct's bytes), struct:FIELD,... (FIELD: a scalar form or ptr:NAME of a buffer; C layout); mem:NAME:BYTES[:INIT] declares a buffer as buf does without passing it (for ptr:NAME fields and --out)")
      ->allow_extra_args(false);
  c->add_option_function<std::vector<std::string>>(
      "--out",
      [o](const std::vector<std::string>& v) {
        for (const std::string& t : v) {
          o->outs.push_back(parse_out(t));
          check_writable(o->outs.back().path, "--out " + o->outs.back().buffer);
        }
      },
      "NAME=PATH: write buffer NAME to PATH after the run (checked writable before it)")
      ->allow_extra_args(false);
  add_typed_option(c, "--max-instructions", o->sim.instruction_budget,
                   [](std::string_view t, std::string_view w) { return parse_uint(t, w, 1, 1ull << 48); },
                   "simulator: stop after this many wave-instructions (default 2^32 = 4294967296)");
  add_typed_option(c, "--timeout", o->sim.time_limit_seconds,
                   [](std::string_view t, std::string_view w) { return parse_real(t, w, 0.001, 7 * 24 * 3600.0); },
                   "simulator: stop after this many seconds of wall-clock time (default 60)");
  c->add_option("--model", o->model, "modelled GPU time on a product: mi300x, mi325x, mi350x, mi355x or a product file FILE.json (simulator only)");
  c->add_option("--trace", o->trace, "with --model: write a Chrome/Perfetto trace of the modelled CU to FILE.json");
  add_typed_option(c, "--clock-runs", o->clock_runs,
                   [](std::string_view t, std::string_view w) { return std::optional<int>(int(parse_uint(t, w, 2, 64))); },
                   "with --model, for a kernel that reads s_memtime/s_memrealtime: simulator runs at most until its "
                   "clock values are the model's own (2..64, default 4)");
  add_typed_option(c, "--clock-workgroups", o->clock_workgroups,
                   [](std::string_view t, std::string_view w) { return std::optional<uint64_t>(parse_uint(t, w, 1, 1ull << 32)); },
                   "with --model: workgroups the model replays at most to give every in-kernel clock read its value "
                   "(default 4096)");
  add_typed_option(c, "--clock-predict", o->clock_predict,
                   [](std::string_view t, std::string_view w) {
                     return std::optional<bool>(parse_choice<bool>(t, w, {{"on", true}, {"off", false}}));
                   },
                   "with --model: feed run 1 the clock values of a first run of the first CUs' shares, kept when every "
                   "clock-reading CU replays alike one of them (on, default) or not (off)");
  add_typed_option(c, "--flops", o->flops, [](std::string_view t, std::string_view w) { return parse_real(t, w, 1, 1e24); },
                   "with --model: the launch's floating-point operations (e.g. 2*M*N*K), to print modelled TFLOP/s");
  add_typed_option(c, "--mfma-numerics", o->sim.mfma_numerics,
                   [](std::string_view t, std::string_view w) {
                     using M = sim::Options::MfmaNumerics;
                     return parse_choice<M>(t, w, {{"cdna3", M::Cdna3}, {"exact", M::Exact}});
                   },
                   "simulator: MFMA arithmetic: cdna3 (the published CDNA3 rules; on gfx950 a documented "
                   "hypothesis; default) or exact (the exact sum rounded once)");
  add_typed_option(c, "--e8m0-zero", o->sim.e8m0_zero,
                   [](std::string_view t, std::string_view w) {
                     using Z = sim::Options::E8m0Zero;
                     return parse_choice<Z>(t, w, {{"ocp", Z::Ocp}, {"one", Z::One}});
                   },
                   "simulator: the E8M0 scale byte 0 of v_mfma_scale_*: ocp (2^-127, the OCP MX "
                   "specification; default) or one (1.0, as LLVM 22 assumes)");
  add_typed_option(c, "--sr-seed-bits", o->sim.sr_seed_bits,
                   [](std::string_view t, std::string_view w) {
                     if (t == "per-form") return sim::Options::SrSeedBits::PerForm;
                     if (t == "low") return sim::Options::SrSeedBits::Low;
                     if (t == "high") return sim::Options::SrSeedBits::High;
                     throw Error(fmt::format("{}: '{}' (valid: per-form, low, high)", w, t));
                   },
                   "simulator: which seed bits the stochastic-rounding conversions add: per-form (each "
                   "form's published emulation: low bits for v_cvt_sr_*, top bits for v_cvt_scalef32_sr_*; "
                   "default), low or high");
  add_typed_option(c, "--dot2", o->sim.dot2,
                   [](std::string_view t, std::string_view w) {
                     using D = sim::Options::Dot2;
                     return parse_choice<D>(t, w, {{"fused", D::FusedSingleRounding}, {"products", D::ProductsThenSum}});
                   },
                   "simulator: v_dot2 rounding: fused (exact sum rounded once; default) or products "
                   "(two chained f32 FMAs)");
  add_typed_option(c, "--atomic-add-f32-denormals", o->sim.memory_atomic_add_f32_denormals,
                   [](std::string_view t, std::string_view w) {
                     using A = sim::Options::MemoryAtomicAddF32Denormals;
                     return parse_choice<A>(t, w, {{"keep", A::Keep}, {"flush-inputs", A::FlushInputs}, {"refuse", A::Refuse}});
                   },
                   "simulator: denormals of global/flat/buffer f32 atomic adds outside LDS (published evidence "
                   "disagrees): keep (as LLVM 22 assumes for gfx942/gfx950; default), flush-inputs (the ISA "
                   "guide's table) or refuse (an error when one occurs)");
  add_typed_option(c, "--store-release", o->sim.store_release,
                   [](std::string_view t, std::string_view w) {
                     using R = sim::Options::StoreRelease;
                     return parse_choice<R>(t, w, {{"lds", R::Lds}, {"all", R::All}, {"none", R::None}});
                   },
                   "simulator: which stores another wave may read only after the writer's s_waitcnt: lds (LDS "
                   "stores, and global stores in threadgroup-split kernels, as LLVM's memory model; default), all "
                   "(global stores in every kernel) or none");
  c->add_flag("--strict-buffer-range", o->sim.check_buffer_range,
              "simulator: report buffer accesses beyond the V#'s num_records as errors (by default they follow "
              "the hardware: loads read 0, stores are dropped)");
  c->add_option("--family", o->family.kernel.family,
                "instead of a code object: a kernel family (see 'cdnajit list'), built for --arch with --config and "
                "--problem, run on the problem's inputs (on sim:ARCH unless --device) and verified against the "
                "family's reference, as 'cdnajit job'; the modelled time with --model");
  add_family_config_options(c, o->family.kernel);
  add_arch_option(c, o->family.arch);
  c->callback([o, c] {
    if (o->family.kernel.given()) check_family_run(*o, *c);
    else check_run_options(*o, *c);
  });
}

}  // namespace cdnajit::cli
