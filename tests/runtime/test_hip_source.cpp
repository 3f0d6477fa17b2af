// compile_hip: backend selection, the clang path, diagnostics and the cache.
#include <catch2/catch.hpp>

#include "tests/test_support.hpp"

#include <filesystem>

#include "jit/isa/error.hpp"
#include "runtime/hip_source.hpp"
#include "jit/codeobject/code_object.hpp"

using namespace cdnajit;

namespace {
const char* kTiny = R"(
extern "C" __global__ void tiny(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = (int)threadIdx.x * 3; }
)";
}

TEST_CASE("hip_source_backend reports the compiler and why hiprtc is not used", "[runtime][hipsrc]") {
  HipSourceBackend b = hip_source_backend();
  std::string why;
  bool rtc = hiprtc_available(&why);
  if (!rtc) {
    CHECK(b.kind == HipSourceBackend::Kind::clang);
    CHECK_FALSE(why.empty());
    CHECK(b.note == why);
    // Debian's libamdhip64 5.2 carries a hiprtc that reports version 9.0 but
    // cannot target gfx942/gfx950: it must be recognised and refused.
    if (std::filesystem::exists("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5") &&
        !std::filesystem::exists("/opt/rocm/lib/libhiprtc.so"))
      CHECK_THAT(why, Catch::Contains("ROCm 5") && Catch::Contains("not used"));
  } else {
    CHECK(why.empty());
  }
  CHECK_FALSE(b.compiler.empty());
}

TEST_CASE("CDNAJIT_HIP_COMPILER forces a compiler; bad values are errors", "[runtime][hipsrc]") {
  const char* saved = std::getenv("CDNAJIT_HIP_COMPILER");
  std::string saved_value = saved ? saved : "";
  setenv("CDNAJIT_HIP_COMPILER", "clang", 1);
  CHECK(hip_source_backend().kind == HipSourceBackend::Kind::clang);
  CHECK(hip_source_backend().note == "CDNAJIT_HIP_COMPILER=clang");
  setenv("CDNAJIT_HIP_COMPILER", "gcc", 1);
  CHECK_THROWS_WITH(hip_source_backend(), Catch::Contains("valid values are \"clang\" and \"hiprtc\""));
  std::string why;
  if (!hiprtc_available(&why)) {
    // Forcing an unusable hiprtc fails cleanly instead of calling it.
    setenv("CDNAJIT_HIP_COMPILER", "hiprtc", 1);
    CHECK(hip_source_backend().kind == HipSourceBackend::Kind::hiprtc);
    CHECK_THROWS_WITH(compile_hip(kTiny, Arch::gfx950), Catch::Contains("hiprtc requested but unusable") &&
                                                             Catch::Contains(why));
  }
  if (saved)
    setenv("CDNAJIT_HIP_COMPILER", saved_value.c_str(), 1);
  else
    unsetenv("CDNAJIT_HIP_COMPILER");
}

TEST_CASE("hiprtc compiles HIP source when a ROCm >= 6 hiprtc is installed", "[runtime][hipsrc][hiprtc][needs_hiprtc]") {
  std::string why;
  if (!hiprtc_available(&why)) CDNAJIT_SKIP(why + " (the clang path is tested by the twin test below)");
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    CodeObject co = read_code_object(compile_hip_with(HipSourceBackend::Kind::hiprtc, kTiny, a));
    CHECK(co.arch == a);
    CHECK(co.find("tiny") != nullptr);
  }
}

TEST_CASE("the hiprtc path against a stand-in ROCm 6 hiprtc", "[runtime][hipsrc][hiprtc]") {
  // tests/runtime/fake_hiprtc.cpp: reports 6.2, lives in libhiprtc.so.6.2.0,
  // compiles with clang++ 22 and can return an offload bundle.
  std::string why;
  for (const char* bundled : {"0", "1"}) {
    INFO("offload bundle output: " << bundled);
    setenv("FAKE_HIPRTC_BUNDLE", bundled, 1);
    for (Arch a : {Arch::gfx942, Arch::gfx950}) {
      auto bytes = detail::compile_hip_with_hiprtc_library(CDNAJIT_FAKE_HIPRTC, kTiny, a, {}, &why);
      CHECK(why.empty());
      CodeObject co = read_code_object(bytes);
      CHECK(co.arch == a);
      CHECK(co.find("tiny") != nullptr);
    }
  }
  unsetenv("FAKE_HIPRTC_BUNDLE");
  const char* bad = "extern \"C\" __global__ void broken(int* out) { out[0] = missing_name; }\n";
  CHECK_THROWS_WITH(detail::compile_hip_with_hiprtc_library(CDNAJIT_FAKE_HIPRTC, bad, Arch::gfx950),
                    Catch::Contains("compile_hip (hiprtc, ROCm 6, gfx950): compilation failed") &&
                        Catch::Contains("kernel.hip:1:") && Catch::Contains("missing_name"));
}

