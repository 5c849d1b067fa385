// What every part of the referee shares: its clock, its two ways to exit with a message (the
// exit status says whose fault it was), and the small conversions of its flags and keys.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "rocksdb/status.h"

namespace referee {

using Clock = std::chrono::steady_clock;

// Inline: they time every RocksDB call, and a call across files would be timed with it.
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline uint64_t nanos_since(Clock::time_point t0) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
}

// Invalid arguments: exit 2, as the `lsm` CLI does for its own flags.
[[noreturn]] void usage_error(const std::string& message);

// Anything that fails while running: exit 1.
[[noreturn]] void fail(const std::string& message);

void check(const rocksdb::Status& s, const std::string& what);

// A key's bytes as lowercase hex.
std::string hex(const std::string& bytes);

// An on|off flag's value; any other is a usage error naming the flag.
bool parse_on_off(const char* flag, const char* v);

}  // namespace referee
