#include "jit/codeobject/msgpack.hpp"

#include <cstring>

#include <fmt/format.h>

#include "jit/isa/error.hpp"

namespace cdnajit::msgpack {
namespace {

struct Reader {
  std::span<const uint8_t> b;
  size_t pos = 0;
  size_t budget = 1u << 20;  // total values, guards against huge declared counts

  [[noreturn]] void fail(const std::string& what) {
    throw Error("read_code_object: metadata msgpack " + what + " at byte " + std::to_string(pos) + " of " +
                std::to_string(b.size()));
  }
  uint64_t be(int n) {
    if (b.size() - pos < size_t(n)) fail("truncated");
    uint64_t v = 0;
    for (int k = 0; k < n; ++k) v = (v << 8) | b[pos++];
    return v;
  }
  std::string bytes(uint64_t n) {
    if (b.size() - pos < n) fail("string/binary length " + std::to_string(n) + " runs past the end");
    std::string s(reinterpret_cast<const char*>(b.data() + pos), n);
    pos += n;
    return s;
  }
  Value value(int depth) {
    if (depth > 32) fail("nested deeper than 32 levels");
    if (budget-- == 0) fail("has too many values");
    if (pos >= b.size()) fail("truncated");
    uint8_t t = b[pos++];
    Value v;
    auto arr = [&](uint64_t n) {
      if (n > b.size() - pos) fail("array count " + std::to_string(n) + " exceeds remaining bytes");
      v.kind = Value::Array;
      for (uint64_t k = 0; k < n; ++k) v.array.push_back(value(depth + 1));
    };
    auto map = [&](uint64_t n) {
      if (n > (b.size() - pos) / 2) fail("map count " + std::to_string(n) + " exceeds remaining bytes");
      v.kind = Value::Map;
      for (uint64_t k = 0; k < n; ++k) {
        Value key = value(depth + 1);
        Value val = value(depth + 1);
        v.map.push_back({std::move(key), std::move(val)});
      }
    };
    auto str = [&](uint64_t n, Value::Kind k) { v.kind = k; v.str = bytes(n); };
    if (t <= 0x7f) { v.kind = Value::UInt; v.u = t; v.i = t; }
    else if (t >= 0xe0) { v.kind = Value::Int; v.i = int8_t(t); }
    else if ((t & 0xf0) == 0x80) map(t & 15);
    else if ((t & 0xf0) == 0x90) arr(t & 15);
    else if ((t & 0xe0) == 0xa0) str(t & 31, Value::String);
    else switch (t) {
      case 0xc0: break;
      case 0xc2: v.kind = Value::Bool; v.b = false; break;
      case 0xc3: v.kind = Value::Bool; v.b = true; break;
      case 0xc4: str(be(1), Value::Binary); break;
      case 0xc5: str(be(2), Value::Binary); break;
      case 0xc6: str(be(4), Value::Binary); break;
      case 0xca: { uint32_t x = uint32_t(be(4)); float fl; std::memcpy(&fl, &x, 4); v.kind = Value::Float; v.f = fl; break; }
      case 0xcb: { uint64_t x = be(8); std::memcpy(&v.f, &x, 8); v.kind = Value::Float; break; }
      case 0xcc: v.kind = Value::UInt; v.u = be(1); break;
      case 0xcd: v.kind = Value::UInt; v.u = be(2); break;
      case 0xce: v.kind = Value::UInt; v.u = be(4); break;
      case 0xcf: v.kind = Value::UInt; v.u = be(8); break;
      case 0xd0: v.kind = Value::Int; v.i = int8_t(be(1)); break;
      case 0xd1: v.kind = Value::Int; v.i = int16_t(be(2)); break;
      case 0xd2: v.kind = Value::Int; v.i = int32_t(be(4)); break;
      case 0xd3: v.kind = Value::Int; v.i = int64_t(be(8)); break;
      case 0xd9: str(be(1), Value::String); break;
      case 0xda: str(be(2), Value::String); break;
      case 0xdb: str(be(4), Value::String); break;
      case 0xdc: arr(be(2)); break;
      case 0xdd: arr(be(4)); break;
      case 0xde: map(be(2)); break;
      case 0xdf: map(be(4)); break;
      default: pos--; fail("unsupported type byte " + fmt::format("{:#x}", t));
    }
    if (v.kind == Value::UInt) v.i = int64_t(v.u);
    return v;
  }
};

}  // namespace

const Value* Value::get(std::string_view key) const {
  if (kind != Map) return nullptr;
  for (const auto& [k, v] : map)
    if (k.kind == String && k.str == key) return &v;
  return nullptr;
}

uint64_t Value::as_uint(const char* what) const {
  if (kind == UInt) return u;
  if (kind == Int && i >= 0) return uint64_t(i);
  throw Error(std::string("read_code_object: metadata field ") + what + " is not a non-negative integer");
}

uint32_t Value::as_u32(const char* what) const {
  const uint64_t v = as_uint(what);
  if (v > 0xffffffffull)
    throw Error(std::string("read_code_object: metadata field ") + what + " = " + std::to_string(v) +
                " does not fit 32 bits (valid: 0 .. 4294967295)");
  return uint32_t(v);
}

Value parse(std::span<const uint8_t> bytes) {
  Reader r{bytes};
  return r.value(0);
}

}  // namespace cdnajit::msgpack
