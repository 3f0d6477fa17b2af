#include "tools/cli/values.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>

#include "runtime/device.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/model/product_file.hpp"
#include "tools/builtin_kernels.hpp"

namespace cdnajit::cli {

namespace {

[[noreturn]] void bad(std::string_view what, std::string_view text, const std::string& why) {
  throw Error(fmt::format("{}: '{}' {}", what, text, why));
}

}  // namespace

void throw_bad_choice(std::string_view text, std::string_view what, const std::string& valid_names) {
  bad(what, text, "(valid: " + valid_names + ")");
}

double parse_real(std::string_view text, std::string_view what, double lo, double hi, bool allow_nonfinite) {
  std::string range = fmt::format("(valid: a number {}..{}{})", lo, hi, allow_nonfinite ? ", nan, inf or -inf" : "");
  std::string s(text);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) bad(what, text, "is not a number " + range);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) bad(what, text, "is not a number " + range);
  // strtod reads the spellings nan, inf and infinity (any case, with a sign) as themselves; an
  // overflowing decimal ("1e400") is ERANGE (with an infinite result) and stays an error. An
  // underflowing one is ERANGE too but rounds to a denormal or zero, as any decimal rounds.
  if (allow_nonfinite && !std::isfinite(v) && errno != ERANGE) return v;
  if (std::isnan(v)) bad(what, text, "is not a number " + range);
  if (!std::isfinite(v) || v < lo || v > hi) bad(what, text, "is out of range " + range);
  return v;
}

Dim3 parse_dim3(std::string_view text, std::string_view what, uint32_t max_each) {
  std::string form = fmt::format("(valid: X, X,Y or X,Y,Z with each an integer 1..{})", max_each);
  uint32_t v[3] = {1, 1, 1};
  size_t n = 0, pos = 0;
  for (;;) {
    size_t comma = text.find(',', pos);
    std::string_view part = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    if (n == 3) bad(what, text, "has more than 3 components " + form);
    std::string which = part == text ? "is" : fmt::format("has component '{}' that is", part);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string_view::npos)
      bad(what, text, fmt::format("{} not an integer {}", which, form));
    uint64_t x = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), x);
    if (ec != std::errc() || x < 1 || x > max_each)
      bad(what, text, fmt::format("{} out of range {}", which, form));
    v[n++] = uint32_t(x);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return Dim3{v[0], v[1], v[2]};
}

