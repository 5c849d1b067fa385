// The RocksDB referee: the engine's own operation stream (`lsm ops`) played on a real RocksDB
// (Debian's librocksdb 7.8), with what RocksDB did counted the way the engine counts it.
//
//   lsm ops --workload W | referee --db DIR --options OPTIONS_FILE [--block-cache-bytes N]
//       [--direct-reads auto|on|off] [--wal on|off] [--sync-compactions on|off] [--time-block-reads on|off] [--filter-plugin on|off]
//
// Built with -DLSM_NAVIGATOR_POLICY -I DIR, where DIR holds a design's `policy.h` (`lsm export
// --format rocksdb-cpp`: per-level filter bits, a plugin an OPTIONS file cannot name), the driver
// can install that policy as the table's filter_policy (--filter-plugin on), in place of the
// OPTIONS file's; the tree it reports then carries the filter bytes RocksDB built per level.
//
// The stream (stdin): the 8 bytes "LSMOPS1\n", then records, each a tag byte and its payload:
//   'L' / 'R'   the load / run phase begins (no payload)
//   'I' / 'U'   insert / update: u32 LE key length, key, u32 LE value length, value   -> Put
//   'D'         delete: u32 LE key length, key                                       -> Delete
//   'G' 'M' 'Q' lookup of an existing / never-inserted / unknown key: u32 LE length, key -> Get
//   'S'         scan of [start, end], both inclusive: u32 LE length, start, u32 LE length, end
//                 -> an iterator: Seek(start), Next while key <= end
// Operations before any marker belong to the load phase.
//
// Prints one JSON document on stdout (progress and notes go to stderr): per phase the operation
// counts by tag, the wall time, per lookup class (existing / missing / unknown) and for scans and
// writes the sums of RocksDB's per-operation perf context (block reads by kind, block cache hits,
// filter probes and negatives, bytes read, and the per-level filter counters) and the latency of
// its RocksDB calls (`latency_ns`: count, mean, p50, p99, max; see Latency), the phase deltas of
// RocksDB's Statistics tickers, flushes and compactions as the event listener saw them (bytes per
// input and output level, trivial moves, reasons), write stalls, and the `rocksdb.cfstats` map and
// `rocksdb.levelstats` text and the memory held (`memory`: the table readers outside the block
// cache, the block cache's use) at the phase's end; the tree (files per level, with key ranges and
// entries) after each phase; the options as RocksDB opened them.
//
// Why the driver waits (--sync-compactions on, the default): the engine it is compared with runs
// every flush and every merge to completion before the next write, so its tree after N writes
// depends only on the writes. RocksDB flushes and compacts in background threads, so its tree
// would also depend on the machine's speed. After every write that sealed a memtable the driver
// waits until no flush or compaction is running or pending; RocksDB still chooses every
// compaction itself (its picker, its priorities), the driver only makes each finish before the
// next write. `off` lets RocksDB run as in production (to measure stalls).
//
// Exit status: 0 on success, 2 for invalid arguments (the message names the flag and what it
// takes), 1 for anything that fails while running (the stream, RocksDB).
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/iostats_context.h"
#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/version.h"

#ifdef LSM_NAVIGATOR_POLICY
#include "policy.h"  // lsm_navigator::NewPerLevelBloomPolicy (lsm export --format rocksdb-cpp)
#endif

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

uint64_t nanos_since(Clock::time_point t0) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
}

