// The listener: what RocksDB's background work did, as its EventListener reports it. Events are
// attributed to the phase in progress when they finish; the driver lets background work finish
// before it moves to the next phase, so no phase gets another's flushes or compactions. And the
// wait for that background work (`settle`), which the listener wakes.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"

namespace referee {

constexpr int kPhases = 2;  // load, run
// The listener's event buckets: the two phases, and the restart between them (--between
// restart: the load's DB closed and reopened; what Close and Open do is neither phase's).
constexpr int kBetween = 2;
constexpr int kEventBuckets = 3;

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
  // Compactions RocksDB abandoned because the database was closing (status ShutdownInProgress):
  // a finishing load process (--between restart) does not wait for its background work.
  uint64_t compactions_aborted = 0;
};

// RocksDB's name for a compaction reason, as its LOG writes it.
const char* reason_name(rocksdb::CompactionReason r);

class Referee : public rocksdb::EventListener {
 public:
  // Counters the writer thread polls without the lock.
  std::atomic<uint64_t> memtables_sealed{0};
  std::atomic<uint64_t> flushes_begun{0};
  std::atomic<uint64_t> compactions_begun{0};
  std::atomic<int> phase{0};

  std::mutex mu;
  std::condition_variable changed;  // a flush or a compaction finished
  PhaseEvents events[kEventBuckets];  // by phase, then kBetween
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

  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override;

  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo&) override;

  void OnCompactionBegin(rocksdb::DB*, const rocksdb::CompactionJobInfo&) override { compactions_begun.fetch_add(1); }

  void OnCompactionCompleted(rocksdb::DB*, const rocksdb::CompactionJobInfo& ci) override;

  void OnStallConditionsChanged(const rocksdb::WriteStallInfo& info) override;

  void OnBackgroundError(rocksdb::BackgroundErrorReason, rocksdb::Status* error) override;

 private:
  // "/db/000123.sst" -> 123.
  static uint64_t file_number(const std::string& path);

  // A trivial move re-links files into the output level without rewriting them: the output
  // files are the input files, by number. RocksDB 7.8 reports trivial moves through
  // OnCompactionBegin/OnCompactionCompleted like any compaction, with an empty job (no records,
  // no bytes) and no flag, so they are recognised by their file numbers.
  //
  // The input files' levels come from the driver's own record, not from CompactionFileInfo:
  // in 7.8 its `level` is the index of the input level within the compaction (0 for the start
  // level, 1 for the next), not the level (an L1 -> L2 compaction reports its L1 inputs at 0).
  void record_compaction(const rocksdb::CompactionJobInfo& ci);
};

// Is RocksDB still flushing or compacting, or about to? (Its own counters; all must be 0.)
struct Quiet {
  rocksdb::DB* db;
  bool auto_compactions;

  // The first property that is not 0, or nullptr.
  const char* busy() const;
};

// Waits until RocksDB has no flush or compaction running or pending. The listener wakes the
// wait when a job finishes; the short timeout covers the moment between a job's notification
// and RocksDB lowering its running count.
void settle(const Quiet& quiet, Referee& ref);

}  // namespace referee
