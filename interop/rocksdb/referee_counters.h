// The counters: per-operation perf context summed per operation class, the latency of each
// class, and a phase's whole record (operations, sums, tickers, what RocksDB said of its tree and
// memory at the phase's end). The perf context is thread-local: the driver resets it before each
// operation and reads it after, so background flushes and compactions (other threads) never leak
// into it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "referee_json.h"
#include "rocksdb/db.h"
#include "rocksdb/iostats_context.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/statistics.h"

namespace referee {

struct LevelPerf {
  uint64_t filter_useful = 0;         // bloom_filter_useful: the filter said "not here"
  uint64_t filter_positive = 0;       // bloom_filter_full_positive: the filter said "maybe"
  uint64_t filter_true_positive = 0;  // bloom_filter_full_true_positive: ... and the key was there
  uint64_t block_cache_hits = 0;
  uint64_t block_cache_misses = 0;
};

// Latency of one operation class, in nanoseconds (steady_clock around the RocksDB call alone:
// a write's wait for background work under --sync-compactions is not in it). Buckets: every
// octave [2^e, 2^(e+1)) split into 8 equal parts, so a percentile, reported as its bucket's
// midpoint, is within 1/16 (6.25%) of the true value; below 8 ns one bucket per nanosecond.
// 496 counters and a few instructions per operation: cheap next to any RocksDB call.
struct Latency {
  static constexpr int kSub = 8;
  static constexpr int kBuckets = kSub + 61 * kSub;
  uint64_t buckets[kBuckets] = {};
  uint64_t count = 0, max = 0;
  double sum = 0;

  static int bucket(uint64_t ns) {
    if (ns < kSub) return static_cast<int>(ns);
    const int e = 63 - __builtin_clzll(ns);  // >= 3
    const int sub = static_cast<int>((ns >> (e - 3)) & (kSub - 1));
    return kSub + (e - 3) * kSub + sub;
  }
  // The midpoint of bucket i (its values are [lo, hi)).
  static double midpoint(int i) {
    if (i < kSub) return i;
    const int e = (i - kSub) / kSub + 3, sub = (i - kSub) % kSub;
    const double lo = std::ldexp(kSub + sub, e - 3), hi = std::ldexp(kSub + sub + 1, e - 3);
    return (lo + hi - 1) / 2;
  }
  void merge(const Latency& o) {
    for (int i = 0; i < kBuckets; ++i) buckets[i] += o.buckets[i];
    count += o.count;
    sum += o.sum;
    max = std::max(max, o.max);
  }
  void add(uint64_t ns) {
    buckets[bucket(ns)] += 1;
    count += 1;
    sum += static_cast<double>(ns);
    max = std::max(max, ns);
  }
  // The q-quantile (0 < q <= 1): the midpoint of the bucket holding the ceil(q * count)-th value.
  double quantile(double q) const {
    if (count == 0) return 0;
    const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count))));
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
      seen += buckets[i];
      if (seen >= rank) return std::min(midpoint(i), static_cast<double>(max));
    }
    return static_cast<double>(max);
  }
};

struct PerfSums {
  uint64_t count = 0;
  uint64_t found = 0;  // lookups: Get returned OK
  uint64_t keys = 0;   // scans: keys returned
  uint64_t block_reads = 0;
  uint64_t index_block_reads = 0;
  uint64_t filter_block_reads = 0;
  uint64_t compression_dict_block_reads = 0;
  uint64_t block_cache_hits = 0;
  uint64_t index_cache_hits = 0;
  uint64_t filter_cache_hits = 0;
  uint64_t bloom_sst_hits = 0;
  uint64_t bloom_sst_misses = 0;
  uint64_t bytes_read = 0;
  uint64_t iostats_bytes_read = 0;
  uint64_t internal_keys_skipped = 0;
  uint64_t internal_deletes_skipped = 0;
  uint64_t memtables_queried = 0;
  // Nanoseconds reading, checksumming and decompressing blocks from storage; only with
  // --time-block-reads on (perf timers cost a clock read each, so runs leave them off).
  uint64_t block_read_ns = 0;
  std::map<uint32_t, LevelPerf> by_level;
  Latency latency;

  // Adds the perf context of the operation just played (reset before it).
  void add_current();

  // Adds another thread's sums (--threads: each client thread counts its own operations).
  void merge(const PerfSums& o);

  // The sums as fields of the object `j` has open.
  void write(Json& j, bool lookups, bool scans) const;
};

inline void reset_perf() {
  rocksdb::get_perf_context()->Reset();
  rocksdb::get_iostats_context()->Reset();
}

// What the operations of a phase (or of one client thread's share of it) did: counts by tag, the
// bytes the writes carried, and each class's perf sums.
struct OpSums {
  uint64_t ops[256] = {};
  uint64_t key_bytes = 0, value_bytes = 0;  // what the puts and deletes carried
  PerfSums writes, existing, missing, unknown, scans;

  void merge(const OpSums& o);
  // Operations counted so far, every tag.
  uint64_t count_ops() const {
    uint64_t n = 0;
    for (uint64_t c : ops) n += c;
    return n;
  }
};

struct Phase : OpSums {
  explicit Phase(const char* n) : name(n) {}
  const char* name;
  bool seen = false;  // a marker or an operation
  double seconds = 0;         // playing the operations (waits after writes included)
  double settle_seconds = 0;  // waiting for background work at the phase's end
  uint64_t settles = 0;       // waits after writes (--sync-compactions on)
  double settle_wait_seconds = 0;
  std::vector<uint64_t> tickers_at_start, tickers_at_end;
  std::map<std::string, std::string> cfstats;
  std::string levelstats;
  std::string tree;  // JSON, taken at the phase's end
  // What the memtables hold at the phase's end (not flushed: the engine does not flush its
  // buffer at a phase's end either), so the tree plus these are every entry written.
  uint64_t memtable_entries = 0, memtable_deletions = 0, memtable_bytes = 0;
  // Memory at the phase's end: what the open table readers hold outside the block cache (index
  // and filter blocks unless cache_index_and_filter_blocks), and the block cache's use.
  uint64_t table_readers_bytes = 0, block_cache_usage = 0;
};

// One line a shell script can read (the tune bundle's compare.sh): the phase's blocks read from
// storage (every block read of its operations; a scan's read-ahead blocks counted by its per-level
// block cache misses, as twin.mjs counts them), bytes flushes and compactions wrote, the user
// bytes written, and each class's p50 and p99 latency.
std::string summary_line(const Phase& p, uint64_t written);

// An integer property RocksDB must have; fails naming it otherwise.
uint64_t int_property(rocksdb::DB* db, const char* name);

// Every ticker's count, in TickersNameMap's order.
std::vector<uint64_t> ticker_snapshot(rocksdb::Statistics& stats);

// Tickers every phase reports, zero or not; the others are reported when they moved.
const std::set<rocksdb::Tickers>& key_tickers();

}  // namespace referee