TEST_CASE("clang compiles HIP source to a code object for gfx942 and gfx950", "[runtime][hipsrc][clang]") {
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    CodeObject co = read_code_object(compile_hip_with(HipSourceBackend::Kind::clang, kTiny, a));
    CHECK(co.arch == a);
    const KernelInfo* k = co.find("tiny");
    REQUIRE(k != nullptr);
    REQUIRE(k->args.size() > 1);
    CHECK(k->args[0].value_kind == "global_buffer");
    // blockDim.x is read from the hidden arguments, so clang lists them.
    CHECK(k->find_arg_kind("hidden_group_size_x") != nullptr);
  }
}

TEST_CASE("compile errors carry clang's diagnostics", "[runtime][hipsrc][clang]") {
  const char* bad = "extern \"C\" __global__ void broken(int* out) { out[0] = undeclared_thing + 1; }\n";
  try {
    compile_hip_with(HipSourceBackend::Kind::clang, bad, Arch::gfx950);
    FAIL("compile_hip accepted invalid source");
  } catch (const Error& e) {
    std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("kernel.hip:1:") && Catch::Contains("error:") &&
                      Catch::Contains("undeclared_thing") && Catch::Contains("gfx950"));
  }
}

TEST_CASE("gfx950-only builtins are rejected for gfx942 with clang's message", "[runtime][hipsrc][clang]") {
  const char* src = R"(
extern "C" __global__ void d(float* o, const cdna_bf16x2* a) { o[0] = __builtin_amdgcn_fdot2_f32_bf16(a[0], a[1], o[0], false); }
)";
  CHECK_NOTHROW(compile_hip_with(HipSourceBackend::Kind::clang, src, Arch::gfx950));
  CHECK_THROWS_WITH(compile_hip_with(HipSourceBackend::Kind::clang, src, Arch::gfx942),
                    Catch::Contains("__builtin_amdgcn_fdot2_f32_bf16"));
}

TEST_CASE("the compile cache returns identical bytes without recompiling", "[runtime][hipsrc][clang]") {
  std::string src = kTiny;
  src.append("// cache test\n");
  auto first = compile_hip_with(HipSourceBackend::Kind::clang, src, Arch::gfx942);
  size_t entries = hip_compile_cache_size(), runs = hip_compiler_runs();
  auto again = compile_hip_with(HipSourceBackend::Kind::clang, src, Arch::gfx942);
  CHECK(again == first);
  CHECK(hip_compiler_runs() == runs);  // served from the cache
  CHECK(hip_compile_cache_size() == entries);
  // Different flags or arch are different entries, compiled anew.
  compile_hip_with(HipSourceBackend::Kind::clang, src, Arch::gfx942, {"-O1"});
  compile_hip_with(HipSourceBackend::Kind::clang, src, Arch::gfx950);
  CHECK(hip_compiler_runs() == runs + 2);
  CHECK(hip_compile_cache_size() == entries + 2);
}

TEST_CASE("the compiler path is configurable and a missing compiler is a clear error", "[runtime][hipsrc][clang]") {
  const char* saved = std::getenv("CDNAJIT_CLANG");
  std::string saved_value = saved ? saved : "";
  setenv("CDNAJIT_CLANG", "/nonexistent/clang++", 1);
  CHECK_THROWS_WITH(compile_hip_with(HipSourceBackend::Kind::clang, kTiny, Arch::gfx950),
                    Catch::Contains("cannot run '/nonexistent/clang++'") && Catch::Contains("CDNAJIT_CLANG"));
  if (saved)
    setenv("CDNAJIT_CLANG", saved_value.c_str(), 1);
  else
    unsetenv("CDNAJIT_CLANG");
}

TEST_CASE("the device header text is compiled into the library", "[runtime][hipsrc]") {
  std::string_view h = hip_device_header();
  CHECK(h.find("__syncthreads") != std::string_view::npos);
  CHECK(h.find("__builtin_amdgcn_s_barrier") != std::string_view::npos);
}
