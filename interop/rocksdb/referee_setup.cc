#include "referee_setup.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "referee_common.h"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"

#ifdef LSM_NAVIGATOR_POLICY
#include "policy.h"  // lsm_navigator::NewPerLevelBloomPolicy (lsm export --format rocksdb-cpp)
#endif

namespace referee {

Args parse_args(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::printf("referee --db DIR --options OPTIONS_FILE [--block-cache-bytes N] [--direct-reads auto|on|off] "
                  "[--wal on|off] [--sync-compactions on|off] [--between restart|continue] [--threads N] [--time-block-reads on|off] "
                  "[--filter-plugin on|off] < LSMOPS1 stream\n");
      args.help = true;
      return args;
    }
    if (i + 1 >= argc) usage_error(flag + " takes a value");
    const char* v = argv[++i];
    if (flag == "--db") {
      args.db_path = v;
    } else if (flag == "--options") {
      args.options_path = v;
    } else if (flag == "--block-cache-bytes") {
      char* end = nullptr;
      errno = 0;
      unsigned long long n = std::strtoull(v, &end, 10);
      if (end == v || *end != '\0' || errno != 0 || v[0] == '-' || n > (1ull << 50)) {
        usage_error(std::string("--block-cache-bytes must be an integer in [0, 2^50] (0: no block cache), got \"") + v + "\"");
      }
      args.block_cache_bytes = static_cast<int64_t>(n);
    } else if (flag == "--direct-reads") {
      args.direct_mode = v;
      if (args.direct_mode != "auto" && args.direct_mode != "on" && args.direct_mode != "off") {
        usage_error(std::string("--direct-reads must be auto, on or off, got \"") + v + "\"");
      }
    } else if (flag == "--wal") {
      args.wal = parse_on_off("--wal", v);
    } else if (flag == "--sync-compactions") {
      args.sync_compactions = parse_on_off("--sync-compactions", v);
    } else if (flag == "--between") {
      const std::string b = v;
      if (b != "restart" && b != "continue") usage_error(std::string("--between must be restart or continue, got \"") + v + "\"");
      args.restart = b == "restart";
    } else if (flag == "--threads") {
      char* end = nullptr;
      errno = 0;
      long n = std::strtol(v, &end, 10);
      if (end == v || *end != '\0' || errno != 0 || n < 1 || n > 64) {
        usage_error(std::string("--threads must be an integer in [1, 64], got \"") + v + "\"");
      }
      args.threads = static_cast<int>(n);
    } else if (flag == "--time-block-reads") {
      args.time_block_reads = parse_on_off("--time-block-reads", v);
    } else if (flag == "--filter-plugin") {
      args.filter_plugin = parse_on_off("--filter-plugin", v);
#ifndef LSM_NAVIGATOR_POLICY
      if (args.filter_plugin) usage_error("--filter-plugin on needs a driver built with a policy.h (g++ -DLSM_NAVIGATOR_POLICY -I DIR)");
#endif
    } else {
      usage_error("unknown flag " + flag + " (flags: --db, --options, --block-cache-bytes, --direct-reads, --wal, --sync-compactions, --between, --threads, --time-block-reads, --filter-plugin)");
    }
  }
  // The lab mode waits after a client's write until RocksDB is idle; other clients would write
  // through the wait, so it plays one client.
  if (args.sync_compactions && args.threads > 1) usage_error("--threads " + std::to_string(args.threads) + " needs --sync-compactions off (the lab mode plays one client)");
  if (args.db_path.empty()) usage_error("--db DIR is required (a directory that does not exist or is empty)");
  if (args.options_path.empty()) usage_error("--options OPTIONS_FILE is required (a RocksDB OPTIONS file)");

  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(args.db_path, ec)) {
    if (!fs::is_directory(args.db_path, ec)) usage_error("--db " + args.db_path + " exists and is not a directory");
    if (!fs::is_empty(args.db_path, ec)) usage_error("--db " + args.db_path + " is not empty (the referee starts from an empty database)");
  }
  return args;
}

