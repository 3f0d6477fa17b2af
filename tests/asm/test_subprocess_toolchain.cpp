#include <catch2/catch.hpp>

#include "tests/test_support.hpp"


#include "jit/asm/assemble.hpp"
#include "jit/asm/link.hpp"
#include "jit/asm/subprocess_toolchain.hpp"
#include "jit/isa/error.hpp"
#include "test_kernels.hpp"

using namespace cdnajit;

TEST_CASE("subprocess toolchain: same code object as the in-process path", "[asm][subprocess][needs_llvm_tools]") {
  SubprocessToolchain tools;
  try {
    tools = SubprocessToolchain::find();
  } catch (const Error& e) {
    CDNAJIT_SKIP(std::string("llvm-mc / ld.lld executables not found: ") + e.what());
  }
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    std::string text = test::scale_kernel_text(arch);
    AsmResult r = assemble(text, arch);
    REQUIRE(r.ok);
    auto in_process = link_code_object(r.object, arch);

    auto external = tools.assemble_and_link(text, arch);
    CHECK(external == in_process);
    // The relocatable objects agree too.
    CHECK(tools.assemble(text, arch) == r.object);
  }
  // Errors carry the tool's stderr.
  try {
    tools.assemble("\t.text\n\tv_dot2_f32_bf16 v0, v1, v2, v3\n", Arch::gfx942);
    FAIL("expected llvm-mc to reject v_dot2_f32_bf16 on gfx942");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("v_dot2_f32_bf16") != std::string::npos);
  }
  std::vector<uint8_t> garbage(64, 0xab);
  CHECK_THROWS_AS(tools.link(garbage, Arch::gfx942), Error);
}
