// The RocksDB referee: the engine's own operation stream (`lsm ops`) played on a real RocksDB
// (Debian's librocksdb 7.8), with what RocksDB did counted the way the engine counts it.
//
//   lsm ops --workload W | referee --db DIR --options OPTIONS_FILE [--block-cache-bytes N]
//       [--direct-reads auto|on|off] [--wal on|off] [--sync-compactions on|off] [--between restart|continue]
//       [--threads N] [--time-block-reads on|off] [--filter-plugin on|off]
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
// How RocksDB is played (the process model; the JSON's `process` says which was used):
// - Background flushes and compactions (--sync-compactions off, the default), as users run
//   RocksDB: the tree a lookup meets depends on how far background work has come, so the same
//   stream can read different blocks run to run; repeats measure that spread.
// - --between restart (the default): at the run marker the load's database is closed without
//   waiting for its background work, as a finishing YCSB load or db_bench process closes it
//   (Close flushes the memtable when the WAL is off; with --wal on the reopen replays the WAL
//   and writes it to level 0), then opened again with the same OPTIONS file: a cold block cache,
//   new statistics, table readers opened afresh. What Close and Open did is the `between`
//   object's; the run's counters are the run's only. --between continue plays the run in the
//   same process, on the load's memtable and warm cache.
// - --threads N (default 1, YCSB's threadcount): the run's operations are read into memory
//   before the run's clock starts and dealt out, operation i of the run to thread i mod N, each
//   thread playing its share in stream order; each thread's perf context (thread-local in
//   RocksDB) is summed per class; the run's seconds and ops/s are the whole run's wall time.
//   With one thread the run is played as it is read (the stream's decoding in the wall time).
// - The lab mode, --sync-compactions on (with --between continue): the engine the twin compares
//   with runs every flush and every merge to completion before the next write, so its tree after
//   N writes depends only on the writes. After every write that sealed a memtable the driver
//   waits until no flush or compaction is running or pending; RocksDB still chooses every
//   compaction itself (its picker, its priorities), the driver only makes each finish before the
//   next write. It plays one client (--threads 1). twin.mjs and the tests that compare trees
//   file by file use it; it is not how RocksDB runs for its users.
//
// Exit status: 0 on success, 2 for invalid arguments (the message names the flag and what it
// takes), 1 for anything that fails while running (the stream, RocksDB).
//
// The parts: the stream's decoder (referee_stream), the event listener and the wait for background
// work (referee_listener), the per-operation counters and a phase's record (referee_counters), the
// JSON writer (referee_json) and the document written with it (referee_report), the flags, the
// OPTIONS file and the database they open (referee_setup), and what every part shares
// (referee_common). Build them together (referee.mjs, the tune bundle's compare.sh):
//   g++ -std=c++17 -O2 referee.cc referee_*.cc -o referee -lrocksdb -lpthread
#include <sys/mman.h>
#include <pthread.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "referee_common.h"
#include "referee_counters.h"
#include "referee_listener.h"
#include "referee_report.h"
#include "referee_setup.h"
#include "referee_stream.h"
#include "rocksdb/db.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/statistics.h"

using namespace referee;

