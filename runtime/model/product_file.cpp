#include "runtime/model/product_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <variant>

#include "jit/isa/error.hpp"

namespace cdnajit::model {
namespace {

using Json = nlohmann::ordered_json;

// One field of Hardware: its key (the C++ name), where it lives and what values the model can use.
// The ranges keep every division and index of the model defined and exclude figures no CDNA GPU
// comes near (a typo), not merely the built-in values.
struct Field {
  using Member = std::variant<std::string Hardware::*, Arch Hardware::*, int Hardware::*, uint32_t Hardware::*,
                              uint64_t Hardware::*, double Hardware::*, bool Hardware::*>;
  const char* key;
  Member member;
  double lo = 0, hi = 0;      // numbers: valid range
  bool above_lo = false;      // numbers: lo itself excluded (a rate or share must be > 0)
  const char* what = "";      // meaning and unit, for messages
};

template <class T>
Field num(const char* key, T Hardware::*m, double lo, double hi, const char* what, bool above_lo = false) {
  return Field{key, m, lo, hi, above_lo, what};
}

const std::vector<Field>& fields() {
  constexpr double kBig = 1e6;
  static const std::vector<Field> f = {
      {"name", &Hardware::name, 0, 0, false, "lower-case product name: letters, digits, '.', '_', '-'"},
      {"product", &Hardware::product, 0, 0, false, "the product's full name"},
      {"arch", &Hardware::arch, 0, 0, false, "gfx942 or gfx950"},
      num("cus", &Hardware::cus, 1, 4096, "compute units"),
      num("peak_clock_ghz", &Hardware::peak_clock_ghz, 0, 10, "peak engine clock, GHz", true),
      num("clock_ghz", &Hardware::clock_ghz, 0, 10, "sustained clock of non-MFMA work, GHz", true),
      num("realtime_counter_mhz", &Hardware::realtime_counter_mhz, 0, 10000, "rate of the realtime counter (wall_clock64()), MHz", true),
      num("simds", &Hardware::simds, 1, 16, "SIMDs per CU"),
      num("issue_period", &Hardware::issue_period, 1, 64, "cycles between a SIMD's issue turns"),
      num("valu_cycles", &Hardware::valu_cycles, 1, 256, "cycles per wave64 VALU instruction"),
      num("trans_cycles", &Hardware::trans_cycles, 1, 1024, "cycles per transcendental VALU instruction"),
      num("mfma_cycles_per_pass", &Hardware::mfma_cycles_per_pass, 1, 64, "cycles per MFMA pass"),
      num("salu_latency", &Hardware::salu_latency, 0, 1000, "SALU latency, cycles"),
      num("branch_taken_cycles", &Hardware::branch_taken_cycles, 0, 1000, "refetch after a taken branch, cycles"),
      num("barrier_release_cycles", &Hardware::barrier_release_cycles, 0, 1000, "barrier release, cycles"),
      num("sleep_cycles_per_unit", &Hardware::sleep_cycles_per_unit, 1, 100000, "cycles per s_sleep unit"),
      {"free_wave_slots_at_wave_end", &Hardware::free_wave_slots_at_wave_end, 0, 0, false, "true or false"},
      num("max_workgroups_per_cu", &Hardware::max_workgroups_per_cu, 1, 64, "workgroups resident per CU at most"),
      {"rotate_first_simd_per_workgroup", &Hardware::rotate_first_simd_per_workgroup, 0, 0, false, "true or false"},
      {"first_simd_by_cu", &Hardware::first_simd_by_cu, 0, 0, false, "true or false"},
      num("lds_bytes", &Hardware::lds_bytes, 1024, 16 << 20, "LDS bytes per CU"),
      num("lds_banks", &Hardware::lds_banks, 1, 256, "LDS banks of 4 bytes"),
      num("lds_bank_cycles", &Hardware::lds_bank_cycles, 1, 64, "cycles one LDS bank needs per access"),
      num("lds_halves", &Hardware::lds_halves, 1, 16, "LDS halves (SIMD groups), at most simds"),
      num("lds_bytes_per_clk", &Hardware::lds_bytes_per_clk, 1, 4096, "LDS read bytes per cycle per half"),
      {"lds_banks_shared_by_halves", &Hardware::lds_banks_shared_by_halves, 0, 0, false, "true or false"},
      {"lds_serves_oldest_wave_first", &Hardware::lds_serves_oldest_wave_first, 0, 0, false, "true or false"},
      {"lds_bank_passes_by_age", &Hardware::lds_bank_passes_by_age, 0, 0, false, "true or false"},
      num("lds_latency", &Hardware::lds_latency, 0, kBig, "LDS latency, cycles"),
      num("lds_misaligned_passes_per_byte", &Hardware::lds_misaligned_passes_per_byte, 0, 16,
          "passes per byte of a misaligned wide LDS lane (0: off)"),
      num("lds_valu_issue_cycles", &Hardware::lds_valu_issue_cycles, 0, 64, "cycles a DS instruction holds vector issue"),
      num("cache_line", &Hardware::cache_line, 16, 4096, "cache line bytes, a power of two"),
      num("vmem_issue_cycles", &Hardware::vmem_issue_cycles, 1, 1024, "address-unit cycles per VMEM instruction"),
      num("xcds", &Hardware::xcds, 1, 64, "accelerator dies (XCDs)"),
      num("cus_per_xcd", &Hardware::cus_per_xcd, 1, 4096, "CUs per XCD"),
      num("l1_bytes", &Hardware::l1_bytes, 1024, 1u << 30, "vector L1 bytes per CU"),
      num("l1_ways", &Hardware::l1_ways, 1, 1024, "vector L1 ways"),
      num("l1_bytes_per_clk", &Hardware::l1_bytes_per_clk, 0, kBig, "vector L1 bytes per cycle per CU", true),
      num("l1_latency", &Hardware::l1_latency, 0, kBig, "vector L1 hit latency, cycles"),
      {"l1_miss_on_sc1_load", &Hardware::l1_miss_on_sc1_load, 0, 0, false, "true or false"},
      {"l1_miss_on_nt_load", &Hardware::l1_miss_on_nt_load, 0, 0, false, "true or false"},
      {"l1_invalidated_by_buffer_inv", &Hardware::l1_invalidated_by_buffer_inv, 0, 0, false, "true or false"},
      num("scalar_cache_bytes", &Hardware::scalar_cache_bytes, 0, 1u << 30, "scalar L1 bytes"),
      num("scalar_cache_cus", &Hardware::scalar_cache_cus, 1, 64, "CUs sharing a scalar L1"),
      num("scalar_bytes_per_clk", &Hardware::scalar_bytes_per_clk, 0, kBig, "scalar L1 bytes per cycle", true),
      num("smem_latency", &Hardware::smem_latency, 0, kBig, "scalar load latency, cycles"),
      num("l2_bytes", &Hardware::l2_bytes, 1024, 1e12, "L2 bytes per XCD"),
      num("l2_ways", &Hardware::l2_ways, 1, 1024, "L2 ways"),
      num("l2_bytes_per_clk_per_xcd", &Hardware::l2_bytes_per_clk_per_xcd, 0, kBig, "L2 peak bytes per cycle per XCD", true),
      num("l2_achievable_share", &Hardware::l2_achievable_share, 0, 1, "L2 achievable share of peak", true),
      num("l2_latency", &Hardware::l2_latency, 0, kBig, "L2 hit latency, cycles"),
      num("cu_l2_bytes_per_clk", &Hardware::cu_l2_bytes_per_clk, 0, kBig, "one CU's traffic beyond its L1, bytes per cycle", true),
      num("mall_bytes", &Hardware::mall_bytes, 1024, 1e15, "Infinity Cache bytes"),
      num("mall_ways", &Hardware::mall_ways, 1, 1024, "Infinity Cache ways"),
      num("mall_tbps", &Hardware::mall_tbps, 0, 1000, "Infinity Cache peak TB/s", true),
      num("mall_achievable_share", &Hardware::mall_achievable_share, 0, 1, "Infinity Cache achievable share of peak", true),
      num("mall_latency", &Hardware::mall_latency, 0, kBig, "Infinity Cache hit latency, cycles"),
      num("hbm_tbps", &Hardware::hbm_tbps, 0, 1000, "HBM peak TB/s", true),
      num("hbm_achievable_share", &Hardware::hbm_achievable_share, 0, 1, "HBM achievable share of peak", true),
      num("hbm_latency", &Hardware::hbm_latency, 0, kBig, "HBM latency, cycles"),
      num("lds_write_bytes_per_clk", &Hardware::lds_write_bytes_per_clk, 1, 4096, "LDS write bytes per cycle per half"),
      num("mfma_dense_clock_ghz", &Hardware::mfma_dense_clock_ghz, 0, 10, "clock of dense MFMA work, GHz (0: no drop)"),
      num("mfma_dense_busy", &Hardware::mfma_dense_busy, 0, 1, "MFMA busy share the dense clock was measured at (0: no drop)"),
      num("launch_overhead_us", &Hardware::launch_overhead_us, 0, 1e6, "fixed cost of one launch between events, microseconds"),
  };
  return f;
}

std::string range_text(const Field& f) {
  return std::visit(
      [&](auto Hardware::*m) -> std::string {
        using T = std::remove_cvref_t<decltype(std::declval<Hardware>().*m)>;
        if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, Arch> || std::is_same_v<T, bool>) {
          return f.what;
        } else {
          const char* kind = std::is_same_v<T, double> ? "a number" : "an integer";
          return fmt::format("{} {} {:g} to {:g} ({})", kind, f.above_lo ? "above" : "from", f.lo, f.hi, f.what);
        }
      },
      f.member);
}

std::string json_type(const Json& v) {
  if (v.is_number_integer()) return "the integer " + v.dump();
  if (v.is_number()) return "the number " + v.dump();
  return std::string(v.type_name()) + " " + (v.dump().size() > 40 ? v.dump().substr(0, 37) + "..." : v.dump());
}

bool valid_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) return false;
  return true;
}

