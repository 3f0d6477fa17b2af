// Kernel::build(): regalloc → physical instructions → wait-count and hazard
// passes → .s text (unless not wanted) → in-process assemble → link (lld or the
// direct ELF writer), through the code-object cache.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>

#include "jit/asm/assemble.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/print_to.hpp"
#include "jit/isa/same_instruction.hpp"
#include "jit/asm/code_object_cache.hpp"
#include "jit/asm/direct_assemble.hpp"
#include "jit/codeobject/elf_writer.hpp"
#include "jit/codeobject/kernel_descriptor_emit.hpp"
#include "jit/asm/link.hpp"
#include "jit/kernel_impl.hpp"
#include "jit/lower.hpp"
#include "jit/operand_check.hpp"
#include "jit/passes/passes.hpp"
#include "jit/program_hash.hpp"

#include <mutex>
#include <unordered_map>

namespace cdnajit {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

passes::Mode pass_mode(PassMode m) {
  return m == PassMode::Auto ? passes::Mode::Auto : m == PassMode::Verify ? passes::Mode::Verify : passes::Mode::Off;
}

passes::BarrierRelease barrier_release(BarrierRelease r) {
  return r == BarrierRelease::All ? passes::BarrierRelease::All
         : r == BarrierRelease::None ? passes::BarrierRelease::None : passes::BarrierRelease::Lds;
}

std::string elem_name(ElemType e) {
  static const char* names[] = {"float", "half", "bf16", "char", "uchar", "short", "ushort", "int", "uint", "long", "fp8"};
  return names[int(e)];
}

std::string value_type_name(ArgType t) {
  static const char* names[] = {"int", "uint", "float", "long", "ulong", "void*"};
  return names[int(t)];
}

KernelDescriptorSpec descriptor_spec(const Kernel::Impl& k, const regalloc::Allocation& a) {
  KernelDescriptorSpec d;
  d.name = k.name;
  d.arch = k.arch;
  d.vgpr_count = uint32_t(std::max(a.vgprs_used, 1));  // v0 (work-item ids) is always written at launch
  d.agpr_count = uint32_t(a.agprs_used);
  // At least the SGPRs the hardware fills at launch: kernarg pointer s[0:1] and the enabled workgroup ids.
  d.sgpr_count = uint32_t(std::max(a.sgprs_used, 2 + 1 + (k.wg_id_vreg[1] >= 0) + (k.wg_id_vreg[2] >= 0)));
  d.lds_bytes = k.lds_bytes;
  d.kernarg_size = k.kernarg_bytes;
  d.max_flat_workgroup_size = k.wg_size[0] * k.wg_size[1] * k.wg_size[2];
  d.reqd_workgroup_size = std::array<uint32_t, 3>{k.wg_size[0], k.wg_size[1], k.wg_size[2]};
  d.workgroup_id_y = k.wg_id_vreg[1] >= 0;
  d.workgroup_id_z = k.wg_id_vreg[2] >= 0;
  d.workitem_id_vgprs = uint8_t(k.workitem_dims - 1);
  for (const ArgDecl& ad : k.args) {
    DescriptorArg da;
    da.name = ad.name;
    da.size = ad.arg.size;
    da.offset = ad.arg.offset;
    if (ad.type == ArgType::ptr) {
      da.value_kind = ArgValueKind::GlobalBuffer;
      da.address_space = "global";
      da.is_const = ad.is_const;
      da.access = ad.is_const ? ArgAccess::ReadOnly : ArgAccess::Default;
      da.type_name = elem_name(ad.elem) + "*";
    } else {
      da.value_kind = ArgValueKind::ByValue;
      da.type_name = value_type_name(ad.type);
    }
    d.args.push_back(std::move(da));
  }
  return d;
}

// One .s line per machine instruction; label lines unindented. An instruction equal to an
// earlier one (first_same[i] < i) copies that one's text, then adds its own comment.
// Appended to `body` (its caller reserves kBodyBytesPerEntry per entry: grown once, not by doubling).
constexpr size_t kBodyBytesPerEntry = 96;  // a line with its comment
void render_body(const std::vector<isa::MachineInst>& prog, const std::vector<uint32_t>& first_same,
                 std::vector<int>* line_to_inst, std::string& body) {
  if (line_to_inst) line_to_inst->reserve(line_to_inst->size() + prog.size());
  thread_local std::vector<std::pair<size_t, size_t>> text_at;  // per entry: where its instruction text is in `body`
  text_at.resize(prog.size());
  for (size_t i = 0; i < prog.size(); ++i) {
    const isa::MachineInst& mi = prog[i];
    if (!mi.label_def.empty()) body.append(mi.label_def).append(":\n");
    else if (!mi.info && mi.raw.empty()) body.append("  ; ").append(mi.comment).append("\n");
    else {
      body.append("  ");
      const size_t at = body.size();
      if (const uint32_t f = first_same[i]; f != i) {
        const auto [from, size] = text_at[f];
        body.reserve(body.size() + size + mi.comment.size() + 4);  // no reallocation while copying from itself
        body.append(body.data() + from, size);
      } else {
        isa::print_instruction_to(body, mi);
      }
      text_at[i] = {at, body.size() - at};
      if (!mi.comment.empty()) body.append(body.size() == at ? "; " : " ; ").append(mi.comment);  // as print_to
      body += '\n';
    }
    if (line_to_inst) line_to_inst->push_back(int(i));
  }
}

void append_implicit_endpgm(Kernel& k, Kernel::Impl& impl) {
  for (auto it = impl.program.rbegin(); it != impl.program.rend(); ++it) {
    if (it->is_label() || (!it->info && it->raw_text.empty())) continue;
    if (it->info && (isa::is(*it->info, isa::Opcode::s_endpgm) || isa::is(*it->info, isa::Opcode::s_branch))) return;
    break;
  }
  k.emit(isa::Opcode::s_endpgm, {}, impl.created_at);
  impl.program.modify(impl.program.size() - 1, [](IrInst& in) { in.comment = "implicit end of program"; });
}

}  // namespace