namespace {

// What the notes say of how the driver played: waits, stack, WAL, and how RocksDB 7.8's counters
// are read.
void note_settings(const Args& args, const rocksdb::Options& opened, bool fixed_stack, std::vector<std::string>& notes) {
  if (opened.disable_auto_compactions) {
    notes.push_back("disable_auto_compactions is set: the driver waits for flushes only (RocksDB will not compact)");
  }
  if (args.sync_compactions) {
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
    notes.push_back("sync-compactions off: RocksDB flushed and compacted in the background as its users run it; the trees "
                    "and counts depend on the machine's speed (the driver waited for background work only at the run's end)");
  }
  if (!fixed_stack) {
    notes.push_back("the playing thread's stack could not be placed at its fixed address, so RocksDB's memtable skiplist "
                    "heights (seeded by the thread's address) differ between runs: flush points and trees may too");
  }
  if (!args.wal) notes.push_back("WAL off (WriteOptions.disableWAL): the engine keeps no log either; flush and compaction bytes do not depend on it");
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
}

bool is_write(int tag) { return tag == 'I' || tag == 'U' || tag == 'D'; }

// One record's fields after its tag: the key (a scan's start) and the value (a scan's end; empty
// for deletes and lookups). Both slices point into the stream's buffer until the next record.
struct Record {
  rocksdb::Slice first, second;
};

Record read_record(Stream& in, int tag, uint64_t at) {
  switch (tag) {
    case 'I':
    case 'U': {
      const Stream::Field key = in.field("key");
      const Stream::Field value = in.field("value");
      return {in.slice(key), in.slice(value)};
    }
    case 'D':
    case 'G':
    case 'M':
    case 'Q':
      return {in.slice(in.field("key")), rocksdb::Slice()};
    case 'S': {
      const Stream::Field start = in.field("scan start");
      const Stream::Field end = in.field("scan end");
      return {in.slice(start), in.slice(end)};
    }
    default: {
      char buf[8];
      std::snprintf(buf, sizeof buf, tag >= 0x20 && tag < 0x7f ? "'%c'" : "0x%02x", tag);
      fail(std::string("stream: unknown tag ") + buf + " at byte " + std::to_string(at));
    }
  }
}

// One client's RocksDB calls: an operation played and counted into the client's sums. The perf
// context is the calling thread's, reset before each call.
struct Client {
  rocksdb::DB* db;
  rocksdb::WriteOptions write_options;
  rocksdb::ReadOptions read_options;
  rocksdb::PinnableSlice got;

  Client(rocksdb::DB* d, bool wal) : db(d) { write_options.disableWAL = !wal; }

  void execute(int tag, const Record& r, OpSums& s) {
    s.ops[tag] += 1;
    reset_perf();
    switch (tag) {
      case 'I':
      case 'U':
      case 'D': {
        const auto t0 = Clock::now();
        if (tag == 'D') {
          check(db->Delete(write_options, r.first), "Delete");
        } else {
          check(db->Put(write_options, r.first, r.second), "Put");
          s.value_bytes += r.second.size();
        }
        s.writes.latency.add(nanos_since(t0));
        s.writes.add_current();
        s.key_bytes += r.first.size();
        break;
      }
      case 'G':
      case 'M':
      case 'Q': {
        got.Reset();
        const auto t0 = Clock::now();
        rocksdb::Status st = db->Get(read_options, db->DefaultColumnFamily(), r.first, &got);
        const uint64_t ns = nanos_since(t0);
        if (!st.ok() && !st.IsNotFound()) fail("Get: " + st.ToString());
        PerfSums& sums = tag == 'G' ? s.existing : tag == 'M' ? s.missing : s.unknown;
        sums.latency.add(ns);
        sums.add_current();
        if (st.ok()) sums.found += 1;
        break;
      }
      case 'S': {
        const auto t0 = Clock::now();
        std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read_options));
        uint64_t keys = 0;
        for (it->Seek(r.first); it->Valid() && it->key().compare(r.second) <= 0; it->Next()) keys += 1;
        check(it->status(), "scan");
        it.reset();
        s.scans.latency.add(nanos_since(t0));
        s.scans.add_current();
        s.scans.keys += keys;
        break;
      }
      default:
        fail("internal: execute got tag " + std::to_string(tag));
    }
  }
};

// The tree and the background work as the run begins (after the restart, if any).
void run_start_of(rocksdb::DB* db, int num_levels, Boundary& r) {
  r.files_by_level.assign(std::max(num_levels, 1), 0);
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  for (const auto& f : files) {
    if (f.level >= static_cast<int>(r.files_by_level.size())) r.files_by_level.resize(f.level + 1, 0);
    r.files_by_level[f.level] += 1;
  }
  r.running_compactions = int_property(db, "rocksdb.num-running-compactions");
  r.running_flushes = int_property(db, "rocksdb.num-running-flushes");
  r.compaction_pending = int_property(db, "rocksdb.compaction-pending");
  r.immutable_memtables = int_property(db, "rocksdb.num-immutable-mem-table");
  uint64_t usage = 0;
  r.block_cache_usage = db->GetIntProperty("rocksdb.block-cache-usage", &usage) ? usage : 0;
}

