#include "jit/wave_roles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "jit/kernel_impl.hpp"
#include "jit/lower.hpp"
#include "jit/regalloc/regalloc.hpp"

namespace cdnajit {

namespace {

constexpr int kMaxWaves = 16;  // 1024 work-items per workgroup

// Instructions the register allocator sees (labels and comment lines are not positions).
bool is_position(const IrInst& in) { return !in.is_label() && (in.info || !in.raw_text.empty()); }

}  // namespace

int RoleRegisterReport::max_role_vgprs() const {
  int m = 0;
  for (const RoleStats& r : roles) m = std::max(m, r.peak_vgprs);
  return m;
}

int RoleRegisterReport::sum_role_vgprs() const {
  int s = 0;
  for (const RoleStats& r : roles) s += r.peak_vgprs;
  return s;
}

WaveRoles::WaveRoles(Kernel& k, std::source_location) : k_(k) {}

void WaveRoles::role(std::string name, int waves, std::function<void(const RoleEnv&)> body, std::source_location loc) {
  if (emitted_) throw Error(fmt::format("{}: WaveRoles::role('{}') after emit()", where(loc), name));
  if (waves < 1 || waves > kMaxWaves)
    throw Error(fmt::format("{}: role '{}' has {} waves; a role needs 1..{} waves", where(loc), name, waves, kMaxWaves));
  if (!body) throw Error(fmt::format("{}: role '{}' has no body", where(loc), name));
  bool plain = !name.empty();
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!plain)
    throw Error(fmt::format("{}: role name '{}' may only contain letters, digits and '_' (it names the role's labels)",
                            where(loc), name));
  for (const Decl& d : roles_)
    if (d.name == name) throw Error(fmt::format("{}: role '{}' declared twice (first at {})", where(loc), name, where(d.loc)));
  int total = waves;
  for (const Decl& d : roles_) total += d.waves;
  if (total > kMaxWaves)
    throw Error(fmt::format("{}: role '{}' brings the workgroup to {} waves; at most {} (1024 work-items) are possible",
                            where(loc), name, total, kMaxWaves));
  roles_.push_back({std::move(name), waves, std::move(body), loc});
}

void WaveRoles::barrier(std::string name, std::source_location loc) {
  k_.s_barrier({}, {}, {}, {}, {}, {}, {}, {}, loc);
  auto& program = k_.impl_->program;
  program.modify(program.size() - 1, [&name](IrInst& in) { in.comment = std::move(name); });
}

void WaveRoles::pad_barriers(int n, std::source_location loc) {
  if (n < 0) throw Error(fmt::format("{}: pad_barriers({}): the count must be >= 0", where(loc), n));
  for (int i = 0; i < n; ++i) barrier("dummy", loc);
}

int WaveRoles::total_waves() const {
  int t = 0;
  for (const Decl& d : roles_) t += d.waves;
  return t;
}

