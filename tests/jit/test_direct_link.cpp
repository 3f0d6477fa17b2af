// The direct ELF writer (Linker::Direct, jit/codeobject/elf_writer.hpp) against lld
// (Linker::Lld, the reference): every built-in kernel on each arch must give a
// code object that
//  - is byte-identical to lld's,
//  - the project's code-object reader (runtime/sim) accepts with the same .text,
//    kernel entry and descriptor fields,
//  - LLVM's object reader (tests/asm/code_object_reader) accepts with the same
//    symbols, descriptor and metadata,
//  - runs on the simulator with the same outputs as lld's.
// And the writer refuses bad input with an Error and hands objects outside its
// shape back (nullopt) instead of writing something wrong.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <random>

#include "codegen/dwconv3d.hpp"
#include "jit/asm/assemble.hpp"
#include "jit/codeobject/elf_writer.hpp"
#include "jit/asm/link.hpp"
#include "jit/kernel.hpp"
#include "runtime/device.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tests/asm/code_object_reader.hpp"
#include "tools/builtin_kernels.hpp"

using namespace cdnajit;

namespace {

BuildOptions options(Linker linker) {
  BuildOptions o;
  o.use_cache = false;
  o.linker = linker;
  return o;
}

std::string first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] != b[i]) return "first difference at byte " + std::to_string(i);
  if (a.size() != b.size()) return "sizes differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  return "identical";
}

// Deterministic bytes for input buffers.
std::vector<uint32_t> words(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(n);
  // bf16 pairs / f32 values with small exponents: finite arithmetic.
  for (auto& w : v) w = (rng() & 0x80ff80ffu) | 0x3c003c00u;
  return v;
}

// Runs the built-in `name` from `code_object` on a simulator: real arguments for
// each kernel family, a few workgroups, outputs poisoned first. Returns the output buffer.
std::vector<uint8_t> run_on_simulator(const std::string& name, Arch arch, const BuildResult& r) {
  static std::map<Arch, std::unique_ptr<Device>> devices;
  std::unique_ptr<Device>& dev = devices[arch];
  if (!dev) dev = open_sim_device(arch);
  Module m = dev->load(r.code_object);
  std::vector<Buffer> inputs;
  Buffer out;
  KernelArgs args;
  uint32_t grid = 2;
  if (name == "vector_add" || name == "bf16_dot") {
    const uint32_t n = 300;  // two workgroups, the second partial
    const size_t in_words = name == "vector_add" ? n : n * 4;
    inputs.push_back(dev->upload(std::span<const uint32_t>(words(in_words, 1)), "a"));
    inputs.push_back(dev->upload(std::span<const uint32_t>(words(in_words, 2)), "b"));
    out = dev->alloc(n * 4, "out");
    args.ptr(inputs[0]).ptr(inputs[1]).ptr(out).u32(n);
  } else {
    // The seed shape's kernels; workgroups 0 and 1 are channel 0's first two output
    // slices, so channel 0's share of each tensor is all they may touch (the
    // simulator's bounds checks would report anything beyond).
    const codegen::DwConvShape s = codegen::seed_shape();
    REQUIRE(s.N == 1);
    const size_t in_elems = size_t(s.input_elems() / s.C), w_elems = size_t(s.weight_elems() / s.C);
    inputs.push_back(dev->upload(std::span<const uint32_t>(words((in_elems + 1) / 2, 3)), "input"));
    inputs.push_back(dev->upload(std::span<const uint32_t>(words((w_elems + 1) / 2, 4)), "weight"));
    out = dev->alloc(size_t(s.output_elems() / s.C) * 2, "output");
    args.ptr(inputs[0]).ptr(inputs[1]).ptr(out);
  }
  std::vector<uint8_t> poison(out.bytes, 0xa5);
  dev->copy_to_device(out, poison.data(), poison.size());
  dev->launch(m.kernel(r.name), {grid}, {256}, 0, args);
  std::vector<uint8_t> got = dev->download<uint8_t>(out);
  for (const Buffer& b : inputs) dev->free(b);
  dev->free(out);
  REQUIRE(got != poison);  // the launch wrote something: the comparison below means something
  return got;
}

}  // namespace

