// Code objects written to hurt the reader, the decoder and the simulator: each
// must end in a cdnajit::Error that names the problem (never a crash, a hang,
// an unbounded allocation or a silently wrong run).
#include <catch2/catch.hpp>

#include <cstring>

#include "jit/asm/assemble.hpp"
#include "jit/codeobject/msgpack.hpp"
#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using Catch::Matchers::Contains;

namespace {

// A hand-written kernel with extra descriptor directives; s[0:1] = kernarg pointer.
std::string kernel_text(const std::string& body, const std::string& directives = "") {
  return ".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n" + body +
         "\n.size k, .-k\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
         "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 16\n  .amdhsa_accum_offset 8\n" +
         directives + ".end_amdhsa_kernel\n";
}

// Little-endian field access and the section / symbol tables of an ELF64 file, for
// patching a linked code object in place (an independent minimal reader for the tests).
template <class T>
T field(const std::vector<uint8_t>& b, size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}
template <class T>
void set_field(std::vector<uint8_t>& b, size_t off, T v) {
  std::memcpy(b.data() + off, &v, sizeof v);
}

struct ElfSection {
  size_t header;
  uint32_t type, link;
  uint64_t addr, offset, size;
};

std::vector<ElfSection> elf_sections(const std::vector<uint8_t>& b) {
  std::vector<ElfSection> s;
  uint64_t shoff = field<uint64_t>(b, 40);
  for (uint16_t i = 0; i < field<uint16_t>(b, 60); ++i) {
    size_t h = shoff + 64u * i;
    s.push_back({h, field<uint32_t>(b, h + 4), field<uint32_t>(b, h + 40), field<uint64_t>(b, h + 16),
                 field<uint64_t>(b, h + 24), field<uint64_t>(b, h + 32)});
  }
  return s;
}

const ElfSection& symtab_of(const std::vector<ElfSection>& s) {
  for (const ElfSection& x : s)
    if (x.type == 2) return x;
  FAIL("no symbol table");
  return s[0];
}

// File offset of the symbol-table entry named `name`.
size_t symbol_entry(const std::vector<uint8_t>& b, const std::string& name) {
  auto secs = elf_sections(b);
  const ElfSection& st = symtab_of(secs);
  const ElfSection& str = secs[st.link];
  for (size_t e = st.offset; e + 24 <= st.offset + st.size; e += 24)
    if (name == reinterpret_cast<const char*>(b.data() + str.offset + field<uint32_t>(b, e))) return e;
  FAIL("no symbol " << name);
  return 0;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("hostile code object: an unlinked relocatable object is rejected by name", "[sim][hostile]") {
  cdnajit::AsmResult r = cdnajit::assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942);
  REQUIRE(r.ok);
  std::string msg = error_of([&] { cdnajit::read_code_object(r.object); });
  CHECK_THAT(msg, Contains("relocatable object (ET_REL") && Contains("Link it first"));
  // The same text linked is fine.
  CHECK_NOTHROW(cdnajit::read_code_object(assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942)));
}

