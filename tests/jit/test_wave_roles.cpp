// Wave roles (jit/wave_roles.hpp): dispatch by wave index with the first-declared
// role on the lowest waves, register sharing between roles, the static barrier-balance
// check (hand-written and randomized unbalanced kernels) and, with the check bypassed,
// the simulator's barrier-deadlock detection.
#include <catch2/catch.hpp>

#include <functional>
#include <random>

#include "jit/kernel.hpp"
#include "jit/wave_roles.hpp"
#include "runtime/device.hpp"
#include "tests/test_support.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {

std::unique_ptr<Device> sim_device(Arch arch) { return open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950"); }

struct RoleShape {
  const char* name;
  int waves;
  int values;  // VGPRs the role keeps live at once
  int bias;
};

// Each role creates `values` VGPRs a[i] = 4*tid + i + bias, keeps them all live, sums
// them, adds its wave-in-role index and stores the sum at out[tid]. `off` (4*tid) is
// created before the roles and used by all of them: it is live across the roles.
uint32_t expected_sum(const RoleShape& r, uint32_t tid, uint32_t wave_in_role) {
  uint32_t s = 0;
  for (int i = 0; i < r.values; ++i) s += 4 * tid + uint32_t(i + r.bias);
  return s + wave_in_role;
}

struct Built {
  BuildResult result;
  RoleRegisterReport report;
};

Built register_kernel(Arch arch, const std::vector<RoleShape>& shapes) {
  Kernel k("roles_regs", arch);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg tid = k.workitem_id(0);
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 2, tid);
  k.s_waitcnt(lgkmcnt(0));
  WaveRoles roles(k);
  for (const RoleShape& s : shapes)
    roles.role(s.name, s.waves, [&k, &off, &out, s](const RoleEnv& r) {
      RegArray a = k.vgprs(std::string(s.name) + "_a", {s.values});
      for (int i = 0; i < s.values; ++i) k.v_add_u32(a[i], i + s.bias, off);
      Reg sum = k.vgpr("sum");
      k.v_add_u32(sum, r.wave, a[0]);
      for (int i = 1; i < s.values; ++i) k.v_add_u32(sum, sum, a[i]);
      k.global_store_dword(off, sum, out);
    });
  roles.emit();
  k.s_endpgm();
  Built b{k.build(), roles.register_report()};
  return b;
}

void check_register_kernel(Arch arch, const std::vector<RoleShape>& shapes) {
  Built b = register_kernel(arch, shapes);
  const RoleRegisterReport& rep = b.report;
  REQUIRE(rep.roles.size() == shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) {
    INFO("role " << shapes[i].name);
    CHECK(rep.roles[i].waves == shapes[i].waves);
    CHECK(rep.roles[i].peak_vgprs >= shapes[i].values);  // every a[i] is live at the first sum
    CHECK(rep.roles[i].peak_vgprs <= shapes[i].values + 1);
  }
  int vgprs = b.result.stats.vgprs;
  INFO("kernel VGPRs " << vgprs << ", max role " << rep.max_role_vgprs() << ", shared " << rep.shared_vgprs
                       << ", sum of roles " << rep.sum_role_vgprs());
  CHECK(rep.shared_vgprs >= 1);  // off (and v0 until its copy) live across the roles
  // The target: max over roles + what is live across them, not the sum.
  CHECK(vgprs <= rep.max_role_vgprs() + rep.shared_vgprs);
  CHECK(vgprs < rep.sum_role_vgprs());
  int total_waves = 0;
  for (const RoleShape& s : shapes) total_waves += s.waves;
  CHECK(b.result.stats.workgroup_size == uint32_t(64 * total_waves));

  // Dispatch: the first-declared role runs on waves 0.., the next on the following waves.
  auto dev = sim_device(arch);
  Module m = dev->load(b.result.code_object);
  uint32_t threads = uint32_t(64 * total_waves);
  Buffer out = dev->alloc(threads * 4, "out");
  KernelArgs args;
  args.ptr(out);
  dev->launch(m.kernel("roles_regs"), Dim3{1, 1, 1}, Dim3{threads, 1, 1}, 0, args);
  std::vector<uint32_t> got = dev->download<uint32_t>(out);
  int bad = 0;
  uint32_t t = 0;
  for (const RoleShape& s : shapes)
    for (int w = 0; w < s.waves; ++w)
      for (int lane = 0; lane < 64; ++lane, ++t)
        if (got[t] != expected_sum(s, t, uint32_t(w)) && bad++ == 0)
          FAIL_CHECK("thread " << t << " (role " << s.name << "): got " << got[t] << ", want " << expected_sum(s, t, uint32_t(w)));
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("wave roles: dispatch puts the first role on the first waves; roles share registers", "[wave_roles]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    check_register_kernel(arch, {{"math", 4, 40, 1000}, {"load", 4, 30, 7}});
    check_register_kernel(arch, {{"math", 2, 24, 5}, {"load", 4, 48, 9}});
    check_register_kernel(arch, {{"math", 1, 10, 0}, {"load", 2, 20, 3}, {"epilogue", 1, 16, 11}});
  }
}

