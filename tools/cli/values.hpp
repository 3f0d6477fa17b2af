// Typed, range-checked values of the cdnajit command line. Every parser takes
// the whole text (no partial parses, no silent wrap) and throws cdnajit::Error
// naming the option, the text and the valid range.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "jit/isa/error.hpp"
#include "runtime/kernel_args.hpp"
#include "runtime/tune/checked_number.hpp"

namespace cdnajit::model {
struct Hardware;
}

namespace cdnajit::cli {

// The timing-model product of `--model NAME` for a run on `arch`: nullptr for "none", the arch's
// default product for "", else the named one. Throws Error listing the products for an unknown
// name, or naming both archs for another arch's product ("--model mi355x is a gfx950 product;
// the seed job runs --arch gfx942 (give a gfx942 product or none)"; `runner` = "the seed job").
const model::Hardware* model_for_arch(const std::string& name, Arch arch, std::string_view runner);

// Decimal or 0x-hex integers in [lo, hi]; `what` is the option ("--lds"). The project's one
// integer parser (runtime/tune/checked_number.hpp), also used for the families' problem texts.
using cdnajit::parse_int;
using cdnajit::parse_uint;
// A finite decimal number in [lo, hi] (the whole text); with `allow_nonfinite` also nan, inf
// and -inf (any case; "infinity" too), for float kernel arguments.
double parse_real(std::string_view text, std::string_view what, double lo, double hi, bool allow_nonfinite = false);

// One of a fixed set of names (`--dot2 fused|products`): the value paired with
// `text`, else an error naming the option, the text and every valid name
// ("--dot2: 'x' (valid: fused, products)").
[[noreturn]] void throw_bad_choice(std::string_view text, std::string_view what, const std::string& valid_names);
template <class T>
T parse_choice(std::string_view text, std::string_view what,
               std::initializer_list<std::pair<std::string_view, T>> choices) {
  std::string names;
  for (const auto& [name, value] : choices) {
    if (text == name) return value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  throw_bad_choice(text, what, names);
}

// "X", "X,Y" or "X,Y,Z"; each component in [1, max_each].
Dim3 parse_dim3(std::string_view text, std::string_view what, uint32_t max_each);

// One `--arg`: a buffer "buf:NAME:BYTES[:zero|iota|random|file=PATH]", a
// scalar "i32:V", "u32:V", "i64:V", "u64:V", "f32:V", "f64:V", or raw bytes
// "bytes:N:hex=HEX|file=PATH", or a struct of those "struct:FIELD,FIELD,...".
struct BufferArg {
  std::string name;
  uint64_t bytes = 0;
  std::string init = "zero";  // zero, iota, random, or file=PATH
  bool passed = true;         // false for "mem:NAME:...": allocated, not a kernel argument (a struct's ptr:NAME)
};
struct ScalarArg {
  std::string type;  // i32, u32, i64, u64, f32, f64
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
};
// A by-value argument given as its bytes (a struct the kernel takes by value):
// "bytes:N:hex=HEX" (2N hex digits, memory order) or "bytes:N:file=PATH" (exactly N bytes).
struct BytesArg {
  uint64_t bytes = 0;
  std::vector<uint8_t> data;  // hex form; empty for the file form
  std::string file;           // file form
};
// A by-value struct built from fields: "struct:FIELD,FIELD,..." with each FIELD a scalar form
// (i32:V, u32:V, i64:V, u64:V, f32:V, f64:V) or "ptr:NAME", the device address of the buffer a
// "--arg buf:NAME:..." declares. Laid out as the C ABI lays out a struct of those members (each at
// its natural alignment, the size rounded up to the largest one): what clang's kernarg segment holds
// for such a struct argument.
struct StructArg {
  struct Field {
    ScalarArg scalar;     // when `pointer_to` is empty
    std::string pointer_to;  // "ptr:NAME": the buffer's name
  };
  std::vector<Field> fields;
};
using ArgSpec = std::variant<BufferArg, ScalarArg, BytesArg, StructArg>;
// The bytes of a StructArg, each pointer field's address looked up by `address_of(name)`.
std::vector<uint8_t> struct_bytes(const StructArg& s, const std::function<uint64_t(const std::string&)>& address_of);

// The largest buffer `--arg buf` may declare (bytes): host memory for it is
// allocated before the run. Raise by editing this constant.
constexpr uint64_t kMaxBufferBytes = 4ull << 30;

ArgSpec parse_arg(std::string_view text);

// The metadata type names (.type_name) a scalar kind may be passed for; an
// argument without a type name (foreign code objects) is checked by size only.
bool scalar_fits_type_name(std::string_view kind, std::string_view type_name);

// `--out NAME=PATH` (PATH defaults to NAME.bin).
struct OutSpec {
  std::string buffer, path;
};
OutSpec parse_out(std::string_view text);

// Throws unless `path` can be written without blocking: an existing regular
// file (or character device such as /dev/null) that is writable, or a new
// name in an existing writable directory. `what` names the option.
void check_writable(const std::string& path, std::string_view what);

// CLI11 validator for --device: "" if `spec` has the form open_device (runtime/device.cpp)
// accepts (sim, sim:gfx942, sim:gfx950, hip, hip:N), else the reason, so a misspelt device
// is a command-line error (status 2) before anything is built.
std::string check_device_spec(const std::string& spec);

// CLI11 validator for a built-in kernel name (tools/builtin_kernels.hpp): "" if known, else
// the reason with the valid names.
std::string check_builtin_kernel_name(const std::string& name);

}  // namespace cdnajit::cli