// Reads one field from `v` into `hw`, or throws naming the file, the key and what is valid.
void read_field(const Field& f, const Json& v, Hardware& hw, const std::string& src) {
  auto bad = [&](const std::string& why) {
    return Error(fmt::format("{}: key '{}': {}; valid: {}", src, f.key, why, range_text(f)));
  };
  std::visit(
      [&](auto Hardware::*m) {
        using T = std::remove_cvref_t<decltype(hw.*m)>;
        if constexpr (std::is_same_v<T, std::string>) {
          if (!v.is_string()) throw bad("is " + json_type(v));
          hw.*m = v.get<std::string>();
          if (std::string_view(f.key) == "name" && !valid_name(hw.*m)) throw bad("'" + hw.*m + "' is not a valid name");
          if (std::string_view(f.key) == "product" && (hw.*m).empty()) throw bad("is empty");
        } else if constexpr (std::is_same_v<T, Arch>) {
          if (!v.is_string()) throw bad("is " + json_type(v));
          auto a = parse_arch(v.get<std::string>());
          if (!a) throw bad("'" + v.get<std::string>() + "' is not a supported arch");
          hw.*m = *a;
        } else if constexpr (std::is_same_v<T, bool>) {
          if (!v.is_boolean()) throw bad("is " + json_type(v));
          hw.*m = v.get<bool>();
        } else {
          if constexpr (std::is_same_v<T, double>) {
            if (!v.is_number()) throw bad("is " + json_type(v));
          } else {
            if (!v.is_number_integer()) throw bad("is " + json_type(v));
          }
          // Integers are compared before the cast so that no value wraps into range.
          const double x = v.is_number_unsigned() ? double(v.get<uint64_t>())
                           : v.is_number_integer() ? double(v.get<int64_t>())
                                                   : v.get<double>();
          if (!std::isfinite(x) || x < f.lo || x > f.hi || (f.above_lo && x <= f.lo))
            throw bad(v.dump() + " is out of range");
          if constexpr (std::is_same_v<T, double>)
            hw.*m = x;
          else
            hw.*m = v.is_number_unsigned() ? T(v.get<uint64_t>()) : T(v.get<int64_t>());
        }
      },
      f.member);
}