namespace {

// The load role writes its thread index x3+1 to LDS, both roles meet at "tile_ready",
// the math role reads the value and stores it. `extra_load_barriers` gives the load
// role more barriers at its end than the math role has.
BuildResult lds_handoff_kernel(Arch arch, int math_waves, int extra_load_barriers, const WaveRoles::Options& opts,
                               std::vector<int>* padded = nullptr) {
  Kernel k("roles_lds", arch);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  uint32_t lds = k.lds_alloc("tile", 256 * 4);
  WaveRoles roles(k);
  roles.role("math", math_waves, [&](const RoleEnv& r) {
    Reg tid = k.workitem_id(0);
    Reg addr = k.vgpr("addr"), v = k.vgpr("v");
    k.v_lshlrev_b32(addr, 2, tid);  // math threads are 0.. : their LDS slot is their thread id
    roles.barrier("tile_ready");
    k.ds_read_b32(v, addr, Offset(int32_t(lds)));
    k.s_waitcnt(lgkmcnt(0));
    k.global_store_dword(addr, v, out);
    (void)r;
  });
  roles.role("load", 4, [&](const RoleEnv& r) {
    Reg tid = k.workitem_id(0);
    Reg local = k.vgpr("local"), addr = k.vgpr("addr"), v = k.vgpr("v");
    k.v_subrev_u32(local, r.first_thread(), tid);  // tid - first_thread
    k.v_lshlrev_b32(addr, 2, local);
    k.v_mad_u32_u24(v, local, 3, 1);
    k.ds_write_b32(addr, v, Offset(int32_t(lds)));
    k.s_waitcnt(lgkmcnt(0));
    roles.barrier("tile_ready");
    for (int i = 0; i < extra_load_barriers; ++i) roles.barrier("load_extra");
  });
  roles.emit(opts);
  k.s_endpgm();
  if (padded) *padded = roles.padded();
  return k.build();
}

std::vector<uint32_t> run_lds_handoff(Arch arch, const BuildResult& b, int math_waves) {
  auto dev = sim_device(arch);
  Module m = dev->load(b.code_object);
  uint32_t threads = uint32_t(64 * (math_waves + 4));
  Buffer out = dev->alloc(uint32_t(64 * math_waves) * 4, "out");
  KernelArgs args;
  args.ptr(out);
  dev->launch(m.kernel("roles_lds"), Dim3{1, 1, 1}, Dim3{threads, 1, 1}, 0, args);
  return dev->download<uint32_t>(out);
}

}  // namespace

TEST_CASE("wave roles: a balanced LDS hand-off runs; padding balances a short role", "[wave_roles][barrier]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950})
    for (int math_waves : {4, 2})
      for (int extra : {0, 2}) {
        INFO(arch_name(arch) << " math waves " << math_waves << " extra load barriers " << extra);
        WaveRoles::Options opts;
        opts.pad_to_balance = true;
        std::vector<int> padded;
        BuildResult b = lds_handoff_kernel(arch, math_waves, extra, opts, &padded);
        CHECK(padded == std::vector<int>{extra, 0});
        std::vector<uint32_t> got = run_lds_handoff(arch, b, math_waves);
        int bad = 0;
        for (uint32_t t = 0; t < got.size(); ++t)
          if (got[t] != 3 * t + 1 && bad++ == 0) FAIL_CHECK("thread " << t << ": got " << got[t] << ", want " << 3 * t + 1);
        CHECK(bad == 0);
      }
}

