// The opcode map from the generated table (decode_opcode_map.hpp).
#include "runtime/sim/decode_opcode_map.hpp"

#include <atomic>
#include <mutex>

namespace cdnajit::sim {
namespace {

// Generated at build time by gen_opcode_map (runtime/sim/CMakeLists.txt): kLearned, kLearnedCounts.
#include "runtime/sim/decode_opcode_map.inc"

const OpcodeMap* build(Arch arch) {
  auto* map = new OpcodeMap;  // kept for the life of the process
  for (const isa::InstrInfo& row : isa::table()) map->rows += row.on(arch);
  for (const LearnedOpcode& e : kLearned) {
    if (e.arch != arch) continue;
    switch (e.kind) {
      case LearnedOpcode::Plain:
      case LearnedOpcode::Promoted: {
        const bool promoted = e.kind == LearnedOpcode::Promoted;
        auto [it, inserted] = map->by_format[size_t(e.format)].emplace(e.field, OpcodeEntry{e.opcode, promoted});
        if (!inserted && it->second.opcode != e.opcode)
          map->collisions += std::string(format_name(e.format)) + " opcode " + std::to_string(e.field) + ": " +
                             std::string(isa::info(it->second.opcode).mnemonic) + " and " +
                             std::string(isa::info(e.opcode).mnemonic) + "\n";
        if (promoted) map->has_vop3_form.set(size_t(e.opcode));
        ++map->forms_learned;
        break;
      }
      case LearnedOpcode::ScaledMfma:
        map->scaled_mfma[e.field] = e.opcode;
        ++map->forms_prefixed;
        break;
      case LearnedOpcode::OpSelDstFollows:
        map->op_sel_dst_follows_sources.set(size_t(e.opcode));
        break;
    }
  }
  for (const LearnedCounts& c : kLearnedCounts)
    if (c.arch == arch) map->forms_refused = c.forms_refused, map->build_ms = c.build_ms;
  return map;
}

}  // namespace

const OpcodeMap& opcode_map(Arch arch) {
  // Read once per decoded instruction: a lock-free look once built.
  static std::atomic<const OpcodeMap*> ready[2];
  std::atomic<const OpcodeMap*>& slot = ready[arch == Arch::gfx942 ? 0 : 1];
  if (const OpcodeMap* m = slot.load(std::memory_order_acquire)) return *m;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (const OpcodeMap* m = slot.load(std::memory_order_acquire)) return *m;
  const OpcodeMap* m = build(arch);
  slot.store(m, std::memory_order_release);
  return *m;
}

}  // namespace cdnajit::sim
