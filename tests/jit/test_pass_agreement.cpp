// The static wait-count pass and the simulator's dynamic wait-count checker agree
// on every kernel in codegen/, location by location: with the author's waits kept
// both are clean; with all of them dropped, and with each one dropped alone, the
// simulator's finding (pc and register) must be one of the static findings, and the
// simulator may raise nothing but a wait-count finding. Also: kernels built with
// the `auto` pass contain no redundant wait and run clean under the dynamic checker.
#include <catch2/catch.hpp>

#include <cstdio>
#include <functional>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/examples/examples.hpp"
#include "jit/asm/assemble.hpp"
#include "jit/codeobject/kernel_descriptor_emit.hpp"
#include "jit/asm/link.hpp"
#include "jit/passes/passes.hpp"
#include "runtime/device.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"
#include "tests/jit/assembly_program.hpp"
#include "tests/test_support.hpp"

using namespace cdnajit;

namespace {

struct Case {
  std::string label;
  Arch arch;
  std::function<BuildResult(const BuildOptions&)> build;
  std::function<void(Device&, const DeviceKernel&)> run;  // launches with small valid inputs
  // The author writes every wait. False for kernels placed by jit::Interleave,
  // whose design leaves the waits of the placed order to the wait-count pass.
  bool author_waits = true;
};

void run_example(Device& dev, const DeviceKernel& k, bool dot) {
  const uint32_t n = 300;
  size_t in_bytes = dot ? n * examples::kDotElemsPerThread * 2 : n * 4;
  std::vector<uint8_t> host(in_bytes);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(i * 37 + 11);
  Buffer a = dev.upload(std::span<const uint8_t>(host), "a"), b = dev.upload(std::span<const uint8_t>(host), "b");
  Buffer out = dev.alloc(n * 4, "out");
  KernelArgs args;
  args.ptr(a).ptr(b).ptr(out).u32(n);
  dev.launch(k, Dim3{2, 1, 1}, Dim3{256, 1, 1}, 0, args);
}

codegen::DwConvShape small_shape(codegen::DwVariant v) {
  codegen::DwConvShape s;
  s.N = 1, s.C = 2, s.D = 4, s.H = 5, s.W = 20, s.KD = 3, s.KH = 3, s.KW = 3, s.padD = 0, s.padH = 1, s.padW = 1;
  // mfma_band takes even W and padW and W_out a multiple of 4 (its DMA and store widths).
  if (v == codegen::DwVariant::mfma_band) s.KW = 5, s.padW = 2;
  return s;
}

void run_dwconv(Device& dev, const DeviceKernel& k, Arch arch, codegen::DwVariant v) {
  codegen::DwConvShape s = small_shape(v);
  auto in = codegen::random_bf16(size_t(s.input_elems()), 3), w = codegen::random_bf16(size_t(s.weight_elems()), 4);
  Buffer bi = dev.upload(std::span<const uint16_t>(in), "input"), bw = dev.upload(std::span<const uint16_t>(w), "weight");
  Buffer bo = dev.alloc(size_t(s.output_elems()) * 2, "output");
  KernelArgs args;
  args.ptr(bi).ptr(bw).ptr(bo);
  codegen::DwConvGeometry g = codegen::dwconv_geometry(s, arch, v);
  dev.launch(k, Dim3{uint32_t(g.grid_x), 1, 1}, Dim3{uint32_t(codegen::DwConvGeometry::kThreads), 1, 1}, 0, args);
}

std::vector<Case> codegen_kernels() {
  std::vector<Case> cases;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const char* name : examples::kBuiltinNames) {
      std::string n = name;
      cases.push_back({n, arch,
                       [n, arch](const BuildOptions& o) {
                         Kernel k(n, arch);
                         examples::define_builtin(k, n);
                         return k.build(o);
                       },
                       [n](Device& d, const DeviceKernel& k) { run_example(d, k, n == "bf16_dot"); }, true});
    }
    for (const codegen::DwVariantInfo& vi : codegen::dw_variants()) {
      codegen::DwVariant v = vi.id;
      if (!codegen::variant_available(v, arch)) continue;
      cases.push_back({"dwconv3d." + std::string(codegen::variant_name(v)), arch,
                       [v, arch](const BuildOptions& o) { return codegen::build_dwconv3d(small_shape(v), v, arch, o); },
                       [arch, v](Device& d, const DeviceKernel& k) { run_dwconv(d, k, arch, v); },
                       vi.schedule != codegen::DwSchedule::sched_groups});
    }
  }
  return cases;
}