TEST_CASE("wave roles: unbalanced barriers are a build-time error naming the role and the barrier", "[wave_roles][barrier]") {
  // Extra barrier at the end of one role.
  CHECK_THROWS_WITH(lds_handoff_kernel(Arch::gfx942, 4, 1, {}),
                    Contains("role 'math' has no more barriers") && Contains("role 'load' executes barrier 'load_extra'"));

  // Declaration errors.
  {
    Kernel k("bad_roles", Arch::gfx942);
    WaveRoles roles(k);
    CHECK_THROWS_WITH(roles.role("math", 0, [](const RoleEnv&) {}), Contains("needs 1..16 waves"));
    CHECK_THROWS_WITH(roles.role("load waves", 4, [](const RoleEnv&) {}), Contains("may only contain letters"));
    roles.role("math", 12, [](const RoleEnv&) {});
    CHECK_THROWS_WITH(roles.role("math", 1, [](const RoleEnv&) {}), Contains("declared twice"));
    CHECK_THROWS_WITH(roles.role("load", 8, [](const RoleEnv&) {}), Contains("20 waves"));
  }

  // A barrier on one arm of an if only.
  {
    Kernel k("if_unbalanced", Arch::gfx950);
    Reg n = k.load_arg(k.arg<uint32_t>("n"));
    WaveRoles roles(k);
    roles.role("math", 4, [&](const RoleEnv&) {
      k.s_waitcnt(lgkmcnt(0));
      k.if_scc([&] { k.s_cmp_eq_u32(n, 0); }, [&] { roles.barrier("only_then"); });
    });
    roles.role("load", 4, [&](const RoleEnv&) { roles.barrier("b"); });
    CHECK_THROWS_WITH(roles.emit(), Contains("role 'math'") && Contains("only_then") && Contains("two paths"));
  }

  // Loops whose bodies execute different barriers.
  {
    Kernel k("loop_unbalanced", Arch::gfx942);
    Reg n = k.load_arg(k.arg<uint32_t>("n"));
    WaveRoles roles(k);
    auto loop = [&](int barriers, const char* name) {
      Reg i = k.sgpr("i");
      k.s_mov_b32(i, 0);
      k.s_waitcnt(lgkmcnt(0));
      k.do_while_scc([&] { for (int b = 0; b < barriers; ++b) roles.barrier(name); k.s_add_u32(i, i, 1); },
                     [&] { k.s_cmp_lt_u32(i, n); });
    };
    roles.role("math", 4, [&](const RoleEnv&) { loop(2, "math_step"); });
    roles.role("load", 2, [&](const RoleEnv&) { loop(1, "load_step"); });
    CHECK_THROWS_WITH(roles.emit(), Contains("in the loops at") && Contains("role 'load' has no more barriers") &&
                                        Contains("math_step"));
  }

  // The same loops balanced: no error, one loop token each.
  {
    Kernel k("loop_balanced", Arch::gfx942);
    Reg n = k.load_arg(k.arg<uint32_t>("n"));
    WaveRoles roles(k);
    auto loop = [&](const char* name) {
      Reg i = k.sgpr("i");
      k.s_mov_b32(i, 0);
      k.s_waitcnt(lgkmcnt(0));
      k.do_while_scc([&] { roles.barrier(name); roles.barrier(name); k.s_add_u32(i, i, 1); },
                     [&] { k.s_cmp_lt_u32(i, n); });
    };
    roles.role("math", 4, [&](const RoleEnv&) { loop("m"); });
    roles.role("load", 4, [&](const RoleEnv&) { loop("l"); });
    REQUIRE_NOTHROW(roles.emit());
    REQUIRE(roles.signatures().size() == 2);
    CHECK(roles.signatures()[0].size() == 1);
    CHECK(roles.signatures()[0][0].is_loop);
    CHECK(roles.signatures()[0][0].body.size() == 2);
  }
}

