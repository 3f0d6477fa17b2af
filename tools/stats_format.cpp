#include "tools/stats_format.hpp"

#include <fmt/format.h>

namespace cdnajit {

std::string format_kernel_stats(const BuildResult& r) {
  const KernelStats& s = r.stats;
  std::string t;
  t += fmt::format("kernel            {} ({})\n", r.name, arch_name(r.arch));
  t += fmt::format("VGPRs / AGPRs     {} / {}\n", s.vgprs, s.agprs);
  t += fmt::format("SGPRs             {}\n", s.sgprs);
  t += fmt::format("LDS bytes         {}\n", s.lds_bytes);
  t += fmt::format("kernarg bytes     {}\n", s.kernarg_bytes);
  t += fmt::format("workgroup size    {}\n", s.workgroup_size);
  t += fmt::format("occupancy         {} waves/SIMD (registers {}, LDS {}; {} workgroups/CU by LDS)\n",
                   s.occupancy.waves_per_simd, s.occupancy.waves_per_simd_regs, s.occupancy.waves_per_simd_lds,
                   s.occupancy.workgroups_per_cu_lds);
  t += fmt::format("instructions      {} static\n", s.instructions);
  std::string mix;
  for (int u = 0; u <= int(isa::Unit::Misc); ++u)
    if (s.by_unit[u]) mix += fmt::format(" {}={}", isa::unit_name(isa::Unit(u)), s.by_unit[u]);
  t += fmt::format("instruction mix  {}\n", mix);
  t += fmt::format("passes            {} s_waitcnt inserted, {} redundant author waits removed, {} s_nop inserted ({} wait states)\n",
                   s.waits_inserted, s.waits_removed, s.nops_inserted, s.wait_states_inserted);
  for (const std::string& f : s.pass_findings) t += "  finding: " + f + "\n";
  t += fmt::format("JIT time (ms)     total {:.3f}  regalloc {:.3f}  lower {:.3f}  passes {:.3f}  print {:.3f}  encode {:.3f}  link {:.3f}{}\n",
                   s.ms_build, s.ms_regalloc, s.ms_lower, s.ms_passes, s.ms_print, s.ms_assemble, s.ms_link,
                   s.cache_hit ? "  (code-object cache hit)" : "");
  if (!s.cache_hit)
    t += fmt::format("encoding          {} instructions as MCInsts, {} from text, {} raw lines{}{}\n", s.direct_insts,
                     s.text_insts, s.raw_lines,
                     s.text_fallback ? " (direct encoding failed: the text encoder built this kernel)" : "",
                     s.lld_fallback ? "; linked by lld (outside the direct ELF writer's shape)" : "");
  return t;
}

}  // namespace cdnajit
