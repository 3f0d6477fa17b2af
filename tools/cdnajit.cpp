// The cdnajit command: dump / build / stats of built-in kernels, run any code
// object on the simulator or a GPU, and the seed depthwise-conv3d job.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <random>

#include "codegen/examples/examples.hpp"
#include "jit/kernel.hpp"
#include "runtime/device.hpp"
#include "tools/builtin_kernels.hpp"
#include "tools/cli_args.hpp"
#include "tools/fuzz_code_object.hpp"
#include "tools/model_cli.hpp"
#include "tools/stats_format.hpp"

using namespace cdnajit;

namespace {

const char* kUsage = R"(usage: cdnajit <command> [options]
  dump  --kernel NAME [--arch gfx942|gfx950] [-o FILE.s] [--waitcnt auto|verify|off] [--hazards auto|verify|off]
  build --kernel NAME [--arch ...] -o FILE.co
  stats --kernel NAME [--arch ...]
  list                                   built-in kernel names
  run FILE.co --kernel NAME [--device sim:gfx950|sim:gfx942|hip:0] --grid X[,Y,Z] --block X[,Y,Z] [--lds BYTES]
        --arg buf:NAME:BYTES[:zero|iota|random|file=PATH] | --arg i32:V | --arg u32:V | --arg f32:V | --arg i64:V  (in argument order)
        [--out NAME=PATH ...]            write a buffer to a file after the run
        [--model mi300x|mi325x|mi350x|mi355x [--trace FILE.json]]   modelled GPU time (simulator only)
  fuzz  [--kernel NAME] [--arch ...] [--seconds S] [--iterations N]   mutation-fuzz the code-object reader/decoder
  seed  [--arch gfx950] [--variant lds_fmac|lds_dot2|row_interleaved] [--asm FILE.s] [--device SPEC] [--channels K]
        the seed depthwise-conv3d job: build, write .s, run, verify bit-for-bit vs the HIP V97 reference, stats
        [--model NAME|none] [--trace FILE.json]   modelled time on the full seed grid (default: mi350x / mi300x)
)";

Arch arch_of(const cli::Args& a) {
  std::string s = a.get("--arch", "gfx950");
  auto arch = parse_arch(s);
  if (!arch) throw Error("unknown --arch '" + s + "' (valid: gfx942, gfx950)");
  return *arch;
}

PassMode mode_of(const cli::Args& a, const std::string& flag) {
  std::string s = a.get(flag, "auto");
  if (s == "auto") return PassMode::Auto;
  if (s == "verify") return PassMode::Verify;
  if (s == "off") return PassMode::Off;
  throw Error(flag + " '" + s + "' (valid: auto, verify, off)");
}

BuildResult build_builtin(const cli::Args& a, bool link) {
  BuildOptions o;
  o.waitcnt = mode_of(a, "--waitcnt");
  o.hazards = mode_of(a, "--hazards");
  o.link = link;
  return build_builtin_kernel(a.require("--kernel"), arch_of(a), o);
}

void write_file(const std::string& path, const void* data, size_t n) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), std::streamsize(n));
  if (!f) throw Error("cannot write " + path);
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot read " + path);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