TEST_CASE("wave roles: an s_barrier or a branch written through Kernel::raw is seen by the barrier check", "[wave_roles][barrier]") {
  // raw("s_barrier") in one role only: once passed the check (a deadlock at run time).
  {
    Kernel k("raw_barrier_unbalanced", Arch::gfx942);
    WaveRoles roles(k);
    roles.role("math", 4, [&](const RoleEnv&) { k.raw("s_barrier"); });
    roles.role("load", 4, [&](const RoleEnv&) { k.s_nop(0); });
    CHECK_THROWS_WITH(roles.emit(), Contains("role 'load' has no more barriers") &&
                                        Contains("role 'math' executes barrier 's_barrier' at test_wave_roles.cpp"));
  }
  // A raw barrier balances a named one.
  {
    Kernel k("raw_barrier_balanced", Arch::gfx950);
    WaveRoles roles(k);
    roles.role("math", 4, [&](const RoleEnv&) { k.raw("  s_barrier  "); });
    roles.role("load", 4, [&](const RoleEnv&) { roles.barrier("b"); });
    REQUIRE_NOTHROW(roles.emit());
    REQUIRE(roles.signatures().size() == 2);
    CHECK(roles.signatures()[0].size() == 1);
    CHECK(roles.signatures()[1].size() == 1);
  }
  // A raw branch leaves the control flow the check can follow: an error, not a straight line.
  {
    Kernel k("raw_branch", Arch::gfx942);
    WaveRoles roles(k);
    roles.role("math", 4, [&](const RoleEnv&) { k.raw("s_cbranch_scc1 elsewhere"); roles.barrier("m"); });
    roles.role("load", 4, [&](const RoleEnv&) { roles.barrier("l"); });
    CHECK_THROWS_WITH(roles.emit(), Contains("role 'math'") && Contains("raw() s_cbranch_scc1 is not a label branch"));
  }
}

TEST_CASE("wave roles: with the check bypassed, the extra barrier waits only for the waves still running", "[wave_roles][barrier][sim]") {
  // The load role's extra barrier comes after the math waves have ended: S_BARRIER then waits on the
  // surviving waves only (ISA guides), so the kernel runs; the build-time check still calls the
  // unbalanced roles an error, since a barrier the other role never reaches is a deadlock while it runs.
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    WaveRoles::Options opts;
    opts.check_barriers = false;
    BuildResult b = lds_handoff_kernel(arch, 4, 1, opts);
    std::vector<uint32_t> got = run_lds_handoff(arch, b, 4);
    for (uint32_t t = 0; t < got.size(); ++t) REQUIRE(got[t] == 3 * t + 1);
  }
}

