// model: the timing model's product descriptions as files (runtime/model/product_file.hpp).
//   cdnajit model export mi300x > my.json   every field of a built-in product (or of a file)
//   cdnajit model check my.json             loads a product file and says what it is
//   cdnajit model list                      the built-in products and each arch's default
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "jit/isa/error.hpp"
#include "runtime/model/product_file.hpp"
#include "tools/cli/commands.hpp"

namespace cdnajit::cli {

namespace {

struct ModelOptions {
  std::string product, output;
};

int export_product(const ModelOptions& o) {
  const model::Hardware& hw = model::resolve_product(o.product);
  std::optional<model::CalibrationNote> note;
  if (model::is_product_file_spec(o.product)) note = model::load_product_file(o.product).calibrated;
  if (o.output.empty()) {
    std::cout << model::product_to_json(hw, note);
  } else {
    model::save_product_file(o.output, hw, note);
    fmt::print(stderr, "wrote {} (product {}, {})\n", o.output, hw.name, arch_name(hw.arch));
  }
  return 0;
}

int check_product(const ModelOptions& o) {
  const model::ProductDescription d = model::load_product_file(o.product);
  fmt::print("{}: product {} ({}, {}), {} fields, valid\n", o.product, d.hw.name, d.hw.product, arch_name(d.hw.arch),
             model::product_field_keys().size());
  if (d.calibrated)
    fmt::print("calibrated on {} at {} (times {}; other figures from {})\n", d.calibrated->device, d.calibrated->date,
               d.calibrated->time_source, d.calibrated->base);
  return 0;
}

int list_products() {
  for (const model::Hardware& hw : model::products())
    fmt::print("{:8} {:6} {}{}\n", hw.name, arch_name(hw.arch), hw.product,
               &model::default_product(hw.arch) == &hw ? " (default for " + std::string(arch_name(hw.arch)) + ")" : "");
  return 0;
}

}  // namespace

void add_model_command(CommandLine& cl) {
  auto o = std::make_shared<ModelOptions>();
  auto which = std::make_shared<std::string>();
  CLI::App* c = cl.add("model", "the timing model's products as JSON files: export, check, list",
                       [o, which] {
                         if (*which == "export") return export_product(*o);
                         if (*which == "check") return check_product(*o);
                         return list_products();
                       });
  c->require_subcommand(1);
  CLI::App* ex = c->add_subcommand("export", "print a product's description as JSON (every field; loadable with "
                                             "--model FILE.json wherever --model NAME is accepted)");
  ex->add_option("product", o->product, "a built-in product (mi300x, mi325x, mi350x, mi355x) or a product file")->required();
  add_output_option(ex, o->output, "write FILE instead of standard output");
  ex->callback([which] { *which = "export"; });
  ex->parse_complete_callback([o] { model::resolve_product(o->product); });  // a bad name is a usage error
  CLI::App* ck = c->add_subcommand("check", "load a product file and report what it describes (errors name the key)");
  ck->add_option("file", o->product, "a product file (FILE.json)")->required();
  ck->callback([which] { *which = "check"; });
  CLI::App* ls = c->add_subcommand("list", "the built-in products and each arch's default");
  ls->callback([which] { *which = "list"; });
}

}  // namespace cdnajit::cli
