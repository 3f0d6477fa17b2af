#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <unistd.h>
#include <thread>

#include "jit/asm/assemble.hpp"
#include "jit/codeobject/target_id.hpp"
#include "test_kernels.hpp"

using namespace cdnajit;

namespace {
bool starts_with_elf_magic(const std::vector<uint8_t>& b) {
  return b.size() > 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}
std::string wrap(const std::string& instruction) {
  return "\t.text\n" + instruction + "\n\ts_endpgm\n";
}
// Runs assemble() with fd 2 pointed at a temporary file and requires that
// nothing was written there: diagnostics must come back in the result only.
AsmResult assemble_capturing_stderr(const std::string& text, Arch arch) {
  std::fflush(stderr);
  FILE* capture = std::tmpfile();
  REQUIRE(capture);
  int saved = ::dup(2);
  ::dup2(::fileno(capture), 2);
  AsmResult r = assemble(text, arch);
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  long written = std::ftell(capture) > 0 ? std::ftell(capture) : ::lseek(::fileno(capture), 0, SEEK_END);
  std::fclose(capture);
  CHECK(written == 0);
  return r;
}

}  // namespace

TEST_CASE("assemble: complete kernel with descriptor and metadata, both archs", "[asm][assemble]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    CAPTURE(mcpu_name(arch));
    AsmResult r = assemble(test::scale_kernel_text(arch), arch);
    INFO(format_diagnostics(r.diagnostics));
    REQUIRE(r.ok);
    CHECK(starts_with_elf_magic(r.object));
    CHECK(r.diagnostics.empty());
  }
}

TEST_CASE("assemble: invalid instruction reports line, column and text", "[asm][assemble]") {
  std::string text = "\t.text\n\ts_nop 0\n\tv_frobnicate_b32 v0, v1\n\ts_endpgm\n";
  AsmResult r = assemble_capturing_stderr(text, Arch::gfx942);
  REQUIRE_FALSE(r.ok);
  CHECK(r.object.empty());
  REQUIRE_FALSE(r.diagnostics.empty());
  const AsmDiagnostic& d = r.diagnostics.front();
  CHECK(d.is_error);
  CHECK(d.line == 3);
  CHECK(d.column == 2);  // after the tab
  CHECK(d.line_text == "\tv_frobnicate_b32 v0, v1");
  CHECK_FALSE(d.message.empty());
  std::string formatted = format_diagnostics(r.diagnostics);
  CHECK(formatted.find("line 3:2: error:") != std::string::npos);
  CHECK(formatted.find("v_frobnicate_b32") != std::string::npos);
  CHECK(formatted.find("\n    \t^\n") != std::string::npos);  // caret under the mnemonic
}

TEST_CASE("assemble: malformed .amdgpu_metadata is an error", "[asm][assemble]") {
  auto spec = test::scale_spec(Arch::gfx942);
  std::string good = test::scale_kernel_text(Arch::gfx942);
  REQUIRE(assemble(good, Arch::gfx942).ok);
  // Metadata that is not valid YAML / violates the code object v5 schema.
  for (auto [from, to] : {std::pair<std::string, std::string>{".wavefront_size: 64", ".wavefront_size: [64"},
                          {".value_kind: by_value", ".value_kind: not_a_kind"}}) {
    CAPTURE(to);
    std::string bad = good;
    auto pos = bad.find(from);
    REQUIRE(pos != std::string::npos);
    bad.replace(pos, from.size(), to);
    AsmResult r = assemble_capturing_stderr(bad, Arch::gfx942);
    CHECK_FALSE(r.ok);
    REQUIRE_FALSE(r.diagnostics.empty());
    // The diagnostic points into the metadata block of the whole text.
    int meta_line = 1 + int(std::count(bad.begin(), bad.begin() + long(bad.find(".amdgpu_metadata")), '\n'));
    CHECK(r.diagnostics[0].line > meta_line);
  }
  // A descriptor field the target does not have.
  std::string bad = good;
  auto pos = bad.find(".amdhsa_tg_split 0");
  REQUIRE(pos != std::string::npos);
  bad.insert(pos, ".amdhsa_no_such_field 1\n\t\t");
  AsmResult r = assemble(bad, Arch::gfx942);
  CHECK_FALSE(r.ok);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].line_text.find(".amdhsa_no_such_field") != std::string::npos);
}

