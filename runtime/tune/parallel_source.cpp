#include "runtime/tune/parallel_source.hpp"

#include <fmt/format.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

namespace {

class ParallelDeterministicSource final : public TimeSource {
 public:
  ParallelDeterministicSource(TimeKind kind, std::string label, size_t n, int workers,
                              std::function<double(size_t, int)> time_of)
      : kind_(kind), label_(std::move(label)), time_of_(std::move(time_of)), results_(n), window_(size_t(workers)) {
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this, w] { work(w); });
  }
  ~ParallelDeterministicSource() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  TimeKind kind() const override { return kind_; }
  std::string label() const override { return label_; }
  size_t candidates() const override { return results_.size(); }

  double run_once(size_t i) override {
    if (i >= results_.size())
      throw Error(fmt::format("parallel time source: candidate {} out of range (have {})", i, results_.size()));
    std::unique_lock<std::mutex> lock(mu_);
    if (i + 1 > asked_) {
      asked_ = i + 1;
      cv_.notify_all();
    }
    // Workers take every index below asked_ + window - 1 in order, so candidate i comes.
    cv_.wait(lock, [&] { return results_[i].has_value(); });
    const Result& r = *results_[i];
    if (!r.error.empty()) throw Error(r.error);
    return r.ms;
  }

 private:
  struct Result {
    double ms = 0;
    std::string error;
  };
  Result compute(size_t i, int w) {
    Result r;
    try {
      r.ms = time_of_(i, w);
    } catch (const std::exception& e) {
      r.error = e.what();
    } catch (...) {
      r.error = "an exception that is not a std::exception";
    }
    return r;
  }
  void work(int w) {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return stop_ || (next_ < results_.size() && next_ < asked_ + window_ - 1); });
      if (stop_) return;
      size_t i = next_++;
      lock.unlock();
      Result r = compute(i, w);
      lock.lock();
      results_[i] = std::move(r);
      cv_.notify_all();
    }
  }

  TimeKind kind_;
  std::string label_;
  std::function<double(size_t, int)> time_of_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::optional<Result>> results_;
  size_t window_;
  size_t next_ = 0;   // the next candidate a worker takes
  size_t asked_ = 0;  // one past the highest candidate the search asked for
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<TimeSource> parallel_deterministic_source(TimeKind kind, std::string label, size_t candidates,
                                                          int workers, std::function<double(size_t, int)> time_of) {
  if (workers < 1) throw Error(fmt::format("parallel time source: {} workers (valid: >= 1)", workers));
  if (!time_of) throw Error("parallel time source: no time function");
  return std::make_unique<ParallelDeterministicSource>(kind, std::move(label), candidates, workers, std::move(time_of));
}

}  // namespace cdnajit::tune
