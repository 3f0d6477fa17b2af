// Field-by-field comparison of two decodings of a kernel (decode_paths.hpp): how the binary
// decoder is held to the LLVM text oracle.
#include <sstream>
#include <string>

#include "runtime/sim/decode_paths.hpp"

namespace cdnajit::sim {
namespace {

// A decoded source as text, every field (sim_internal.hpp's Src).
std::string src_fields(const Src& s) {
  std::ostringstream o;
  o << "{kind " << int(s.k) << ", dwords " << int(s.n) << ", neg " << s.neg << ", abs " << s.abs << ", sign bit "
    << int(s.sign) << ", index " << s.idx << ", value " << s.val << "}";
  return o.str();
}

void src_diff(std::ostringstream& out, const char* what, int i, const Src& a, const Src& b) {
  const std::string x = src_fields(a), y = src_fields(b);
  if (x != y) out << " " << what << "[" << i << "] " << x << " vs " << y;
}

std::string op_diff(const Op& a, const Op& b) {
  std::ostringstream out;
  auto f = [&](const char* name, auto x, auto y) {
    if (x != y) out << " " << name << " " << uint64_t(x) << " vs " << uint64_t(y);
  };
  auto p = [&](const char* name, const void* x, const void* y) {
    if (x != y) out << " " << name << " differs";
  };
  p("fn", reinterpret_cast<const void*>(a.fn), reinterpret_cast<const void*>(b.fn));
  f("unit", int(a.unit), int(b.unit));
  p("info", a.info, b.info);
  f("ft", int(a.ft), int(b.ft));
  f("nd", a.nd, b.nd);
  f("ns", a.ns, b.ns);
  for (int i = 0; i < 2; ++i) src_diff(out, "d", i, a.d[i], b.d[i]);
  for (int i = 0; i < 5; ++i) src_diff(out, "s", i, a.s[i], b.s[i]);
  f("offset", uint32_t(a.offset), uint32_t(b.offset));
  f("offset0", uint32_t(a.offset0), uint32_t(b.offset0));
  f("offset1", uint32_t(a.offset1), uint32_t(b.offset1));
  f("clamp", a.clamp, b.clamp);
  f("lds", a.lds, b.lds);
  f("offen", a.offen, b.offen);
  f("idxen", a.idxen, b.idxen);
  f("e64", a.e64, b.e64);
  f("sdwa", a.sdwa, b.sdwa);
  f("sc0", a.sc0, b.sc0);
  f("omod", a.omod, b.omod);
  f("op_sel", a.op_sel, b.op_sel);
  f("op_sel_hi", a.op_sel_hi, b.op_sel_hi);
  f("neg_lo", a.neg_lo, b.neg_lo);
  f("neg_hi", a.neg_hi, b.neg_hi);
  f("cbsz", a.cbsz, b.cbsz);
  f("abid", a.abid, b.abid);
  f("blgp", a.blgp, b.blgp);
  f("op_sel_hi_set", a.op_sel_hi_set, b.op_sel_hi_set);
  f("sdwa_dst_sel", a.sdwa_dst_sel, b.sdwa_dst_sel);
  f("sdwa_dst_unused", a.sdwa_dst_unused, b.sdwa_dst_unused);
  f("sdwa_src_sel0", a.sdwa_src_sel[0], b.sdwa_src_sel[0]);
  f("sdwa_src_sel1", a.sdwa_src_sel[1], b.sdwa_src_sel[1]);
  f("sdwa_sext", a.sdwa_sext, b.sdwa_sext);
  f("imm", a.imm, b.imm);
  f("target", a.target, b.target);
  f("pc", a.pc, b.pc);
  f("index", a.index, b.index);
  f("aux", a.aux, b.aux);
  f("counter", a.counter, b.counter);
  f("private_parse", a.private_parse, b.private_parse);
  p("moded", reinterpret_cast<const void*>(a.moded), reinterpret_cast<const void*>(b.moded));
  f("mode_free", a.mode_free, b.mode_free);
  f("vmask", a.vmask, b.vmask);
  f("smask", a.smask, b.smask);
  p("inner", reinterpret_cast<const void*>(a.inner), reinterpret_cast<const void*>(b.inner));
  f("dpp_src", a.dpp_src, b.dpp_src);
  f("dpp_ctrl", a.dpp_ctrl, b.dpp_ctrl);
  f("row_mask", a.row_mask, b.row_mask);
  f("bank_mask", a.bank_mask, b.bank_mask);
  f("bound_ctrl", a.bound_ctrl, b.bound_ctrl);
  f("private_parse_unused", a.private_parse_unused, b.private_parse_unused);
  return out.str();
}

}  // namespace

std::string decoded_difference(const DecodedKernel& a, const DecodedKernel& b) {
  if (a.ops.size() != b.ops.size())
    return "kernel " + a.info.name + ": " + std::to_string(a.ops.size()) + " vs " + std::to_string(b.ops.size()) + " instructions";
  std::string out;
  for (size_t i = 0; i < a.ops.size(); ++i) {
    // Bytes both refuse to run (an undecodable placeholder on either side) agree whatever else
    // each decoder recorded about them.
    auto placeholder = [](const Op& op) { return op.text.rfind("<", 0) == 0; };
    if (!a.ops[i].fn && !b.ops[i].fn && (placeholder(a.ops[i]) || placeholder(b.ops[i])) && a.ops[i].pc == b.ops[i].pc) continue;
    std::string d = op_diff(a.ops[i], b.ops[i]);
    if (!d.empty()) out += "kernel " + a.info.name + " pc " + hex(a.ops[i].pc) + " '" + a.ops[i].text + "' / '" + b.ops[i].text + "':" + d + "\n";
  }
  if (a.pc_to_index != b.pc_to_index && out.empty()) out = "kernel " + a.info.name + ": pc maps differ\n";
  return out;
}

}  // namespace cdnajit::sim
