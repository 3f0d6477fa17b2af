// A loop over independent items on the host's threads (the model's clock replays and digests).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cdnajit::model {

// Runs body(i) for i in [0, n) on the host's threads; rethrows the first exception.
template <class Body>
inline void parallel_for(size_t n, Body&& body) {
  std::atomic<size_t> next{0};
  std::exception_ptr failed;
  std::mutex failed_lock;
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        body(i);
      } catch (...) {
        std::lock_guard<std::mutex> g(failed_lock);
        if (!failed) failed = std::current_exception();
      }
    }
  };
  const size_t nthreads = std::min<size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t t = 1; t < nthreads; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  if (failed) std::rethrow_exception(failed);
}


}  // namespace cdnajit::model
