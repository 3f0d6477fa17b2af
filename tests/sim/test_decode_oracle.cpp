// The binary decoder (runtime/sim/decode_binary.hpp) against the LLVM text oracle: every kernel
// here is decoded both ways and every field of every Op must agree. Kernels: every table row's
// sample instance (plain, with its modifiers, and the VOP3 form of the VOP1/VOP2/VOPC rows) for
// both archs, and the clang-22 kernels of tests/isa/kernels. The clang-22 corpus of tests/sim is
// compared by running those suites with CDNAJIT_DECODE_ORACLE=1 (tests/sim/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "jit/asm/assemble.hpp"
#include "jit/isa/machine_inst.hpp"
#include "jit/isa/sample_inst.hpp"
#include "runtime/sim/decode_opcode_learn.hpp"
#include "runtime/sim/decode_opcode_map.hpp"
#include "runtime/sim/decode_paths.hpp"
#include "tests/isa/llvm_helpers.hpp"

using namespace cdnajit;

namespace {

struct Tally {
  int insts = 0, invalid = 0, text_differs = 0;
};

void compare(const CodeObject& co, const KernelInfo& k, Tally& t) {
  auto native = sim::decode_kernel(co, k);
  auto oracle = sim::decode_kernel_llvm_text(co, k);
  t.insts += int(native->ops.size());
  for (size_t i = 0; i < native->ops.size() && i < oracle->ops.size(); ++i) {
    t.invalid += native->ops[i].text.rfind("<", 0) == 0;
    if (native->ops[i].text != oracle->ops[i].text) {
      ++t.text_differs;
      if (std::getenv("SHOW_TEXT")) std::printf("TEXT [%s] vs [%s]\n", native->ops[i].text.c_str(), oracle->ops[i].text.c_str());
    }
  }
  const std::string diff = sim::decoded_difference(*native, *oracle);
  INFO(diff);
  CHECK(diff.empty());
}

CodeObject bare_code(Arch arch, const std::vector<uint8_t>& text) {
  CodeObject co;
  co.arch = arch;
  co.text = text;
  KernelInfo k;
  k.name = "samples";
  k.code_size = text.size();
  co.kernels.push_back(k);
  return co;
}

void report(const char* what, Arch arch, const Tally& t) {
  std::printf("%s %s: %d instructions compared (%d not instructions); listing text differs from LLVM's in %d\n",
              what, std::string(arch_name(arch)).c_str(), t.insts, t.invalid, t.text_differs);
}

}  // namespace

TEST_CASE("binary decoder = LLVM text oracle on every table row's samples", "[sim][decode]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    const sim::OpcodeMap& map = sim::opcode_map(arch);
    std::printf("opcode map %s: %d rows, %d forms learned, %d samples refused by LLVM (rows without a VOP3 form), %d scaled MFMAs (VOP3PX), learned at build time in %.1f ms\n",
                std::string(arch_name(arch)).c_str(), map.rows, map.forms_learned, map.forms_refused, map.forms_prefixed,
                map.build_ms);
    INFO(map.collisions);
    CHECK(map.collisions.empty());
    // The generated table is what LLVM MC says now (the build regenerates it when the table or the
    // learner changes; this catches an LLVM whose encodings differ from the build's).
    const std::unique_ptr<sim::OpcodeMap> learned = sim::learn_opcode_map(arch);
    for (int f = 0; f < sim::kFormatCount; ++f) {
      const auto& a = map.by_format[size_t(f)];
      const auto& b = learned->by_format[size_t(f)];
      CHECK(a.size() == b.size());
      for (const auto& [field, e] : b) {
        const sim::OpcodeEntry* g = map.find(sim::Format(f), field);
        REQUIRE(g);
        CHECK(g->opcode == e.opcode);
        CHECK(g->promoted == e.promoted);
      }
    }
    CHECK(map.scaled_mfma == learned->scaled_mfma);
    CHECK(map.has_vop3_form == learned->has_vop3_form);
    CHECK(map.op_sel_dst_follows_sources == learned->op_sel_dst_follows_sources);
    Tally t;
    // Variants: plain, every modifier the row takes, and op_sel naming the destination.
    for (int variant : {0, 1, 2}) {
      for (bool e64 : {false, true}) {
        std::string text;
        for (const isa::InstrInfo& row : isa::table()) {
          if (!row.on(arch)) continue;
          isa::MachineInst mi = isa::sample_instruction(row, variant == 1);
          if (variant == 2) {
            int sources = 0;
            for (const auto& s : row.operands) sources += !s.is_def;
            if (!(row.mods & isa::kModOpSel) || row.family == isa::Family::VOP3P || row.family == isa::Family::MFMA) continue;
            mi.mods.op_sel = uint8_t(1u << std::min(sources, 3));
          }
          if (e64) {
            if (row.family != isa::Family::VOP1 && row.family != isa::Family::VOP2 && row.family != isa::Family::VOPC) continue;
            mi.mnemonic += "_e64";
          }
          // One line per instruction; lines LLVM refuses are left out below.
          text += isa::print(mi) + "\n";
        }
        std::vector<std::string> lines;
        for (size_t a = 0, b; a < text.size(); a = b + 1) lines.push_back(text.substr(a, (b = text.find('\n', a)) - a));
        AsmResult r;
        for (int attempt = 0; attempt < 4; ++attempt) {
          std::string all;
          for (auto& l : lines) all += l + "\n";
          r = assemble(all + std::string(isa::kSampleLabel) + ":\n\ts_endpgm\n", arch);
          if (r.ok) break;
          std::set<int> bad;
          for (auto& d : r.diagnostics)
            if (d.is_error) bad.insert(d.line - 1);
          std::vector<std::string> kept;
          for (size_t i = 0; i < lines.size(); ++i)
            if (!bad.count(int(i))) kept.push_back(lines[i]);
          lines = kept;
        }
        REQUIRE(r.ok);
        CodeObject co = bare_code(arch, isa::test::elf_section(r.object, ".text"));
        compare(co, co.kernels[0], t);
      }
    }
    report("table samples", arch, t);
  }
}

