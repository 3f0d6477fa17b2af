#include "runtime/kernel_args.hpp"

#include <fmt/format.h>

#include "jit/isa/error.hpp"

namespace cdnajit {

Buffer Buffer::sub(size_t offset, std::optional<size_t> n) const {
  size_t len = n.value_or(offset <= bytes ? bytes - offset : 0);
  if (offset > bytes || len > bytes - offset)
    throw Error(fmt::format("Buffer::sub: range [{}, {}) is outside buffer '{}' of {} bytes", offset, offset + len,
                            name, bytes));
  return Buffer{addr + offset, len, name};
}

KernelArgs& KernelArgs::bytes(std::string_view name, const void* p, size_t n) {
  Entry e{std::string(name), Kind::Value, std::vector<uint8_t>(n), fmt::format("{} raw bytes", n)};
  if (n) std::memcpy(e.bytes.data(), p, n);
  entries_.push_back(std::move(e));
  return *this;
}

bool is_hidden_arg(const KernelArgInfo& a) { return a.value_kind.rfind("hidden_", 0) == 0; }

namespace {

std::string describe_arg(const KernelArgInfo& a, size_t index) {
  std::string s = fmt::format("#{} ", index);
  s += a.name.empty() ? "(unnamed)" : "'" + a.name + "'";
  return s + fmt::format(" {} {} bytes", a.value_kind, a.size);
}

std::string list_explicit(const std::vector<const KernelArgInfo*>& explicit_args) {
  if (explicit_args.empty()) return "none";
  std::string s;
  for (size_t i = 0; i < explicit_args.size(); ++i) s += (i ? ", " : "") + describe_arg(*explicit_args[i], i);
  return s;
}

// The value the runtime supplies for a hidden argument (0 for the ones we do
// not provide: hostcall/printf buffers, heap, queue pointers, global offsets).
uint64_t hidden_value(std::string_view kind, Dim3 grid, Dim3 block, uint32_t dynamic_lds) {
  if (kind == "hidden_block_count_x") return grid.x;
  if (kind == "hidden_block_count_y") return grid.y;
  if (kind == "hidden_block_count_z") return grid.z;
  if (kind == "hidden_group_size_x") return block.x;
  if (kind == "hidden_group_size_y") return block.y;
  if (kind == "hidden_group_size_z") return block.z;
  // The grid is given in whole workgroups, so no partial last workgroup.
  if (kind == "hidden_remainder_x" || kind == "hidden_remainder_y" || kind == "hidden_remainder_z") return 0;
  if (kind == "hidden_grid_dims") return grid.z > 1 || block.z > 1 ? 3 : grid.y > 1 || block.y > 1 ? 2 : 1;
  if (kind == "hidden_dynamic_lds_size") return dynamic_lds;
  return 0;
}

}  // namespace

std::vector<uint8_t> pack_kernargs(const KernelInfo& k, const KernelArgs& args, Dim3 grid, Dim3 block,
                                   uint32_t dynamic_lds) {
  const std::string where = "kernel '" + k.name + "'";
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    throw Error(fmt::format("{}: grid {}x{}x{} has a zero dimension (grid counts workgroups, each >= 1)", where, grid.x,
                            grid.y, grid.z));
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  uint32_t max_wg = k.max_flat_workgroup_size ? k.max_flat_workgroup_size : 1024;
  if (threads == 0 || threads > max_wg)
    throw Error(fmt::format("{}: block {}x{}x{} = {} work-items; valid is 1..{} (max_flat_workgroup_size)", where,
                            block.x, block.y, block.z, threads, max_wg));

  std::vector<const KernelArgInfo*> explicit_args;
  for (const auto& a : k.args)
    if (!is_hidden_arg(a)) explicit_args.push_back(&a);

  const auto& entries = args.entries();
  if (k.args.empty() && !entries.empty())
    throw Error(fmt::format("{}: the code object has no argument metadata, so {} argument(s) cannot be packed safely",
                            where, entries.size()));

  // Bind every caller entry to one explicit argument.
  std::vector<const KernelArgs::Entry*> bound(explicit_args.size(), nullptr);
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    size_t slot = explicit_args.size();
    if (e.name.empty()) {
      if (i >= explicit_args.size())
        throw Error(fmt::format("{}: argument #{} ({}; numbered from 0) given, but the kernel takes only {} explicit "
                                "argument(s): {}",
                                where, i, e.type, explicit_args.size(), list_explicit(explicit_args)));
      slot = i;
    } else {
      for (size_t j = 0; j < explicit_args.size(); ++j)
        if (explicit_args[j]->name == e.name) slot = j;
      if (slot == explicit_args.size())
        throw Error(fmt::format("{}: no argument named '{}' (explicit arguments: {})", where, e.name,
                                list_explicit(explicit_args)));
    }
    if (bound[slot])
      throw Error(fmt::format("{}: argument {} given twice (as {} and as {})", where,
                              describe_arg(*explicit_args[slot], slot), bound[slot]->type, e.type));
    bound[slot] = &e;
  }

  std::vector<uint8_t> out(std::max<size_t>(k.kernarg_size, 16), 0);
  auto put = [&](const KernelArgInfo& a, const void* p, size_t n) {
    if (uint64_t(a.offset) + a.size > out.size())
      throw Error(fmt::format("{}: metadata places argument '{}' ({}) at [{}, {}) beyond kernarg_size {}", where,
                              a.name, a.value_kind, a.offset, a.offset + a.size, out.size()));
    std::memcpy(out.data() + a.offset, p, std::min<size_t>(n, a.size));
  };

  for (size_t j = 0; j < explicit_args.size(); ++j) {
    const KernelArgInfo& a = *explicit_args[j];
    const KernelArgs::Entry* e = bound[j];
    if (!e)
      throw Error(fmt::format("{}: argument {} was not given ({} argument(s) given; explicit arguments: {})", where,
                              describe_arg(a, j), entries.size(), list_explicit(explicit_args)));
    if (a.value_kind == "global_buffer") {
      if (e->kind != KernelArgs::Kind::Pointer || a.size != 8)
        throw Error(fmt::format("{}: argument {} expects a pointer (8-byte global_buffer), got {} ({} bytes)", where,
                                describe_arg(a, j), e->type, e->bytes.size()));
    } else if (a.value_kind == "by_value") {
      if (e->kind != KernelArgs::Kind::Value || e->bytes.size() != a.size)
        throw Error(fmt::format("{}: argument {} expects a {}-byte value, got {} ({} bytes)", where,
                                describe_arg(a, j), a.size, e->type, e->bytes.size()));
    } else {
      throw Error(fmt::format("{}: argument {} has value kind '{}', which the runtime cannot pass "
                              "(supported: global_buffer, by_value)",
                              where, describe_arg(a, j), a.value_kind));
    }
    put(a, e->bytes.data(), e->bytes.size());
  }

  for (const auto& a : k.args) {
    if (!is_hidden_arg(a)) continue;
    uint64_t v = hidden_value(a.value_kind, grid, block, dynamic_lds);
    if (a.size < 8 && (v >> (8 * a.size)) != 0)
      throw Error(fmt::format("{}: hidden argument {} value {} does not fit in {} bytes", where, a.value_kind, v,
                              a.size));
    put(a, &v, sizeof v);
  }
  return out;
}

}  // namespace cdnajit