TEST_CASE("every built-in kernel's code object from the direct ELF writer equals lld's", "[jit][direct_link]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const std::string& name : builtin_kernel_names()) {
      INFO(name << " on " << arch_name(arch));
      BuildResult lld;
      try {
        lld = build_builtin_kernel(name, arch, options(Linker::Lld));
      } catch (const Error&) {
        // gfx950-only kernels: the direct path must refuse them the same way.
        CHECK_THROWS_AS(build_builtin_kernel(name, arch, options(Linker::Direct)), Error);
        continue;
      }
      BuildResult direct = build_builtin_kernel(name, arch, options(Linker::Direct));
      CHECK_FALSE(direct.stats.lld_fallback);
      INFO(first_difference(direct.code_object, lld.code_object));
      CHECK(direct.code_object == lld.code_object);

      // The project's reader: same code and descriptor.
      CodeObject a = read_code_object(direct.code_object), b = read_code_object(lld.code_object);
      REQUIRE(a.kernels.size() == 1);
      REQUIRE(b.kernels.size() == 1);
      CHECK(a.text == b.text);
      CHECK(a.text_address == b.text_address);
      const KernelInfo &ka = a.kernels[0], &kb = b.kernels[0];
      CHECK(ka.name == kb.name);
      CHECK(ka.entry_offset == kb.entry_offset);
      CHECK(ka.code_size == kb.code_size);
      CHECK(ka.rsrc1 == kb.rsrc1);
      CHECK(ka.rsrc2 == kb.rsrc2);
      CHECK(ka.rsrc3 == kb.rsrc3);
      CHECK(ka.kernel_code_properties == kb.kernel_code_properties);
      CHECK(ka.kernarg_size == kb.kernarg_size);
      CHECK(ka.group_segment_size == kb.group_segment_size);
      CHECK(ka.vgpr_count == kb.vgpr_count);
      CHECK(ka.sgpr_count == kb.sgpr_count);
      CHECK(ka.args.size() == kb.args.size());

      // LLVM's reader: same header, symbols, descriptor and metadata.
      test::CodeObjectInfo la = test::read_code_object(direct.code_object), lb = test::read_code_object(lld.code_object);
      CHECK(la.e_type == lb.e_type);
      CHECK(la.e_flags == lb.e_flags);
      CHECK(la.abi_version == lb.abi_version);
      CHECK(la.symbols == lb.symbols);
      REQUIRE(la.descriptors.size() == 1);
      const test::KernelDescriptorFields &da = la.descriptors.begin()->second, &db = lb.descriptors.at(la.descriptors.begin()->first);
      CHECK(da.kernel_code_entry_byte_offset == db.kernel_code_entry_byte_offset);
      CHECK(int64_t(da.address) + da.kernel_code_entry_byte_offset == int64_t(la.symbols.at(ka.name)));
      CHECK(da.compute_pgm_rsrc1 == db.compute_pgm_rsrc1);
      CHECK(da.compute_pgm_rsrc2 == db.compute_pgm_rsrc2);
      CHECK(da.kernarg_size == db.kernarg_size);
      CHECK(la.metadata_top == lb.metadata_top);
      REQUIRE(la.kernels.size() == 1);
      CHECK(la.kernels[0].fields == lb.kernels[0].fields);
      CHECK(la.kernels[0].args == lb.kernels[0].args);

      // The simulator: same outputs.
      CHECK(run_on_simulator(name, arch, direct) == run_on_simulator(name, arch, lld));
    }
  }
}

TEST_CASE("the direct ELF writer refuses what is not a relocatable AMDGPU object of the arch", "[jit][direct_link]") {
  AsmResult obj = assemble(build_builtin_kernel("vector_add", Arch::gfx942, options(Linker::Lld)).assembly, Arch::gfx942);
  REQUIRE(obj.ok);
  REQUIRE(write_code_object_direct(obj.object, Arch::gfx942).has_value());

  CHECK_THROWS_WITH(write_code_object_direct(std::vector<uint8_t>(10, 0), Arch::gfx942),
                    Catch::Contains("not an ELF file"));
  CHECK_THROWS_WITH(write_code_object_direct(obj.object, Arch::gfx950), Catch::Contains("another processor"));
  std::vector<uint8_t> truncated(obj.object.begin(), obj.object.begin() + long(obj.object.size() / 2));
  CHECK_THROWS_WITH(write_code_object_direct(truncated, Arch::gfx942), Catch::Contains("section header table"));
  // A linked code object is not a relocatable one.
  std::vector<uint8_t> linked = link_code_object(obj.object, Arch::gfx942);
  CHECK_THROWS_WITH(write_code_object_direct(linked, Arch::gfx942), Catch::Contains("ET_REL"));
}

TEST_CASE("the direct ELF writer hands objects outside its shape to lld", "[jit][direct_link]") {
  Kernel k("tiny", Arch::gfx950);
  k.emit("s_endpgm", {});
  std::string text = k.assembly();
  // A local, non-.L label becomes a symbol table entry lld would copy: outside the shape.
  std::string with_label = text;
  size_t at = with_label.find("s_endpgm");
  REQUIRE(at != std::string::npos);
  with_label.insert(at, "visible_label:\n  ");
  AsmResult labelled = assemble(with_label, Arch::gfx950);
  REQUIRE(labelled.ok);
  std::string why;
  CHECK_FALSE(write_code_object_direct(labelled.object, Arch::gfx950, &why).has_value());
  CHECK_THAT(why, Catch::Contains("visible_label"));
  // lld still links it.
  CHECK_FALSE(link_code_object(labelled.object, Arch::gfx950).empty());
}