// Runs on the simulator (one host thread, so the first finding is deterministic) with the
// wait-count checker on; returns "" or the simulator's message.
std::string dynamic_error(const Case& c, std::span<const uint8_t> code_object, const std::string& name) {
  sim::Options so;
  so.check_waitcnt = true;
  so.threads = 1;
  auto dev = open_sim_device(c.arch, so);
  Module m = dev->load(code_object);
  try {
    c.run(*dev, m.kernel(name));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
std::string dynamic_waitcnt_error(const Case& c, const BuildResult& r) {
  return dynamic_error(c, r.code_object, r.name);
}

// A location: the byte offset of an instruction in the kernel and one register
// ("v5", "s12", "a3", "vcc_lo", "m0"), "LDS", or the stores an s_barrier releases
// ("LDS stores", "global stores").
struct Site {
  uint64_t pc;
  std::string reg;
  bool operator<(const Site& o) const { return std::tie(pc, reg) < std::tie(o.pc, o.reg); }
};

// The simulator's wait-count finding as a Site, or nothing when the message is not a
// wait-count finding (an out-of-bounds access, a decode error, ...).
std::optional<Site> dynamic_site(const std::string& msg) {
  static const std::regex reg_use(R"(, pc 0x([0-9a-f]+) '[^']*', .*: (?:reads|overwrites) (\S+) while the load at pc )");
  static const std::regex lds_use(R"(, pc 0x([0-9a-f]+) '[^']*', .*: (?:reads|writes) LDS bytes .* that the LDS DMA at pc .* has not completed)");
  // Store visibility: another wave read a store the writer did not wait for before the barrier;
  // the static verifier reports the missing wait at that barrier.
  static const std::regex released(
      R"(: (?:reads|writes) (LDS|global) bytes .* that wave \d+ of this workgroup stored .* passed the s_barrier at pc 0x([0-9a-f]+) )");
  std::smatch m;
  if (std::regex_search(msg, m, reg_use)) return Site{std::stoull(m[1], nullptr, 16), m[2]};
  if (std::regex_search(msg, m, lds_use)) return Site{std::stoull(m[1], nullptr, 16), "LDS"};
  if (std::regex_search(msg, m, released)) return Site{std::stoull(m[2], nullptr, 16), m[1].str() + " stores"};
  return std::nullopt;
}

// Every register a static finding names (its "reads ... and overwrites ..." part), one
// Site per register, at the finding's pc.
void add_static_sites(const std::string& msg, uint64_t pc, std::set<Site>& out) {
  size_t from = msg.find(") ", msg.find("(instruction #"));
  std::string uses = msg.substr(from, msg.find(" while the ") - from);
  static const std::regex range(R"(\b([sva])\[(\d+):(\d+)\])"), single(R"(\b([sva])(\d+)\b)");
  for (std::sregex_iterator it(uses.begin(), uses.end(), range), end; it != end; ++it)
    for (int r = std::stoi((*it)[2]); r <= std::stoi((*it)[3]); ++r) out.insert({pc, (*it)[1].str() + std::to_string(r)});
  std::string rest = std::regex_replace(uses, range, "");
  for (std::sregex_iterator it(rest.begin(), rest.end(), single), end; it != end; ++it)
    out.insert({pc, (*it)[1].str() + (*it)[2].str()});
  for (const char* special : {"vcc_lo", "vcc", "m0", "exec", "LDS", "LDS stores", "global stores"})
    if (rest.find(special) != std::string::npos) out.insert({pc, special == std::string("vcc") ? "vcc_lo" : special});
}

struct Judgement {
  std::set<Site> static_sites;
  size_t static_findings = 0;
  std::string dynamic;  // "" when the simulator ran clean
};

// Assembles and links `text` (a kernel's complete .s), runs the static wait-count
// verifier over its instructions and the simulator over its code object.
Judgement judge(const Case& c, const std::string& text, const std::string& name) {
  AsmResult ar = assemble(text, c.arch);
  if (!ar.ok) throw Error("test: the edited .s does not assemble:\n" + format_diagnostics(ar.diagnostics));
  std::vector<uint8_t> co = link_code_object(ar.object, c.arch);
  Judgement j;
  std::vector<isa::MachineInst> prog = test::program_of_assembly(text, name);
  // pc of each instruction, from the simulator's own decoding of the code object.
  sim::Simulator decoder(c.arch);
  std::istringstream dis(decoder.disassemble(read_code_object(co), name));
  std::vector<uint64_t> pcs;
  for (std::string line; std::getline(dis, line);) pcs.push_back(std::stoull(line, nullptr, 16));
  std::vector<size_t> ordinal(prog.size());
  size_t n = 0;
  for (size_t i = 0; i < prog.size(); ++i) ordinal[i] = prog[i].label_def.empty() ? n++ : n;
  if (n != pcs.size())
    throw Error("test: " + std::to_string(n) + " instructions in the .s but " + std::to_string(pcs.size()) +
                " decoded");
  for (const passes::Finding& f : passes::run_waitcnt(prog, c.arch, passes::Mode::Verify).findings) {
    if (f.rule != "waitcnt" && f.rule != "waitcnt-lds-dma") continue;
    ++j.static_findings;
    add_static_sites(f.message, pcs[ordinal[f.index]], j.static_sites);
  }
  j.dynamic = dynamic_error(c, co, name);
  return j;
}

// The .s with its k-th s_waitcnt line (counting only lines inside the kernel body) removed;
// "" when there are fewer than k + 1.
std::string without_wait(const std::string& text, const std::string& name, int k) {
  std::istringstream in(text);
  std::string out, line;
  bool inside = false, removed = false;
  int seen = 0;
  while (std::getline(in, line)) {
    if (line == name + ":") inside = true;
    if (line.rfind(".L" + name + "_end:", 0) == 0) inside = false;
    std::string code = line.substr(0, line.find(';'));
    code.erase(0, code.find_first_not_of(" \t"));
    if (inside && code.rfind("s_waitcnt", 0) == 0 && seen++ == k) {
      removed = true;
      continue;
    }
    out += line + "\n";
  }
  return removed ? out : "";
}

// Checks one judgement: any simulator error must be a wait-count finding whose site the
// static verifier also reports. Returns true when the simulator found something; counts
// the findings that met the rule in *matched.
bool check_dynamic_among_static(const Judgement& j, int* matched = nullptr) {
  INFO("dynamic: " << (j.dynamic.empty() ? "clean" : j.dynamic.substr(0, 400)));
  INFO("static findings: " << j.static_findings);
  if (j.dynamic.empty()) return false;
  std::optional<Site> d = dynamic_site(j.dynamic);
  if (!d) {
    FAIL_CHECK("the simulator stopped on something other than a wait-count finding");
    return true;
  }
  INFO("dynamic site: pc 0x" << std::hex << d->pc << " " << d->reg);
  CHECK(j.static_sites.count(*d) == 1);
  if (matched) *matched += j.static_sites.count(*d) == 1;
  return true;
}

}  // namespace

TEST_CASE("static and dynamic wait-count checkers agree, location by location", "[passes][sim][agreement]") {
  int kernels = 0, drops = 0, dynamic_findings = 0, matched = 0, static_only = 0, both_clean = 0;
  for (const Case& c : codegen_kernels()) {
    INFO(c.label << " " << arch_name(c.arch));
    ++kernels;
    BuildOptions o;
    o.waitcnt = PassMode::Verify;  // insert nothing: judge the program as written
    BuildResult r = c.build(o);
    Judgement full = judge(c, r.assembly, r.name);
    if (c.author_waits) {
      // As written, the codegen kernels carry correct waits of their own.
      CHECK(full.static_findings == 0);
      CHECK(full.dynamic.empty());
    } else {
      // Kernels placed by jit::Interleave leave their compute waits to the pass:
      // as written, both checkers must find the missing waits, at the same place.
      CHECK(full.static_findings > 0);
      CHECK(check_dynamic_among_static(full));
    }
    // Every author wait dropped at once.
    {
      INFO("all author waits dropped");
      o.drop_author_waits = true;
      BuildResult bare = c.build(o);
      o.drop_author_waits = false;
      Judgement j = judge(c, bare.assembly, bare.name);
      CHECK(check_dynamic_among_static(j));  // stripping every wait must show up dynamically
      CHECK(j.static_findings > 0);
    }
    // Each author wait dropped alone.
    for (int k = 0;; ++k) {
      std::string text = without_wait(r.assembly, r.name, k);
      if (text.empty()) break;
      INFO("author wait #" << k << " dropped");
      ++drops;
      Judgement j = judge(c, text, r.name);
      bool dyn = check_dynamic_among_static(j, &matched);
      dynamic_findings += dyn;
      static_only += !dyn && j.static_findings > 0;
      both_clean += !dyn && j.static_findings == 0;
    }
  }
  std::printf("wait-count agreement: %d kernels, %d single-wait drops: %d with a simulator finding (%d of them at "
              "a pc and register the static verifier also reports), %d with static findings only (the static pass is conservative over all paths and "
              "data; the run with these inputs never reached them), %d clean in both\n",
              kernels, drops, dynamic_findings, matched, static_only, both_clean);
  CHECK(drops > 0);
  CHECK(dynamic_findings > 0);
}

TEST_CASE("auto-mode builds contain no redundant wait and run clean", "[passes][sim][agreement]") {
  for (const Case& c : codegen_kernels()) {
    for (bool drop : {false, true}) {
      INFO(c.label << " " << arch_name(c.arch) << (drop ? " without author waits" : ""));
      BuildOptions o;
      o.drop_author_waits = drop;
      BuildResult r = c.build(o);
      std::vector<isa::MachineInst> prog = test::program_of_assembly(r.assembly, r.name);
      std::vector<passes::Finding> redundant = passes::find_redundant_waits(prog, c.arch);
      for (const auto& f : redundant) INFO(f.message);
      CHECK(redundant.empty());
      std::string dyn = dynamic_waitcnt_error(c, r);
      INFO("dynamic: " << dyn);
      CHECK(dyn.empty());
    }
  }
}

namespace {

// A random program that can run: a fixed prologue loads the buffer pointer and makes
// v30 = lane * 4 (a valid offset into the buffer and into LDS); the random body uses
// only v1..v15 / s4..s11, memory at v30 (+ fixed offsets) and forward branches, and
// carries no wait of its own.
std::vector<std::string> random_executable_program(std::mt19937& rng) {
  auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
  auto v = [&] { return "v" + std::to_string(1 + pick(15)); };
  auto s = [&] { return "s" + std::to_string(4 + pick(8)); };
  std::vector<std::string> lines = {"s_load_dwordx2 s[2:3], s[0:1], 0x0", "v_lshlrev_b32_e32 v30, 2, v0",
                                    "s_waitcnt lgkmcnt(0)"};
  int labels = 0;
  for (int k = 0, n = 20 + pick(30); k < n; ++k) {
    switch (pick(10)) {
      case 0: lines.push_back("global_load_dword " + v() + ", v30, s[2:3] offset:" + std::to_string(256 * pick(3))); break;
      case 1: lines.push_back("ds_read_b32 " + v() + ", v30 offset:" + std::to_string(256 * pick(2))); break;
      case 2: lines.push_back("s_load_dword " + s() + ", s[0:1], " + std::to_string(4 * pick(3))); break;
      case 3: lines.push_back("v_add_f32_e32 " + v() + ", " + v() + ", " + v()); break;
      case 4: lines.push_back("v_mov_b32_e32 " + v() + ", " + s()); break;
      case 5: lines.push_back("global_store_dword v30, " + v() + ", s[2:3] offset:" + std::to_string(1024 + 256 * pick(2))); break;
      case 6: lines.push_back("ds_write_b32 v30, " + v() + " offset:512"); break;
      case 7: lines.push_back("v_readfirstlane_b32 " + s() + ", " + v()); break;
      case 8: lines.push_back("v_exp_f32_e32 " + v() + ", " + v()); break;
      case 9: {  // forward branch on a compare of two random SGPRs
        std::string l = ".Lr" + std::to_string(labels++);
        lines.push_back("s_cmp_lt_u32 " + s() + ", " + s());
        lines.push_back("s_cbranch_scc0 " + l);
        lines.push_back("v_add_f32_e32 " + v() + ", " + v() + ", " + v());
        lines.push_back(l + ":");
        break;
      }
    }
  }
  lines.push_back("s_endpgm");
  return lines;
}

KernelDescriptorSpec random_program_spec(Arch arch) {
  KernelDescriptorSpec k;
  k.name = "random_program";
  k.arch = arch;
  k.vgpr_count = 32;
  k.sgpr_count = 16;
  k.lds_bytes = 1024;
  k.kernarg_size = 16;
  k.max_flat_workgroup_size = 64;
  k.args = {{"p", 8, 0, ArgValueKind::GlobalBuffer, "global", false, ArgAccess::ReadWrite, "float*"},
            {"x", 4, 8, ArgValueKind::ByValue, "", false, ArgAccess::Default, "int"}};
  return k;
}

std::vector<isa::MachineInst> parse_lines(const std::vector<std::string>& lines) {
  std::vector<isa::MachineInst> prog;
  for (const std::string& l : lines) {
    isa::MachineInst mi;
    std::string err;
    if (!isa::parse(l, mi, err)) throw Error("test: cannot parse '" + l + "': " + err);
    prog.push_back(std::move(mi));
  }
  return prog;
}

// One wave of 64 lanes over a 2 KiB buffer of small values.
void run_random_program(Device& dev, const DeviceKernel& k) {
  std::vector<float> host(512);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i % 7) * 0.25f;
  Buffer buf = dev.upload(std::span<const float>(host), "buffer");
  KernelArgs args;
  args.ptr(buf).u32(5);
  dev.launch(k, Dim3{1, 1, 1}, Dim3{64, 1, 1}, 0, args);
}

}  // namespace

