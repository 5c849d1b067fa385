// Write amplification of a real LevelDB (Debian's libleveldb, 1.23) under an insert stream.
//
// Reads fixed-size keys from stdin (the engine's own key stream, `lsm keys`), puts each with a
// value of --value-bytes, and counts what LevelDB writes, by where it goes:
//   - flushes: memtable -> table (every version the memtable held: LevelDB's flush does not
//     drop overwritten versions, its merges do; the distinct keys are counted too);
//   - compactions: entries and bytes of every table a compaction from level l generates
//     (destination l+1), and trivial moves (a file re-linked without a rewrite);
//   - the write-ahead log's bytes.
// LevelDB reports compactions to its info log ("Generated table #N@l: K keys, B bytes",
// "Level-0 table #N: B bytes", "Moved #N to level-l"); a Logger here parses those lines as they
// are written, so the counts are LevelDB's own. Memtable switches are seen through the Env: each
// switch opens a new log file.
//
// --checkpoint flush records the counters at every memtable switch instead (with synchronous
// compaction, once the flush and its compactions are done), so windows hold whole flush cycles.
//
// --compaction synchronous (the default) waits after every memtable switch until LevelDB has
// flushed it and no level scores >= 1 (its own rule: level 0 by files / 4, level l by bytes /
// (10 MiB x 10^(l-1))), so the background thread never falls behind and the result does not
// depend on the machine's speed: the regime the MSLS model describes. --compaction free lets
// LevelDB run as it does in production (level 0 may pile up to its slowdown and stop triggers).
//
// Prints one JSON object: the settings, LevelDB's cadence (inserts per flush, table bytes per
// entry) and cumulative counters at every --checkpoint inserts.
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace {

constexpr int kLevels = 7;  // leveldb::config::kNumLevels

struct Counters {
  uint64_t flushes = 0;
  uint64_t flush_bytes = 0;
  // Entries the flushes wrote. LevelDB's flush (BuildTable) writes every version the memtable
  // holds, so this is the puts each flushed memtable took; its distinct keys are counted apart.
  uint64_t flush_entries = 0;
  uint64_t flush_distinct_keys = 0;
  uint64_t compactions[kLevels] = {};  // by source level
  uint64_t input_files[kLevels] = {};   // files taken from the source level
  uint64_t overlap_files[kLevels] = {}; // files of the level below merged with them
  uint64_t entries_into[kLevels] = {};  // compaction output entries, by destination level
  uint64_t bytes_into[kLevels] = {};
  uint64_t moves_into[kLevels] = {};
  uint64_t moved_bytes_into[kLevels] = {};
};

std::mutex counters_mutex;
Counters counters;
std::atomic<uint64_t> flushes_done{0};
std::atomic<uint64_t> last_flushed_table{0};

// LevelDB's info log, parsed line by line.
class CountingLogger : public leveldb::Logger {
 public:
  void Logv(const char* format, va_list ap) override {
    char line[1024];
    vsnprintf(line, sizeof line, format, ap);
    if (getenv("WRITE_AMP_DUMP")) fprintf(stderr, "%s\n", line);
    unsigned long long number = 0;
    long long keys = 0, bytes = 0;
    int level = 0, count0 = 0, count1 = 0, level1 = 0;
    char status[64] = {0};
    std::lock_guard<std::mutex> lock(counters_mutex);
    if (sscanf(line, "Generated table #%llu@%d: %lld keys, %lld bytes", &number, &level, &keys, &bytes) == 4) {
      if (level + 1 < kLevels) {
        counters.entries_into[level + 1] += keys;
        counters.bytes_into[level + 1] += bytes;
      }
    } else if (sscanf(line, "Level-0 table #%llu: %lld bytes %63s", &number, &bytes, status) == 3) {
      counters.flushes += 1;
      counters.flush_bytes += bytes;
      last_flushed_table.store(number);
      flushes_done.fetch_add(1);
    } else if (sscanf(line, "Moved #%llu to level-%d %lld bytes", &number, &level, &bytes) == 3) {
      if (level < kLevels) {
        counters.moves_into[level] += 1;
        counters.moved_bytes_into[level] += bytes;
      }
    } else if (sscanf(line, "Compacting %d@%d + %d@%d files", &count0, &level, &count1, &level1) == 4) {
      if (level < kLevels) {
        counters.compactions[level] += 1;
        counters.input_files[level] += count0;
        counters.overlap_files[level] += count1;
      }
    }
  }
};

// Counts memtable switches (a new log file) and the log's bytes.
std::atomic<uint64_t> log_files_opened{0};
std::atomic<uint64_t> log_bytes{0};

class CountingLogFile : public leveldb::WritableFile {
 public:
  explicit CountingLogFile(leveldb::WritableFile* inner) : inner_(inner) {}
  ~CountingLogFile() override { delete inner_; }
  leveldb::Status Append(const leveldb::Slice& data) override {
    log_bytes.fetch_add(data.size());
    return inner_->Append(data);
  }
  leveldb::Status Close() override { return inner_->Close(); }
  leveldb::Status Flush() override { return inner_->Flush(); }
  leveldb::Status Sync() override { return inner_->Sync(); }

 private:
  leveldb::WritableFile* inner_;
};

class CountingEnv : public leveldb::EnvWrapper {
 public:
  explicit CountingEnv(leveldb::Env* base) : leveldb::EnvWrapper(base) {}
  leveldb::Status NewWritableFile(const std::string& name, leveldb::WritableFile** result) override {
    leveldb::Status s = target()->NewWritableFile(name, result);
    if (s.ok() && name.size() > 4 && name.compare(name.size() - 4, 4, ".log") == 0) {
      log_files_opened.fetch_add(1);
      *result = new CountingLogFile(*result);
    }
    return s;
  }
};

// Whether LevelDB still has work to do, from the installed version ("leveldb.sstables"): the
// last flushed table is not installed yet (its number is above every table's; files made later
// come from compactions that start after it), or a level still scores >= 1 by LevelDB's rule.
bool compaction_pending(leveldb::DB* db) {
  std::string tables;
  if (!db->GetProperty("leveldb.sstables", &tables)) return true;
  uint64_t files[kLevels] = {}, bytes[kLevels] = {}, newest = 0;
  int level = -1;
  size_t pos = 0;
  while (pos < tables.size()) {
    size_t end = tables.find('\n', pos);
    if (end == std::string::npos) end = tables.size();
    std::string line = tables.substr(pos, end - pos);
    pos = end + 1;
    int l;
    unsigned long long number, size;
    if (sscanf(line.c_str(), "--- level %d ---", &l) == 1) {
      level = l;
    } else if (level >= 0 && level < kLevels && sscanf(line.c_str(), " %llu:%llu[", &number, &size) == 2) {
      files[level] += 1;
      bytes[level] += size;
      if (number > newest) newest = number;
    }
  }
  if (newest < last_flushed_table.load()) return true;
  if (files[0] >= 4) return true;  // config::kL0_CompactionTrigger
  double max_bytes = 10.0 * 1048576.0;
  for (int l = 1; l < kLevels - 1; l++) {
    if (static_cast<double>(bytes[l]) >= max_bytes) return true;
    max_bytes *= 10;
  }
  return false;
}

[[noreturn]] void fail(const std::string& message) {
  fprintf(stderr, "write_amp: %s\n", message.c_str());
  exit(2);
}

uint64_t number_arg(const char* name, const char* value, uint64_t lo, uint64_t hi) {
  char* end = nullptr;
  unsigned long long v = strtoull(value, &end, 10);
  if (end == value || *end != '\0' || v < lo || v > hi) {
    fail(std::string(name) + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
         "], got \"" + value + "\"");
  }
  return v;
}

void print_checkpoint(uint64_t inserts, bool first) {
  Counters c;
  {
    std::lock_guard<std::mutex> lock(counters_mutex);
    c = counters;
  }
  printf("%s\n    {\"inserts\": %" PRIu64 ", \"flushes\": %" PRIu64 ", \"flush_entries\": %" PRIu64
         ", \"flush_distinct_keys\": %" PRIu64 ", \"flush_bytes\": %" PRIu64 ", \"log_bytes\": %" PRIu64,
         first ? "" : ",", inserts, c.flushes, c.flush_entries, c.flush_distinct_keys, c.flush_bytes, log_bytes.load());
  auto array = [](const char* name, const uint64_t* v) {
    printf(", \"%s\": [", name);
    for (int l = 0; l < kLevels; l++) printf("%s%" PRIu64, l ? ", " : "", v[l]);
    printf("]");
  };
  array("entries_into", c.entries_into);
  array("bytes_into", c.bytes_into);
  array("moves_into", c.moves_into);
  array("moved_bytes_into", c.moved_bytes_into);
  array("compactions", c.compactions);
  array("input_files", c.input_files);
  array("overlap_files", c.overlap_files);
  printf("}");
}

}  // namespace

