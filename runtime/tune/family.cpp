#include "runtime/tune/family.hpp"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

std::string config_str(const Config& c) {
  std::string s;
  for (const auto& [k, v] : c) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

const std::string& config_value(const Config& c, std::string_view name) {
  for (const auto& [k, v] : c)
    if (k == name) return v;
  throw Error(fmt::format("configuration '{}' has no parameter '{}'", config_str(c), name));
}

Config parse_config(const std::vector<Param>& space, std::string_view text) {
  Config out;
  for (const Param& p : space) out.emplace_back(p.name, "");
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    std::string_view item = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    pos = comma == std::string_view::npos ? text.size() : comma + 1;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) throw Error(fmt::format("configuration '{}': '{}' is not NAME=VALUE", text, item));
    std::string name(item.substr(0, eq)), value(item.substr(eq + 1));
    auto it = std::find_if(space.begin(), space.end(), [&](const Param& p) { return p.name == name; });
    if (it == space.end()) {
      std::string valid;
      for (const Param& p : space) valid += (valid.empty() ? "" : ", ") + p.name;
      throw Error(fmt::format("configuration '{}': unknown parameter '{}' (valid: {})", text, name, valid));
    }
    if (std::find(it->values.begin(), it->values.end(), value) == it->values.end())
      throw Error(fmt::format("configuration '{}': {} = '{}' (valid: {})", text, name, value,
                              fmt::join(it->values, ", ")));
    out[size_t(it - space.begin())].second = value;
  }
  for (const auto& [k, v] : out)
    if (v.empty()) throw Error(fmt::format("configuration '{}': parameter '{}' is missing", text, k));
  return out;
}

std::string unusable_config_reason(const Family& f, std::string_view config, const std::string& problem, Arch arch) {
  Config c;
  try {
    c = parse_config(f.space(), config);
  } catch (const Error& e) {
    return e.what();
  }
  return f.invalid_reason(c, problem, arch);
}

Enumeration enumerate(const Family& f, const std::string& problem, Arch arch) {
  std::vector<Param> space = f.space();
  Enumeration e;
  std::vector<size_t> idx(space.size(), 0);
  for (const Param& p : space)
    if (p.values.empty()) throw Error(fmt::format("family {}: parameter '{}' has no values", f.name(), p.name));
  while (true) {
    Config c;
    for (size_t i = 0; i < space.size(); ++i) c.emplace_back(space[i].name, space[i].values[idx[i]]);
    std::string why = f.invalid_reason(c, problem, arch);
    if (why.empty()) e.valid.push_back(std::move(c));
    else e.invalid.push_back(config_str(c) + ": " + why);
    // Odometer increment, last parameter fastest.
    size_t k = space.size();
    while (k > 0 && ++idx[k - 1] == space[k - 1].values.size()) idx[--k] = 0;
    if (k == 0) break;
  }
  return e;
}

Config resolve_config(const Family& f, const std::vector<std::string>& overrides, const std::string& problem, Arch arch) {
  const std::vector<Param> space = f.space();
  Config c;
  if (std::string base = f.default_config(arch); !base.empty()) {
    c = parse_config(space, base);
  } else {
    Enumeration e = enumerate(f, problem, arch);
    if (e.valid.empty())
      throw Error(fmt::format("family {} has no valid configuration for '{}' on {} (first reason: {})", f.name(), problem,
                              arch_name(arch), e.invalid.empty() ? "none" : e.invalid.front()));
    c = e.valid.front();
  }
  std::vector<std::string> seen;
  for (const std::string& o : overrides) {
    // One NAME=VALUE checked against the space as parse_config checks a whole configuration.
    const size_t eq = o.find('=');
    const std::string name = o.substr(0, eq);
    auto it = std::find_if(space.begin(), space.end(), [&](const Param& p) { return p.name == name; });
    if (eq == std::string::npos || it == space.end()) {
      std::string valid;
      for (const Param& p : space) valid += (valid.empty() ? "" : ", ") + p.name;
      if (valid.empty()) valid = "none";
      throw Error(eq == std::string::npos
                      ? fmt::format("--config '{}' is not NAME=VALUE (parameters of {}: {})", o, f.name(), valid)
                      : fmt::format("--config '{}': {} has no parameter '{}' (valid: {})", o, f.name(), name, valid));
    }
    const std::string value = o.substr(eq + 1);
    if (std::find(it->values.begin(), it->values.end(), value) == it->values.end())
      throw Error(fmt::format("--config '{}': {} = '{}' is not a value of {} (valid: {})", o, name, value, f.name(),
                              fmt::join(it->values, ", ")));
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      throw Error(fmt::format("--config: parameter '{}' given twice (give it once)", name));
    seen.push_back(name);
    c[size_t(it - space.begin())].second = value;
  }
  if (std::string why = f.invalid_reason(c, problem, arch); !why.empty())
    throw Error(fmt::format("configuration {} of {} is not valid for '{}' on {}: {}", config_str(c), f.name(), problem,
                            arch_name(arch), why));
  return c;
}

}  // namespace cdnajit::tune
