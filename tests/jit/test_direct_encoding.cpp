// The direct MCInst encoder (Encoder::Direct) against the text path (Encoder::Text,
// LLVM's assembly parser), which is the reference: every built-in kernel and a
// sample of every ISA-table row on each arch must give byte-identical
// relocatable objects and code objects both ways. Rows whose shapes cannot be
// encoded directly must be listed in direct_encoding_fallback.txt (and rows
// listed there must still need it: the list may only shrink).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "jit/asm/assemble.hpp"
#include "jit/asm/direct_assemble.hpp"
#include "jit/asm/mcinst_encoder.hpp"
#include "jit/asm/subprocess_toolchain.hpp"
#include "codegen/gemm.hpp"
#include "tests/test_support.hpp"
#include "jit/kernel.hpp"
#include "tests/asm/test_kernels.hpp"
#include "jit/isa/sample_inst.hpp"
#include "tools/builtin_kernels.hpp"

using namespace cdnajit;

namespace {

// First differing byte, for a readable failure.
std::string first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return "first difference at byte " + std::to_string(i);
  if (a.size() != b.size()) return "sizes differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  return "identical";
}

// "arch mnemonic" lines of the fallback list (comments and blank lines skipped).
std::set<std::string> read_fallback_list() {
  std::ifstream in(CDNAJIT_DIRECT_FALLBACK_LIST);
  REQUIRE(in.good());
  std::set<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string arch, mnemonic;
    if (words >> arch >> mnemonic) out.insert(arch + " " + mnemonic);
  }
  return out;
}

}  // namespace

TEST_CASE("every built-in kernel encodes directly to the same bytes as through the text parser",
          "[jit][direct]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const std::string& name : builtin_kernel_names()) {
      INFO(name << " on " << arch_name(arch));
      BuildOptions text_opts, direct_opts;
      text_opts.use_cache = direct_opts.use_cache = false;
      text_opts.encoder = Encoder::Text;
      direct_opts.encoder = Encoder::Direct;
      BuildResult text, direct;
      try {
        text = build_builtin_kernel(name, arch, text_opts);
      } catch (const Error& e) {
        // Some built-ins need gfx950 instructions; the direct path must refuse them the same way.
        CHECK_THROWS_AS(build_builtin_kernel(name, arch, direct_opts), Error);
        continue;
      }
      direct = build_builtin_kernel(name, arch, direct_opts);
      CHECK(direct.assembly == text.assembly);
      CHECK_FALSE(direct.stats.text_fallback);
      CHECK(direct.stats.text_insts == 0);  // every instruction of the built-ins has a template
      CHECK(direct.stats.direct_insts > 0);
      CHECK(text.stats.direct_insts == 0);
      INFO(first_difference(direct.code_object, text.code_object));
      CHECK(direct.code_object == text.code_object);
    }
  }
}

TEST_CASE("every ISA-table row encodes directly to the same bytes, or is on the fallback list", "[jit][direct]") {
  const std::set<std::string> listed = read_fallback_list();
  std::set<std::string> used;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << arch_name(arch));
    std::vector<isa::MachineInst> prog;
    std::map<std::string, std::string> not_direct;  // mnemonic -> reason
    McInstEncoder& encoder = McInstEncoder::for_arch(arch);
    int rows = 0, direct_rows = 0;
    for (const isa::InstrInfo& e : isa::table()) {
      if (!e.on(arch)) continue;
      ++rows;
      bool row_direct = true;
      for (bool with_mods : {false, true}) {
        if (with_mods && e.mods == isa::kModNone) continue;
        isa::MachineInst mi = isa::test::sample_instruction(e, with_mods);
        McInstEncoder::ShapeReport rep = encoder.describe(mi);
        if (rep.direct) CHECK_FALSE(rep.opcode.empty());  // the LLVM opcode the row maps to, by name
        if (!rep.direct) {
          row_direct = false;
          not_direct.emplace(std::string(e.mnemonic), rep.why_not);
        }
        prog.push_back(std::move(mi));
      }
      direct_rows += row_direct;
    }
    isa::MachineInst label;
    label.label_def = isa::test::kSampleLabel;
    prog.push_back(label);

    // Each row not encoded directly must be listed, and each listed row must still need the list.
    for (const auto& [mnemonic, why] : not_direct) {
      std::string entry = std::string(arch_name(arch)) + " " + mnemonic;
      INFO(entry << ": " << why);
      CHECK(listed.count(entry) == 1);
      used.insert(entry);
    }
    WARN(arch_name(arch) << ": " << direct_rows << " of " << rows << " table rows encode directly, "
                         << not_direct.size() << " use the text path (listed)");

    // All samples in one object, both ways: byte-identical (rows on the list go through text).
    std::string text;
    for (const isa::MachineInst& mi : prog) text += (mi.label_def.empty() ? "  " : "") + isa::print(mi) + "\n";
    AsmResult reference = assemble(text, arch);
    INFO(format_diagnostics(reference.diagnostics));
    REQUIRE(reference.ok);
    DirectAsmResult direct = assemble_direct("", prog, "", arch);
    INFO(format_diagnostics(direct.result.diagnostics));
    REQUIRE(direct.result.ok);
    CHECK(direct.text_insts + direct.direct_insts == int(prog.size()) - 1);
    INFO(first_difference(direct.result.object, reference.object));
    CHECK(direct.result.object == reference.object);
  }
  for (const std::string& entry : listed) {
    INFO("listed but encodes directly now (delete the line): " << entry);
    CHECK(used.count(entry) == 1);
  }
}

