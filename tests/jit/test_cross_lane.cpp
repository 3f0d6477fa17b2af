// The typed cross-lane operands (Dpp, Swizzle) and the call-site offset checks of the builder:
// the .s spelling, the errors, the hazard pass's wait states, and every control run on the
// simulator against a CPU model of the lane mapping written here from the ISA guide's tables.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "jit/kernel.hpp"
#include "runtime/device.hpp"

using namespace cdnajit;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("DPP and swizzle controls print symbolically in the .s", "[jit][cross_lane]") {
  Kernel k("dpp_text", Arch::gfx942);
  k.set_workgroup_size(64);
  Reg x = k.vgpr("x"), y = k.vgpr("y"), z = k.vgpr("z");
  k.v_mov_b32(x, k.workitem_id(0));
  k.v_mov_b32(y, 7);
  k.v_mov_b32(z, 0);  // row_mask 0x5 below leaves rows 1 and 3 of z as they were
  k.v_add_f32(y, x, y, Dpp::quad_perm({1, 0, 3, 2}));
  k.v_mov_b32(z, x, Dpp::row_shr(3).bound_ctrl().row_mask(0x5));
  k.v_max_i32(z, y, z, Dpp::row_newbcast(15));
  k.ds_swizzle_b32(y, z, Swizzle::xor_mask(16));
  k.ds_swizzle_b32(x, y, Swizzle::bitmask(0x1d, 2, 4));
  k.ds_swizzle_b32(z, x, Swizzle::quad_perm({1, 0, 3, 2}));
  k.s_endpgm();
  const std::string s = k.assembly();
  INFO(s);
  CHECK(s.find("v_add_f32 v") != std::string::npos);
  CHECK(s.find(" quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf") != std::string::npos);
  CHECK(s.find(" row_shr:3 row_mask:0x5 bank_mask:0xf bound_ctrl:1") != std::string::npos);
  CHECK(s.find(" row_newbcast:15 row_mask:0xf bank_mask:0xf") != std::string::npos);
  CHECK(s.find("offset:swizzle(SWAP,16)") != std::string::npos);
  CHECK(s.find("offset:swizzle(BITMASK_PERM,\"ppi1p\")") != std::string::npos);
  CHECK(s.find("offset:swizzle(QUAD_PERM,1,0,3,2)") != std::string::npos);
  CHECK(k.build().code_object.size() > 0);
}

TEST_CASE("illegal cross-lane controls fail at the call with what, where and what is valid", "[jit][cross_lane]") {
  Kernel k("dpp_errors", Arch::gfx942);
  Reg x = k.vgpr("x"), y = k.vgpr("y"), s = k.sgpr("s"), w = k.vgpr("w", 2, 2);
  k.v_mov_b32(x, 1);
  k.v_mov_b32(y, 2);
  k.s_mov_b32(s, 3);
  k.v_mov_b64(w, 0);
  const std::string here = "test_cross_lane.cpp:";
  std::string e = error_of([&] { k.v_fma_f32(x, x, y, y, Dpp::quad_perm({1, 0, 3, 2})); });
  CHECK(e.find(here) != std::string::npos);
  CHECK(e.find("v_fma_f32 takes no DPP control: only VOP1/VOP2 instructions have a DPP form") != std::string::npos);
  CHECK(e.find("valid:") != std::string::npos);
  e = error_of([&] { k.v_mov_b64(w, w, Dpp::row_shr(1)); });
  CHECK(e.find("takes only row_newbcast (got row_shr:1; valid: Dpp::row_newbcast(0..15))") != std::string::npos);
  e = error_of([&] { k.v_add_f32(x, s, y, Dpp::row_mirror()); });
  CHECK(e.find("operand 1 (src0) is SGPR 's', but with a DPP control every vector source must be a VGPR") != std::string::npos);
  e = error_of([&] { k.v_add_f32(x, x, y, Dpp::row_mirror(), Dpp::row_mirror()); });
  CHECK(e.find("two DPP controls") != std::string::npos);
  e = error_of([&] { k.v_add_f32(x, x, y, Dpp::row_mirror(), clamp); });
  CHECK(e.find("takes no clamp/omod/op_sel") != std::string::npos);
  e = error_of([&] { k.v_add_f32(x, Neg{x}, y, Dpp::row_mirror()); });
  CHECK(e.find("operand 1 (src0): neg/abs under a DPP control are not supported yet") != std::string::npos);
  e = error_of([&] { k.v_add_f32(x, x, y, Swizzle::xor_mask(1)); });
  CHECK(e.find("takes no Swizzle") != std::string::npos);
  e = error_of([] { Dpp::row_shr(16); });
  CHECK(e.find(here) != std::string::npos);
  CHECK(e.find("Dpp::row_shr's shift is 16 (valid: 1..15)") != std::string::npos);
  e = error_of([] { Dpp::quad_perm({0, 1, 4, 3}); });
  CHECK(e.find("entry 2 is 4 (valid: lanes 0..3 of the quad)") != std::string::npos);
  e = error_of([] { Dpp::row_mirror().row_mask(16); });
  CHECK(e.find("(valid: 0..15)") != std::string::npos);
  e = error_of([] { Swizzle::xor_mask(32); });
  CHECK(e.find("Swizzle::xor_mask's mask") != std::string::npos);
  e = error_of([] { Swizzle::broadcast(12, 0); });
  CHECK(e.find("valid: 2, 4, 8, 16 or 32 lanes") != std::string::npos);
}