// A register read on a path that never wrote it would read a stale physical
// register: an error naming the register, the read and the first write.
// SGPRs are checked on the full CFG. VGPRs/AGPRs are checked without the taken
// edges of exec-zero branches: a region skipped because no lane is active would
// have written no lane either (if_vcc's then/else each write their own lanes).
static void check_defined_before_use(const regalloc::Function& fn,
                                     const std::vector<std::pair<uint32_t, uint32_t>>& exec_skips) {
  const std::vector<regalloc::MaybeUndefinedRead> bad = regalloc::find_maybe_undefined_reads(fn, exec_skips);
  if (bad.empty()) return;
  std::string msg;
  for (size_t i = 0; i < bad.size() && i < 8; ++i) {
    const regalloc::MaybeUndefinedRead& u = bad[i];
    const regalloc::VirtualReg& v = fn.vregs[u.vreg];
    msg += fmt::format("{}{}: register '{}' (declared at {}) is read here, but ", i ? "\n" : "", u.read_at, v.name,
                       v.origin);
    msg += u.first_written.empty()
               ? std::string("nothing writes it before")
               : fmt::format("a path from the kernel entry reaches this read without writing it (the first write "
                             "is at {})",
                             u.first_written);
  }
  if (bad.size() > 8) msg += fmt::format("\n... and {} more", bad.size() - 8);
  throw Error(msg);
}

