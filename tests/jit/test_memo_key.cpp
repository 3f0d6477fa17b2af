// The in-process build memo (Kernel::build with use_cache) answers a build from an earlier
// one whose fingerprint matches. Its key must cover every input a build result depends on:
// here one base kernel is defined with the builder, and each variant changes exactly one
// input (a kernel attribute, an argument, a register declaration, one instruction's opcode,
// operand or modifier, a call site, a comment, the order of instructions, a build option).
// Every variant must miss the memo and give what an uncached build of the same definition
// gives; a second identical definition of the base and of every variant must hit with the
// same bytes. If the key dropped a field, that field's variant would be answered with the
// base's result: a hit, and a test failure.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "jit/interleave.hpp"
#include "jit/kernel.hpp"
#include "jit/wave_roles.hpp"

using namespace cdnajit;

namespace {

// A kernel name no other test of this binary uses: the memo lives as long as the process.
constexpr const char* kBaseName = "memo_key_probe";

// The base kernel (variant "") or the variant `v` of it, which differs in one input only.
void define_probe(Kernel& k, std::string_view v) {
  k.set_workgroup_size(v == "wg_x" ? 128 : 64, v == "wg_y" ? 2 : 1, v == "wg_z" ? 2 : 1);
  Arg out = k.arg_ptr(v == "arg_name" ? "dst" : "out", v == "arg_elem" ? ElemType::u32 : ElemType::f32,
                      v == "arg_const");
  Arg n = k.arg_value("n", v == "arg_type" ? ArgType::i32 : ArgType::u32);
  if (v == "arg_count") k.arg_value("extra", ArgType::u32);
  const uint32_t tile = k.lds_alloc("tile", v == "lds_bytes" ? 2048 : 1024);
  Reg p = k.load_arg(out);
  Reg cnt = k.load_arg(n);
  Reg tid = k.workitem_id(0);
  if (v == "workitem_dim") k.workitem_id(1);
  Reg wg = k.workgroup_id(v == "workgroup_dim" ? 1 : 0);
  Reg x = k.vgpr(v == "vreg_name" ? "x_renamed" : "x");
  // The declaration site of a register (its origin) on another line.
  Reg y = v == "vreg_origin" ? k.vgpr("y")
                             : k.vgpr("y");
  Reg pair = k.vgpr("pair", v == "vreg_dwords" ? 4 : 2, v == "vreg_align" ? 8 : 0);
  Reg acc = k.vgpr("acc", 4);
  Reg addr = k.vgpr("addr");
  Reg s = k.sgpr("s");
  Label skip = k.new_label(v == "label_name" ? "skip_renamed" : "skip");
  Label other = k.new_label("other");

  k.v_lshlrev_b32(addr, 2, tid);
  k.v_add_u32(addr, wg, addr);
  k.s_waitcnt(lgkmcnt(0));
  k.global_load_dword(x, addr, p, Offset(v == "offset" ? 8 : 4));
  k.global_load_dword(y, addr, p, v == "sc0" ? Opnd(sc0) : Opnd(), v == "nt" ? Opnd(nt) : Opnd());
  k.s_waitcnt(vmcnt(0));
  if (v == "opcode") k.v_sub_f32(pair[0], x, y);
  else k.v_add_f32(pair[0], x, y);
  k.v_mul_f32(pair[1], v == "imm_float" ? 2.0f : 4.0f, v == "operand_reg" ? y : x);
  k.v_add_u32(x, v == "imm_int" ? 7 : 5, x);
  k.v_fma_f32(y, v == "neg" ? Opnd(Neg{x}) : Opnd(x), v == "abs" ? Opnd(Abs{y}) : Opnd(y), pair[v == "operand_slice" ? 1 : 0]);
  k.v_add_f32(pair[1], pair[1], y, v == "clamp" ? Opnd(clamp) : Opnd());
  k.v_pk_add_f16(x, x, y, OpSel(v == "op_sel" ? 1 : 0), OpSelHi(v == "op_sel_hi" ? 1 : 3));
  k.v_mov_b32(acc[0], x);
  k.v_mov_b32(acc[1], y);
  k.v_mov_b32(acc[2], pair[0]);
  k.v_mov_b32(acc[3], pair[1]);
  k.v_mfma_f32_4x4x1_16b_f32(acc, x, y, acc, Cbsz{uint8_t(v == "cbsz" ? 1 : 0)}, Abid{uint8_t(v == "abid" ? 1 : 0)},
                             Blgp{uint8_t(v == "blgp" ? 1 : 0)});
  k.ds_write_b32(addr, acc[0], Offset(int32_t(tile)));
  k.s_waitcnt(lgkmcnt(0));
  k.ds_read2_b32(pair.slice(0, 2), addr, Offset0(v == "offset0" ? 2 : 1), Offset1(v == "offset1" ? 4 : 3));
  k.comment(v == "comment" ? "the other comment" : "a comment");
  if (v == "call_line") k.s_mov_b32(s, cnt);
  else k.s_mov_b32(s, cnt);
  k.s_mov_b32(v == "special" ? vcc_lo : m0, -1);
  k.s_cmp_eq_u32(s, 0);
  k.s_cbranch_scc1(v == "label_target" ? other : skip);
  if (v == "label_position") k.bind(skip);
  k.v_add_u32(x, 1, x);
  if (v != "label_position") k.bind(skip);
  k.bind(other);
  k.raw(v == "raw_text" ? "v_add_u32 {0}, 2, {1}" : "v_add_u32 {0}, 1, {1}", {v == "raw_regs" ? y : x, y},
        v == "raw_defs" ? std::vector<int>{0, 1} : std::vector<int>{0});
  // Two independent streams placed in either order (the interleaver moves recorded instructions).
  Interleave il(k);
  int a = il.stream("a", [&] { k.v_add_f32(pair[0], pair[0], 1.0f); });
  int b = il.stream("b", [&] { k.v_add_f32(pair[1], pair[1], 2.0f); });
  if (v == "interleave") il.place({{b, 1}, {a, 1}});
  else il.place({{a, 1}, {b, 1}});
  // Two independent instructions in either order.
  if (v == "order") {
    k.v_mul_f32(x, x, x);
    k.v_mul_f32(y, y, y);
  } else {
    k.v_mul_f32(y, y, y);
    k.v_mul_f32(x, x, x);
  }
  k.v_add_f32(x, x, y);
  k.v_add_f32(x, x, pair[0]);
  k.v_add_f32(x, x, pair[1]);
  k.global_store_dword(addr, x, p, v == "sc1" ? Opnd(sc1) : Opnd());
  // No s_endpgm: the build appends it (and its comment) to the recorded program.
  if (v == "explicit_endpgm") k.s_endpgm();
}

// A small wave-specialized kernel: WaveRoles names each barrier by rewriting the comment of
// the s_barrier it recorded last.
void define_roles(Kernel& k, std::string_view barrier_name) {
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 2, k.workitem_id(0));
  k.s_waitcnt(lgkmcnt(0));
  WaveRoles roles(k);
  roles.role("load", 1, [&](const RoleEnv&) { roles.barrier(std::string(barrier_name)); });
  roles.role("math", 1, [&](const RoleEnv& r) {
    roles.barrier(std::string(barrier_name));
    Reg v = k.vgpr("v");
    k.v_mov_b32(v, r.wave);
    k.global_store_dword(off, v, out);
  });
  roles.emit();
  k.s_endpgm();
}