ArgSpec parse_arg(std::string_view text) {
  const std::string forms =
      "(valid: buf:NAME:BYTES[:zero|iota|random|file=PATH], mem:NAME:BYTES[:...] (not passed), i32:V, u32:V, i64:V, u64:V, f32:V, f64:V, "
      "bytes:N:hex=HEX|file=PATH, struct:FIELD,FIELD,... with FIELD a scalar form or ptr:NAME)";
  size_t c1 = text.find(':');
  if (c1 == std::string_view::npos) bad("--arg", text, "has no TYPE: prefix " + forms);
  std::string_view type = text.substr(0, c1), rest = text.substr(c1 + 1);
  if (type == "buf" || type == "mem") {
    BufferArg b;
    b.passed = type == "buf";
    size_t c2 = rest.find(':');
    if (c2 == std::string_view::npos) bad("--arg", text, "needs a byte count " + forms);
    b.name = std::string(rest.substr(0, c2));
    if (b.name.empty()) bad("--arg", text, "has an empty buffer name " + forms);
    std::string_view tail = rest.substr(c2 + 1);
    size_t c3 = tail.find(':');
    b.bytes = parse_uint(tail.substr(0, c3), fmt::format("--arg {} byte count", b.name), 1, kMaxBufferBytes);
    if (c3 != std::string_view::npos) b.init = std::string(tail.substr(c3 + 1));
    if (b.init != "zero" && b.init != "iota" && b.init != "random" && !(b.init.rfind("file=", 0) == 0 && b.init.size() > 5))
      bad("--arg", text, "has an unknown initialiser '" + b.init + "' (valid: zero, iota, random, file=PATH)");
    return b;
  }
  if (type == "bytes") {
    BytesArg b;
    size_t c2 = rest.find(':');
    if (c2 == std::string_view::npos) bad("--arg", text, "needs hex=HEX or file=PATH after the byte count " + forms);
    b.bytes = parse_uint(rest.substr(0, c2), "--arg bytes byte count", 1, kMaxKernargBytes);
    std::string_view value = rest.substr(c2 + 1);
    if (value.rfind("hex=", 0) == 0) {
      std::string_view hex = value.substr(4);
      if (hex.size() != 2 * b.bytes)
        bad("--arg", text, fmt::format("has {} hex digits; {} bytes need {}", hex.size(), b.bytes, 2 * b.bytes));
      auto digit = [&](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        bad("--arg", text, fmt::format("has '{}', not a hex digit", c));
      };
      for (size_t i = 0; i < hex.size(); i += 2) b.data.push_back(uint8_t(digit(hex[i]) * 16 + digit(hex[i + 1])));
    } else if (value.rfind("file=", 0) == 0 && value.size() > 5) {
      b.file = std::string(value.substr(5));
    } else {
      bad("--arg", text, "needs hex=HEX or file=PATH after the byte count " + forms);
    }
    return b;
  }
  if (type == "struct") {
    StructArg st;
    size_t pos = 0;
    while (true) {
      const size_t comma = rest.find(',', pos);
      std::string_view field = rest.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
      if (field.rfind("ptr:", 0) == 0) {
        if (field.size() == 4) bad("--arg", text, "has a field 'ptr:' without a buffer name " + forms);
        st.fields.push_back({{}, std::string(field.substr(4))});
      } else {
        if (field.rfind("struct:", 0) == 0 || field.rfind("buf:", 0) == 0 || field.rfind("mem:", 0) == 0 || field.rfind("bytes:", 0) == 0)
          bad("--arg", text, fmt::format("has a field '{}': a struct field is a scalar or ptr:NAME {}", field, forms));
        ArgSpec f = parse_arg(field);
        st.fields.push_back({std::get<ScalarArg>(f), {}});
      }
      if (comma == std::string_view::npos) break;
      pos = comma + 1;
    }
    return st;
  }
  ScalarArg s;
  s.type = std::string(type);
  std::string what = "--arg " + s.type;
  if (type == "i32") s.i = parse_int(rest, what, INT32_MIN, INT32_MAX);
  else if (type == "u32") s.u = parse_uint(rest, what, 0, UINT32_MAX);
  else if (type == "i64") s.i = parse_int(rest, what, INT64_MIN, INT64_MAX);
  else if (type == "u64") s.u = parse_uint(rest, what, 0, UINT64_MAX);
  else if (type == "f32") s.f = parse_real(rest, what, -double(std::numeric_limits<float>::max()), double(std::numeric_limits<float>::max()), true);
  else if (type == "f64") s.f = parse_real(rest, what, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), true);
  else bad("--arg", text, "has an unknown type '" + s.type + "' " + forms);
  return s;
}

bool scalar_fits_type_name(std::string_view kind, std::string_view t) {
  if (t.empty()) return true;
  struct Row { std::string_view kind, names[4]; };
  static const Row rows[] = {
      {"i32", {"int", "int32_t", "signed int", ""}},       {"u32", {"uint", "unsigned int", "uint32_t", "unsigned"}},
      {"i64", {"long", "int64_t", "long long", ""}},       {"u64", {"ulong", "uint64_t", "unsigned long", "size_t"}},
      {"f32", {"float", "", "", ""}},                       {"f64", {"double", "", "", ""}},
  };
  bool known = false;
  for (const Row& r : rows)
    for (std::string_view n : r.names)
      if (!n.empty() && n == t) {
        known = true;
        if (r.kind == kind) return true;
      }
  return !known;  // a type name this table does not know: leave it to the size check
}