struct BuildPipeline {
  static BuildResult run(Kernel& kernel, Kernel::Impl& k, const BuildOptions& opts) {
    auto t0 = Clock::now();
    BuildResult r;
    r.name = k.name;
    r.arch = k.arch;
    for (size_t l = 0; l < k.label_bound.size(); ++l)
      if (!k.label_bound[l])
        for (const IrInst& in : k.program)
          for (const Opnd& o : in.ops)
            if (auto* lab = std::get_if<Label>(&o.v); lab && lab->id == l)
              throw Error(fmt::format("{}: {} targets label '{}' which is never bound", where(in.loc),
                                      in.info->mnemonic, k.label_names[l]));
    append_implicit_endpgm(kernel, k);
    pin_abi_registers(k);

    auto t = Clock::now();
    // First without the names and call sites that only the checks' messages quote (copying
    // them was a third of this stage). Nothing is decided from them, so if a check throws,
    // running the stage again with them throws the same error, now fully described.
    auto allocate_checked = [&](bool messages) {
      std::vector<std::pair<uint32_t, uint32_t>> exec_skips;
      // This thread's function, reused by every build as the program buffer below is.
      thread_local regalloc::Function function_buffer;
      regalloc::Function& fn = function_buffer;
      to_regalloc_function(k, &exec_skips, messages, fn);
      check_defined_before_use(fn, exec_skips);
      regalloc::Allocation a = regalloc::allocate(fn, regalloc::Limits{});
      regalloc::verify(fn, a);
      return a;
    };
    regalloc::Allocation alloc;
    try {
      alloc = allocate_checked(false);
    } catch (const Error&) {
      alloc = allocate_checked(true);
    }
    r.stats.ms_regalloc = ms_since(t);

    t = Clock::now();
    // This thread's program buffer, reused by every build: its entries keep their strings'
    // and operand lists' memory (a fresh vector was hundreds of allocations and frees).
    // Nothing the build returns refers to it, and a build never starts another on its thread.
    thread_local std::vector<isa::MachineInst> prog_buffer;
    std::vector<isa::MachineInst>& prog = prog_buffer;
    to_machine(k, alloc, prog);
    // The comments now only if something before the text reads them: the wait-count
    // verifier quotes instructions with their comments. Otherwise render_text adds them.
    if (opts.waitcnt == PassMode::Verify) add_comments(k, prog);
    r.stats.ms_lower = ms_since(t);
    if (opts.drop_author_waits)
      std::erase_if(prog, [](const isa::MachineInst& mi) { return mi.info && isa::is(*mi.info, isa::kClassWaitcnt); });
    t = Clock::now();
    // What depends on an instruction alone, not on its comment or position (its register
    // accesses and classes in the passes; after them its legality, encoder template and text),
    // is worked out for the first of equal instructions and copied (isa/same_instruction.hpp).
    // The passes keep the list in step with the program, or empty it when they cannot.
    thread_local std::vector<uint32_t> first_same_buffer;
    std::vector<uint32_t>& first_same = first_same_buffer;
    isa::first_same_instruction(prog, first_same);
    passes::Report wr, hr;
    passes::run_waitcnt_and_hazards(prog, k.arch, pass_mode(opts.waitcnt), pass_mode(opts.hazards), wr, hr,
                                     barrier_release(opts.barrier_release), &first_same, opts.lds_dma_findings);
    if (first_same.size() != prog.size()) isa::first_same_instruction(prog, first_same);
    r.stats.ms_passes = ms_since(t);
    check_machine_program(k, prog, first_same);  // the legality check both encoders rely on: every instruction they see
    r.stats.waits_inserted = wr.waits_inserted;
    r.stats.waits_removed = wr.waits_removed;
    r.stats.nops_inserted = hr.nops_inserted;
    r.stats.wait_states_inserted = hr.wait_states_inserted;
    for (const auto* rep : {&wr, &hr})
      for (const passes::Finding& f : rep->findings)
        r.stats.pass_findings.push_back(fmt::format("[{}] {}", f.rule, f.message));

    t = Clock::now();
    KernelDescriptorSpec spec = descriptor_spec(k, alloc);
    validate(spec);
    // The .s text: always for the text encoder, the cache key and error messages;
    // otherwise only when asked for.
    std::vector<int> line_to_inst;
    // The body is written straight into the returned text (it was built in a buffer of its own
    // and copied in: hundreds of KB per build).
    size_t body_at = 0;
    bool have_text = false;
    auto render_text = [&] {
      if (have_text) return;
      add_comments(k, prog);
      body_at = render_kernel_file_to(r.assembly, spec, prog.size() * kBodyBytesPerEntry, [&](std::string& out) {
        render_body(prog, first_same, &line_to_inst, out);
      });
      have_text = true;
    };
    if (opts.keep_assembly || opts.encoder == Encoder::Text) render_text();
    r.stats.ms_print = ms_since(t);

    // Stats.
    r.stats.vgprs = int(spec.vgpr_count);
    r.stats.agprs = alloc.agprs_used;
    r.stats.sgprs = int(spec.sgpr_count);
    r.stats.lds_bytes = k.lds_bytes;
    r.stats.kernarg_bytes = k.kernarg_bytes;
    r.stats.workgroup_size = spec.max_flat_workgroup_size;
    r.stats.occupancy = isa::target::occupancy(k.arch, r.stats.vgprs, r.stats.agprs, r.stats.sgprs, k.lds_bytes,
                                               r.stats.workgroup_size);
    for (const isa::MachineInst& mi : prog) {
      if (mi.info) {
        ++r.stats.instructions;
        ++r.stats.by_unit[int(mi.info->unit)];
      } else if (!mi.raw.empty()) {
        ++r.stats.instructions;
        ++r.stats.by_unit[int(isa::Unit::Misc)];
      }
    }

    if (opts.link) {
      // The cache is keyed by the text (and by the linker: the direct writer's bytes are
      // tested equal to lld's for the built-in kernels only).
      static const std::string direct_writer_toolchain = toolchain_version() + " direct-elf-writer/1";
      CacheKey key{k.arch, r.assembly,
                   opts.linker == Linker::Direct ? std::string_view(direct_writer_toolchain) : toolchain_version()};
      const bool cached = opts.use_cache && have_text;
      auto& cache = CodeObjectCache::global();
      std::optional<std::vector<uint8_t>> hit;
      if (cached) hit = cache.get(key);
      if (hit) {
        r.code_object = std::move(*hit);
        r.stats.cache_hit = true;
      } else {
        t = Clock::now();
        AsmResult ar = encode(k, opts, spec, prog, first_same, r, render_text);
        r.stats.ms_assemble = ms_since(t);
        if (!ar.ok) {
          render_text();
          throw Error(map_diagnostics(k, ar, r.assembly, body_at, prog, line_to_inst));
        }
        t = Clock::now();
        r.code_object = link(ar.object, k.arch, opts.linker, r.stats);
        r.stats.ms_link = ms_since(t);
        if (cached) cache.put(key, r.code_object);
      }
    }
    r.stats.ms_build = ms_since(t0);
    return r;
  }