Loaded load_options(const Args& args, std::vector<std::string>& notes) {
  // The OPTIONS file, as RocksDB's own loader reads it (unknown options are errors).
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  config.input_strings_escaped = true;
  config.env = rocksdb::Env::Default();
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  {
    rocksdb::Status s = rocksdb::LoadOptionsFromFile(config, args.options_path, &db_options, &cfs);
    if (!s.ok()) usage_error("--options " + args.options_path + ": RocksDB cannot load it: " + s.ToString());
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
  if (!have_default) usage_error("--options " + args.options_path + " has no [CFOptions \"default\"] section");

  // The block cache: the OPTIONS file cannot carry its size. A fresh table factory is built
  // from the loaded table options rather than editing them in place, so the factory's state
  // derived from the cache (made when it was constructed) matches the cache it holds.
  auto* table_options = cf_options.table_factory ? cf_options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>() : nullptr;
  if (table_options == nullptr) {
    if (args.block_cache_bytes >= 0) usage_error("--block-cache-bytes needs a block-based table (the OPTIONS file's table_factory is another)");
    if (args.filter_plugin) usage_error("--filter-plugin needs a block-based table (the OPTIONS file's table_factory is another)");
    notes.push_back("the table factory is not block-based: no block cache, filter or perf fields of block-based tables apply");
  } else if (args.block_cache_bytes >= 0 || args.filter_plugin) {
    rocksdb::BlockBasedTableOptions t = *table_options;
    if (args.block_cache_bytes == 0) {
      t.no_block_cache = true;
      t.block_cache = nullptr;
    } else if (args.block_cache_bytes > 0) {
      t.no_block_cache = false;
      t.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(args.block_cache_bytes));
    }
#ifdef LSM_NAVIGATOR_POLICY
    if (args.filter_plugin) {
      // The design's per-level bits: the policy picks them by the level a table is built for.
      t.filter_policy = lsm_navigator::NewPerLevelBloomPolicy();
      notes.push_back(std::string("filter plugin: the OPTIONS file's filter_policy is replaced by ") + t.filter_policy->Name() +
                      " (policy.h), which gives each level the bits the design lists (see tree_after_*: filter_bytes per level)");
    }
#endif
    cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  }
  return Loaded{db_options, cf_options};
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

Opened open_db(const Args& args, const Loaded& loaded, std::shared_ptr<rocksdb::EventListener> listener,
               std::shared_ptr<rocksdb::Statistics> statistics) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(args.db_path, ec);
  if (ec) fail("cannot create " + args.db_path + ": " + ec.message());

  rocksdb::Options options(loaded.db_options, loaded.cf_options);
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.statistics = statistics;
  options.listeners.push_back(listener);
  options.use_direct_io_for_flush_and_compaction = false;

  // Direct reads: every block a lookup reads comes from the device, not the OS page cache, as
  // the engine counts it. auto: on where the filesystem allows it.
  bool direct = args.direct_mode != "off";
  std::string direct_reason = args.direct_mode == "off" ? "--direct-reads off" : "";
  if (direct) {
    std::string refused = direct_io_refused(args.db_path);
    if (!refused.empty()) {
      if (args.direct_mode == "on") fail("--direct-reads on: " + refused);
      direct = false;
      direct_reason = refused;
    }
  }
  options.use_direct_reads = direct;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, args.db_path, &db);
  if (!s.ok() && direct && args.direct_mode == "auto") {
    direct_reason = "DB::Open with use_direct_reads failed: " + s.ToString();
    std::fprintf(stderr, "referee: %s; opening without direct reads\n", direct_reason.c_str());
    fs::remove_all(args.db_path, ec);
    fs::create_directories(args.db_path, ec);
    direct = false;
    options.use_direct_reads = false;
    s = rocksdb::DB::Open(options, args.db_path, &db);
  }
  check(s, "cannot open RocksDB at " + args.db_path);
  return Opened{db, direct, direct_reason};
}

rocksdb::DB* reopen_db(const Args& args, const Loaded& loaded, bool direct, std::shared_ptr<rocksdb::EventListener> listener,
                       std::shared_ptr<rocksdb::Statistics> statistics) {
  rocksdb::Options options(loaded.db_options, loaded.cf_options);
  options.create_if_missing = false;
  options.error_if_exists = false;
  options.statistics = statistics;
  options.listeners.push_back(listener);
  options.use_direct_io_for_flush_and_compaction = false;
  options.use_direct_reads = direct;
  rocksdb::DB* db = nullptr;
  check(rocksdb::DB::Open(options, args.db_path, &db), "cannot reopen RocksDB at " + args.db_path + " (--between restart)");
  return db;
}

int compaction_parallelism(const rocksdb::DBOptions& o) {
  if (o.max_background_flushes == -1 && o.max_background_compactions == -1) {
    const int flushes = std::max(1, o.max_background_jobs / 4);
    return std::max(1, o.max_background_jobs - flushes);
  }
  return std::max(1, o.max_background_compactions);
}

int64_t compaction_speedup_l0_files(const rocksdb::ColumnFamilyOptions& o) {
  const int64_t trigger = o.level0_file_num_compaction_trigger;
  const int64_t slowdown = o.level0_slowdown_writes_trigger;
  if (trigger < 0) return INT64_MAX;
  const int64_t quarter = trigger + (slowdown - trigger) / 4;
  return std::min(2 * trigger, std::max(trigger, quarter));
}

}  // namespace referee