// The stream played on the database: each record's RocksDB call, counted into its phase; at the
// run marker, the process model's boundary (a restart, or nothing), and the run played by one
// client as it is read or by --threads clients from memory.
struct Player {
  std::unique_ptr<rocksdb::DB> db;
  std::shared_ptr<rocksdb::Statistics> statistics;
  std::shared_ptr<rocksdb::EventListener> listener;
  const Args& args;
  bool direct;
  Quiet& quiet;
  Referee& referee;
  int num_levels;
  rocksdb::PerfLevel perf_level;
  Phase phases[kPhases] = {Phase("load"), Phase("run")};
  int current = 0;
  Clock::time_point phase_started{};
  Boundary boundary;  // the restart's time, the run's reading into memory, the tree as the run began

  // Takes what the phase's end shows: tickers, stats, the tree; first waits for background work
  // when `wait` (the run's end, and the load's end in the lab mode).
  void finish_phase(Phase& p, bool wait) {
    p.seconds = seconds_since(phase_started);
    if (wait) {
      auto t0 = Clock::now();
      settle(quiet, referee);
      p.settle_seconds = seconds_since(t0);
    }
    rocksdb::DB* d = db.get();
    p.tickers_at_end = ticker_snapshot(*statistics);
    d->GetMapProperty(rocksdb::DB::Properties::kCFStats, &p.cfstats);
    d->GetProperty(rocksdb::DB::Properties::kLevelStats, &p.levelstats);
    p.tree = tree_json(d, num_levels, 1);
    p.memtable_entries = int_property(d, "rocksdb.num-entries-active-mem-table") + int_property(d, "rocksdb.num-entries-imm-mem-tables");
    p.memtable_deletions = int_property(d, "rocksdb.num-deletes-active-mem-table") + int_property(d, "rocksdb.num-deletes-imm-mem-tables");
    p.memtable_bytes = int_property(d, "rocksdb.cur-size-all-mem-tables");
    p.table_readers_bytes = int_property(d, "rocksdb.estimate-table-readers-mem");
    uint64_t usage = 0;
    p.block_cache_usage = d->GetIntProperty("rocksdb.block-cache-usage", &usage) ? usage : 0;
    std::fprintf(stderr, "referee: %s phase: %" PRIu64 " operations in %.1f s (+%.1f s settling)\n", p.name,
                 [&] { uint64_t n = 0; for (uint64_t c : p.ops) n += c; return n; }(), p.seconds, p.settle_seconds);
  }

  // --between restart: the load's process ends (Close, without waiting for background work: a
  // compaction in flight is abandoned) and the run's begins (Open with the OPTIONS file loaded
  // again: a new block cache, new statistics). What Close does (its flush of the memtable when
  // the WAL is off, compactions finished or abandoned) is the `between` bucket's; from Open on,
  // everything is the run's, as the run's process sees it: its statistics start at zero at Open
  // (so does rocksdb.cfstats), and with --wal on the WAL's replay at Open is the run's too.
  void restart() {
    referee.phase.store(kBetween);
    const auto t0 = Clock::now();
    rocksdb::Status closed = db->Close();
    if (!closed.ok() && !closed.IsShutdownInProgress()) fail("closing RocksDB at the run marker (--between restart): " + closed.ToString());
    db.reset();
    boundary.close_seconds = seconds_since(t0);
    std::vector<std::string> reload_notes;  // the first load said them already
    const Loaded again = load_options(args, reload_notes);
    statistics = rocksdb::CreateDBStatistics();
    phases[1].tickers_at_start = ticker_snapshot(*statistics);  // zeros: a new process's statistics
    referee.phase.store(1);
    const auto t1 = Clock::now();
    db.reset(reopen_db(args, again, direct, listener, statistics));
    boundary.open_seconds = seconds_since(t1);
    quiet.db = db.get();
    std::fprintf(stderr, "referee: closed (%.2f s) and reopened (%.2f s) RocksDB between the load and the run\n", boundary.close_seconds, boundary.open_seconds);
  }