namespace {

// ---- randomized: random structured barrier programs per role ----
// A program is a tree of items; the test's own signature function below is an
// independent re-implementation (a recursive walk of the tree, not of the emitted
// control-flow graph) used as the oracle for the check.
struct Item {
  enum Kind { Barrier, If, Loop, Work } kind = Work;
  std::vector<Item> a, b;  // If: then / else arms; Loop: body in a
};

using Sig = std::vector<std::string>;  // "B", "L(" ... ")"

bool signature(const std::vector<Item>& items, Sig& out) {
  for (const Item& it : items) {
    if (it.kind == Item::Barrier) out.push_back("B");
    if (it.kind == Item::If) {
      Sig x, y;
      if (!signature(it.a, x) || !signature(it.b, y) || x != y) return false;
      out.insert(out.end(), x.begin(), x.end());
    }
    if (it.kind == Item::Loop) {
      Sig body;
      if (!signature(it.a, body)) return false;
      if (body.empty()) continue;
      out.push_back("L(");
      out.insert(out.end(), body.begin(), body.end());
      out.push_back(")");
    }
  }
  return true;
}

std::vector<Item> random_items(std::mt19937& rng, int depth) {
  std::vector<Item> items;
  int n = int(rng() % 4);
  for (int i = 0; i < n; ++i) {
    Item it;
    int pick = int(rng() % (depth > 0 ? 10 : 6));
    if (pick < 3) it.kind = Item::Barrier;
    else if (pick < 6) it.kind = Item::Work;
    else if (pick < 8) {
      it.kind = Item::If;
      it.a = random_items(rng, depth - 1);
      it.b = rng() % 2 ? it.a : random_items(rng, depth - 1);  // often balanced arms
    } else {
      it.kind = Item::Loop;
      it.a = random_items(rng, depth - 1);
    }
    items.push_back(std::move(it));
  }
  return items;
}

// One random local change (the result may or may not stay balanced: the oracle decides).
void mutate(std::mt19937& rng, std::vector<Item>& items) {
  int what = int(rng() % 4);
  if (items.empty() || what == 0) {
    Item b;
    b.kind = Item::Barrier;
    items.insert(items.begin() + long(rng() % (items.size() + 1)), b);
    return;
  }
  Item& it = items[rng() % items.size()];
  if (what == 1) {
    items.erase(items.begin() + long(&it - items.data()));
  } else if (it.kind == Item::If) {
    mutate(rng, rng() % 2 ? it.a : it.b);
  } else if (it.kind == Item::Loop) {
    mutate(rng, it.a);
  } else {
    Item wrap;
    wrap.kind = what == 2 ? Item::Loop : Item::If;
    wrap.a = {it};
    it = wrap;
  }
}

void emit_items(Kernel& k, WaveRoles& roles, const std::vector<Item>& items, Reg flag, int depth = 0) {
  for (const Item& it : items) {
    switch (it.kind) {
      case Item::Barrier: roles.barrier("rb"); break;
      case Item::Work: k.s_add_u32(flag, flag, 1); break;
      case Item::If:
        k.if_scc([&] { k.s_cmp_eq_u32(flag, depth); }, [&] { emit_items(k, roles, it.a, flag, depth + 1); },
                 [&] { emit_items(k, roles, it.b, flag, depth + 1); });
        break;
      case Item::Loop:
        k.do_while_scc([&] { emit_items(k, roles, it.a, flag, depth + 1); k.s_add_u32(flag, flag, 1); },
                       [&] { k.s_cmp_lt_u32(flag, 10); });
        break;
    }
  }
}

}  // namespace

TEST_CASE("wave roles: the barrier check agrees with an independent oracle on random role programs", "[wave_roles][barrier][random]") {
  uint64_t seed = test::test_seed("wave roles random barrier programs", 13);
  std::mt19937 rng{uint32_t(seed)};
  int balanced = 0, unbalanced = 0;
  for (int iter = 0; iter < 400; ++iter) {
    int nroles = 2 + int(rng() % 2);
    std::vector<std::vector<Item>> progs;
    progs.push_back(random_items(rng, 3));
    for (int r = 1; r < nroles; ++r) {
      std::vector<Item> p = progs[0];
      if (rng() % 2) mutate(rng, p);  // half the roles start as copies of role 0, then change
      if (rng() % 4 == 0) p = random_items(rng, 3);
      progs.push_back(std::move(p));
    }
    bool expect_ok = true;
    Sig first;
    for (size_t r = 0; r < progs.size(); ++r) {
      Sig s;
      if (!signature(progs[r], s)) expect_ok = false;
      else if (r == 0) first = s;
      else if (s != first) expect_ok = false;
    }
    Kernel k("random_roles", Arch::gfx942);
    WaveRoles roles(k);
    for (int r = 0; r < nroles; ++r)
      roles.role("role" + std::to_string(r), 2, [&, r](const RoleEnv& env) {
        Reg flag = k.sgpr("flag");
        k.s_mov_b32(flag, env.wave);
        emit_items(k, roles, progs[size_t(r)], flag);
      });
    bool ok = true;
    std::string msg;
    try {
      roles.emit();
    } catch (const Error& e) {
      ok = false;
      msg = e.what();
    }
    INFO("iteration " << iter << " seed " << seed << ": " << msg);
    REQUIRE(ok == expect_ok);
    if (!ok) CHECK_THAT(msg, Contains("role 'role"));
    (ok ? balanced : unbalanced)++;
  }
  INFO("balanced " << balanced << " unbalanced " << unbalanced);
  CHECK(balanced > 40);
  CHECK(unbalanced > 40);
}
