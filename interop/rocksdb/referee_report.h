// The JSON document the referee prints: what it was asked, the options as RocksDB opened them,
// each phase's counters and events, the trees after each phase, and the notes. Written with the
// JSON writer (referee_json.h).
#pragma once

#include <string>
#include <vector>

#include "referee_counters.h"
#include "referee_listener.h"
#include "referee_setup.h"
#include "rocksdb/db.h"

namespace referee {

// The boundary between the load and the run, as the process model crossed it: the restart's
// Close and Open (seconds; 0 with --between continue), the run's reading into memory before its
// clock (--threads > 1), and the tree and background work as the run began.
struct Boundary {
  double close_seconds = 0, open_seconds = 0, run_buffer_seconds = 0;
  std::vector<uint64_t> files_by_level;
  uint64_t running_compactions = 0, running_flushes = 0, compaction_pending = 0, immutable_memtables = 0;
  uint64_t block_cache_usage = 0;
  // The run's tree sampled as it goes (one client only: --threads 1), every `kRunSampleEvery`
  // operations: how level 0 evolves while background work runs, and the blocks read so far,
  // so each stretch's blocks per operation can be set beside the level-0 files it met.
  struct Sample {
    uint64_t ops = 0;
    double seconds = 0;
    uint64_t level0_files = 0, running_compactions = 0, running_flushes = 0, block_reads = 0;
  };
  std::vector<Sample> run_samples;
};

// Operations of the run between two samples of `Boundary::run_samples`.
constexpr uint64_t kRunSampleEvery = 1000;

// The tree as RocksDB holds it: every live table file per level, with its key range and entries.
std::string tree_json(rocksdb::DB* db, int num_levels, int indent_depth);

// The whole document, newline-terminated. Adds the note on declined waits, if any, to `notes`.
std::string report_json(const Args& args, const Opened& db, const rocksdb::Options& opened, const Phase (&phases)[kPhases],
                        int current, const Boundary& boundary, Referee& referee, std::vector<std::string>& notes);

}  // namespace referee