  // One row of `run_samples`: the run so far (operations, seconds, blocks read) and level 0 now.
  void sample_run(const Phase& p) {
    Boundary::Sample s;
    s.ops = p.count_ops();
    s.seconds = seconds_since(phase_started);
    rocksdb::DB* d = db.get();
    std::string l0;  // a string property in 7.8 (GetIntProperty does not know it)
    s.level0_files = d->GetProperty("rocksdb.num-files-at-level0", &l0) ? std::strtoull(l0.c_str(), nullptr, 10) : 0;
    s.running_compactions = int_property(d, "rocksdb.num-running-compactions");
    s.running_flushes = int_property(d, "rocksdb.num-running-flushes");
    for (const PerfSums* c : {&p.writes, &p.existing, &p.missing, &p.unknown, &p.scans}) s.block_reads += c->block_reads;
    boundary.run_samples.push_back(s);
  }

  // The run marker: the load finished, the boundary crossed, the run's counters started.
  void begin_run() {
    finish_phase(phases[0], args.sync_compactions);
    if (args.restart) {
      restart();
    } else {
      phases[1].tickers_at_start = phases[0].tickers_at_end;
    }
    current = 1;
    referee.phase.store(1);
    phases[1].seen = true;
    run_start_of(db.get(), num_levels, boundary);
    phase_started = Clock::now();
    sample_run(phases[1]);
  }

  // The rest of the stream (the run) read into memory, then played by args.threads clients:
  // operation i to thread i mod N, each thread in stream order. The run's clock starts once the
  // operations are in memory.
  void play_run_threads(Stream& in) {
    struct Op {
      int tag;
      std::string first, second;
    };
    const auto t0 = Clock::now();
    std::vector<Op> ops;
    for (;;) {
      const uint64_t at = in.position();
      const int tag = in.tag();
      if (tag < 0) break;
      if (tag == 'L') fail("stream: an 'L' marker at byte " + std::to_string(at) + " after the load phase began");
      if (tag == 'R') fail("stream: a second 'R' marker at byte " + std::to_string(at));
      const Record r = read_record(in, tag, at);
      ops.push_back(Op{tag, r.first.ToString(), r.second.ToString()});
      in.done();
    }
    boundary.run_buffer_seconds = seconds_since(t0);
    const int n = args.threads;
    std::vector<OpSums> sums(n);
    phase_started = Clock::now();
    std::vector<std::thread> clients;
    for (int t = 0; t < n; ++t) {
      clients.emplace_back([this, t, n, &ops, &sums] {
        rocksdb::SetPerfLevel(perf_level);  // thread-local in RocksDB, as the perf context is
        rocksdb::get_perf_context()->EnablePerLevelPerfContext();
        Client client(db.get(), args.wal);
        for (size_t i = t; i < ops.size(); i += n) client.execute(ops[i].tag, Record{ops[i].first, ops[i].second}, sums[t]);
      });
    }
    for (auto& c : clients) c.join();
    for (const OpSums& s : sums) phases[1].merge(s);
  }

