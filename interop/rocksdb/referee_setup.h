// The setup: the driver's flags, the OPTIONS file as RocksDB's own loader reads it (with the
// block cache and the filter plugin the flags set), and the database they open (with direct reads
// where the filesystem takes them). Every refusal here is a usage error (exit 2) naming the flag.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"

namespace referee {

// The driver's flags (referee.cc's header lists them).
struct Args {
  bool help = false;  // --help: the usage line was printed, nothing else is done
  std::string db_path, options_path;
  int64_t block_cache_bytes = -1;  // -1: as the OPTIONS file leaves it
  std::string direct_mode = "auto";
  // Background flushes and compactions, as users run RocksDB; --sync-compactions on is the lab
  // mode (referee.cc's header says what it does and who needs it).
  bool wal = false, sync_compactions = false, time_block_reads = false, filter_plugin = false;
  // The process model between the load and the run: true (--between restart, the default) closes
  // the database at the run marker and opens it again with the same OPTIONS, as a finishing YCSB
  // load or db_bench process and the next one do; false (continue) plays on in the same process.
  bool restart = true;
  int threads = 1;  // --threads: client threads playing the run phase
};

// The flags, checked: the database directory must be absent or empty.
Args parse_args(int argc, char** argv);

// The OPTIONS file's DB options and its default column family's, as the flags amend them.
struct Loaded {
  rocksdb::DBOptions db_options;
  rocksdb::ColumnFamilyOptions cf_options;
};

Loaded load_options(const Args& args, std::vector<std::string>& notes);

// The database opened, and whether its reads are direct (and why not, when not).
struct Opened {
  rocksdb::DB* db = nullptr;
  bool direct = false;
  std::string direct_reason;
};

// Creates the directory and opens the database with the listener and the statistics.
Opened open_db(const Args& args, const Loaded& loaded, std::shared_ptr<rocksdb::EventListener> listener,
               std::shared_ptr<rocksdb::Statistics> statistics);

// Opens the database the load left (--between restart): the same options, a block cache and a
// filter policy made afresh from the OPTIONS file and the flags (`loaded`, loaded again), new
// statistics, and the direct-read choice the first open made.
rocksdb::DB* reopen_db(const Args& args, const Loaded& loaded, bool direct, std::shared_ptr<rocksdb::EventListener> listener,
                       std::shared_ptr<rocksdb::Statistics> statistics);

// How many compactions RocksDB may run at once (7.8's DBImpl::GetBGJobLimits for these options):
// a quarter of max_background_jobs flush and the rest compact, unless the older per-kind limits
// are set. RocksDB uses more than one only when it judges compaction behind (the write
// controller's "speed up compaction": level 0 at `compaction_speedup_l0_files`, or the pending
// compaction bytes at a quarter of soft_pending_compaction_bytes_limit).
int compaction_parallelism(const rocksdb::DBOptions& o);

// Level 0's file count at which RocksDB speeds compaction up (7.8's
// GetL0ThresholdSpeedupCompaction): twice the trigger, or a quarter of the way from the trigger
// to the slowdown trigger, whichever is less.
int64_t compaction_speedup_l0_files(const rocksdb::ColumnFamilyOptions& o);

}  // namespace referee