TEST_CASE("memory offsets are checked against the encoding's field at the call", "[jit][cross_lane]") {
  Kernel k("offsets", Arch::gfx950);
  Reg a = k.vgpr("a"), v = k.vgpr("v"), a2 = k.vgpr("a2", 2, 2), base = k.sgpr("base", 2, 2), rsrc = k.sgpr("rsrc", 4, 4);
  k.v_mov_b32(a, 0);
  const std::string here = "test_cross_lane.cpp:";
  std::string e = error_of([&] { k.ds_read_b32(v, a, Offset(65536)); });
  CHECK(e.find(here) != std::string::npos);
  CHECK(e.find("Offset(65536) does not fit the DS encoding's offset field (valid: a 16-bit unsigned offset (0..65535))") !=
        std::string::npos);
  e = error_of([&] { k.ds_read2_b32(a2, a, Offset0(256), Offset1(1)); });
  CHECK(e.find("Offset0(256) does not fit the DS encoding's offset field (valid: an 8-bit unsigned offset (0..255))") !=
        std::string::npos);
  e = error_of([&] { k.global_load_dword(v, a, base, Offset(-4097)); });
  CHECK(e.find("valid: a 13-bit signed offset (-4096..4095)") != std::string::npos);
  e = error_of([&] { k.buffer_load_dword(v, a, rsrc, 0, offen, Offset(4096)); });
  CHECK(e.find("valid: a 12-bit unsigned offset (0..4095)") != std::string::npos);
  // The ends of each range are accepted.
  CHECK(error_of([&] { k.ds_read_b32(v, a, Offset(65535)); }).empty());
  CHECK(error_of([&] { k.global_load_dword(v, a, base, Offset(-4096)); }).empty());
  CHECK(error_of([&] { k.buffer_load_dword(v, a, rsrc, 0, offen, Offset(4095)); }).empty());
}

TEST_CASE("the hazard pass puts 2 wait states between a VALU write and a DPP read of it", "[jit][cross_lane]") {
  Kernel k("dpp_hazard", Arch::gfx950);
  k.set_workgroup_size(64);
  Reg x = k.vgpr("x"), y = k.vgpr("y");
  k.v_mov_b32(x, k.workitem_id(0));
  k.v_mov_b32(y, x, Dpp::quad_perm({1, 0, 3, 2}));
  k.v_mov_b32(x, y);  // keep y live
  k.s_endpgm();
  BuildResult r = k.build();
  INFO(r.assembly);
  const size_t dpp = r.assembly.find("quad_perm");
  REQUIRE(dpp != std::string::npos);
  const size_t line = r.assembly.rfind('\n', dpp);
  const size_t prev = r.assembly.rfind('\n', line - 1);
  CHECK(r.assembly.substr(prev + 1, line - prev).find("s_nop 1") != std::string::npos);
  CHECK(r.stats.wait_states_inserted >= 2);
}

TEST_CASE("the hazard pass puts 5 wait states between a VALU write of EXEC and a DPP instruction", "[jit][cross_lane]") {
  Kernel k("dpp_exec_hazard", Arch::gfx942);
  k.set_workgroup_size(64);
  Reg x = k.vgpr("x"), y = k.vgpr("y");
  k.v_mov_b32(x, k.workitem_id(0));
  k.v_mov_b32(y, 0);
  k.v_cmpx_le_u32(vcc, 0, x);  // writes EXEC (all lanes stay on)
  k.v_mov_b32(y, x, Dpp::row_mirror());
  k.v_mov_b32(x, y);
  k.s_endpgm();
  BuildResult r = k.build();
  INFO(r.assembly);
  const size_t dpp = r.assembly.find("row_mirror");
  REQUIRE(dpp != std::string::npos);
  const size_t line = r.assembly.rfind('\n', dpp);
  const size_t prev = r.assembly.rfind('\n', line - 1);
  CHECK(r.assembly.substr(prev + 1, line - prev).find("s_nop 4") != std::string::npos);
}

namespace {

struct Case {
  std::string name;
  std::function<void(Kernel&, Reg dst, Reg src)> emit;
  std::function<int(int lane)> source;  // -1: no valid source lane
  bool zero_invalid = false;
  std::function<bool(int lane)> written = [](int) { return true; };
};

}  // namespace