struct Variant {
  std::string name;        // the definition's variant; "" is the base definition
  Arch arch = Arch::gfx942;
  BuildOptions opts;
  bool output_differs = true;  // its result differs from the base's (false: same bytes, still keyed)
  std::string label;       // for messages
};

// What a build gives that a memo hit must reproduce.
bool same_result(const BuildResult& a, const BuildResult& b) {
  return a.name == b.name && a.arch == b.arch && a.code_object == b.code_object && a.assembly == b.assembly &&
         a.stats.vgprs == b.stats.vgprs && a.stats.sgprs == b.stats.sgprs && a.stats.agprs == b.stats.agprs &&
         a.stats.instructions == b.stats.instructions && a.stats.pass_findings == b.stats.pass_findings && a.stats.waits_inserted == b.stats.waits_inserted;
}

BuildResult build_variant(const Variant& v, BuildOptions opts) {
  Kernel k(v.name == "kernel_name" ? "memo_key_probe_renamed" : kBaseName, v.arch);
  define_probe(k, v.name);
  return k.build(opts);
}

}  // namespace

TEST_CASE("build memo: a program differing in any one keyed input misses; an identical one hits", "[builder][memo]") {
  std::vector<Variant> variants;
  for (const char* name :
       {"kernel_name", "wg_x", "wg_y", "wg_z", "arg_name", "arg_elem", "arg_const", "arg_type", "arg_count",
        "lds_bytes", "workitem_dim", "workgroup_dim", "vreg_name", "vreg_dwords", "vreg_align", "label_name",
        "offset", "sc0", "nt", "sc1", "opcode", "imm_float", "operand_reg", "imm_int", "neg", "abs",
        "operand_slice", "clamp", "op_sel", "op_sel_hi", "cbsz", "abid", "blgp", "offset0", "offset1", "comment",
        "call_line", "special", "label_target", "label_position", "raw_text", "raw_regs", "interleave",
        "order", "explicit_endpgm"})
    variants.push_back({name, Arch::gfx942, {}, true, ""});
  // A register's declaration site is only quoted by error messages: same bytes, still keyed.
  variants.push_back({"vreg_origin", Arch::gfx942, {}, false, ""});
  // Which raw() registers are written steers liveness only; here the allocation stays the same.
  variants.push_back({"raw_defs", Arch::gfx942, {}, false, ""});
  variants.push_back({"", Arch::gfx950, {}, true, "arch gfx950"});
  auto option = [&](const char* label, auto set, bool differs) {
    Variant v{"", Arch::gfx942, {}, differs, label};
    set(v.opts);
    variants.push_back(v);
  };
  option("waitcnt verify", [](BuildOptions& o) { o.waitcnt = PassMode::Verify; }, true);
  option("hazards verify", [](BuildOptions& o) { o.hazards = PassMode::Verify; }, true);
  option("no link", [](BuildOptions& o) { o.link = false; }, true);
  option("drop author waits", [](BuildOptions& o) { o.drop_author_waits = true; }, true);
  option("text encoder", [](BuildOptions& o) { o.encoder = Encoder::Text; }, false);
  option("lld", [](BuildOptions& o) { o.linker = Linker::Lld; }, false);
  option("no .s", [](BuildOptions& o) { o.keep_assembly = false; }, true);
  // Only Verify reports differ (no waitcnt-lds-dma findings): the same code, but its own key.
  option("no lds-dma findings", [](BuildOptions& o) { o.lds_dma_findings = false; }, false);

  const Variant base{"", Arch::gfx942, {}, false, "base"};
  const BuildResult first = build_variant(base, base.opts);
  const BuildResult again = build_variant(base, base.opts);
  CHECK(again.stats.memo_hit);
  CHECK(same_result(first, again));

  for (size_t i = 0; i < variants.size(); ++i) {
    const Variant& v = variants[i];
    INFO("variant #" << i << " '" << v.name << "' " << v.label << " on " << arch_name(v.arch));
    BuildOptions uncached = v.opts;
    uncached.use_cache = false;
    const BuildResult reference = build_variant(v, uncached);
    const BuildResult got = build_variant(v, v.opts);
    CHECK_FALSE(got.stats.memo_hit);
    CHECK(same_result(got, reference));
    if (v.output_differs) CHECK_FALSE(same_result(got, first));
    // The same variant defined again: now a hit with the same result.
    const BuildResult hit = build_variant(v, v.opts);
    CHECK(hit.stats.memo_hit);
    CHECK(same_result(hit, reference));
  }
}

TEST_CASE("build memo: a barrier renamed after it was recorded misses", "[builder][memo]") {
  auto build = [](const char* name) {
    Kernel k("memo_key_roles", Arch::gfx950);
    define_roles(k, name);
    return k.build();
  };
  const BuildResult first = build("tile_ready");
  const BuildResult again = build("tile_ready");
  CHECK(again.stats.memo_hit);
  const BuildResult renamed = build("tile_done");
  CHECK_FALSE(renamed.stats.memo_hit);
  CHECK(renamed.assembly != first.assembly);
}

TEST_CASE("build memo: the same Kernel object built twice reflects what the first build appended", "[builder][memo]") {
  Kernel k("memo_key_twice", Arch::gfx942);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg v = k.vgpr("v");
  k.v_mov_b32(v, 3);
  k.s_waitcnt(lgkmcnt(0));
  k.global_store_dword(k.workitem_id(0), v, out);
  const BuildResult first = k.build();  // appends the implicit s_endpgm
  const BuildResult second = k.build();
  CHECK(second.code_object == first.code_object);
  CHECK(second.assembly == first.assembly);
  const BuildResult third = k.build();
  CHECK(third.stats.memo_hit);
  CHECK(third.code_object == first.code_object);
}