Json field_value(const Field& f, const Hardware& hw) {
  return std::visit(
      [&](auto Hardware::*m) -> Json {
        using T = std::remove_cvref_t<decltype(hw.*m)>;
        if constexpr (std::is_same_v<T, Arch>)
          return std::string(arch_name(hw.*m));
        else
          return hw.*m;
      },
      f.member);
}

std::string key_list() {
  std::string s = "format";
  for (const Field& f : fields()) s += std::string(", ") + f.key;
  return s + ", calibrated";
}

CalibrationNote read_note(const Json& v, const std::string& src) {
  const std::string valid = "an object with strings device, date, time_source, base and an array of strings kernels";
  if (!v.is_object()) throw Error(fmt::format("{}: key 'calibrated' is {}; valid: {}", src, json_type(v), valid));
  CalibrationNote n;
  const std::map<std::string, std::string*> strings = {
      {"device", &n.device}, {"date", &n.date}, {"time_source", &n.time_source}, {"base", &n.base}};
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string& k = it.key();
    if (auto s = strings.find(k); s != strings.end()) {
      if (!it->is_string()) throw Error(fmt::format("{}: key 'calibrated.{}' is {}; valid: a string", src, k, json_type(*it)));
      *s->second = it->get<std::string>();
    } else if (k == "kernels") {
      if (!it->is_array()) throw Error(fmt::format("{}: key 'calibrated.kernels' is {}; valid: an array of strings", src, json_type(*it)));
      for (const Json& e : *it) {
        if (!e.is_string()) throw Error(fmt::format("{}: key 'calibrated.kernels' holds {}; valid: strings", src, json_type(e)));
        n.kernels.push_back(e.get<std::string>());
      }
    } else {
      throw Error(fmt::format("{}: unknown key 'calibrated.{}'; valid: {}", src, k, valid));
    }
  }
  for (const auto& [k, s] : strings)
    if (s->empty()) throw Error(fmt::format("{}: key 'calibrated.{}' is missing or empty; valid: {}", src, k, valid));
  return n;
}

}  // namespace