TEST_CASE("every DPP and swizzle control moves the lanes the ISA guide says, on the simulator", "[jit][cross_lane][sim]") {
  const auto row = [](int l) { return l & ~15; };
  std::vector<Case> cases = {
      {"quad_perm", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::quad_perm({1, 0, 3, 2})); }, [](int l) { return l ^ 1; }},
      {"quad_perm 3301", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::quad_perm({3, 3, 0, 1})); },
       [](int l) { int q[4] = {3, 3, 0, 1}; return (l & ~3) + q[l & 3]; }},
      {"row_shr:1", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_shr(1)); },
       [](int l) { return (l & 15) >= 1 ? l - 1 : -1; }},
      {"row_shl:2 bound_ctrl", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_shl(2).bound_ctrl()); },
       [](int l) { return (l & 15) + 2 < 16 ? l + 2 : -1; }, true},
      {"row_ror:3", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_ror(3)); },
       [row](int l) { return row(l) + (((l & 15) - 3) & 15); }},
      {"row_mirror", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_mirror()); },
       [row](int l) { return row(l) + 15 - (l & 15); }},
      {"row_half_mirror", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_half_mirror()); },
       [](int l) { return (l & ~7) + 7 - (l & 7); }},
      {"row_bcast:15 row_mask:0xa", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_bcast15().row_mask(0xa)); },
       [row](int l) { return row(l) - 1; }, false, [](int l) { return (0xa >> (l / 16)) & 1; }},
      {"row_bcast:31 row_mask:0xc", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_bcast31().row_mask(0xc)); },
       [](int) { return 31; }, false, [](int l) { return l >= 32; }},
      {"row_newbcast:5", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::row_newbcast(5)); },
       [row](int l) { return row(l) + 5; }},
      {"wave_shr:1", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::wave_shr()); }, [](int l) { return l - 1; }},
      {"wave_rol:1", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::wave_rol()); }, [](int l) { return (l + 1) & 63; }},
      {"quad_perm bank_mask:0x5", [](Kernel& k, Reg d, Reg s) { k.v_mov_b32(d, s, Dpp::quad_perm({0, 0, 0, 0}).bank_mask(0x5)); },
       [](int l) { return l & ~3; }, false, [](int l) { return (0x5 >> ((l >> 2) & 3)) & 1; }},
      {"swizzle xor 16", [](Kernel& k, Reg d, Reg s) { k.ds_swizzle_b32(d, s, Swizzle::xor_mask(16)); }, [](int l) { return l ^ 16; }},
      {"swizzle bitmask", [](Kernel& k, Reg d, Reg s) { k.ds_swizzle_b32(d, s, Swizzle::bitmask(0x1c, 1, 2)); },
       [](int l) { return (l & ~31) | ((((l & 31) & 0x1c) | 1) ^ 2); }},
      {"swizzle quad", [](Kernel& k, Reg d, Reg s) { k.ds_swizzle_b32(d, s, Swizzle::quad_perm({2, 1, 0, 3})); },
       [](int l) { int q[4] = {2, 1, 0, 3}; return (l & ~3) + q[l & 3]; }},
  };
  constexpr uint32_t kOld = 0x7fff0000;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Kernel k("xlane", arch);
    k.set_workgroup_size(64);
    Reg in = k.load_arg(k.arg<const uint32_t*>("in"));
    Reg out = k.load_arg(k.arg<uint32_t*>("out"));
    Reg off = k.vgpr("off"), x = k.vgpr("x");
    k.v_lshlrev_b32(off, 2, k.workitem_id(0));
    k.s_waitcnt(lgkmcnt(0));
    k.global_load_dword(x, off, in);
    k.s_waitcnt(vmcnt(0));
    for (size_t i = 0; i < cases.size(); ++i) {
      Reg y = k.vgpr("y");
      k.v_mov_b32(y, int64_t(kOld + i));
      cases[i].emit(k, y, x);
      k.s_waitcnt(lgkmcnt(0));
      Reg at = k.vgpr("at");
      k.v_add_u32(at, int64_t(256 * i), off);  // case i's 64 results at byte 256 * i
      k.global_store_dword(at, y, out);
    }
    k.s_endpgm();
    BuildResult r = k.build();
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    std::vector<uint32_t> src(64);
    for (int l = 0; l < 64; ++l) src[size_t(l)] = 0x1000u + uint32_t(l) * 7u;
    Buffer bin = dev->upload(src, "in"), bout = dev->alloc(64 * 4 * cases.size(), "out");
    Module m = dev->load(r.code_object);
    dev->launch(m.kernel("xlane"), Dim3{1, 1, 1}, Dim3{64, 1, 1}, 0, KernelArgs().ptr(bin).ptr(bout));
    std::vector<uint32_t> got = dev->download<uint32_t>(bout);
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      int bad = 0;
      for (int l = 0; l < 64; ++l) {
        const int s = c.source(l);
        const bool valid = s >= 0 && s < 64;
        const uint32_t want = !c.written(l) ? uint32_t(kOld + i) : valid ? src[size_t(s)] : c.zero_invalid ? 0u : uint32_t(kOld + i);
        if (got[i * 64 + size_t(l)] != want && bad++ == 0)
          FAIL_CHECK(arch_name(arch) << " " << c.name << ": lane " << l << " got " << std::hex << got[i * 64 + size_t(l)]
                                     << " want " << want);
      }
      CHECK(bad == 0);
    }
  }
}