// Invalid arguments: exit 2, as the `lsm` CLI does for its own flags.
[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "referee: %s\n(usage: referee --db DIR --options OPTIONS_FILE [--block-cache-bytes N] "
               "[--direct-reads auto|on|off] [--wal on|off] [--sync-compactions on|off] [--time-block-reads on|off] [--filter-plugin on|off] < stream)\n",
               message.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

// Anything that fails while running: exit 1.
[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "referee: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

void check(const rocksdb::Status& s, const std::string& what) {
  if (!s.ok()) fail(what + ": " + s.ToString());
}

std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// JSON, written as it is built. Each value goes on its own line, indented, except inside an
// object or array opened `compact` (a tree's file, a per-level row), which stays on one line.

class Json {
 public:
  std::string out;

  void begin_object(bool compact = false) { open('{', compact); }
  void end_object() { close('}'); }
  void begin_array(bool compact = false) { open('[', compact); }
  void end_array() { close(']'); }

  Json& key(const std::string& k) {
    separate();
    quote(k);
    out += compact() ? ":" : ": ";
    after_key_ = true;
    return *this;
  }
  void str(const std::string& v) {
    separate();
    quote(v);
  }
  void num(uint64_t v) {
    separate();
    out += std::to_string(v);
  }
  void num(int64_t v) {
    separate();
    out += std::to_string(v);
  }
  void num(int v) { num(static_cast<int64_t>(v)); }
  void real(double v) {
    separate();
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    out += buf;
  }
  void boolean(bool v) {
    separate();
    out += v ? "true" : "false";
  }
  void null() {
    separate();
    out += "null";
  }
  // An already-written JSON value, embedded as is.
  void raw(const std::string& v) {
    separate();
    out += v;
  }

  // Shorthands for a key and its value.
  void field(const std::string& k, uint64_t v) { key(k).num(v); }
  void field(const std::string& k, int v) { key(k).num(v); }
  void field(const std::string& k, const std::string& v) { key(k).str(v); }
  void field(const std::string& k, const char* v) { key(k).str(v); }
  void field_bool(const std::string& k, bool v) { key(k).boolean(v); }
  void field_real(const std::string& k, double v) { key(k).real(v); }

 private:
  struct Frame {
    bool first;
    bool compact;
  };
  std::vector<Frame> stack_;
  bool after_key_ = false;

  bool compact() const { return !stack_.empty() && stack_.back().compact; }

  void newline() {
    out += '\n';
    out.append(2 * stack_.size(), ' ');
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (stack_.empty()) return;
    if (!stack_.back().first) out += compact() ? ", " : ",";
    stack_.back().first = false;
    if (!compact()) newline();
  }
  void open(char c, bool want_compact) {
    separate();
    out += c;
    stack_.push_back({true, want_compact || compact()});
  }
  void close(char c) {
    Frame f = stack_.back();
    stack_.pop_back();
    if (!f.first && !f.compact) newline();
    out += c;
  }
  void quote(const std::string& s) {
    out += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    out += '"';
  }
};

// ---------------------------------------------------------------------------------------------
// The stream on stdin, read in large blocks. Reading a field may refill the buffer, which moves
// the record being parsed to the buffer's front, so a field is first located by its offset in
// the record (`Field`), and turned into a Slice (`slice`) only once the whole record is in the
// buffer: a key and its value (or a scan's two bounds) are then valid together until the next
// record is read.

class Stream {
 public:
  struct Field {
    size_t offset;  // from the start of the record
    uint32_t length;
  };

  Stream(std::FILE* f, size_t buffer_bytes) : f_(f), buf_(std::max<size_t>(buffer_bytes, 16)) {}

  // The next byte of the current record (a tag, or the header's), or -1 at the end of the stream.
  int tag() {
    if (!ensure(offset_ + 1)) return -1;
    offset_ += 1;
    return static_cast<unsigned char>(buf_[pos_ + offset_ - 1]);
  }

  // A length-prefixed byte string of the current record.
  Field field(const char* what) {
    if (!ensure(offset_ + 4)) truncated(what);
    uint32_t len;
    std::memcpy(&len, &buf_[pos_ + offset_], 4);  // little-endian, as is every target we build on
    if (len > kMaxLength) {
      fail("stream: a " + std::string(what) + " of " + std::to_string(len) + " bytes at byte " +
           std::to_string(consumed_ + pos_ + offset_) + " (the limit is 1 GiB): not an LSMOPS1 stream?");
    }
    if (!ensure(offset_ + 4 + len)) truncated(what);
    Field f{offset_ + 4, len};
    offset_ += 4 + len;
    return f;
  }

  // A field of the current record, once all of its fields have been read.
  rocksdb::Slice slice(Field f) const { return rocksdb::Slice(&buf_[pos_ + f.offset], f.length); }

  // The current record is fully used: the next tag starts after it.
  void done() {
    pos_ += offset_;
    offset_ = 0;
  }

  uint64_t position() const { return consumed_ + pos_ + offset_; }

 private:
  static constexpr uint32_t kMaxLength = 1u << 30;
  std::FILE* f_;
  std::vector<char> buf_;
  size_t pos_ = 0;     // start of the current record
  size_t offset_ = 0;  // bytes of the current record parsed
  size_t end_ = 0;     // bytes in the buffer
  uint64_t consumed_ = 0;
  bool eof_ = false;

  [[noreturn]] void truncated(const char* what) {
    fail("stream: truncated " + std::string(what) + " in the record at byte " + std::to_string(consumed_ + pos_));
  }

  // At least `n` bytes of the current record in the buffer; false if the stream ends first.
  bool ensure(size_t n) {
    while (end_ - pos_ < n) {
      if (eof_) return false;
      if (pos_ > 0) {  // move the current record to the front
        std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
        end_ -= pos_;
        consumed_ += pos_;
        pos_ = 0;
      }
      if (buf_.size() < n) buf_.resize(std::max(n, buf_.size() * 2));
      size_t got = std::fread(buf_.data() + end_, 1, buf_.size() - end_, f_);
      if (got == 0) {
        if (std::ferror(f_)) fail(std::string("stream: reading stdin: ") + std::strerror(errno));
        eof_ = true;
      }
      end_ += got;
    }
    return true;
  }
};

// ---------------------------------------------------------------------------------------------
// What RocksDB's background work did, as its EventListener reports it. Events are attributed to
// the phase in progress when they finish; the driver lets background work finish before it
// moves to the next phase, so no phase gets another's flushes or compactions.

constexpr int kPhases = 2;  // load, run

struct LevelCompactions {
  uint64_t count = 0;
  uint64_t trivial_moves = 0;
  uint64_t moved_bytes = 0;
  uint64_t output_bytes = 0;
  uint64_t output_files = 0;
  uint64_t input_records = 0;
  uint64_t output_records = 0;
  std::map<int, uint64_t> input_bytes;  // by input level
  std::map<int, uint64_t> input_files;
  std::map<std::string, uint64_t> reasons;
};

struct PhaseEvents {
  uint64_t flushes = 0;
  uint64_t flush_bytes = 0;
  uint64_t flush_entries = 0;
  uint64_t flush_deletions = 0;
  std::map<int, LevelCompactions> compactions;  // by output level
  uint64_t stalls_delayed = 0;  // entries into the delayed state
  uint64_t stalls_stopped = 0;  // entries into the stopped state
};

const char* reason_name(rocksdb::CompactionReason r) {
  using R = rocksdb::CompactionReason;
  switch (r) {
    case R::kUnknown: return "Unknown";
    case R::kLevelL0FilesNum: return "LevelL0FilesNum";
    case R::kLevelMaxLevelSize: return "LevelMaxLevelSize";
    case R::kUniversalSizeAmplification: return "UniversalSizeAmplification";
    case R::kUniversalSizeRatio: return "UniversalSizeRatio";
    case R::kUniversalSortedRunNum: return "UniversalSortedRunNum";
    case R::kFIFOMaxSize: return "FIFOMaxSize";
    case R::kFIFOReduceNumFiles: return "FIFOReduceNumFiles";
    case R::kFIFOTtl: return "FIFOTtl";
    case R::kManualCompaction: return "ManualCompaction";
    case R::kFilesMarkedForCompaction: return "FilesMarkedForCompaction";
    case R::kBottommostFiles: return "BottommostFiles";
    case R::kTtl: return "Ttl";
    case R::kFlush: return "Flush";
    case R::kExternalSstIngestion: return "ExternalSstIngestion";
    case R::kPeriodicCompaction: return "PeriodicCompaction";
    case R::kChangeTemperature: return "ChangeTemperature";
    case R::kForcedBlobGC: return "ForcedBlobGC";
    case R::kRoundRobinTtl: return "RoundRobinTtl";
    default: return "Other";
  }
}

class Referee : public rocksdb::EventListener {
 public:
  // Counters the writer thread polls without the lock.
  std::atomic<uint64_t> memtables_sealed{0};
  std::atomic<uint64_t> flushes_begun{0};
  std::atomic<uint64_t> compactions_begun{0};
  std::atomic<int> phase{0};

  std::mutex mu;
  std::condition_variable changed;  // a flush or a compaction finished
  PhaseEvents events[kPhases];
  std::string background_error;  // guarded by mu
  uint64_t compaction_notifications = 0;
  uint64_t trivial_moves_by_file_numbers = 0;
  // Waits that ended with a compaction pending that RocksDB's picker declined to start.
  uint64_t declined_waits = 0;
  // Every table file made since the database was created (all of them: it starts empty), by
  // file number: its size, and the level it is in now (0 when flushed, then each compaction's
  // output level). A compaction's input bytes per level come from here, and so do a trivial
  // move's bytes (a moved file keeps its number).
  struct FileInfo {
    uint64_t size = 0;
    int level = 0;
  };
  std::unordered_map<uint64_t, FileInfo> files;

  const char* Name() const override { return "LsmNavigatorReferee"; }

  void OnMemTableSealed(const rocksdb::MemTableInfo&) override { memtables_sealed.fetch_add(1); }

  void OnFlushBegin(rocksdb::DB*, const rocksdb::FlushJobInfo&) override { flushes_begun.fetch_add(1); }

  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override {
    if (!info.status.ok()) return;
    uint64_t number = file_number(info.file_path);
    std::lock_guard<std::mutex> lock(mu);
    files[number].size = info.file_size;
    if (info.reason == rocksdb::TableFileCreationReason::kFlush) {
      PhaseEvents& e = events[phase.load()];
      e.flush_bytes += info.file_size;
      e.flush_entries += info.table_properties.num_entries;
      e.flush_deletions += info.table_properties.num_deletions;
    }
  }

  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo&) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      events[phase.load()].flushes += 1;
    }
    changed.notify_all();
  }

  void OnCompactionBegin(rocksdb::DB*, const rocksdb::CompactionJobInfo&) override { compactions_begun.fetch_add(1); }

  void OnCompactionCompleted(rocksdb::DB*, const rocksdb::CompactionJobInfo& ci) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      compaction_notifications += 1;
      if (!ci.status.ok()) {
        if (background_error.empty()) background_error = "compaction failed: " + ci.status.ToString();
      } else {
        record_compaction(ci);
      }
    }
    changed.notify_all();
  }

  void OnStallConditionsChanged(const rocksdb::WriteStallInfo& info) override {
    using C = rocksdb::WriteStallCondition;
    std::lock_guard<std::mutex> lock(mu);
    PhaseEvents& e = events[phase.load()];
    if (info.condition.cur == C::kDelayed && info.condition.prev != C::kDelayed) e.stalls_delayed += 1;
    if (info.condition.cur == C::kStopped && info.condition.prev != C::kStopped) e.stalls_stopped += 1;
  }

  void OnBackgroundError(rocksdb::BackgroundErrorReason, rocksdb::Status* error) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (background_error.empty() && error != nullptr) background_error = error->ToString();
    }
    changed.notify_all();
  }

 private:
  // "/db/000123.sst" -> 123.
  static uint64_t file_number(const std::string& path) {
    size_t slash = path.find_last_of('/');
    return std::strtoull(path.c_str() + (slash == std::string::npos ? 0 : slash + 1), nullptr, 10);
  }

  // A trivial move re-links files into the output level without rewriting them: the output
  // files are the input files, by number. RocksDB 7.8 reports trivial moves through
  // OnCompactionBegin/OnCompactionCompleted like any compaction, with an empty job (no records,
  // no bytes) and no flag, so they are recognised by their file numbers.
  //
  // The input files' levels come from the driver's own record, not from CompactionFileInfo:
  // in 7.8 its `level` is the index of the input level within the compaction (0 for the start
  // level, 1 for the next), not the level (an L1 -> L2 compaction reports its L1 inputs at 0).
  void record_compaction(const rocksdb::CompactionJobInfo& ci) {
    PhaseEvents& e = events[phase.load()];
    LevelCompactions& l = e.compactions[ci.output_level];
    std::set<uint64_t> in, out;
    for (const auto& f : ci.input_file_infos) in.insert(f.file_number);
    for (const auto& f : ci.output_file_infos) out.insert(f.file_number);
    const bool trivial = !in.empty() && in == out;
    l.count += 1;
    l.reasons[reason_name(ci.compaction_reason)] += 1;
    if (trivial) {
      l.trivial_moves += 1;
      trivial_moves_by_file_numbers += 1;
      for (uint64_t n : out) l.moved_bytes += files[n].size;
    } else {
      for (uint64_t n : in) {
        const FileInfo& f = files[n];
        l.input_bytes[f.level] += f.size;
        l.input_files[f.level] += 1;
      }
      for (uint64_t n : out) l.output_bytes += files[n].size;
      l.output_files += out.size();
      l.input_records += ci.stats.num_input_records;
      l.output_records += ci.stats.num_output_records;
      for (uint64_t n : in) files.erase(n);
    }
    for (uint64_t n : out) files[n].level = ci.output_level;
  }
};