  // The relocatable object, through the chosen encoder. If the direct path fails, the text
  // path (the reference) builds the kernel and stats.text_fallback says so; its diagnostics,
  // if it fails too, are the ones the caller reports.
  static AsmResult encode(const Kernel::Impl& k, const BuildOptions& opts, const KernelDescriptorSpec& spec,
                          const std::vector<isa::MachineInst>& prog, const std::vector<uint32_t>& first_same,
                          BuildResult& r, const std::function<void()>& render_text) {
    if (opts.encoder == Encoder::Direct) {
      std::string head = render_file_header(k.arch) + render_code_begin(spec);
      std::string tail = render_code_end(spec) + render_amdhsa_kernel(spec);
      DirectAsmResult dr = assemble_direct(head, prog, tail, k.arch, &spec, /*validated=*/true,  // check_machine_program
                                           &first_same);
      r.stats.direct_insts = dr.direct_insts;
      r.stats.text_insts = dr.text_insts;
      r.stats.raw_lines = dr.raw_lines;
      if (dr.result.ok) return std::move(dr.result);
      r.stats.text_fallback = true;
    }
    render_text();
    r.stats.direct_insts = r.stats.text_insts = r.stats.raw_lines = 0;
    for (const isa::MachineInst& mi : prog) {
      if (mi.info) ++r.stats.text_insts;
      else if (mi.label_def.empty() && !mi.raw.empty()) ++r.stats.raw_lines;
    }
    return assemble(r.assembly, k.arch);
  }