TEST_CASE("hostile code object: sizes in the descriptor are capped with a named limit", "[sim][hostile]") {
  // kernarg_size 0xfffffff0 once cost 116 s and 12.6 GB; a huge scratch size aborted a simulator worker thread.
  std::string k = error_of([] {
    cdnajit::read_code_object(assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 0xfffffff0\n"), Arch::gfx942));
  });
  CHECK_THAT(k, Contains("kernarg_size 4294967280 exceeds the limit of 65536") && Contains("kMaxKernargBytes"));
  std::string p = error_of([] {
    cdnajit::read_code_object(assemble(
        kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n  .amdhsa_private_segment_fixed_size 0x7ffffff0\n"), Arch::gfx942));
  });
  CHECK_THAT(p, Contains("private_segment_fixed_size") && Contains("kMaxPrivateSegmentBytes"));
  // Even past the reader (a CodeObject built in memory), the launch fails cleanly, never std::terminate.
  auto co = cdnajit::read_code_object(assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  co.kernels[0].private_segment_size = 0x7ffffff0;
  Device dev(Arch::gfx942);
  std::vector<uint8_t> ka(16, 0);
  cdnajit::sim::Options o;
  o.threads = 2;
  std::string l = error_of([&] { dev.sim.launch(co, "k", ka, dims1(4, 64), o); });
  CHECK_THAT(l, Contains("private segment (scratch) bytes") && Contains("kernel k"));
}

TEST_CASE("hostile code object: code ending mid-instruction is not decoded from bytes past its end", "[sim][hostile]") {
  // v_mov_b32 with a 32-bit literal is 8 bytes; cut the kernel (and .text) after its first 4.
  auto co = cdnajit::read_code_object(
      assemble(kernel_text("s_nop 0\n v_mov_b32 v1, 0x12345678\n s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  Device dev(Arch::gfx942);
  std::string whole = dev.sim.disassemble(co, "k");
  REQUIRE_THAT(whole, Contains("0x12345678"));
  cdnajit::CodeObject cut = co;
  cut.kernels[0].code_size = 8;  // s_nop (4) + the first dword of v_mov_b32
  cut.text.resize(cut.kernels[0].entry_offset + 8);
  cut.bytes.push_back(0);  // a different cache key than `co`
  cdnajit::sim::Simulator fresh(Arch::gfx942);
  std::string dis = fresh.disassemble(cut, "k");
  INFO(dis);
  const std::string cut_off =
      "kernel code ends mid-instruction at pc 0x4 (4 of 8 bytes present; the .text or symbol size ends there)";
  CHECK_THAT(dis, Contains(cut_off));
  CHECK_THAT(dis, !Contains("0x12345678"));
  // Running into it is an error that says so, at that pc.
  std::vector<uint8_t> ka(16, 0);
  std::string run = error_of([&] { fresh.launch(cut, "k", ka, dims1(1, 64)); });
  CHECK_THAT(run, Contains("kernel k, pc 0x4") && Contains(cut_off));
}

TEST_CASE("hostile code object: a branch past the cut-off end or into an instruction says which", "[sim][hostile]") {
  // s_branch to the s_endpgm, with the kernel cut off before it (8 of its 12 bytes kept).
  auto co = cdnajit::read_code_object(
      assemble(kernel_text("s_branch BB\n s_nop 0\nBB:\n s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  cdnajit::CodeObject cut = co;
  cut.kernels[0].code_size = 8;
  cut.text.resize(cut.kernels[0].entry_offset + 8);
  cdnajit::sim::Simulator sim(Arch::gfx942);
  std::string past = error_of([&] { sim.disassemble(cut, "k"); });
  CHECK_THAT(past, Contains("kernel k pc 0x0 's_branch") &&
                       Contains("branch target 0x8 is not an instruction of the kernel (it is past the end of the "
                                "kernel's 8 bytes of code; the .text or symbol size ends there)"));
  // s_branch with simm16 = 1 (SOPP opcode 2, word 0xbf820001): target 0x8, the literal of the
  // 8-byte v_mov_b32 at 0x4.
  auto into = cdnajit::read_code_object(assemble(
      kernel_text(".long 0xbf820001\n v_mov_b32 v1, 0x12345678\n s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  std::string inside = error_of([&] { sim.disassemble(into, "k"); });
  CHECK_THAT(inside, Contains("branch target 0x8 is not an instruction of the kernel (it is inside the instruction at "
                              "pc 0x4 'v_mov_b32"));
}

TEST_CASE("hostile code object: an infinite loop stops at the wall-clock limit", "[sim][hostile]") {
  auto co = cdnajit::read_code_object(
      assemble(kernel_text("BB0:\n s_add_u32 s4, s4, 1\n s_branch BB0\n s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  Device dev(Arch::gfx942);
  cdnajit::sim::Options o;
  o.instruction_budget = 1ull << 48;  // the budget alone would take hours
  o.time_limit_seconds = 0.2;
  std::vector<uint8_t> ka(16, 0);
  std::string msg = error_of([&] { dev.sim.launch(co, "k", ka, dims1(1, 64), o); });
  CHECK_THAT(msg, Contains("time limit of 0.2 s exceeded") && Contains("--timeout") && Contains("kernel k"));
}

TEST_CASE("hostile code object: addresses in reader errors are hexadecimal", "[sim][hostile]") {
  const auto good = assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942);
  const size_t kd = symbol_entry(good, "k.kd");
  // The descriptor symbol moved outside its section.
  auto moved = good;
  set_field<uint64_t>(moved, kd + 8, 0x12345678);
  CHECK_THAT(error_of([&] { cdnajit::read_code_object(moved); }),
             Contains("descriptor k.kd at 0x12345678 does not fit 64 bytes"));
  // The descriptor's kernel_code_entry_byte_offset (bytes 16..23) pointing outside .text.
  const uint64_t kd_value = field<uint64_t>(good, kd + 8);
  const ElfSection sec = elf_sections(good)[field<uint16_t>(good, kd + 6)];  // a copy: the vector is a temporary
  auto far = good;
  set_field<int64_t>(far, sec.offset + (kd_value - sec.addr) + 16, int64_t(0x7777000 - kd_value));
  CHECK_THAT(error_of([&] { cdnajit::read_code_object(far); }),
             Contains("kernel k: entry address 0x7777000 is not a 4-byte aligned address inside .text"));
  // A msgpack type byte the reader does not know (0xc1 is never used by msgpack).
  const std::vector<uint8_t> c1 = {0xc1};
  CHECK_THAT(error_of([&] { cdnajit::msgpack::parse(c1); }), Contains("unsupported type byte 0xc1"));
}

TEST_CASE("hostile code object: the most kernels in a large symbol table all read correctly", "[sim][hostile]") {
  // kMaxKernels descriptor symbols and 2^17 more FUNC symbols of the kernel's name: the
  // reader once scanned the whole table for every descriptor (quadratic). Every kernel must
  // come out with the entry and extent of the original one.
  const auto good = assemble(kernel_text("s_nop 0\n s_nop 1\n s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942);
  const auto ref = cdnajit::read_code_object(good);
  REQUIRE(ref.kernels.size() == 1);
  const auto secs = elf_sections(good);
  const ElfSection& st = symtab_of(secs);
  const size_t kd = symbol_entry(good, "k.kd"), func = symbol_entry(good, "k");
  std::vector<uint8_t> table(good.begin() + long(st.offset), good.begin() + long(st.offset + st.size));
  for (size_t i = 1; i < cdnajit::kMaxKernels; ++i) table.insert(table.end(), good.begin() + long(kd), good.begin() + long(kd + 24));
  const size_t fillers = size_t(1) << 17;
  for (size_t i = 0; i < fillers; ++i) {
    size_t e = table.size();
    table.insert(table.end(), good.begin() + long(func), good.begin() + long(func + 24));
    set_field<uint64_t>(table, e + 8, field<uint64_t>(good, func + 8) + 4096 + 4 * i);  // elsewhere, not at the entry
  }
  auto big = good;
  big.resize((big.size() + 7) & ~size_t(7));
  const uint64_t at = big.size();
  big.insert(big.end(), table.begin(), table.end());
  set_field<uint64_t>(big, st.header + 24, at);
  set_field<uint64_t>(big, st.header + 32, table.size());
  const auto co = cdnajit::read_code_object(big);
  REQUIRE(co.kernels.size() == cdnajit::kMaxKernels);
  size_t wrong = 0;
  for (const auto& k : co.kernels)
    wrong += k.name != "k" || k.entry_offset != ref.kernels[0].entry_offset || k.code_size != ref.kernels[0].code_size;
  CHECK(wrong == 0);
  CHECK(ref.kernels[0].code_size == 12);
  // One descriptor symbol more is over the limit, by name.
  auto over = big;
  over.insert(over.end(), good.begin() + long(kd), good.begin() + long(kd + 24));
  set_field<uint64_t>(over, st.header + 32, table.size() + 24);
  CHECK_THAT(error_of([&] { cdnajit::read_code_object(over); }), Contains("kMaxKernels"));
}