  // Every record, to the end of the stream; then the last phase is finished.
  void play(Stream& in) {
    phases[0].tickers_at_start = ticker_snapshot(*statistics);
    phase_started = Clock::now();
    auto last_progress = Clock::now();
    uint64_t seen_sealed = referee.memtables_sealed.load();
    uint64_t seen_flushes = referee.flushes_begun.load();
    Client client(db.get(), args.wal);
    uint64_t operations = 0;
    for (;;) {
      const uint64_t at = in.position();
      const int tag = in.tag();
      if (tag < 0) break;
      if (tag == 'L') {
        if (current != 0 || phases[0].seen) fail("stream: an 'L' marker at byte " + std::to_string(at) + " after the load phase began");
        phases[0].seen = true;
        in.done();
        continue;
      }
      if (tag == 'R') {
        if (current != 0 || phases[1].seen) fail("stream: a second 'R' marker at byte " + std::to_string(at));
        in.done();
        begin_run();
        client.db = db.get();
        if (args.threads > 1) play_run_threads(in);
        continue;
      }
      Phase& p = phases[current];
      const Record r = read_record(in, tag, at);
      client.execute(tag, r, p);
      if (is_write(tag) && args.sync_compactions) {
        const uint64_t sealed = referee.memtables_sealed.load();
        const uint64_t flushes = referee.flushes_begun.load();
        if (sealed != seen_sealed || flushes != seen_flushes) {
          auto t0 = Clock::now();
          settle(quiet, referee);
          p.settles += 1;
          p.settle_wait_seconds += seconds_since(t0);
          seen_sealed = referee.memtables_sealed.load();
          seen_flushes = referee.flushes_begun.load();
        }
      }
      in.done();
      p.seen = true;
      operations += 1;
      if (current == 1 && (p.count_ops() % kRunSampleEvery) == 0) sample_run(p);
      if ((operations & 0xfff) == 0 && seconds_since(last_progress) > 10) {
        last_progress = Clock::now();
        std::fprintf(stderr, "referee: %" PRIu64 " operations played (%s phase)\n", operations, p.name);
      }
    }
    finish_phase(phases[current], true);
  }
};

int play(int argc, char** argv, bool fixed_stack) {
  const Args args = parse_args(argc, argv);
  if (args.help) return 0;
  std::vector<std::string> notes;
  const Loaded loaded = load_options(args, notes);

  // The stream's header, before anything is created: nothing is made for a stream that is not one.
  // REFEREE_READ_BUFFER_BYTES (a test's knob: a tiny buffer makes every record straddle a refill).
  size_t read_buffer = 16 << 20;
  if (const char* b = std::getenv("REFEREE_READ_BUFFER_BYTES"); b != nullptr && *b != '\0') read_buffer = std::strtoull(b, nullptr, 10);
  Stream in(stdin, read_buffer);
  read_header(in);

  Referee* referee = new Referee();
  std::shared_ptr<rocksdb::EventListener> listener(referee);
  std::shared_ptr<rocksdb::Statistics> statistics = rocksdb::CreateDBStatistics();
  const Opened opened_db = open_db(args, loaded, listener, statistics);
  const rocksdb::Options opened = opened_db.db->GetOptions();

  // Counts only (no timers): cheap enough to read around every operation. A calibration asks for
  // the block-read timers too: what a storage read costs RocksDB itself, alignment and decompression
  // included, is the price its predictions need. Per thread: the client threads set it again.
  const rocksdb::PerfLevel perf_level = args.time_block_reads ? rocksdb::PerfLevel::kEnableTimeExceptForMutex : rocksdb::PerfLevel::kEnableCount;
  rocksdb::SetPerfLevel(perf_level);
  rocksdb::get_perf_context()->EnablePerLevelPerfContext();

  Quiet quiet{opened_db.db, !opened.disable_auto_compactions};
  note_settings(args, opened, fixed_stack, notes);

  Player player{std::unique_ptr<rocksdb::DB>(opened_db.db), statistics, listener, args, opened_db.direct, quiet, *referee, opened.num_levels, perf_level};
  player.play(in);

  const std::string report = report_json(args, opened_db, opened, player.phases, player.current, player.boundary, *referee, notes);
  std::fwrite(report.data(), 1, report.size(), stdout);
  std::fflush(stdout);
  {
    std::lock_guard<std::mutex> lock(referee->mu);
    const PhaseEvents& e = referee->events[player.current];
    uint64_t written = e.flush_bytes;
    for (const auto& [level, l] : e.compactions) written += l.output_bytes;
    const std::string line = summary_line(player.phases[player.current], written);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  }

  // Closing flushes the memtable (the WAL is off), so the directory holds every write; the
  // JSON above was taken before, as the engine's report is.
  rocksdb::Status closed = player.db->Close();
  if (!closed.ok()) std::fprintf(stderr, "referee: closing RocksDB: %s\n", closed.ToString().c_str());
  return 0;
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