// ---------------------------------------------------------------------------------------------
// Per-operation perf context, summed per operation class. The perf context is thread-local:
// the driver resets it before each operation and reads it after, so background flushes and
// compactions (other threads) never leak into it.

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

  void add_current() {
    const rocksdb::PerfContext* p = rocksdb::get_perf_context();
    count += 1;
    block_reads += p->block_read_count;
    index_block_reads += p->index_block_read_count;
    filter_block_reads += p->filter_block_read_count;
    compression_dict_block_reads += p->compression_dict_block_read_count;
    block_cache_hits += p->block_cache_hit_count;
    index_cache_hits += p->block_cache_index_hit_count;
    filter_cache_hits += p->block_cache_filter_hit_count;
    bloom_sst_hits += p->bloom_sst_hit_count;
    bloom_sst_misses += p->bloom_sst_miss_count;
    bytes_read += p->block_read_byte;
    internal_keys_skipped += p->internal_key_skipped_count;
    internal_deletes_skipped += p->internal_delete_skipped_count;
    memtables_queried += p->get_from_memtable_count;
    block_read_ns += p->block_read_time + p->block_checksum_time + p->block_decompress_time;
    iostats_bytes_read += rocksdb::get_iostats_context()->bytes_read;
    if (p->level_to_perf_context != nullptr) {
      for (const auto& [level, c] : *p->level_to_perf_context) {
        if (c.bloom_filter_useful == 0 && c.bloom_filter_full_positive == 0 && c.bloom_filter_full_true_positive == 0 &&
            c.block_cache_hit_count == 0 && c.block_cache_miss_count == 0) {
          continue;
        }
        LevelPerf& l = by_level[level];
        l.filter_useful += c.bloom_filter_useful;
        l.filter_positive += c.bloom_filter_full_positive;
        l.filter_true_positive += c.bloom_filter_full_true_positive;
        l.block_cache_hits += c.block_cache_hit_count;
        l.block_cache_misses += c.block_cache_miss_count;
      }
    }
  }

  void write(Json& j, bool lookups, bool scans) const {
    j.field("count", count);
    if (lookups) j.field("found", found);
    if (scans) j.field("keys", keys);
    j.field("block_reads", block_reads);
    j.field("index_block_reads", index_block_reads);
    j.field("filter_block_reads", filter_block_reads);
    j.field("compression_dict_block_reads", compression_dict_block_reads);
    j.field("data_block_reads", block_reads - index_block_reads - filter_block_reads - compression_dict_block_reads);
    j.field("block_cache_hits", block_cache_hits);
    j.field("index_cache_hits", index_cache_hits);
    j.field("filter_cache_hits", filter_cache_hits);
    j.field("data_cache_hits", block_cache_hits - index_cache_hits - filter_cache_hits);
    j.field("filters_probed", bloom_sst_hits + bloom_sst_misses);
    j.field("filter_negatives", bloom_sst_misses);
    j.field("bytes_read", bytes_read);
    j.field("iostats_bytes_read", iostats_bytes_read);
    j.field("internal_keys_skipped", internal_keys_skipped);
    j.field("internal_deletes_skipped", internal_deletes_skipped);
    j.field("memtables_queried", memtables_queried);
    if (block_read_ns > 0) j.field("block_read_ns", block_read_ns);
    j.key("latency_ns").begin_object(true);
    j.field("count", latency.count);
    j.field_real("mean", latency.count > 0 ? latency.sum / static_cast<double>(latency.count) : 0.0);
    j.field_real("p50", latency.quantile(0.5));
    j.field_real("p99", latency.quantile(0.99));
    j.field("max", latency.max);
    j.end_object();
    j.key("by_level").begin_array();
    for (const auto& [level, l] : by_level) {
      j.begin_object();
      j.field("level", static_cast<uint64_t>(level));
      j.field("filter_useful", l.filter_useful);
      j.field("filter_positive", l.filter_positive);
      j.field("filter_true_positive", l.filter_true_positive);
      j.field("block_cache_hits", l.block_cache_hits);
      j.field("block_cache_misses", l.block_cache_misses);
      j.end_object();
    }
    j.end_array();
  }
};

void reset_perf() {
  rocksdb::get_perf_context()->Reset();
  rocksdb::get_iostats_context()->Reset();
}

// ---------------------------------------------------------------------------------------------

struct Phase {
  explicit Phase(const char* n) : name(n) {}
  const char* name;
  bool seen = false;  // a marker or an operation
  uint64_t ops[256] = {};
  double seconds = 0;         // playing the operations (waits after writes included)
  double settle_seconds = 0;  // waiting for background work at the phase's end
  uint64_t settles = 0;       // waits after writes (--sync-compactions on)
  double settle_wait_seconds = 0;
  uint64_t key_bytes = 0, value_bytes = 0;  // what the puts and deletes carried
  PerfSums writes, existing, missing, unknown, scans;
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
std::string summary_line(const Phase& p, uint64_t written) {
  uint64_t ops = 0;
  for (uint64_t c : p.ops) ops += c;
  uint64_t blocks = p.writes.block_reads, data = p.writes.block_reads - p.writes.index_block_reads - p.writes.filter_block_reads;
  Latency gets;
  for (const PerfSums* l : {&p.existing, &p.missing, &p.unknown}) {
    blocks += l->block_reads;
    data += l->block_reads - l->index_block_reads - l->filter_block_reads - l->compression_dict_block_reads;
    gets.merge(l->latency);
  }
  uint64_t misses = 0;
  for (const auto& [level, l] : p.scans.by_level) misses += l.block_cache_misses;
  const uint64_t meta = p.scans.index_block_reads + p.scans.filter_block_reads;
  const uint64_t scan_data =
      misses > meta ? misses - meta : p.scans.block_reads - meta - p.scans.compression_dict_block_reads;
  blocks += scan_data + meta;
  data += scan_data;
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "referee: summary phase=%s ops=%" PRIu64 " seconds=%.3f blocks_read=%" PRIu64 " data_blocks_read=%" PRIu64
                " bytes_written=%" PRIu64 " user_bytes=%" PRIu64,
                p.name, ops, p.seconds, blocks, data, written, p.key_bytes + p.value_bytes);
  std::string line = buf;
  for (const auto& [name, l] : {std::pair<const char*, const Latency*>{"get", &gets}, {"write", &p.writes.latency}, {"scan", &p.scans.latency}}) {
    if (l->count == 0) continue;
    std::snprintf(buf, sizeof buf, " %s_p50_ns=%.0f %s_p99_ns=%.0f", name, l->quantile(0.5), name, l->quantile(0.99));
    line += buf;
  }
  return line + "\n";
}

uint64_t int_property(rocksdb::DB* db, const char* name) {
  uint64_t v = 0;
  if (!db->GetIntProperty(name, &v)) fail(std::string("RocksDB has no property ") + name);
  return v;
}

std::vector<uint64_t> ticker_snapshot(rocksdb::Statistics& stats) {
  std::vector<uint64_t> v;
  v.reserve(rocksdb::TickersNameMap.size());
  for (const auto& t : rocksdb::TickersNameMap) v.push_back(stats.getTickerCount(t.first));
  return v;
}