std::string product_name_problem(std::string_view name) {
  if (!valid_name(std::string(name))) return "a product name is 1 to 64 lower-case letters, digits, '.', '_' or '-'";
  for (const Hardware& b : products())
    if (b.name == name) return "'" + b.name + "' is a built-in product; give the new product a name of its own";
  return "";
}

std::vector<std::string> product_field_keys() {
  std::vector<std::string> k;
  for (const Field& f : fields()) k.emplace_back(f.key);
  return k;
}

std::string product_to_json(const Hardware& hw, const std::optional<CalibrationNote>& note) {
  Json j;
  j["format"] = std::string(kProductFormat);
  for (const Field& f : fields()) j[f.key] = field_value(f, hw);
  if (note) {
    Json n;
    n["device"] = note->device;
    n["date"] = note->date;
    n["time_source"] = note->time_source;
    n["base"] = note->base;
    n["kernels"] = note->kernels;
    j["calibrated"] = n;
  }
  return j.dump(2) + "\n";
}

ProductDescription product_from_json(std::string_view text, const std::string& src) {
  // Keys of the top-level object as the parser meets them, so a repeated key (which the parsed
  // object would silently keep once) is an error too.
  std::vector<std::string> top_keys;
  Json j;
  try {
    j = Json::parse(text, [&](int depth, Json::parse_event_t e, Json& parsed) {
      if (depth == 1 && e == Json::parse_event_t::key) top_keys.push_back(parsed.get<std::string>());
      return true;
    });
  } catch (const Json::parse_error& e) {
    throw Error(fmt::format("{}: not a JSON product description ({}); write one with `cdnajit model export NAME`", src,
                            e.what()));
  }
  if (!j.is_object())
    throw Error(fmt::format("{}: a product description is a JSON object, not {}; write one with `cdnajit model export NAME`",
                            src, json_type(j)));
  std::set<std::string> seen;
  for (const std::string& k : top_keys)
    if (!seen.insert(k).second) throw Error(fmt::format("{}: key '{}' given twice (give it once)", src, k));

  std::map<std::string, const Field*> by_key;
  for (const Field& f : fields()) by_key[f.key] = &f;
  ProductDescription d;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (k == "format") {
      if (!it->is_string() || it->get<std::string>() != kProductFormat)
        throw Error(fmt::format("{}: key 'format' is {}; valid: \"{}\"", src, json_type(*it), kProductFormat));
    } else if (k == "calibrated") {
      d.calibrated = read_note(*it, src);
    } else if (auto f = by_key.find(k); f != by_key.end()) {
      read_field(*f->second, *it, d.hw, src);
    } else {
      throw Error(fmt::format("{}: unknown key '{}'; valid keys: {}", src, k, key_list()));
    }
  }
  if (!j.contains("format"))
    throw Error(fmt::format("{}: missing key 'format'; valid: \"{}\"", src, kProductFormat));
  for (const Field& f : fields())
    if (!j.contains(f.key))
      throw Error(fmt::format("{}: missing key '{}' ({}); every field is required (`cdnajit model export NAME` writes "
                              "them all)",
                              src, f.key, range_text(f)));

  // Relations between fields that the model relies on.
  const Hardware& h = d.hw;
  if (h.lds_halves > h.simds)
    throw Error(fmt::format("{}: key 'lds_halves': {} is more than simds ({}); valid: 1 to simds", src, h.lds_halves, h.simds));
  if (h.cache_line & (h.cache_line - 1))
    throw Error(fmt::format("{}: key 'cache_line': {} is not a power of two; valid: {}", src, h.cache_line,
                            range_text(*by_key["cache_line"])));
  if (h.cus > h.xcds * h.cus_per_xcd)
    throw Error(fmt::format("{}: key 'cus': {} CUs do not fit {} XCDs x {} CUs per XCD; valid: at most xcds x cus_per_xcd",
                            src, h.cus, h.xcds, h.cus_per_xcd));
  // A file may carry a built-in product's name only with that product's figures: reports, traces
  // and the tuner's database label times with the name, so a changed figure needs a name of its own.
  for (const Hardware& b : products())
    if (b.name == h.name && product_to_json(b) != product_to_json(h))
      throw Error(fmt::format("{}: key 'name': '{}' is a built-in product but the file's figures differ from it; "
                              "valid: a name of its own (e.g. '{}-custom'), or the built-in figures unchanged",
                              src, h.name, h.name));
  return d;
}