  // The code object through the chosen linker; the direct writer hands objects
  // outside its shape to lld.
  static std::vector<uint8_t> link(std::span<const uint8_t> object, Arch arch, Linker linker, KernelStats& stats) {
    if (linker == Linker::Direct) {
      if (auto written = write_code_object_direct(object, arch)) return std::move(*written);
      stats.lld_fallback = true;
    }
    return link_code_object(object, arch);
  }

  // LLVM's messages with each line traced back to the builder call site.
  static std::string map_diagnostics(const Kernel::Impl& k, const AsmResult& ar, const std::string& text,
                                     size_t body_pos, const std::vector<isa::MachineInst>& prog,
                                     const std::vector<int>& line_to_inst) {
    int first_body_line = 1 + int(std::count(text.begin(), text.begin() + long(body_pos), '\n'));
    std::string msg = fmt::format("LLVM MC rejected kernel '{}' for {}:\n", k.name, arch_name(k.arch));
    for (const AsmDiagnostic& d : ar.diagnostics) {
      if (!d.is_error) continue;
      int bl = d.line - first_body_line;
      std::string site;
      if (bl >= 0 && size_t(bl) < line_to_inst.size()) {
        const isa::MachineInst& mi = prog[size_t(line_to_inst[size_t(bl)])];
        auto at = mi.comment.rfind('@');
        site = at == std::string::npos ? mi.comment : mi.comment.substr(at + 1);
      }
      msg += fmt::format("  {}{}: {}\n    {}\n", site.empty() ? "" : site + ": ", fmt::format("line {}", d.line),
                         d.message, d.line_text);
    }
    return msg;
  }
};

namespace {

// In-memory memo of whole builds keyed by the program fingerprint: an identical
// kernel rebuilt in the same process costs one hash of its instruction list.
struct BuildMemo {
  std::mutex mu;
  std::unordered_map<ProgramHash, BuildResult, ProgramHashHasher> results;
  static BuildMemo& get() {
    static BuildMemo m;
    return m;
  }
};

}  // namespace

BuildResult Kernel::build(const BuildOptions& opts) {
  if (!opts.use_cache) return BuildPipeline::run(*this, *impl_, opts);
  auto t0 = Clock::now();
  ProgramHash key = hash_program(*impl_, opts);
  BuildMemo& memo = BuildMemo::get();
  {
    std::lock_guard<std::mutex> lock(memo.mu);
    auto it = memo.results.find(key);
    if (it != memo.results.end()) {
      BuildResult r = it->second;
      r.stats.cache_hit = r.stats.memo_hit = true;
      r.stats.ms_regalloc = r.stats.ms_lower = r.stats.ms_passes = r.stats.ms_print = r.stats.ms_assemble =
          r.stats.ms_link = 0;
      r.stats.ms_build = ms_since(t0);
      return r;
    }
  }
  BuildResult r = BuildPipeline::run(*this, *impl_, opts);
  std::lock_guard<std::mutex> lock(memo.mu);
  memo.results.emplace(key, r);
  return r;
}

std::string Kernel::assembly(const BuildOptions& opts) {
  BuildOptions o = opts;
  o.link = false;
  o.keep_assembly = true;
  return BuildPipeline::run(*this, *impl_, o).assembly;
}

}  // namespace cdnajit