// Tickers every phase reports, zero or not; the others are reported when they moved.
const std::set<rocksdb::Tickers>& key_tickers() {
  static const std::set<rocksdb::Tickers> k = {
      rocksdb::BLOCK_CACHE_DATA_HIT,   rocksdb::BLOCK_CACHE_DATA_MISS,    rocksdb::BLOCK_CACHE_INDEX_HIT,
      rocksdb::BLOCK_CACHE_INDEX_MISS, rocksdb::BLOCK_CACHE_FILTER_HIT,   rocksdb::BLOCK_CACHE_FILTER_MISS,
      rocksdb::BLOCK_CACHE_HIT,        rocksdb::BLOCK_CACHE_MISS,         rocksdb::BLOOM_FILTER_USEFUL,
      rocksdb::BLOOM_FILTER_FULL_POSITIVE, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE, rocksdb::FLUSH_WRITE_BYTES,
      rocksdb::COMPACT_WRITE_BYTES,    rocksdb::COMPACT_READ_BYTES,       rocksdb::STALL_MICROS,
      rocksdb::NUMBER_KEYS_WRITTEN,    rocksdb::BYTES_WRITTEN,            rocksdb::NUMBER_DB_SEEK,
      rocksdb::NUMBER_DB_NEXT,         rocksdb::NUMBER_KEYS_READ,         rocksdb::NUMBER_KEYS_UPDATED,
      rocksdb::MEMTABLE_HIT,           rocksdb::MEMTABLE_MISS,            rocksdb::GET_HIT_L0,
      rocksdb::GET_HIT_L1,             rocksdb::GET_HIT_L2_AND_UP,        rocksdb::WAL_FILE_BYTES,
      rocksdb::COMPACTION_KEY_DROP_NEWER_ENTRY, rocksdb::COMPACTION_KEY_DROP_OBSOLETE,
  };
  return k;
}

// Is RocksDB still flushing or compacting, or about to? (Its own counters; all must be 0.)
struct Quiet {
  rocksdb::DB* db;
  bool auto_compactions;

  // The first property that is not 0, or nullptr.
  const char* busy() const {
    static const char* const props[] = {
        "rocksdb.num-immutable-mem-table", "rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes",
        "rocksdb.num-running-compactions", "rocksdb.compaction-pending",
    };
    for (const char* p : props) {
      if (!auto_compactions && std::strcmp(p, "rocksdb.compaction-pending") == 0) continue;
      uint64_t v = 0;
      if (!db->GetIntProperty(p, &v)) fail(std::string("RocksDB has no property ") + p);
      if (v != 0) return p;
    }
    return nullptr;
  }
};

// Waits until RocksDB has no flush or compaction running or pending. The listener wakes the
// wait when a job finishes; the short timeout covers the moment between a job's notification
// and RocksDB lowering its running count.
void settle(const Quiet& quiet, Referee& ref, std::vector<std::string>& notes) {
  auto last_progress = Clock::now();
  uint64_t last_jobs = ref.flushes_begun.load() + ref.compactions_begun.load();
  for (;;) {
    const char* busy = quiet.busy();
    if (busy == nullptr) return;
    std::unique_lock<std::mutex> lock(ref.mu);
    if (!ref.background_error.empty()) fail("RocksDB background error: " + ref.background_error);
    ref.changed.wait_for(lock, std::chrono::microseconds(200));
    lock.unlock();
    uint64_t jobs = ref.flushes_begun.load() + ref.compactions_begun.load();
    if (jobs != last_jobs || std::strcmp(busy, "rocksdb.compaction-pending") != 0) {
      last_jobs = jobs;
      last_progress = Clock::now();
    } else if (seconds_since(last_progress) > 0.5) {
      // Compaction pending with nothing running or starting for 0.5 s: RocksDB schedules a
      // compaction as soon as a job ends (well under a millisecond here), so its picker has
      // declined what the score asks for (universal compaction does this between merges).
      // Counted, and said once in the notes.
      ref.declined_waits += 1;
      return;
    }
  }
}

