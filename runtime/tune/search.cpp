#include "runtime/tune/search.hpp"

#include <fmt/format.h>

#include <numeric>

#include "jit/isa/error.hpp"
#include "runtime/tune/outlier_filter.hpp"

namespace cdnajit::tune {

namespace {

std::string ms(double v) { return fmt::format("{:.4f} ms", v); }

std::string join_ms(const std::vector<double>& v) {
  std::string s;
  for (double x : v) {
    if (!s.empty()) s += ' ';
    s += fmt::format("{:.4f}", x);
  }
  return s;
}

}  // namespace

SearchResult search(TimeSource& source, const std::vector<size_t>& order, const SearchOptions& opt,
                    const std::vector<std::string>& labels) {
  if (opt.full_samples < 2 || opt.full_samples > 1000)
    throw Error(fmt::format("search: full_samples {} (valid: 2..1000)", opt.full_samples));
  if (opt.patience < 0) throw Error(fmt::format("search: patience {} (valid: >= 0, 0 = none)", opt.patience));
  if (opt.time_budget_s < 0) throw Error(fmt::format("search: time budget {} s (valid: >= 0, 0 = none)", opt.time_budget_s));
  for (size_t i : order)
    if (i >= source.candidates())
      throw Error(fmt::format("search: candidate {} out of range (the source has {})", i, source.candidates()));

  SearchResult res;
  res.ended = "all candidates";
  const double start = opt.budget_start_s ? *opt.budget_start_s : opt.now_s();
  int since_improvement = 0;
  auto say = [&](const std::string& line) {
    if (opt.log) opt.log(line);
  };
  auto run = [&](size_t i) {
    ++res.runs;
    return source.run_once(i);
  };

  // A candidate whose source threw: recorded with the reason, logged, and the search goes on.
  auto fail = [&](CandidateRecord rec, const std::string& head, const std::string& what, size_t n) {
    rec.outcome = Outcome::failed;
    rec.reason = "failed: " + what;
    ++res.failed;
    say(fmt::format("{} {}", head.empty() ? fmt::format("[{}/{}] #{}:", n + 1, order.size(), rec.index) : head,
                    rec.reason));
    res.records.push_back(std::move(rec));
    if (opt.progress) opt.progress(n + 1, order.size());
  };

  for (size_t n = 0; n < order.size(); ++n) {
    if (opt.time_budget_s > 0 && opt.now_s() - start >= opt.time_budget_s) {
      res.ended = fmt::format("time budget {:g} s", opt.time_budget_s);
      say(fmt::format("stop: time budget of {:g} s spent after {} of {} candidates", opt.time_budget_s, n, order.size()));
      break;
    }
    if (opt.patience > 0 && since_improvement >= opt.patience) {
      res.ended = fmt::format("patience {}", opt.patience);
      say(fmt::format("stop: {} candidates in a row did not beat the best ({} of {} searched)", opt.patience, n,
                      order.size()));
      break;
    }
    const size_t i = order[n];
    // Log text is built only when someone reads it (the evaluation runs millions of searches).
    const std::string name = !opt.log ? std::string() : i < labels.size() && !labels[i].empty() ? labels[i] : fmt::format("#{}", i);
    CandidateRecord rec;
    rec.index = i;
    std::string head = opt.log ? fmt::format("[{}/{}] {}:", n + 1, order.size(), name) : std::string();
    try {
      if (warms_up(opt.strategy, n)) {
        rec.warmup_ms = run(i);
        if (opt.log) head += " warm-up " + ms(*rec.warmup_ms) + ";";
      } else {
        if (opt.log) head += " no warm-up;";
      }
      auto sample = [&] {
        double t = run(i);
        rec.samples.push_back(t);
        ++res.samples;
        return t;
      };
      sample();
      if (res.best) {
        Decision d = early_stop(opt.strategy, rec.samples, res.best_ms);
        if (d.verdict == Verdict::need_second_sample) {
          sample();
          d = early_stop(opt.strategy, rec.samples, res.best_ms);
        }
        std::string cmp;
        if (opt.log)
          cmp = fmt::format("{} = {} = {:.3f}x best {} {} {:.2f}x", d.rule, ms(d.measured),
                                      d.measured / res.best_ms, ms(res.best_ms),
                                      d.verdict == Verdict::discard ? ">=" : "<", d.factor);
        if (d.verdict == Verdict::discard) {
          rec.outcome = Outcome::discarded;
          rec.time_ms = d.measured;
          if (opt.log) rec.reason = "discarded: " + cmp;
          if (opt.log) say(fmt::format("{} samples [{}]; {}", head, join_ms(rec.samples), rec.reason));
          res.records.push_back(std::move(rec));
          ++since_improvement;
          if (opt.progress) opt.progress(n + 1, order.size());
          continue;
        }
        if (opt.log) head += fmt::format(" passed early stop ({});", cmp);
      } else {
        if (opt.log) head += " first candidate, no early stop;";
      }
      while (int(rec.samples.size()) < opt.full_samples) sample();
      FilteredSamples f = reject_outliers(rec.samples, opt.outlier_threshold);
      rec.outcome = Outcome::survived;
      rec.rejected = f.rejected;
      rec.time_ms = f.mean_kept;
      ++res.survivors;
      res.survivor_samples += rec.samples.size();
      std::string filt;
      if (opt.log)
        filt = fmt::format("{} samples [{}], median {}, MAD {:.4f}, {} rejected{}{}; mean of {} = {}",
                                     rec.samples.size(), join_ms(rec.samples), ms(f.median), f.mad, f.rejected.size(),
                                     f.rejected.empty() ? "" : " ", f.rejected.empty() ? "" : "[" + join_ms(f.rejected) + "]",
                                     f.kept.size(), ms(f.mean_kept));
      if (!res.best || f.mean_kept < res.best_ms) {
        if (opt.log) rec.reason = res.best ? fmt::format("new best ({} < {})", ms(f.mean_kept), ms(res.best_ms)) : "new best (first)";
        res.best = i;
        res.best_ms = f.mean_kept;
        res.best_samples = rec.samples;
        since_improvement = 0;
      } else {
        if (opt.log) rec.reason = fmt::format("kept, not better ({} >= {})", ms(f.mean_kept), ms(res.best_ms));
        ++since_improvement;
      }
      if (opt.log) say(fmt::format("{} {}; {}", head, filt, rec.reason));
      res.records.push_back(std::move(rec));
      if (opt.progress) opt.progress(n + 1, order.size());
    } catch (const std::exception& e) {
      fail(std::move(rec), head, e.what(), n);
    } catch (...) {
      fail(std::move(rec), head, "an exception that is not a std::exception", n);
    }
  }
  return res;
}

SearchResult search(TimeSource& source, const SearchOptions& opt, const std::vector<std::string>& labels) {
  std::vector<size_t> order(source.candidates());
  std::iota(order.begin(), order.end(), size_t(0));
  return search(source, order, opt, labels);
}

}  // namespace cdnajit::tune