TEST_CASE("direct encoding fills registers, immediates, offsets and labels of a learned shape", "[jit][direct]") {
  // Same shapes, different values: the second program reuses the first one's templates.
  auto program = [](int base, int imm, int offset) {
    std::vector<isa::MachineInst> p;
    isa::MachineInst add, load, branch, label, lit;
    add.info = isa::find("v_add_u32");
    add.operands = {isa::Operand::reg(isa::RegFile::VGPR, uint16_t(base)),
                    isa::Operand::immediate(imm), isa::Operand::reg(isa::RegFile::VGPR, uint16_t(base + 1))};
    load.info = isa::find("ds_read_b32");
    load.operands = {isa::Operand::reg(isa::RegFile::VGPR, uint16_t(base + 2)),
                     isa::Operand::reg(isa::RegFile::VGPR, uint16_t(base + 3))};
    load.mods.offset = offset;
    lit.info = isa::find("s_add_u32");
    lit.operands = {isa::Operand::reg(isa::RegFile::SGPR, uint16_t(base)),
                    isa::Operand::reg(isa::RegFile::SGPR, uint16_t(base + 1)), isa::Operand::immediate(imm * 1000)};
    branch.info = isa::find("s_branch");
    branch.operands = {isa::Operand::target("L" + std::to_string(base))};
    label.label_def = "L" + std::to_string(base);
    return std::vector<isa::MachineInst>{add, load, lit, branch, label};
  };
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (auto [base, imm, offset] : {std::tuple{2, 3, 8}, std::tuple{40, 61, 4000}, std::tuple{7, -5, 12}}) {
      std::vector<isa::MachineInst> p = program(base, imm, offset);
      std::string text;
      for (const isa::MachineInst& mi : p) text += (mi.label_def.empty() ? "  " : "") + isa::print(mi) + "\n";
      AsmResult reference = assemble(text, arch);
      REQUIRE(reference.ok);
      DirectAsmResult direct = assemble_direct("", p, "", arch);
      REQUIRE(direct.result.ok);
      CHECK(direct.direct_insts == 4);
      CHECK(direct.result.object == reference.object);
    }
  }
}

TEST_CASE("raw lines and instructions without a template go through the text parser in place", "[jit][direct]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    // A kernel with a raw-escape line between directly encoded instructions, a loop and a label.
    auto build = [arch](Encoder e) {
      Kernel k("raw_mix", arch);
      Reg s = k.sgpr("counter");
      Reg v = k.vgpr("x");
      k.s_mov_b32(s, 4);
      k.v_mov_b32(v, 0);
      k.raw("v_add_u32 {0}, 1, {0}", {v}, {0});
      k.do_while_scc([&] { k.s_sub_u32(s, s, 1); }, [&] { k.s_cmp_lg_u32(s, 0); });
      BuildOptions o;
      o.use_cache = false;
      o.encoder = e;
      return k.build(o);
    };
    BuildResult text = build(Encoder::Text), direct = build(Encoder::Direct);
    CHECK(direct.stats.raw_lines == 1);
    CHECK(direct.stats.text_insts == 0);
    CHECK(direct.stats.direct_insts > 3);
    CHECK(text.stats.raw_lines == 1);
    CHECK(direct.assembly == text.assembly);
    CHECK(direct.code_object == text.code_object);

    // A branch as the decoder gives it (a byte address, no label name) has no shape: it is
    // assembled from its text, counted, and the object is the same as the text path's.
    isa::MachineInst nop, branch;
    nop.info = isa::find("s_nop");
    nop.operands = {isa::Operand::immediate(1)};
    branch.info = isa::find("s_branch");
    isa::Operand target;
    target.kind = isa::Operand::Kind::Label;
    target.imm = 0;  // back to address 0
    branch.operands = {target};
    branch.address = 4;
    std::vector<isa::MachineInst> p{nop, branch, nop};
    std::string t;
    for (const isa::MachineInst& mi : p) t += "  " + isa::print(mi) + "\n";
    AsmResult reference = assemble(t, arch);
    REQUIRE(reference.ok);
    DirectAsmResult d = assemble_direct("", p, "", arch);
    REQUIRE(d.result.ok);
    CHECK(d.text_insts == 1);
    CHECK(d.direct_insts == 2);
    CHECK(d.result.object == reference.object);
  }
}

