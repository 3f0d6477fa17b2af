// Published measurements against the timing model: the points of every source folder under
// tools/validation (points.json: what was published, where, with which public code; modelled.tsv:
// `id<TAB>modelled value` from the folder's run.sh) and the report section that compares them.
#pragma once
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cdnajit::report {

struct PublishedPoint {
  std::string folder;                      // tools/validation/<folder>
  std::string source, url, commit, files;  // the public code that was run (files joined by ", ")
  std::string published_in;                // paper / page / document that gives the figures
  std::string id, arch, product, metric, kind, published_where;
  double published = 0;
  std::optional<double> modelled;  // absent: the point has no line in modelled.tsv
  std::string fitted;              // empty: a validation point; else the parameter fitted to it
  // The source's "rules_chosen_against" (optional): switches of the hardware table (no value) chosen
  // among candidate rules after comparing each with this source's points, which are then no
  // independent test of those choices.
  std::string rules_chosen;
};

// Reads every <dir>/*/points.json and its modelled.tsv. Throws cdnajit::Error naming the file and
// what is wrong (a missing field, a modelled id no point has, a value that is not a number).
std::vector<PublishedPoint> load_published_points(const std::filesystem::path& dir);

// The "Published measurements" section: per point (source, product, metric, published, modelled,
// ratio, fitted or validation), then per set the median absolute error and worst ratio, and the
// issue's targets as met / not met with their numbers.
void write_published_section(std::ostream& md, const std::vector<PublishedPoint>& points, const std::string& regenerate);

}  // namespace cdnajit::report