TEST_CASE("assemble: bad operand and several errors are all collected", "[asm][assemble]") {
  std::string text = "\t.text\n\tv_add_f32 v0, v1\n\ts_nop 0\n\ts_mov_b32 s0, v300\n\ts_endpgm\n";
  AsmResult r = assemble(text, Arch::gfx950);
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.diagnostics.size() >= 2);
  CHECK(r.diagnostics[0].line == 2);
  CHECK(r.diagnostics[1].line == 4);
}

TEST_CASE("assemble: arch-specific instructions follow the target", "[asm][assemble]") {
  // gfx950 additions (DESIGN.md: llvm-mc-22 -mcpu=gfx942 rejects them).
  for (const char* inst : {"\tv_dot2_f32_bf16 v0, v1, v2, v3", "\tv_cvt_pk_bf16_f32 v0, v1, v2",
                           "\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]"}) {
    CAPTURE(inst);
    AsmResult on942 = assemble(wrap(inst), Arch::gfx942);
    CHECK_FALSE(on942.ok);
    REQUIRE_FALSE(on942.diagnostics.empty());
    CHECK(on942.diagnostics[0].line == 2);
    AsmResult on950 = assemble(wrap(inst), Arch::gfx950);
    INFO(format_diagnostics(on950.diagnostics));
    CHECK(on950.ok);
  }
  // Present on both.
  CHECK(assemble(wrap("\tv_fmac_f32 v0, v1, v2"), Arch::gfx942).ok);
  CHECK(assemble(wrap("\tv_fmac_f32 v0, v1, v2"), Arch::gfx950).ok);
}

TEST_CASE("assemble: never throws on garbage and empty input", "[asm][assemble]") {
  std::string garbage;
  for (int i = 0; i < 512; ++i) garbage += char((i * 37 + 11) & 0xff);
  AsmResult g = assemble(garbage, Arch::gfx942);
  CHECK_FALSE(g.ok);
  CHECK_FALSE(g.diagnostics.empty());
  AsmResult e = assemble("", Arch::gfx950);
  CHECK(e.ok);  // an empty object is a valid object
  CHECK(starts_with_elf_magic(e.object));
  AsmResult bad_arch = assemble("s_endpgm", static_cast<Arch>(7));
  CHECK_FALSE(bad_arch.ok);
}

TEST_CASE("assemble: many single-instruction calls stay independent", "[asm][assemble]") {
  // A failed call must not leak state into the next one (speed is measured by tools/bench_jit).
  int ok = 0;
  for (int i = 0; i < 1000; ++i) {
    bool good = i % 3 != 0;
    AsmResult r = assemble(wrap(good ? "\tv_add_u32 v0, v1, v2" : "\tv_add_u32 v0, v1"), Arch::gfx942);
    CHECK(r.ok == good);
    ok += r.ok;
  }
  CHECK(ok == 666);
}

TEST_CASE("assemble: a ~300-line kernel assembles repeatably", "[asm][assemble]") {
  std::string body;
  for (int i = 0; i < 300; ++i)
    body += "\tv_fmac_f32 v" + std::to_string(i % 32) + ", v" + std::to_string(32 + i % 16) + ", v" +
            std::to_string(48 + i % 8) + "\n";
  body += "\ts_endpgm\n";
  auto spec = test::scale_spec(Arch::gfx950);
  spec.vgpr_count = 56;
  std::string text = render_kernel_file(spec, body);
  REQUIRE(assemble(text, Arch::gfx950).ok);
  std::vector<uint8_t> first = assemble(text, Arch::gfx950).object;
  for (int i = 0; i < 5; ++i) CHECK(assemble(text, Arch::gfx950).object == first);
}

TEST_CASE("assemble: concurrent calls from several threads", "[asm][assemble]") {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      Arch arch = t % 2 ? Arch::gfx950 : Arch::gfx942;
      std::string text = test::scale_kernel_text(arch);
      for (int i = 0; i < 20; ++i) {
        AsmResult r = assemble(text, arch);
        if (!r.ok || r.object.empty()) ++failures[t];
        AsmResult bad = assemble("\t.text\n\tv_dot2_f32_bf16 v0, v1, v2, v3\n", arch);
        if (bad.ok != (arch == Arch::gfx950)) ++failures[t];
      }
    });
  for (auto& th : threads) th.join();
  for (int f : failures) CHECK(f == 0);
}
