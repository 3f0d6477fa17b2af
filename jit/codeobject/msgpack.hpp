// Minimal bounds-checked msgpack reader for the .amdgpu_metadata note.
// Malformed input throws cdnajit::Error; nesting depth is limited.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cdnajit::msgpack {

struct Value {
  enum Kind { Nil, Bool, Int, UInt, Float, String, Binary, Array, Map } kind = Nil;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  std::string str;  // String and Binary
  std::vector<Value> array;
  struct MapEntry;  // defined below: std::pair<Value, Value> would need Value complete here
  std::vector<MapEntry> map;

  // Map lookup by string key; nullptr if absent or not a map.
  const Value* get(std::string_view key) const;
  // Non-negative integer value; throws naming `what` otherwise.
  uint64_t as_uint(const char* what) const;
  // as_uint, and an Error naming the field when the value does not fit 32 bits (the fields
  // stored in 32-bit KernelInfo members would otherwise be silently cut).
  uint32_t as_u32(const char* what) const;
};

struct Value::MapEntry {
  Value key, value;
};

Value parse(std::span<const uint8_t> bytes);

}  // namespace cdnajit::msgpack
