// The kernel families, by name: every family-aware command (list, dump, build, stats, job, tune)
// finds them here. A new family is one file beside these and one line in registry.cpp's all().
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "runtime/tune/family.hpp"
#include "runtime/tune/perf_db.hpp"

namespace cdnajit::tune {

// Throws Error listing the known families when `name` is unknown.
const Family& find_family(std::string_view name);
std::vector<std::string> family_names();
// Every family, in the order `cdnajit list` shows them.
std::vector<const Family*> all_families();
// "name: description", the problem format with the example problem, then one line per parameter
// ("  tile = {64x64, 128x64}  doc"): what `cdnajit list` and `cdnajit tune --list` print.
std::string describe_family(const Family& f);

// Throws Error unless `r` is a record this build's families can use: a known family (the valid
// ones listed), its problem in canonical form, and a configuration of its space that is valid
// for the problem on the record's arch. What --import checks each record against
// (PerfDb::import_json's RecordCheck).
void check_record(const PerfRecord& r);

// The depthwise conv3d family (codegen/dwconv3d.hpp), which `cdnajit seed --variant fastest`
// tunes directly. (The other families are reached by name; registry.cpp declares them.)
const Family& dwconv3d_family();

}  // namespace cdnajit::tune
