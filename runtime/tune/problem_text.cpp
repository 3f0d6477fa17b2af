#include "runtime/tune/problem_text.hpp"

#include <fmt/format.h>

#include <string>

#include "jit/isa/error.hpp"
#include "runtime/tune/checked_number.hpp"

namespace cdnajit::tune {

std::optional<std::vector<int64_t>> parse_problem_fields(std::string_view text, std::string_view format,
                                                         std::string_view family) {
  // First the form (every literal in place, every field non-empty), then the values: a text
  // that is not of the form gets the caller's "expected ..." message, not a field's.
  struct Field {
    std::string_view name, value;
    int64_t max;
  };
  std::vector<Field> fields;
  size_t t = 0, f = 0;
  while (f < format.size()) {
    if (format[f] != '{') {
      if (t >= text.size() || text[t] != format[f]) return std::nullopt;
      ++t, ++f;
      continue;
    }
    size_t close = format.find('}', f);
    if (close == std::string_view::npos) throw Error(fmt::format("internal: problem format '{}' has an open '{{'", format));
    std::string_view name = format.substr(f + 1, close - f - 1);
    int64_t max = kMaxSize;
    if (size_t colon = name.find(':'); colon != std::string_view::npos) {
      max = parse_int(name.substr(colon + 1), "internal: problem format field bound", 0, INT32_MAX);
      name = name.substr(0, colon);
    }
    f = close + 1;
    size_t end = f < format.size() ? text.find(format[f], t) : text.size();
    if (end == std::string_view::npos) end = text.size();
    if (end == t) return std::nullopt;
    fields.push_back({name, text.substr(t, end - t), max});
    t = end;
  }
  if (t != text.size()) return std::nullopt;
  std::vector<int64_t> values;
  for (const Field& x : fields)
    values.push_back(parse_int(x.value, fmt::format("{} problem '{}': {}", family, text, x.name), 0, x.max));
  return values;
}

}  // namespace cdnajit::tune