TEST_CASE("Auto output of random executable programs runs clean under the simulator's wait-count checker",
          "[passes][sim][agreement][random]") {
  std::mt19937 rng(uint32_t(cdnajit::test::test_seed("random executable programs", 2026)));
  const int programs = 60;
  int bare_findings = 0, bare_matched = 0, waits = 0, clean = 0;
  for (int n = 0; n < programs; ++n) {
    Arch arch = n % 2 ? Arch::gfx950 : Arch::gfx942;
    std::vector<std::string> lines = random_executable_program(rng);
    std::string listing;
    for (const std::string& l : lines) listing += l + "\n";
    INFO(arch_name(arch) << " program " << n << ":\n" << listing);
    Case c{"random_program", arch, nullptr, run_random_program};
    KernelDescriptorSpec spec = random_program_spec(arch);
    // As generated (no waits in the body): run through the same location check as above.
    std::vector<isa::MachineInst> bare = parse_lines(lines);
    passes::run_hazards(bare, arch, passes::Mode::Auto);  // hazards fixed, waits left out
    std::string bare_body;
    for (const auto& mi : bare) {
      bare_body += '\t';
      bare_body += isa::print(mi);
      bare_body += '\n';
    }
    Judgement jb = judge(c, render_kernel_file(spec, bare_body), spec.name);
    bool found = check_dynamic_among_static(jb, &bare_matched);
    bare_findings += found;
    // After Auto: the simulator must run it clean.
    std::vector<isa::MachineInst> fixed = parse_lines(lines);
    waits += passes::run_waitcnt(fixed, arch, passes::Mode::Auto).waits_inserted;
    passes::run_hazards(fixed, arch, passes::Mode::Auto);
    std::string body;
    for (const auto& mi : fixed) {
      body += '\t';
      body += isa::print(mi);
      body += '\n';
    }
    Judgement j = judge(c, render_kernel_file(spec, body), spec.name);
    INFO("dynamic after Auto: " << j.dynamic.substr(0, 400));
    CHECK(j.static_findings == 0);
    CHECK(j.dynamic.empty());
    clean += j.dynamic.empty();
  }
  std::printf("random executable programs: %d programs, Auto inserted %d waits, %d outputs ran clean; without "
              "those waits the simulator stopped %d times, %d of them at a pc and register the static verifier "
              "reports\n",
              programs, waits, clean, bare_findings, bare_matched);
  CHECK(bare_findings >= programs / 2);  // the programs do depend on their waits
}
