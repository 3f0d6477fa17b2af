// Product descriptions as data files: a timing-model product (model::Hardware) written to and
// read from JSON, so a user adds or adjusts a product without recompiling, and the one place
// where a product named on a command line or in an environment variable is resolved.
//
//   cdnajit model export mi300x > my.json     # every field of the built-in product
//   (edit my.json: give it a name of its own, change figures)
//   cdnajit run k.co ... --model my.json      # wherever --model NAME is accepted
//
// The file is one JSON object: "format" (kProductFormat), then every field of Hardware under its
// C++ name, and optionally "calibrated" (written by `cdnajit calibrate`). Every field is required;
// an unknown key, a missing key, a wrong type or an out-of-range value is an Error naming the
// file, the key and what is valid.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/model/hardware.hpp"

namespace cdnajit::model {

inline constexpr std::string_view kProductFormat = "cdnajit-product 1";

// Where a calibrated product's measured figures came from (`cdnajit calibrate`).
struct CalibrationNote {
  std::string device;       // "hip:0 (AMD Instinct MI300X, gfx942)"
  std::string date;         // UTC, ISO 8601
  std::string time_source;  // "measured (hipEvent)", or the drop-in runtime's "modelled (model ...)"
  std::string base;         // the product whose other figures were kept
  std::vector<std::string> kernels;  // the microbenchmarks, each with the parameter it set
};

struct ProductDescription {
  Hardware hw;
  std::optional<CalibrationNote> calibrated;
};

// JSON text of a product (2-space indented, fields in Hardware's order, ending in a newline).
std::string product_to_json(const Hardware& hw, const std::optional<CalibrationNote>& note = std::nullopt);
// Parses and checks a product description; `source` names the text in errors (a file path).
ProductDescription product_from_json(std::string_view text, const std::string& source);
ProductDescription load_product_file(const std::string& path);
void save_product_file(const std::string& path, const Hardware& hw, const std::optional<CalibrationNote>& note = std::nullopt);

// Why `name` cannot name a new product ("" when it can): a product name is 1 to 64 lower-case
// letters, digits, '.', '_' or '-', and not a built-in product's name.
std::string product_name_problem(std::string_view name);

// The keys of a product file's Hardware fields, in order (one per field of Hardware).
std::vector<std::string> product_field_keys();

// True when `spec` names a product file rather than a built-in product: it ends in ".json" or
// contains a '/'.
bool is_product_file_spec(std::string_view spec);

// The one resolver of a product given by a user (--model, CDNAJIT_HIP_MODEL, report options):
// a built-in name (model::product) or a product file (loaded once per path and kept for the
// process, so the reference stays valid). Throws Error listing the built-in names and the file form.
const Hardware& resolve_product(std::string_view spec);
// resolve_product, or the arch's default product (model::default_product) when `spec` is empty.
const Hardware& resolve_product_or_default(std::string_view spec, Arch arch);

}  // namespace cdnajit::model