void WaveRoles::emit(const Options& opts, std::source_location loc) {
  if (emitted_) throw Error(fmt::format("{}: WaveRoles::emit() called twice", where(loc)));
  if (roles_.empty()) throw Error(fmt::format("{}: WaveRoles::emit() without any role", where(loc)));
  emitted_ = true;
  k_.set_workgroup_size(uint32_t(64 * total_waves()), 1, 1, loc);

  // Dispatch: wave = workitem_id.x / 64, uniform per wave.
  k_.comment("wave roles: dispatch on the wave index", loc);
  Reg tid = k_.workitem_id(0, loc);
  Reg wave_v = k_.vgpr("wave_index_v", 1, 0, loc);
  k_.v_lshrrev_b32(wave_v, 6, tid, {}, {}, {}, {}, {}, loc);
  Reg wave = k_.sgpr("wave_index", 1, 0, loc);
  k_.v_readfirstlane_b32(wave, wave_v, {}, {}, {}, {}, {}, {}, loc);
  std::vector<Label> start, pad;
  for (const Decl& d : roles_) {
    start.push_back(k_.new_label("role_" + d.name, d.loc));
    pad.push_back(k_.new_label("role_end_" + d.name, d.loc));
  }
  Label end = k_.new_label("roles_end", loc);
  int first = 0;
  for (size_t i = 0; i + 1 < roles_.size(); ++i) {
    first += roles_[i].waves;
    k_.s_cmp_lt_u32(wave, first, {}, {}, {}, {}, {}, {}, loc);
    k_.s_cbranch_scc1(start[i], {}, {}, {}, {}, {}, {}, {}, loc);
  }
  k_.s_branch(start.back(), {}, {}, {}, {}, {}, {}, {}, loc);

  // One contiguous block per role.
  first = 0;
  for (size_t i = 0; i < roles_.size(); ++i) {
    Decl& d = roles_[i];
    d.begin = k_.impl_->program.size();
    k_.bind(start[i], d.loc);
    k_.comment(fmt::format("wave role '{}': waves {}..{}", d.name, first, first + d.waves - 1), d.loc);
    RoleEnv env{d.name, int(i), first, d.waves, k_.sgpr(d.name + "_wave", 1, 0, d.loc)};
    k_.s_sub_u32(env.wave, wave, first, {}, {}, {}, {}, {}, d.loc);
    d.body(env);
    k_.s_branch(pad[i], {}, {}, {}, {}, {}, {}, {}, d.loc);
    d.end = k_.impl_->program.size();
    first += d.waves;
  }

  // Barrier balance.
  std::vector<std::string> names;
  for (const Decl& d : roles_) {
    names.push_back(d.name);
    signatures_.push_back(role_barrier_signature(*k_.impl_, d.begin, d.end, d.name));
  }
  padded_.assign(roles_.size(), 0);
  if (opts.pad_to_balance) {
    size_t longest = 0;
    for (size_t i = 0; i < signatures_.size(); ++i)
      if (signatures_[i].size() > signatures_[longest].size()) longest = i;
    const BarrierSignature& ref = signatures_[longest];
    for (size_t i = 0; i < signatures_.size(); ++i) {
      const BarrierSignature& s = signatures_[i];
      bool prefix = std::equal(s.begin(), s.end(), ref.begin());
      bool plain_tail = std::none_of(ref.begin() + long(s.size()), ref.end(), [](const BarrierToken& t) { return t.is_loop; });
      if (!prefix || !plain_tail) continue;  // left for the check to report
      padded_[i] = int(ref.size() - s.size());
      for (size_t j = s.size(); j < ref.size(); ++j)
        signatures_[i].push_back({false, "dummy", where(roles_[i].loc), {}});
    }
  }
  if (opts.check_barriers) check_barrier_balance(names, signatures_);

  // Per-role tails: the dummy barriers, then the common end.
  for (size_t i = 0; i < roles_.size(); ++i) {
    k_.bind(pad[i], roles_[i].loc);
    pad_barriers(padded_[i], roles_[i].loc);
    k_.s_branch(end, {}, {}, {}, {}, {}, {}, {}, loc);
  }
  k_.bind(end, loc);
}

RoleRegisterReport WaveRoles::register_report() const {
  if (!emitted_) throw Error("WaveRoles::register_report() before emit()");
  const Kernel::Impl& k = *k_.impl_;
  regalloc::Function f = to_regalloc_function(k);
  regalloc::Liveness lv = regalloc::compute_liveness(f);

  // Position range of each role's block.
  std::vector<int> pos_of(k.program.size() + 1, 0);
  int p = 0;
  for (size_t i = 0; i < k.program.size(); ++i) {
    pos_of[i] = p;
    p += is_position(k.program[i]);
  }
  pos_of[k.program.size()] = p;

  RoleRegisterReport rep;
  std::vector<std::pair<int, int>> range;  // [first, last] positions
  for (const Decl& d : roles_) {
    RoleStats s;
    s.name = d.name;
    s.waves = d.waves;
    for (size_t i = d.begin; i < d.end; ++i)
      if (k.program[i].info) {
        ++s.by_unit[int(k.program[i].info->unit)];
        ++s.instructions;
      }
    rep.roles.push_back(s);
    range.push_back({pos_of[d.begin], pos_of[d.end] - 1});
  }
  // owner: role index, or -1 (shared) when the live interval is not inside one role.
  std::vector<int> owner(f.vregs.size(), -1);
  for (size_t v = 0; v < f.vregs.size(); ++v) {
    const regalloc::Interval& iv = lv.intervals[v];
    if (iv.empty()) continue;
    for (size_t r = 0; r < range.size(); ++r)
      if (range[r].first <= iv.start && iv.end <= range[r].second) owner[v] = int(r);
  }
  // Sweep positions: live dwords per owner and class.
  for (int pos = 0; pos < lv.num_positions; ++pos) {
    std::vector<std::array<int, 3>> live(roles_.size() + 1, {0, 0, 0});
    for (size_t v = 0; v < f.vregs.size(); ++v) {
      if (!lv.intervals[v].contains(pos)) continue;
      size_t slot = owner[v] < 0 ? roles_.size() : size_t(owner[v]);
      live[slot][int(f.vregs[v].cls)] += f.vregs[v].dwords;
    }
    for (size_t r = 0; r < roles_.size(); ++r) {
      RoleStats& s = rep.roles[r];
      s.peak_sgprs = std::max(s.peak_sgprs, live[r][0]);
      s.peak_vgprs = std::max(s.peak_vgprs, live[r][1]);
      s.peak_agprs = std::max(s.peak_agprs, live[r][2]);
    }
    rep.shared_sgprs = std::max(rep.shared_sgprs, live.back()[0]);
    rep.shared_vgprs = std::max(rep.shared_vgprs, live.back()[1]);
    rep.shared_agprs = std::max(rep.shared_agprs, live.back()[2]);
  }
  return rep;
}

}  // namespace cdnajit