ProductDescription load_product_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read the product description ({})", path, std::strerror(errno)));
  std::ostringstream s;
  s << in.rdbuf();
  return product_from_json(s.str(), path);
}

void save_product_file(const std::string& path, const Hardware& hw, const std::optional<CalibrationNote>& note) {
  const std::string text = product_to_json(hw, note);
  product_from_json(text, path);  // never write a file that would not load
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(fmt::format("{}: cannot write the product description ({})", path, std::strerror(errno)));
  out << text;
  if (!out.flush()) throw Error(fmt::format("{}: writing the product description failed", path));
}

bool is_product_file_spec(std::string_view spec) {
  return spec.find('/') != std::string_view::npos || (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json");
}

const Hardware& resolve_product(std::string_view spec) {
  if (!is_product_file_spec(spec)) {
    try {
      return product(spec);
    } catch (const Error& e) {
      throw Error(std::string(e.what()) + "; or a product description file FILE.json (`cdnajit model export NAME`)");
    }
  }
  // Loaded once per path and kept: callers hold the reference for the process (reports, the HIP
  // runtime's device, the tuner's workers).
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Hardware>, std::less<>> loaded;
  std::lock_guard lock(mu);
  if (auto it = loaded.find(spec); it != loaded.end()) return *it->second;
  auto hw = std::make_unique<Hardware>(load_product_file(std::string(spec)).hw);
  return *loaded.emplace(std::string(spec), std::move(hw)).first->second;
}

const Hardware& resolve_product_or_default(std::string_view spec, Arch arch) {
  return spec.empty() ? default_product(arch) : resolve_product(spec);
}

}  // namespace cdnajit::model