TEST_CASE("binary decoder = LLVM text oracle on the clang-22 kernels of tests/isa", "[sim][decode]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Tally t;
    for (const char* file : {"misc.hip", "mixed.hip", "gfx950.hip"}) {
      if (arch == Arch::gfx942 && std::string(file) == "gfx950.hip") continue;
      std::vector<uint8_t> bytes = isa::test::compile_hip(std::string(CDNAJIT_ISA_KERNEL_DIR) + "/" + file, arch);
      CodeObject co = read_code_object(bytes);
      for (const KernelInfo& k : co.kernels) compare(co, k, t);
    }
    report("tests/isa kernels", arch, t);
  }
}

// The decoder fuzz reproducers (tests/fuzz/reproducers/fuzz_decoder: encodings LLVM 22's
// disassembler crashed on, or the code cut off mid-instruction), decoded as the fuzz target does:
// no crash, and the offending bytes become an op that names what is wrong and fails if executed.
TEST_CASE("decoder fuzz reproducers decode to errors, not crashes", "[sim][decode]") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(CDNAJIT_FUZZ_DECODER_DIR)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.size() < 2) continue;
    ++files;
    CodeObject co;
    co.arch = (data[0] & 1) ? Arch::gfx950 : Arch::gfx942;
    co.text.assign(data.begin() + 1, data.end());
    KernelInfo k;
    k.name = "fuzz";
    k.code_size = co.text.size();
    co.kernels.push_back(k);
    INFO(entry.path().filename().string());
    std::unique_ptr<sim::DecodedKernel> dk;
    try {
      dk = sim::decode_kernel(co, co.kernels[0]);
    } catch (const Error& e) {
      std::printf("%s: %s\n", entry.path().filename().string().c_str(), e.what());
      continue;  // a decode-time error (a branch outside the kernel) is an error too
    }
    int errors = 0;
    for (const auto& op : dk->ops)
      if (!op.fn && (op.text.rfind("<undecodable 0x", 0) == 0 || op.text.rfind("<kernel code ends mid-instruction", 0) == 0)) {
        ++errors;
        if (errors == 1) std::printf("%s: %s\n", entry.path().filename().string().c_str(), op.text.c_str());
      }
    CHECK(errors > 0);
  }
  CHECK(files >= 15);
}

// Operands isa::parse has no spelling for: the binary decoder gives trap temporaries as
// scalar-file registers at their encoding; the text oracle reads them with its private parser,
// so only Op::private_parse tells the two apart. A DS word with GDS set (no GDS on gfx942/gfx950;
// LLVM's disassembler drops the bit) is a decode error naming the bit.
TEST_CASE("trap temporaries and gds decode without the text path", "[sim][decode]") {
  AsmResult r = assemble("\ts_mov_b32 s0, ttmp1\n\ts_add_u32 ttmp2, s4, ttmp5\n\tds_add_u32 v0, v1\n\ts_endpgm\n", Arch::gfx942);
  REQUIRE(r.ok);
  std::vector<uint8_t> text = isa::test::elf_section(r.object, ".text");
  text[8 + 2] |= 1;  // word 2 (ds_add_u32) bit 16: GDS
  CodeObject co = bare_code(Arch::gfx942, text);
  auto native = sim::decode_kernel(co, co.kernels[0]);
  auto oracle = sim::decode_kernel_llvm_text(co, co.kernels[0]);
  REQUIRE(native->ops.size() >= 3);  // the error covers 4 bytes, as an undecodable word always did
  const sim::Op& mov = native->ops[0];
  REQUIRE(mov.fn);
  CHECK(mov.text == "s_mov_b32 s0, ttmp1");
  CHECK(mov.s[0].k == sim::SrcKind::S);
  CHECK(mov.s[0].idx == isa::target::kTtmp0 + 1);
  CHECK(native->ops[1].d[0].idx == isa::target::kTtmp0 + 2);
  CHECK(native->ops[1].s[1].idx == isa::target::kTtmp0 + 5);
  for (int i = 0; i < 2; ++i) {
    sim::DecodedKernel a, b;
    a.ops = {native->ops[size_t(i)]};
    b.ops = {oracle->ops[size_t(i)]};
    CHECK(b.ops[0].private_parse);
    b.ops[0].private_parse = false;
    CHECK(sim::decoded_difference(a, b).empty());
  }
  CHECK(!native->ops[2].fn);
  CHECK(native->ops[2].text.find("GDS") != std::string::npos);
}