// The tree as RocksDB holds it: every live table file per level, with its key range and entries.
std::string tree_json(rocksdb::DB* db, int num_levels, int indent_depth) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  // Each table's filter size, from its properties (what the filter policy built for it).
  rocksdb::TablePropertiesCollection props;
  db->GetPropertiesOfAllTables(&props);
  auto filter_bytes_of = [&](const rocksdb::LiveFileMetaData& f) -> uint64_t {
    auto it = props.find(f.db_path + "/" + f.relative_filename);
    if (it == props.end()) it = props.find(f.db_path + f.name);
    return it == props.end() ? 0 : it->second->filter_size;
  };
  std::vector<std::vector<rocksdb::LiveFileMetaData>> levels(std::max(num_levels, 1));
  for (auto& f : files) {
    if (f.level >= static_cast<int>(levels.size())) levels.resize(f.level + 1);
    levels[f.level].push_back(f);
  }
  Json j;
  j.begin_object();
  uint64_t total_files = 0, total_bytes = 0, total_entries = 0, total_deletions = 0;
  j.key("levels").begin_array();
  for (size_t l = 0; l < levels.size(); ++l) {
    auto& v = levels[l];
    // Level 0 newest first (the order a lookup searches it), the other levels by key.
    if (l == 0) {
      std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.largest_seqno > b.largest_seqno; });
    } else {
      std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.smallestkey < b.smallestkey; });
    }
    uint64_t bytes = 0, entries = 0, deletions = 0, filter_bytes = 0;
    for (const auto& f : v) {
      bytes += f.size;
      entries += f.num_entries;
      deletions += f.num_deletions;
      filter_bytes += filter_bytes_of(f);
    }
    total_files += v.size();
    total_bytes += bytes;
    total_entries += entries;
    total_deletions += deletions;
    j.begin_object();
    j.field("level", static_cast<int>(l));
    j.field("file_count", static_cast<uint64_t>(v.size()));
    j.field("bytes", bytes);
    j.field("entries", entries);
    j.field("deletions", deletions);
    j.field("filter_bytes", filter_bytes);
    j.key("files").begin_array();
    for (const auto& f : v) {
      j.begin_object(true);
      j.field("level", static_cast<int>(l));
      j.field("name", f.relative_filename);
      j.field("size", f.size);
      j.field("entries", f.num_entries);
      j.field("deletions", f.num_deletions);
      j.field("filter_bytes", filter_bytes_of(f));
      j.field("smallest_key_hex", hex(f.smallestkey));
      j.field("largest_key_hex", hex(f.largestkey));
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.field("file_count", total_files);
  j.field("bytes", total_bytes);
  j.field("entries", total_entries);
  j.field("deletions", total_deletions);
  j.end_object();
  // Re-indent the nested document for where it is embedded.
  std::string out;
  const std::string pad(2 * indent_depth, ' ');
  for (char c : j.out) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

// "a=1;b={c=2;d=3};e=x" -> {a: 1, b: {c=2;d=3}, e: x}: RocksDB's option strings, split at the
// top level only.
std::map<std::string, std::string> option_map(const std::string& s) {
  std::map<std::string, std::string> m;
  size_t i = 0;
  while (i < s.size()) {
    size_t eq = s.find('=', i);
    if (eq == std::string::npos) break;
    std::string key = s.substr(i, eq - i);
    while (!key.empty() && key.front() == ' ') key.erase(0, 1);
    size_t j = eq + 1;
    int depth = 0;
    while (j < s.size() && !(depth == 0 && s[j] == ';')) {
      if (s[j] == '{') depth++;
      if (s[j] == '}') depth--;
      j++;
    }
    std::string value = s.substr(eq + 1, j - eq - 1);
    if (value.size() >= 2 && value.front() == '{' && value.back() == '}') value = value.substr(1, value.size() - 2);
    m[key] = value;
    i = j + 1;
  }
  return m;
}

bool parse_on_off(const char* flag, const char* v) {
  if (std::strcmp(v, "on") == 0) return true;
  if (std::strcmp(v, "off") == 0) return false;
  usage_error(std::string(flag) + " must be on or off, got \"" + v + "\"");
}

// Whether the filesystem under `dir` takes O_DIRECT reads: RocksDB needs it for use_direct_reads,
// and some filesystems (tmpfs, some overlays) refuse it only when a table file is opened, long
// after DB::Open succeeded. Empty when it does, else why not.
std::string direct_io_refused(const std::string& dir) {
  const std::string probe = dir + "/DIRECT_IO_PROBE";
  {
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    if (f == nullptr) return "cannot create " + probe + ": " + std::strerror(errno);
    std::vector<char> block(4096, 0);
    std::fwrite(block.data(), 1, block.size(), f);
    std::fclose(f);
  }
  std::string why;
  int fd = ::open(probe.c_str(), O_RDONLY | O_DIRECT);
  if (fd < 0) {
    why = std::string("the filesystem refuses O_DIRECT: ") + std::strerror(errno);
  } else {
    void* buf = nullptr;
    if (posix_memalign(&buf, 4096, 4096) != 0) fail("out of memory");
    if (::pread(fd, buf, 4096, 0) < 0) why = std::string("an O_DIRECT read failed: ") + std::strerror(errno);
    std::free(buf);
    ::close(fd);
  }
  std::remove(probe.c_str());
  return why;
}

// How many compactions RocksDB may run at once (7.8's DBImpl::GetBGJobLimits for these options):
// a quarter of max_background_jobs flush and the rest compact, unless the older per-kind limits
// are set. RocksDB uses more than one only when it judges compaction behind (the write
// controller's "speed up compaction": level 0 at `compaction_speedup_l0_files`, or the pending
// compaction bytes at a quarter of soft_pending_compaction_bytes_limit).
int compaction_parallelism(const rocksdb::DBOptions& o) {
  if (o.max_background_flushes == -1 && o.max_background_compactions == -1) {
    const int flushes = std::max(1, o.max_background_jobs / 4);
    return std::max(1, o.max_background_jobs - flushes);
  }
  return std::max(1, o.max_background_compactions);
}

// Level 0's file count at which RocksDB speeds compaction up (7.8's
// GetL0ThresholdSpeedupCompaction): twice the trigger, or a quarter of the way from the trigger
// to the slowdown trigger, whichever is less.
int64_t compaction_speedup_l0_files(const rocksdb::ColumnFamilyOptions& o) {
  const int64_t trigger = o.level0_file_num_compaction_trigger;
  const int64_t slowdown = o.level0_slowdown_writes_trigger;
  if (trigger < 0) return INT64_MAX;
  const int64_t quarter = trigger + (slowdown - trigger) / 4;
  return std::min(2 * trigger, std::max(trigger, quarter));
}

// Why the driver plays on a thread whose stack it places itself: RocksDB's memtable (a skiplist)
// draws each node's height from a thread-local generator seeded with the writing thread's id,
// which glibc makes the address of the thread's descriptor. Address-space randomisation moves
// that address every run, so the same writes used different heights, the memtable's memory
// reached write_buffer_size at a different write, and the flushes (and every compaction after
// them) differed from run to run. glibc keeps a thread's descriptor at the top of a stack the
// caller provides, so a stack at a fixed address gives the same seed every run.
constexpr uintptr_t kStackAddress = 0x3f0000000000ull;  // far from the heap, libraries and stacks
constexpr size_t kStackBytes = 64ull << 20;

struct MainArgs {
  int argc;
  char** argv;
  int status;
  bool fixed_stack;
};

int play(int argc, char** argv, bool fixed_stack);

void* play_thread(void* p) {
  auto* a = static_cast<MainArgs*>(p);
  a->status = play(a->argc, a->argv, a->fixed_stack);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  MainArgs args{argc, argv, 1, false};
  void* stack = ::mmap(reinterpret_cast<void*>(kStackAddress), kStackBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  args.fixed_stack = stack == reinterpret_cast<void*>(kStackAddress);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (args.fixed_stack) {
    pthread_attr_setstack(&attr, stack, kStackBytes);
  } else {
    if (stack != MAP_FAILED) ::munmap(stack, kStackBytes);  // an old kernel took the address as a hint only
    pthread_attr_setstacksize(&attr, kStackBytes);
  }
  pthread_t thread;
  if (pthread_create(&thread, &attr, play_thread, &args) != 0) fail("cannot start the playing thread");
  pthread_join(thread, nullptr);
  return args.status;
}

namespace {

int play(int argc, char** argv, bool fixed_stack) {
  std::string db_path, options_path;
  int64_t block_cache_bytes = -1;  // -1: as the OPTIONS file leaves it
  std::string direct_mode = "auto";
  bool wal = false, sync_compactions = true, time_block_reads = false, filter_plugin = false;

  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::printf("referee --db DIR --options OPTIONS_FILE [--block-cache-bytes N] [--direct-reads auto|on|off] "
                  "[--wal on|off] [--sync-compactions on|off] [--time-block-reads on|off] [--filter-plugin on|off] < LSMOPS1 stream\n");
      return 0;
    }
    if (i + 1 >= argc) usage_error(flag + " takes a value");
    const char* v = argv[++i];
    if (flag == "--db") {
      db_path = v;
    } else if (flag == "--options") {
      options_path = v;
    } else if (flag == "--block-cache-bytes") {
      char* end = nullptr;
      errno = 0;
      unsigned long long n = std::strtoull(v, &end, 10);
      if (end == v || *end != '\0' || errno != 0 || v[0] == '-' || n > (1ull << 50)) {
        usage_error(std::string("--block-cache-bytes must be an integer in [0, 2^50] (0: no block cache), got \"") + v + "\"");
      }
      block_cache_bytes = static_cast<int64_t>(n);
    } else if (flag == "--direct-reads") {
      direct_mode = v;
      if (direct_mode != "auto" && direct_mode != "on" && direct_mode != "off") {
        usage_error(std::string("--direct-reads must be auto, on or off, got \"") + v + "\"");
      }
    } else if (flag == "--wal") {
      wal = parse_on_off("--wal", v);
    } else if (flag == "--sync-compactions") {
      sync_compactions = parse_on_off("--sync-compactions", v);
    } else if (flag == "--time-block-reads") {
      time_block_reads = parse_on_off("--time-block-reads", v);
    } else if (flag == "--filter-plugin") {
      filter_plugin = parse_on_off("--filter-plugin", v);
#ifndef LSM_NAVIGATOR_POLICY
      if (filter_plugin) usage_error("--filter-plugin on needs a driver built with a policy.h (g++ -DLSM_NAVIGATOR_POLICY -I DIR)");
#endif
    } else {
      usage_error("unknown flag " + flag + " (flags: --db, --options, --block-cache-bytes, --direct-reads, --wal, --sync-compactions, --time-block-reads, --filter-plugin)");
    }
  }
  if (db_path.empty()) usage_error("--db DIR is required (a directory that does not exist or is empty)");
  if (options_path.empty()) usage_error("--options OPTIONS_FILE is required (a RocksDB OPTIONS file)");

  std::vector<std::string> notes;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(db_path, ec)) {
    if (!fs::is_directory(db_path, ec)) usage_error("--db " + db_path + " exists and is not a directory");
    if (!fs::is_empty(db_path, ec)) usage_error("--db " + db_path + " is not empty (the referee starts from an empty database)");
  }

  // The OPTIONS file, as RocksDB's own loader reads it (unknown options are errors).
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  config.input_strings_escaped = true;
  config.env = rocksdb::Env::Default();
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  {
    rocksdb::Status s = rocksdb::LoadOptionsFromFile(config, options_path, &db_options, &cfs);
    if (!s.ok()) usage_error("--options " + options_path + ": RocksDB cannot load it: " + s.ToString());
  }
  rocksdb::ColumnFamilyOptions cf_options;
  bool have_default = false;
  for (const auto& cf : cfs) {
    if (cf.name == rocksdb::kDefaultColumnFamilyName) {
      cf_options = cf.options;
      have_default = true;
    } else {
      notes.push_back("the OPTIONS file's column family \"" + cf.name + "\" is not used (the stream is played on \"default\")");
    }
  }
  if (!have_default) usage_error("--options " + options_path + " has no [CFOptions \"default\"] section");

  // The block cache: the OPTIONS file cannot carry its size. A fresh table factory is built
  // from the loaded table options rather than editing them in place, so the factory's state
  // derived from the cache (made when it was constructed) matches the cache it holds.
  auto* table_options = cf_options.table_factory ? cf_options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>() : nullptr;
  if (table_options == nullptr) {
    if (block_cache_bytes >= 0) usage_error("--block-cache-bytes needs a block-based table (the OPTIONS file's table_factory is another)");
    if (filter_plugin) usage_error("--filter-plugin needs a block-based table (the OPTIONS file's table_factory is another)");
    notes.push_back("the table factory is not block-based: no block cache, filter or perf fields of block-based tables apply");
  } else if (block_cache_bytes >= 0 || filter_plugin) {
    rocksdb::BlockBasedTableOptions t = *table_options;
    if (block_cache_bytes == 0) {
      t.no_block_cache = true;
      t.block_cache = nullptr;
    } else if (block_cache_bytes > 0) {
      t.no_block_cache = false;
      t.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(block_cache_bytes));
    }
#ifdef LSM_NAVIGATOR_POLICY
    if (filter_plugin) {
      // The design's per-level bits: the policy picks them by the level a table is built for.
      t.filter_policy = lsm_navigator::NewPerLevelBloomPolicy();
      notes.push_back(std::string("filter plugin: the OPTIONS file's filter_policy is replaced by ") + t.filter_policy->Name() +
                      " (policy.h), which gives each level the bits the design lists (see tree_after_*: filter_bytes per level)");
    }
#endif
    cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  }

  // The stream's header, before anything is created: nothing is made for a stream that is not one.
  // REFEREE_READ_BUFFER_BYTES (a test's knob: a tiny buffer makes every record straddle a refill).
  size_t read_buffer = 16 << 20;
  if (const char* b = std::getenv("REFEREE_READ_BUFFER_BYTES"); b != nullptr && *b != '\0') read_buffer = std::strtoull(b, nullptr, 10);
  Stream in(stdin, read_buffer);
  {
    static const char magic[] = "LSMOPS1\n";
    for (int i = 0; i < 8; ++i) {
      int c = in.tag();
      if (c != static_cast<unsigned char>(magic[i])) fail("stdin is not an LSMOPS1 stream (the header \"LSMOPS1\\n\" is missing)");
    }
    in.done();
  }

  fs::create_directories(db_path, ec);
  if (ec) fail("cannot create " + db_path + ": " + ec.message());

  Referee* referee = new Referee();
  std::shared_ptr<rocksdb::EventListener> listener(referee);
  std::shared_ptr<rocksdb::Statistics> statistics = rocksdb::CreateDBStatistics();

  rocksdb::Options options(db_options, cf_options);
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.statistics = statistics;
  options.listeners.push_back(listener);
  options.use_direct_io_for_flush_and_compaction = false;

  // Direct reads: every block a lookup reads comes from the device, not the OS page cache, as
  // the engine counts it. auto: on where the filesystem allows it.
  bool direct = direct_mode != "off";
  std::string direct_reason = direct_mode == "off" ? "--direct-reads off" : "";
  if (direct) {
    std::string refused = direct_io_refused(db_path);
    if (!refused.empty()) {
      if (direct_mode == "on") fail("--direct-reads on: " + refused);
      direct = false;
      direct_reason = refused;
    }
  }
  options.use_direct_reads = direct;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, db_path, &db);
  if (!s.ok() && direct && direct_mode == "auto") {
    direct_reason = "DB::Open with use_direct_reads failed: " + s.ToString();
    std::fprintf(stderr, "referee: %s; opening without direct reads\n", direct_reason.c_str());
    fs::remove_all(db_path, ec);
    fs::create_directories(db_path, ec);
    direct = false;
    options.use_direct_reads = false;
    s = rocksdb::DB::Open(options, db_path, &db);
  }
  check(s, "cannot open RocksDB at " + db_path);
  std::unique_ptr<rocksdb::DB> db_owner(db);

  const rocksdb::Options opened = db->GetOptions();
  const auto* opened_table = opened.table_factory ? opened.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>() : nullptr;
  uint64_t cache_in_use = 0;
  if (opened_table != nullptr && !opened_table->no_block_cache && opened_table->block_cache) {
    cache_in_use = opened_table->block_cache->GetCapacity();
  }

  rocksdb::WriteOptions write_options;
  write_options.disableWAL = !wal;
  rocksdb::ReadOptions read_options;

  // Counts only (no timers): cheap enough to read around every operation. A calibration asks for
  // the block-read timers too: what a storage read costs RocksDB itself, alignment and decompression
  // included, is the price its predictions need.
  rocksdb::SetPerfLevel(time_block_reads ? rocksdb::PerfLevel::kEnableTimeExceptForMutex : rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->EnablePerLevelPerfContext();

  Quiet quiet{db, !opened.disable_auto_compactions};
  if (opened.disable_auto_compactions) {
    notes.push_back("disable_auto_compactions is set: the driver waits for flushes only (RocksDB will not compact)");
  }
  if (sync_compactions) {
    notes.push_back(
        "sync-compactions: after every write that sealed a memtable the driver waited until no flush or compaction ran or "
        "was pending, so each finished before the next write; RocksDB still picked every compaction itself (its picker "
        "and compaction_pri), and one finished compaction can make it pick the next. With the memtable's skiplist seed "
        "fixed (the playing thread's address), runs of the same stream with the same options and library build the same "
        "trees, file by file");
    const int parallel = compaction_parallelism(opened);
    if (parallel > 1) {
      notes.push_back("these options let RocksDB run up to " + std::to_string(parallel) +
                      " compactions at once when it judges compaction behind (level 0 at " +
                      std::to_string(compaction_speedup_l0_files(opened)) +
                      " files, or pending compaction bytes at a quarter of soft_pending_compaction_bytes_limit); waiting "
                      "after every flush keeps level 0 at or below its trigger, but if the byte rule fires, compactions "
                      "overlap and their order depends on timing");
    }
  } else {
    notes.push_back("sync-compactions off: RocksDB flushed and compacted in the background as in production; the trees "
                    "and counts depend on the machine's speed (the driver waited only at phase ends)");
  }
  if (!fixed_stack) {
    notes.push_back("the playing thread's stack could not be placed at its fixed address, so RocksDB's memtable skiplist "
                    "heights (seeded by the thread's address) differ between runs: flush points and trees may too");
  }
  if (!wal) notes.push_back("WAL off (WriteOptions.disableWAL): the engine keeps no log either; flush and compaction bytes do not depend on it");
  notes.push_back("perf context (RocksDB 7.8): no data-block read counter exists; data_block_reads = block_reads - index - filter - "
                  "compression-dict reads, and data_cache_hits = block_cache_hits - index - filter cache hits (compression "
                  "dictionary hits, if any, included); there is no per-operation block cache miss counter except per level "
                  "(by_level block_cache_misses)");
  notes.push_back("filters_probed = bloom_sst_hit_count + bloom_sst_miss_count, filter_negatives = bloom_sst_miss_count "
                  "(per-level: bloom_filter_useful / bloom_filter_full_positive)");
  notes.push_back("trivial moves: RocksDB 7.8 reports them through OnCompactionCompleted like any compaction, with no flag "
                  "and an empty job; the driver counts a compaction whose output file numbers equal its input file numbers "
                  "as a trivial move (moved_bytes, no bytes read or written; cfstats' MovedGB agrees)");
  notes.push_back("compaction input levels: 7.8's CompactionFileInfo.level is the input's index within the compaction, not "
                  "its level; the driver tracks each file's level itself (0 at flush, then each compaction's output level)");

  Phase phases[kPhases] = {Phase("load"), Phase("run")};
  int current = 0;
  phases[0].tickers_at_start = ticker_snapshot(*statistics);
  auto phase_started = Clock::now();
  auto last_progress = Clock::now();
  uint64_t seen_sealed = referee->memtables_sealed.load();
  uint64_t seen_flushes = referee->flushes_begun.load();
  const int num_levels = opened.num_levels;

  auto finish_phase = [&](Phase& p) {
    p.seconds = seconds_since(phase_started);
    auto t0 = Clock::now();
    settle(quiet, *referee, notes);
    p.settle_seconds = seconds_since(t0);
    p.tickers_at_end = ticker_snapshot(*statistics);
    db->GetMapProperty(rocksdb::DB::Properties::kCFStats, &p.cfstats);
    db->GetProperty(rocksdb::DB::Properties::kLevelStats, &p.levelstats);
    p.tree = tree_json(db, num_levels, 1);
    p.memtable_entries = int_property(db, "rocksdb.num-entries-active-mem-table") + int_property(db, "rocksdb.num-entries-imm-mem-tables");
    p.memtable_deletions = int_property(db, "rocksdb.num-deletes-active-mem-table") + int_property(db, "rocksdb.num-deletes-imm-mem-tables");
    p.memtable_bytes = int_property(db, "rocksdb.cur-size-all-mem-tables");
    p.table_readers_bytes = int_property(db, "rocksdb.estimate-table-readers-mem");
    uint64_t usage = 0;
    p.block_cache_usage = db->GetIntProperty("rocksdb.block-cache-usage", &usage) ? usage : 0;
    std::fprintf(stderr, "referee: %s phase: %" PRIu64 " operations in %.1f s (+%.1f s settling)\n", p.name,
                 [&] { uint64_t n = 0; for (uint64_t c : p.ops) n += c; return n; }(), p.seconds, p.settle_seconds);
  };


  rocksdb::PinnableSlice got;
  uint64_t operations = 0;
  for (;;) {
    const uint64_t at = in.position();
    const int tag = in.tag();
    if (tag < 0) break;
    Phase& p = phases[current];
    switch (tag) {
      case 'L':
        if (current != 0 || phases[0].seen) fail("stream: an 'L' marker at byte " + std::to_string(at) + " after the load phase began");
        phases[0].seen = true;
        break;
      case 'R':
        if (current != 0 || phases[1].seen) fail("stream: a second 'R' marker at byte " + std::to_string(at));
        finish_phase(phases[0]);
        current = 1;
        referee->phase.store(1);
        phases[1].seen = true;
        phases[1].tickers_at_start = phases[0].tickers_at_end;
        phase_started = Clock::now();
        break;
      case 'I':
      case 'U':
      case 'D': {
        const Stream::Field key_field = in.field("key");
        const Stream::Field value_field = tag == 'D' ? Stream::Field{0, 0} : in.field("value");
        const rocksdb::Slice key = in.slice(key_field);
        reset_perf();
        const auto t0 = Clock::now();
        if (tag == 'D') {
          check(db->Delete(write_options, key), "Delete");
          p.key_bytes += key.size();
        } else {
          const rocksdb::Slice value = in.slice(value_field);
          check(db->Put(write_options, key, value), "Put");
          p.key_bytes += key.size();
          p.value_bytes += value.size();
        }
        p.writes.latency.add(nanos_since(t0));
        p.writes.add_current();
        if (sync_compactions) {
          const uint64_t sealed = referee->memtables_sealed.load();
          const uint64_t flushes = referee->flushes_begun.load();
          if (sealed != seen_sealed || flushes != seen_flushes) {
            auto t0 = Clock::now();
            settle(quiet, *referee, notes);
            p.settles += 1;
            p.settle_wait_seconds += seconds_since(t0);
            seen_sealed = referee->memtables_sealed.load();
            seen_flushes = referee->flushes_begun.load();
          }
        }
        break;
      }
      case 'G':
      case 'M':
      case 'Q': {
        const rocksdb::Slice key = in.slice(in.field("key"));
        reset_perf();
        got.Reset();
        const auto t0 = Clock::now();
        rocksdb::Status r = db->Get(read_options, db->DefaultColumnFamily(), key, &got);
        const uint64_t ns = nanos_since(t0);
        if (!r.ok() && !r.IsNotFound()) fail("Get: " + r.ToString());
        PerfSums& sums = tag == 'G' ? p.existing : tag == 'M' ? p.missing : p.unknown;
        sums.latency.add(ns);
        sums.add_current();
        if (r.ok()) sums.found += 1;
        break;
      }
      case 'S': {
        const Stream::Field start_field = in.field("scan start");
        const Stream::Field end_field = in.field("scan end");
        const rocksdb::Slice start = in.slice(start_field);
        const rocksdb::Slice end = in.slice(end_field);
        reset_perf();
        const auto t0 = Clock::now();
        std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read_options));
        uint64_t keys = 0;
        for (it->Seek(start); it->Valid() && it->key().compare(end) <= 0; it->Next()) keys += 1;
        check(it->status(), "scan");
        it.reset();
        p.scans.latency.add(nanos_since(t0));
        p.scans.add_current();
        p.scans.keys += keys;
        break;
      }
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, tag >= 0x20 && tag < 0x7f ? "'%c'" : "0x%02x", tag);
        fail(std::string("stream: unknown tag ") + buf + " at byte " + std::to_string(at));
      }
    }
    in.done();
    p.seen = true;
    if (tag != 'L' && tag != 'R') {
      p.ops[tag] += 1;
      operations += 1;
      if ((operations & 0xfff) == 0 && seconds_since(last_progress) > 10) {
        last_progress = Clock::now();
        std::fprintf(stderr, "referee: %" PRIu64 " operations played (%s phase)\n", operations, p.name);
      }
    }
  }
  finish_phase(phases[current]);

  // ----------------------------------------------------------------------------------------
  Json j;
  j.begin_object();
  j.field("referee", "rocksdb");
  j.field("rocksdb_version", std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR) + "." + std::to_string(ROCKSDB_PATCH));
  j.field("options_file", options_path);
  j.field("db", db_path);
  j.field("block_cache_bytes", cache_in_use);
  j.field("block_cache", block_cache_bytes < 0 ? "as loaded from the OPTIONS file" : "--block-cache-bytes");
  j.field_bool("direct_reads", direct);
  j.field("direct_reads_mode", direct_mode);
  if (!direct) j.field("direct_reads_reason", direct_reason);
  j.field_bool("wal", wal);
  j.field_bool("sync_compactions", sync_compactions);
  j.field_bool("time_block_reads", time_block_reads);

  // The options as RocksDB opened them.
  {
    rocksdb::ConfigOptions out_config;
    std::string cf_string, table_string;
    rocksdb::GetStringFromColumnFamilyOptions(out_config, rocksdb::ColumnFamilyOptions(opened), &cf_string);
    auto cf_map = option_map(cf_string);
    if (opened.table_factory) opened.table_factory->GetOptionString(out_config, &table_string);
    auto table_map = option_map(table_string);
    auto text = [](const std::map<std::string, std::string>& m, const char* k) {
      auto it = m.find(k);
      return it == m.end() ? std::string("?") : it->second;
    };
    j.key("options").begin_object();
    j.field("write_buffer_size", static_cast<uint64_t>(opened.write_buffer_size));
    j.field("max_write_buffer_number", opened.max_write_buffer_number);
    j.field("min_write_buffer_number_to_merge", opened.min_write_buffer_number_to_merge);
    j.field("level0_file_num_compaction_trigger", opened.level0_file_num_compaction_trigger);
    j.field("level0_slowdown_writes_trigger", opened.level0_slowdown_writes_trigger);
    j.field("level0_stop_writes_trigger", opened.level0_stop_writes_trigger);
    j.field("max_bytes_for_level_base", opened.max_bytes_for_level_base);
    j.field_real("max_bytes_for_level_multiplier", opened.max_bytes_for_level_multiplier);
    j.key("max_bytes_for_level_multiplier_additional").begin_array(true);
    for (int m : opened.max_bytes_for_level_multiplier_additional) j.num(m);
    j.end_array();
    j.field_bool("level_compaction_dynamic_level_bytes", opened.level_compaction_dynamic_level_bytes);
    j.field("target_file_size_base", opened.target_file_size_base);
    j.field("target_file_size_multiplier", opened.target_file_size_multiplier);
    j.field("max_compaction_bytes", opened.max_compaction_bytes);
    j.field("num_levels", opened.num_levels);
    j.field("compaction_style", text(cf_map, "compaction_style"));
    j.field("compaction_pri", text(cf_map, "compaction_pri"));
    j.field("compression", text(cf_map, "compression"));
    j.field("bottommost_compression", text(cf_map, "bottommost_compression"));
    j.field_bool("disable_auto_compactions", opened.disable_auto_compactions);
    j.field_bool("optimize_filters_for_hits", opened.optimize_filters_for_hits);
    j.field("max_background_jobs", opened.max_background_jobs);
    j.field("max_background_compactions", opened.max_background_compactions);
    j.field("max_background_flushes", opened.max_background_flushes);
    j.field("max_subcompactions", static_cast<uint64_t>(opened.max_subcompactions));
    j.field("max_parallel_compactions", compaction_parallelism(opened));  // when RocksDB speeds compaction up; else 1
    j.field("max_open_files", opened.max_open_files);
    j.field("table_factory", opened.table_factory ? opened.table_factory->Name() : "none");
    if (opened_table != nullptr) {
      const auto& t = *opened_table;
      j.field("filter_policy", t.filter_policy ? t.filter_policy->Name() : "none");
      j.field_bool("filter_plugin", filter_plugin);
      j.field("filter_policy_id", t.filter_policy ? t.filter_policy->GetId() : "none");
      // Bits per key: 7.8 has no accessor; the policy's id carries it ("bloomfilter:10:false",
      // "ribbonfilter:10:-1" and the like), as the OPTIONS file writes it.
      const std::string id = text(table_map, "filter_policy");
      double bits = NAN;
      size_t colon = id.find(':');
      if (t.filter_policy && colon != std::string::npos) bits = std::strtod(id.c_str() + colon + 1, nullptr);
      j.key("bits_per_key");
      if (std::isfinite(bits)) j.real(bits); else j.null();
      j.field("filter_policy_option", id);
      j.field_bool("whole_key_filtering", t.whole_key_filtering);
      j.field("block_size", static_cast<uint64_t>(t.block_size));
      j.field_bool("no_block_cache", t.no_block_cache);
      j.field_bool("cache_index_and_filter_blocks", t.cache_index_and_filter_blocks);
      j.field_bool("pin_l0_filter_and_index_blocks_in_cache", t.pin_l0_filter_and_index_blocks_in_cache);
      j.field("index_type", text(table_map, "index_type"));
      j.field_bool("partition_filters", t.partition_filters);
      j.field("format_version", static_cast<uint64_t>(t.format_version));
    }
    j.field_bool("use_direct_reads", opened.use_direct_reads);
    j.field_bool("use_direct_io_for_flush_and_compaction", opened.use_direct_io_for_flush_and_compaction);
    j.end_object();
  }

  {
    std::lock_guard<std::mutex> lock(referee->mu);
    for (int pi = 0; pi < kPhases; ++pi) {
      const Phase& p = phases[pi];
      j.key(p.name);
      if (pi > current) {
        j.null();
        continue;
      }
      const PhaseEvents& e = referee->events[pi];
      j.begin_object();
      j.key("ops").begin_object(true);
      uint64_t total = 0;
      for (char t : std::string("IUDGMQS")) {
        j.field(std::string(1, t), p.ops[static_cast<unsigned char>(t)]);
        total += p.ops[static_cast<unsigned char>(t)];
      }
      j.field("total", total);
      j.end_object();
      j.field_real("seconds", p.seconds);
      j.field_real("settle_seconds", p.settle_seconds);
      j.field("waits_after_writes", p.settles);
      j.field_real("wait_seconds", p.settle_wait_seconds);

      j.key("writes").begin_object(true);
      j.field("key_bytes", p.key_bytes);
      j.field("value_bytes", p.value_bytes);
      p.writes.write(j, false, false);
      j.end_object();
      j.key("lookups").begin_object();
      j.key("existing").begin_object(true);
      p.existing.write(j, true, false);
      j.end_object();
      j.key("missing").begin_object(true);
      p.missing.write(j, true, false);
      j.end_object();
      j.key("unknown").begin_object(true);
      p.unknown.write(j, true, false);
      j.end_object();
      j.end_object();
      j.key("scans").begin_object(true);
      p.scans.write(j, false, true);
      j.end_object();

      j.key("memtable").begin_object(true);
      j.field("entries", p.memtable_entries);
      j.field("deletions", p.memtable_deletions);
      j.field("bytes", p.memtable_bytes);
      j.end_object();
      j.key("memory").begin_object(true);
      j.field("table_readers_bytes", p.table_readers_bytes);
      j.field("block_cache_usage", p.block_cache_usage);
      j.end_object();
      j.key("flush").begin_object(true);
      j.field("count", e.flushes);
      j.field("bytes", e.flush_bytes);
      j.field("entries", e.flush_entries);
      j.field("deletions", e.flush_deletions);
      j.end_object();

      uint64_t c_count = 0, c_moves = 0, c_in = 0, c_out = 0;
      for (const auto& [level, l] : e.compactions) {
        c_count += l.count;
        c_moves += l.trivial_moves;
        c_out += l.output_bytes;
        for (const auto& [from, b] : l.input_bytes) c_in += b;
      }
      j.key("compactions").begin_object();
      j.field("count", c_count);
      j.field("trivial_moves", c_moves);
      j.field("input_bytes", c_in);
      j.field("output_bytes", c_out);
      j.key("by_output_level").begin_array();
      for (const auto& [level, l] : e.compactions) {
        j.begin_object(true);
        j.field("level", level);
        j.field("count", l.count);
        j.field("trivial_moves", l.trivial_moves);
        j.field("moved_bytes", l.moved_bytes);
        j.key("input_bytes_by_level").begin_object();
        for (const auto& [from, b] : l.input_bytes) j.field(std::to_string(from), b);
        j.end_object();
        j.key("input_files_by_level").begin_object();
        for (const auto& [from, n] : l.input_files) j.field(std::to_string(from), n);
        j.end_object();
        j.field("output_bytes", l.output_bytes);
        j.field("output_files", l.output_files);
        j.field("input_records", l.input_records);
        j.field("output_records", l.output_records);
        j.key("reasons").begin_object();
        for (const auto& [why, n] : l.reasons) j.field(why, n);
        j.end_object();
        j.end_object();
      }
      j.end_array();
      j.end_object();

      auto ticker = [&](rocksdb::Tickers t) {
        for (size_t i = 0; i < rocksdb::TickersNameMap.size(); ++i) {
          if (rocksdb::TickersNameMap[i].first == t) return p.tickers_at_end[i] - p.tickers_at_start[i];
        }
        return uint64_t{0};
      };
      j.key("stalls").begin_object(true);
      j.field("count", e.stalls_delayed + e.stalls_stopped);
      j.field("delayed", e.stalls_delayed);
      j.field("stopped", e.stalls_stopped);
      j.field("stall_micros", ticker(rocksdb::STALL_MICROS));
      j.end_object();

      j.key("tickers").begin_object();
      for (size_t i = 0; i < rocksdb::TickersNameMap.size(); ++i) {
        const uint64_t delta = p.tickers_at_end[i] - p.tickers_at_start[i];
        if (delta != 0 || key_tickers().count(rocksdb::TickersNameMap[i].first)) j.field(rocksdb::TickersNameMap[i].second, delta);
      }
      j.end_object();

      j.key("cfstats").begin_object();
      for (const auto& [k, v] : p.cfstats) {
        char* endp = nullptr;
        double d = std::strtod(v.c_str(), &endp);
        if (!v.empty() && endp != nullptr && *endp == '\0') j.key(k).real(d); else j.field(k, v);
      }
      j.end_object();
      j.field("levelstats", p.levelstats);
      j.end_object();
    }
    j.key("trivial_moves_seen").begin_object(true);
    j.field("compaction_notifications", referee->compaction_notifications);
    j.field("by_file_numbers", referee->trivial_moves_by_file_numbers);
    j.end_object();
  }
  j.key("tree_after_load").raw(phases[0].tree);
  j.key("tree_after_run");
  if (current >= 1) j.raw(phases[1].tree); else j.null();
  if (referee->declined_waits > 0) {
    notes.push_back(std::to_string(referee->declined_waits) +
                    " waits ended with rocksdb.compaction-pending at 1 and nothing running for 0.5 s: RocksDB's "
                    "picker declined what its score asked for, and the driver went on");
  }
  j.key("notes").begin_array();
  for (const auto& n : notes) j.str(n);
  j.end_array();
  j.end_object();
  j.out += '\n';
  std::fwrite(j.out.data(), 1, j.out.size(), stdout);
  std::fflush(stdout);
  {
    std::lock_guard<std::mutex> lock(referee->mu);
    const PhaseEvents& e = referee->events[current];
    uint64_t written = e.flush_bytes;
    for (const auto& [level, l] : e.compactions) written += l.output_bytes;
    const std::string line = summary_line(phases[current], written);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  }

  // Closing flushes the memtable (the WAL is off), so the directory holds every write; the
  // JSON above was taken before, as the engine's report is.
  rocksdb::Status closed = db->Close();
  if (!closed.ok()) std::fprintf(stderr, "referee: closing RocksDB: %s\n", closed.ToString().c_str());
  return 0;
}

}  // namespace