OutSpec parse_out(std::string_view text) {
  size_t eq = text.find('=');
  OutSpec o;
  o.buffer = std::string(text.substr(0, eq));
  o.path = eq == std::string_view::npos ? o.buffer + ".bin" : std::string(text.substr(eq + 1));
  if (o.buffer.empty() || o.path.empty()) bad("--out", text, "must be NAME=PATH or NAME");
  return o;
}

void check_writable(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) bad(what, path, "is a directory (expected a file to write)");
    if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) bad(what, path, "is not a regular file (a FIFO or socket would block)");
    // Opened for writing (not truncated), not access(W_OK): root passes access() for any file,
    // also where the write itself would fail (read-only mounts, sysfs, procfs).
    int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) bad(what, path, std::string("is not writable: ") + std::strerror(errno));
    // procfs lets root open a read-only entry (no write bit, e.g. /proc/version) for writing; only the
    // write fails (EIO), which would show after the run. Its mode bits are the kernel's own statement.
    struct statfs fs {};
    const bool read_only_proc = (st.st_mode & 0222) == 0 && ::fstatfs(fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
    ::close(fd);
    if (read_only_proc) bad(what, path, "is a read-only procfs file (no write permission bit): writing it would fail");
    return;
  }
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) parent = ".";
  struct stat pst {};
  if (::stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode))
    bad(what, path, "is in a directory that does not exist ('" + parent.string() + "')");
  if (::access(parent.c_str(), W_OK) != 0) bad(what, path, "is in a directory that is not writable ('" + parent.string() + "')");
  // Created and removed again: as root access() says yes to every directory, also where
  // creating a file fails (sysfs, procfs, read-only mounts), which would otherwise show only
  // after the run.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) bad(what, path, std::string("cannot be created: ") + std::strerror(errno));
  ::close(fd);
  ::unlink(path.c_str());
}

std::string check_device_spec(const std::string& spec) {
  if (parse_device_spec(spec)) return "";
  return fmt::format("unknown device '{}' (valid: sim:gfx942, sim:gfx950, sim (= sim:gfx950), hip:N, hip (= hip:0))", spec);
}

std::string check_builtin_kernel_name(const std::string& name) {
  std::string valid;
  for (const std::string& n : builtin_kernel_names()) {
    if (n == name) return "";
    valid += (valid.empty() ? "" : ", ") + n;
  }
  return "unknown kernel '" + name + "' (valid: " + valid + ")";
}

const model::Hardware* model_for_arch(const std::string& name, Arch arch, std::string_view runner) {
  if (name == "none") return nullptr;
  const model::Hardware& hw = model::resolve_product_or_default(name, arch);
  if (hw.arch != arch)
    throw Error(fmt::format("--model {} is a {} product; {} runs --arch {} (give a {} product or none)", hw.name,
                            arch_name(hw.arch), runner, arch_name(arch), arch_name(arch)));
  return &hw;
}

// C layout: a member at the next multiple of its size (4 or 8 bytes, all the field kinds are
// naturally aligned scalars), the whole rounded up to the largest member.
std::vector<uint8_t> struct_bytes(const StructArg& s, const std::function<uint64_t(const std::string&)>& address_of) {
  std::vector<uint8_t> out;
  size_t align = 1;
  auto put = [&](const void* p, size_t n) {
    out.resize((out.size() + n - 1) / n * n, 0);
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
    align = std::max(align, n);
  };
  for (const StructArg::Field& f : s.fields) {
    if (!f.pointer_to.empty()) {
      const uint64_t a = address_of(f.pointer_to);
      put(&a, 8);
      continue;
    }
    const ScalarArg& v = f.scalar;
    if (v.type == "i32") { const int32_t x = int32_t(v.i); put(&x, 4); }
    else if (v.type == "u32") { const uint32_t x = uint32_t(v.u); put(&x, 4); }
    else if (v.type == "i64") put(&v.i, 8);
    else if (v.type == "u64") put(&v.u, 8);
    else if (v.type == "f32") { const float x = float(v.f); put(&x, 4); }
    else put(&v.f, 8);
  }
  out.resize((out.size() + align - 1) / align * align, 0);
  return out;
}

}  // namespace cdnajit::cli
