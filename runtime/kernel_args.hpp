// Kernel arguments as the caller states them, and their packing into the
// kernarg segment. Packing is driven by the code object's metadata: every
// explicit argument must be given once with the right kind and size, and the
// hidden (implicit) arguments of code object v5 are filled from the launch.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jit/codeobject/code_object.hpp"
#include "jit/dim3.hpp"

namespace cdnajit {

// A device allocation (or a byte range inside one). `addr` is the device
// address the kernel sees: a HIP device pointer, or a simulator address.
struct Buffer {
  uint64_t addr = 0;
  size_t bytes = 0;
  std::string name;

  // The sub-range [offset, offset + n) (n = rest of the buffer by default).
  Buffer sub(size_t offset, std::optional<size_t> n = std::nullopt) const;
  explicit operator bool() const { return addr != 0; }
};

class KernelArgs {
 public:
  enum class Kind : uint8_t { Pointer, Value };
  struct Entry {
    std::string name;  // empty: bound by position (its index in push order)
    Kind kind;
    std::vector<uint8_t> bytes;
    std::string type;  // "f32", "buffer 'x'", ... for messages
  };

  // Pointers: a Buffer (its address) or a raw device address.
  KernelArgs& ptr(const Buffer& b) { return add({}, Kind::Pointer, b.addr, "buffer '" + b.name + "'"); }
  KernelArgs& ptr(std::string_view name, const Buffer& b) { return add(name, Kind::Pointer, b.addr, "buffer '" + b.name + "'"); }
  KernelArgs& address(uint64_t a) { return add({}, Kind::Pointer, a, "address"); }
  KernelArgs& address(std::string_view name, uint64_t a) { return add(name, Kind::Pointer, a, "address"); }

  // By-value scalars.
  KernelArgs& i32(int32_t v) { return add({}, Kind::Value, v, "i32"); }
  KernelArgs& u32(uint32_t v) { return add({}, Kind::Value, v, "u32"); }
  KernelArgs& i64(int64_t v) { return add({}, Kind::Value, v, "i64"); }
  KernelArgs& u64(uint64_t v) { return add({}, Kind::Value, v, "u64"); }
  KernelArgs& f32(float v) { return add({}, Kind::Value, v, "f32"); }
  KernelArgs& f64(double v) { return add({}, Kind::Value, v, "f64"); }
  KernelArgs& i32(std::string_view n, int32_t v) { return add(n, Kind::Value, v, "i32"); }
  KernelArgs& u32(std::string_view n, uint32_t v) { return add(n, Kind::Value, v, "u32"); }
  KernelArgs& i64(std::string_view n, int64_t v) { return add(n, Kind::Value, v, "i64"); }
  KernelArgs& u64(std::string_view n, uint64_t v) { return add(n, Kind::Value, v, "u64"); }
  KernelArgs& f32(std::string_view n, float v) { return add(n, Kind::Value, v, "f32"); }
  KernelArgs& f64(std::string_view n, double v) { return add(n, Kind::Value, v, "f64"); }
  // Any trivially copyable value (a struct passed by value).
  KernelArgs& bytes(std::string_view name, const void* p, size_t n);

  const std::vector<Entry>& entries() const { return entries_; }

 private:
  template <class T>
  KernelArgs& add(std::string_view name, Kind k, T v, std::string type) {
    Entry e{std::string(name), k, std::vector<uint8_t>(sizeof(T)), std::move(type)};
    std::memcpy(e.bytes.data(), &v, sizeof(T));
    entries_.push_back(std::move(e));
    return *this;
  }
  std::vector<Entry> entries_;
};

// Builds the kernarg segment (kernel.kernarg_size bytes, at least 16) for a
// launch of `grid` workgroups of `block` work-items. Throws cdnajit::Error
// naming the argument on a missing, extra, duplicate, wrong-kind or
// wrong-size argument.
std::vector<uint8_t> pack_kernargs(const KernelInfo& kernel, const KernelArgs& args, Dim3 grid, Dim3 block,
                                   uint32_t dynamic_lds);

// True for metadata value kinds the runtime fills itself ("hidden_*").
bool is_hidden_arg(const KernelArgInfo& a);

}  // namespace cdnajit
