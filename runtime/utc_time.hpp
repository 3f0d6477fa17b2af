// The current time in UTC as text, for the time stamps the tuning database and the reports
// write. gmtime_r, not gmtime: a time stamp may be taken while other threads run.
#pragma once
#include <ctime>
#include <string>

namespace cdnajit {

// `format` is a strftime format, e.g. "%Y-%m-%dT%H:%M:%SZ" (ISO 8601) or "%Y-%m-%d".
inline std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  return std::strftime(buf, sizeof buf, format, &tm) ? buf : "";
}

}  // namespace cdnajit
