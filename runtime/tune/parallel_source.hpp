// A time source for deterministic times (a timing model) computed ahead of the search by
// several workers: a modelled time does not depend on when, where or how often it is taken, so
// worker w can prepare and model candidate i+1 while the search decides on candidate i, and the
// search still makes exactly the decisions of a serial run.
//
// Workers take candidates in index order and stay at most `workers` candidates ahead of the
// one the search asked for last, so when the search stops (patience, budget) at most that many
// extra candidates were computed. Each candidate is computed once; every run of it returns the
// same time, or throws the same Error when computing it failed.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "runtime/tune/time_source.hpp"

namespace cdnajit::tune {

// time_of(i, w) computes candidate i's time on worker w (0..workers-1; each worker owns its
// resources, e.g. its own simulator device) and throws for a candidate that cannot be timed.
// Workers compute candidates in index order whatever order the search asks in; a search in
// index order (search(source, opt)) wastes nothing.
std::unique_ptr<TimeSource> parallel_deterministic_source(TimeKind kind, std::string label, size_t candidates,
                                                          int workers,
                                                          std::function<double(size_t i, int worker)> time_of);

}  // namespace cdnajit::tune