Dim3 dim3_of(const std::string& s) {
  Dim3 d;
  uint32_t* v[3] = {&d.x, &d.y, &d.z};
  size_t pos = 0;
  for (int i = 0; i < 3 && pos <= s.size(); ++i) {
    size_t comma = s.find(',', pos);
    std::string part = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    *v[i] = uint32_t(std::stoul(part));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return d;
}

int cmd_run(const cli::Args& a) {
  if (a.positional.size() != 2) throw Error("run needs exactly one code-object file");
  std::vector<uint8_t> co = read_file(a.positional[1]);
  const Dim3 grid = dim3_of(a.require("--grid")), block = dim3_of(a.require("--block"));
  const uint32_t dynamic_lds = uint32_t(std::stoul(a.get("--lds", "0")));
  auto model_run = model_cli::prepare_run(a, co, a.require("--kernel"), grid, block, dynamic_lds);  // null without --model
  auto dev = model_run ? model_cli::open_device(*model_run) : open_device(a.get("--device", ""));
  Module m = dev->load(co);
  DeviceKernel kern = m.kernel(a.require("--kernel"));
  KernelArgs args;
  std::map<std::string, Buffer> buffers;
  std::mt19937 rng(1234);
  for (const std::string& spec : a.all("--arg")) {
    auto c1 = spec.find(':');
    if (c1 == std::string::npos) throw Error("--arg '" + spec + "': expected TYPE:VALUE or buf:NAME:BYTES[:INIT]");
    std::string type = spec.substr(0, c1), rest = spec.substr(c1 + 1);
    if (type == "buf") {
      auto c2 = rest.find(':');
      std::string name = rest.substr(0, c2);
      std::string tail = c2 == std::string::npos ? "" : rest.substr(c2 + 1);
      auto c3 = tail.find(':');
      size_t bytes = std::stoull(tail.substr(0, c3));
      std::string init = c3 == std::string::npos ? "zero" : tail.substr(c3 + 1);
      std::vector<uint8_t> host(bytes, 0);
      if (init == "iota") {
        for (size_t i = 0; i + 4 <= bytes; i += 4) { uint32_t v = uint32_t(i / 4); std::memcpy(&host[i], &v, 4); }
      } else if (init == "random") {
        for (auto& b : host) b = uint8_t(rng());
      } else if (init.rfind("file=", 0) == 0) {
        std::vector<uint8_t> f = read_file(init.substr(5));
        std::copy_n(f.begin(), std::min(f.size(), bytes), host.begin());
      } else if (init != "zero") {
        throw Error("--arg buf init '" + init + "' (valid: zero, iota, random, file=PATH)");
      }
      Buffer b = dev->alloc(bytes, name);
      dev->copy_to_device(b, host.data(), bytes);
      buffers[name] = b;
      args.ptr(b);
    } else if (type == "i32") args.i32(std::stoi(rest));
    else if (type == "u32") args.u32(uint32_t(std::stoul(rest)));
    else if (type == "f32") args.f32(std::stof(rest));
    else if (type == "i64") args.i64(std::stoll(rest));
    else throw Error("--arg type '" + type + "' (valid: buf, i32, u32, f32, i64)");
  }
  LaunchResult lr = dev->launch(kern, grid, block, dynamic_lds, args);
  dev->synchronize();
  fmt::print("ran {} on {}: host wall time {:.3f} ms\n", kern.name(), dev->name(), lr.host_ms);
  if (lr.gpu_ms) fmt::print("GPU time {:.3f} ms (measured with hipEvents)\n", *lr.gpu_ms);
  if (lr.sim_stats) fmt::print("{}", format_sim_stats(*lr.sim_stats));
  if (model_run) model_cli::print_run(std::cout, *model_run);
  for (const std::string& o : a.all("--out")) {
    auto eq = o.find('=');
    std::string name = o.substr(0, eq), path = eq == std::string::npos ? name + ".bin" : o.substr(eq + 1);
    auto it = buffers.find(name);
    if (it == buffers.end()) throw Error("--out names buffer '" + name + "' that no --arg buf created");
    std::vector<uint8_t> host(it->second.bytes);
    dev->copy_to_host(host.data(), it->second, host.size());
    write_file(path, host.data(), host.size());
    fmt::print("wrote {} ({} bytes)\n", path, host.size());
  }
  return 0;
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::cout << kUsage;
    return 2;
  }
  std::string cmd = argv[1];
  cli::Args a = cli::Args::parse(argc, argv, 1);
  if (cmd == "list") {
    for (const std::string& n : builtin_kernel_names()) std::cout << n << "\n";
    return 0;
  }
  if (cmd == "dump") {
    BuildResult r = build_builtin(a, false);
    if (a.has("-o")) write_file(a.get("-o", ""), r.assembly.data(), r.assembly.size());
    else std::cout << r.assembly;
    return 0;
  }
  if (cmd == "build") {
    BuildResult r = build_builtin(a, true);
    std::string out = a.require("-o");
    write_file(out, r.code_object.data(), r.code_object.size());
    fmt::print("wrote {} ({} bytes)\n", out, r.code_object.size());
    return 0;
  }
  if (cmd == "stats") {
    BuildResult r = build_builtin(a, true);
    std::cout << format_kernel_stats(r);
    return 0;
  }
  if (cmd == "run") return cmd_run(a);
  if (cmd == "seed") return run_seed_command(a);
  if (cmd == "fuzz") {
    cli::Args b = a;
    if (!b.has("--kernel")) b.flags.emplace("--kernel", "vector_add");
    BuildResult r = build_builtin(b, true);
    FuzzReport f = fuzz_code_object(r.code_object, std::stod(a.get("--seconds", "10")),
                                    std::stoull(a.get("--iterations", "1000000")), 12345);
    fmt::print("fuzzed {} mutations of {} ({} bytes): {} loaded and decoded, {} rejected with an error, 0 crashes\n",
               f.iterations, r.name, r.code_object.size(), f.accepted, f.rejected);
    if (!f.first_rejection.empty()) fmt::print("example rejection: {}\n", f.first_rejection.substr(0, 200));
    return 0;
  }
  std::cerr << "unknown command '" << cmd << "'\n" << kUsage;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const cdnajit::Error& e) {
    std::cerr << "cdnajit: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "cdnajit: error: " << e.what() << "\n";
    return 1;
  }
}