TEST_CASE("the metadata note emitted directly equals the one LLVM builds from the YAML text", "[jit][direct]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    KernelDescriptorSpec no_args = test::minimal_spec(arch);
    no_args.name = "no_args";
    no_args.args.clear();
    KernelDescriptorSpec numeric_name = test::scale_spec(arch);  // YAML reads the argument name '12' as an integer
    numeric_name.args[0].name = "12";
    KernelDescriptorSpec spaced = test::scale_spec(arch);  // not plain: keeps the YAML text
    spaced.args[1].type_name = "const float *";
    struct Case {
      KernelDescriptorSpec spec;
      bool direct;
      bool assembles;
    };
    for (const Case& c : {Case{test::scale_spec(arch), true, true}, Case{test::minimal_spec(arch), true, true},
                          Case{no_args, true, true}, Case{numeric_name, true, false}, Case{spaced, false, true}}) {
      INFO(arch_name(arch) << " kernel " << c.spec.name);
      isa::MachineInst endpgm;
      endpgm.info = isa::find("s_endpgm");
      AsmResult reference = assemble(render_kernel_file(c.spec, "  s_endpgm\n"), arch);
      DirectAsmResult d = assemble_direct(render_file_header(arch) + render_code_begin(c.spec), {endpgm},
                                          render_code_end(c.spec) + render_amdhsa_kernel(c.spec), arch, &c.spec);
      CHECK(d.metadata_direct == c.direct);
      CHECK(reference.ok == c.assembles);  // the numeric name fails LLVM's metadata verifier
      CHECK(d.result.ok == reference.ok);
      CHECK(d.result.object == reference.object);
    }
  }
}

TEST_CASE("builds after failed and larger ones on the same thread give the same bytes", "[jit][direct]") {
  // A build reuses its thread's program and regalloc buffers and the passes' arrays
  // (build.cpp, waitcnt.cpp, hazard_driver.cpp). A build that throws part-way leaves them
  // filled, and a large kernel leaves them large: the next build must see none of it.
  BuildOptions o;
  o.use_cache = false;
  o.encoder = Encoder::Direct;
  const std::vector<uint8_t> small = build_builtin_kernel("vector_add", Arch::gfx950, o).code_object;
  const std::vector<uint8_t> large = build_builtin_kernel("dwconv3d_seed.lds_fmac", Arch::gfx950, o).code_object;
  CHECK(build_builtin_kernel("vector_add", Arch::gfx950, o).code_object == small);
  {
    Kernel k("undefined_read", Arch::gfx950);  // fails in the definedness check, after regalloc's input is filled
    Reg out = k.vgpr("out"), x = k.vgpr("x");
    k.v_add_f32(out, x, x);
    CHECK_THROWS_WITH(k.build(o), Catch::Contains("register 'x'"));
  }
  CHECK(build_builtin_kernel("vector_add", Arch::gfx950, o).code_object == small);
  {
    Kernel k("rejected_raw", Arch::gfx950);  // fails in LLVM's assembler, after lowering and the passes
    Reg v = k.vgpr("x");
    k.v_mov_b32(v, 0);
    k.raw("v_add_u32 {0}, 1, {0}, 7", {v}, {0});
    CHECK_THROWS_WITH(k.build(o), Catch::Contains("LLVM MC rejected kernel 'rejected_raw'"));
  }
  CHECK(build_builtin_kernel("dwconv3d_seed.lds_fmac", Arch::gfx950, o).code_object == large);
  CHECK(build_builtin_kernel("vector_add", Arch::gfx950, o).code_object == small);
}