// LevelDB's own per-level accounting, "leveldb.stats": the Write(MB) column (bytes its flushes and
// merges wrote into each level, rounded to whole MB), as a JSON list — a cross-check of the info-log
// counts, which give entries and every checkpoint where this gives only the end.
static std::string stats_write_mb(leveldb::DB* db) {
  std::string stats;
  if (!db->GetProperty("leveldb.stats", &stats)) return "";
  std::istringstream lines(stats);
  std::string line, out;
  bool table = false;
  while (std::getline(lines, line)) {
    if (line.rfind("-----", 0) == 0) {
      table = true;
      continue;
    }
    if (!table) continue;
    std::istringstream row(line);
    int level = 0, files = 0;
    double size = 0, time = 0, read = 0, write = 0;
    if (!(row >> level >> files >> size >> time >> read >> write)) continue;
    if (!out.empty()) out += ", ";
    out += "[" + std::to_string(level) + ", " + std::to_string(static_cast<int64_t>(write)) + "]";
  }
  return out;
}

int main(int argc, char** argv) {
  std::string db_path;
  uint64_t key_bytes = 16, value_bytes = 100, checkpoint = 100000;
  bool checkpoint_at_flush = false;
  uint64_t write_buffer = 4 << 20, max_file = 2 << 20;
  bool synchronous = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    const char* v = argv[i + 1];
    if (flag == "--db") db_path = v;
    else if (flag == "--key-bytes") key_bytes = number_arg("--key-bytes", v, 8, 1024);
    else if (flag == "--value-bytes") value_bytes = number_arg("--value-bytes", v, 0, 60000);
    else if (flag == "--checkpoint" && std::string(v) == "flush") {
      checkpoint_at_flush = true;
      checkpoint = 1ull << 40;
    } else if (flag == "--checkpoint") checkpoint = number_arg("--checkpoint", v, 1, 1ull << 40);
    else if (flag == "--write-buffer-bytes") write_buffer = number_arg("--write-buffer-bytes", v, 64 << 10, 1ull << 32);
    else if (flag == "--max-file-bytes") max_file = number_arg("--max-file-bytes", v, 64 << 10, 1ull << 32);
    else if (flag == "--compaction") {
      if (std::string(v) == "synchronous") synchronous = true;
      else if (std::string(v) == "free") synchronous = false;
      else fail(std::string("--compaction must be synchronous or free, got \"") + v + "\"");
    } else fail("unknown flag " + flag);
  }
  if ((argc - 1) % 2 != 0) fail("every flag takes a value");
  if (db_path.empty()) fail("--db DIR is required");

  CountingEnv env(leveldb::Env::Default());
  CountingLogger logger;
  leveldb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.env = &env;
  options.info_log = &logger;
  options.compression = leveldb::kNoCompression;
  options.write_buffer_size = write_buffer;
  options.max_file_size = max_file;
  leveldb::DB* db = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, db_path, &db);
  if (!s.ok()) fail("cannot open " + db_path + ": " + s.ToString());
  const uint64_t opened_logs = log_files_opened.load();

  leveldb::WriteOptions write;  // no sync, as the MSLS measurements ran
  std::string key(key_bytes, '\0'), value(value_bytes, 'v');
  std::unordered_set<std::string> in_memtable;
  uint64_t inserts = 0, switches_seen = 0, inserts_at_switch = 0, cadence_sum = 0;
  printf("{\"leveldb\": \"%d.%d\", \"key_bytes\": %" PRIu64 ", \"value_bytes\": %" PRIu64
         ", \"write_buffer_bytes\": %" PRIu64 ", \"max_file_bytes\": %" PRIu64
         ", \"compaction\": \"%s\", \"compression\": \"none\", \"sync\": false,\n  \"checkpoints\": [",
         leveldb::kMajorVersion, leveldb::kMinorVersion, key_bytes, value_bytes, write_buffer, max_file,
         synchronous ? "synchronous" : "free");
  print_checkpoint(0, true);
  while (fread(&key[0], 1, key_bytes, stdin) == key_bytes) {
    // Values differ per put (the version number), as the engine's do; no compression either way.
    char stamp[17];
    snprintf(stamp, sizeof stamp, "%016" PRIx64, inserts);
    memcpy(&value[0], stamp, value_bytes < 16 ? value_bytes : 16);
    s = db->Put(write, key, value);
    if (!s.ok()) fail("put failed: " + s.ToString());
    inserts += 1;
    const uint64_t switches = log_files_opened.load() - opened_logs;
    if (switches != switches_seen) {
      // The memtable switched inside this put, before the key went into the new memtable: the
      // flushed one held the distinct keys put since the previous switch.
      {
        std::lock_guard<std::mutex> lock(counters_mutex);
        counters.flush_entries += inserts - 1 - inserts_at_switch;
        counters.flush_distinct_keys += in_memtable.size();
      }
      cadence_sum += inserts - 1 - inserts_at_switch;
      inserts_at_switch = inserts - 1;
      switches_seen = switches;
      in_memtable.clear();
      if (synchronous) {
        while (flushes_done.load() < switches || compaction_pending(db)) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
      }
      // At the switch, before this put: the same point as the engine's flush checkpoints.
      if (checkpoint_at_flush) print_checkpoint(inserts - 1, false);
    }
    in_memtable.insert(key);
    if (inserts % checkpoint == 0) print_checkpoint(inserts, false);
  }
  if (inserts % checkpoint != 0) print_checkpoint(inserts, false);
  printf("\n  ],\n  \"inserts\": %" PRIu64 ", \"memtable_switches\": %" PRIu64
         ", \"inserts_per_flush\": %.3f,\n  \"stats_write_mb\": [%s]}\n",
         inserts, switches_seen, switches_seen ? static_cast<double>(cadence_sum) / switches_seen : 0.0,
         stats_write_mb(db).c_str());
  if (getenv("WRITE_AMP_DUMP")) {
    std::string tables;
    db->GetProperty("leveldb.sstables", &tables);
    fprintf(stderr, "%s", tables.c_str());
  }
  delete db;
  return 0;
}