TEST_CASE("direct builds from several threads at once give the single-threaded bytes", "[jit][direct]") {
  // Each thread has its own LLVM MC objects and templates (mc_arch.hpp, mcinst_encoder.hpp)
  // and its own program, regalloc and pass buffers (build.cpp, passes); the metadata note and
  // the streamer are per build. Reference: this thread's builds.
  struct Job {
    std::string name;
    Arch arch;
    std::vector<uint8_t> code_object;
  };
  std::vector<Job> jobs;
  BuildOptions o;
  o.use_cache = false;
  o.encoder = Encoder::Direct;
  for (Arch arch : {Arch::gfx942, Arch::gfx950})
    for (const std::string& name : builtin_kernel_names()) {
      try {
        jobs.push_back({name, arch, build_builtin_kernel(name, arch, o).code_object});
      } catch (const Error&) {
        // gfx950-only kernel on gfx942: covered by the first test case
      }
    }
  REQUIRE(jobs.size() > 10);
  constexpr int kThreads = 4;
  std::vector<std::string> failures[kThreads];
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 2; ++round)
        for (size_t j = 0; j < jobs.size(); ++j) {
          const Job& job = jobs[(j + size_t(t) * 5) % jobs.size()];  // threads start at different kernels
          try {
            BuildResult r = build_builtin_kernel(job.name, job.arch, o);
            if (r.code_object != job.code_object || r.stats.text_fallback)
              failures[t].push_back(job.name + " on " + std::string(arch_name(job.arch)));
          } catch (const std::exception& e) {
            failures[t].push_back(job.name + ": " + e.what());
          }
        }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    for (const std::string& f : failures[t]) UNSCOPED_INFO(f);
    CHECK(failures[t].empty());
  }
}

TEST_CASE("the direct encoder refuses what LLVM's parser refuses: a misaligned tuple", "[jit][direct][align]") {
  // ds_read_b64 v[3:4], v0: a learned template would take any register pair; LLVM's parser
  // says "invalid operand for instruction" (gfx90a+ tuples start at an even register).
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    isa::MachineInst mi;
    mi.info = isa::find("ds_read_b64");
    mi.mnemonic = "ds_read_b64";
    mi.operands = {isa::Operand::reg(isa::RegFile::VGPR, 3, 2), isa::Operand::reg(isa::RegFile::VGPR, 0)};
    CHECK_FALSE(assemble("  " + isa::print(mi) + "\n", arch).ok);
    DirectAsmResult d = assemble_direct("", {mi}, "", arch);
    CHECK_FALSE(d.result.ok);
    CHECK(d.direct_insts == 0);
    CHECK_THAT(format_diagnostics(d.result.diagnostics), Catch::Contains("multiple of 2") && Catch::Contains("v[3:4]"));
    mi.operands[0].index = 4;  // v[4:5]: both accept, same bytes
    AsmResult ref = assemble("  " + isa::print(mi) + "\n", arch);
    DirectAsmResult ok = assemble_direct("", {mi}, "", arch);
    REQUIRE(ref.ok);
    REQUIRE(ok.result.ok);
    CHECK(ok.result.object == ref.object);
  }
}

TEST_CASE("a kernel that repeats most of its instructions encodes as llvm-mc-22 encodes it", "[jit][direct][needs_llvm_tools]") {
  // The in-process code emitter answers an instruction it has already encoded in the same
  // assembly from the bytes it gave the first time (jit/asm/memo_code_emitter.hpp). The
  // 8-wave ping-pong GEMM repeats most of its ~2,800 instructions (~700 distinct), so nearly
  // every instruction is such an answer; llvm-mc-22, a separate process, encodes each one.
  SubprocessToolchain tools;
  try {
    tools = SubprocessToolchain::find();
  } catch (const Error& e) {
    CDNAJIT_SKIP(std::string("llvm-mc / ld.lld executables not found: ") + e.what());
  }
  codegen::GemmShape shape;
  shape.M = shape.N = shape.K = 512;
  codegen::GemmConfig cfg;
  cfg.tile_m = cfg.tile_n = 256, cfg.waves_m = 2, cfg.waves_n = 4, cfg.tile_k = 64;
  cfg.lds_dma = cfg.pingpong = true;
  BuildOptions o;
  o.use_cache = false;
  o.linker = Linker::Lld;  // the direct encoder's object, linked as ld.lld links llvm-mc's
  const BuildResult r = codegen::build_gemm(codegen::make_gemm_plan(shape, Arch::gfx950, cfg), o);
  REQUIRE(r.stats.instructions > 2000);
  CHECK(r.stats.direct_insts == r.stats.instructions);
  const std::vector<uint8_t> external = tools.assemble_and_link(r.assembly, Arch::gfx950);
  INFO(first_difference(r.code_object, external));
  CHECK(r.code_object == external);
  // The text path (LLVM's parser, the same code emitter) gives llvm-mc's relocatable object.
  const AsmResult text = assemble(r.assembly, Arch::gfx950);
  REQUIRE(text.ok);
  CHECK(text.object == tools.assemble(r.assembly, Arch::gfx950));
}
