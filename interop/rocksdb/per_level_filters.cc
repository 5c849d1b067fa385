// Builds a real RocksDB database with an exported OPTIONS file and the exported per-level filter
// policy, then prints what RocksDB actually built: one line per table file with its level, entry
// count and filter size. The interop test compares those bits per key with the exported table.
//
// Build (the test does this): g++ -std=c++17 -I<dir with policy.h> per_level_filters.cc -lrocksdb
// Usage: per_level_filters OPTIONS_FILE DB_DIR KEYS

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "policy.h"  // the rocksdb-cpp export of the design
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/options_util.h"

namespace {

void check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// 16-byte keys in a scrambled order (an odd multiplier permutes 64-bit integers), 100-byte values:
// the engine's benchmark entry shape.
std::string key_of(uint64_t i) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(i * 0x9E3779B97F4A7C15ull));
  return std::string(buf, 16);
}

// Wait until no compaction is pending or running, so every file sits where RocksDB wants it.
void settle(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf) {
  for (int i = 0; i < 1200; ++i) {
    uint64_t pending = 0;
    uint64_t running = 0;
    db->GetIntProperty(cf, "rocksdb.compaction-pending", &pending);
    db->GetIntProperty(cf, "rocksdb.num-running-compactions", &running);
    if (pending == 0 && running == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s OPTIONS_FILE DB_DIR KEYS\n", argv[0]);
    return 2;
  }
  const std::string options_file = argv[1];
  const std::string db_dir = argv[2];
  const uint64_t keys = std::strtoull(argv[3], nullptr, 10);

  rocksdb::ConfigOptions config_options;
  config_options.ignore_unknown_options = false;  // an option RocksDB does not know is an error
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> cf_descs;
  check(rocksdb::LoadOptionsFromFile(config_options, options_file, &db_options, &cf_descs), "LoadOptionsFromFile");
  auto* table = cf_descs.at(0).options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table == nullptr) {
    std::fprintf(stderr, "the OPTIONS file does not configure a BlockBasedTable\n");
    return 1;
  }
  table->filter_policy = lsm_navigator::NewPerLevelBloomPolicy();
  db_options.create_if_missing = true;

  rocksdb::DB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  check(rocksdb::DB::Open(db_options, db_dir, cf_descs, &handles, &db), "DB::Open");

  // Two rounds, letting compactions settle after each. In the first, RocksDB moves whole files
  // down into empty levels (a trivial move keeps the filter a file was built with); in the
  // second, every level below is occupied, so files are rewritten by real merges at their level.
  const std::string value(100, 'v');
  rocksdb::WriteOptions write_options;
  write_options.disableWAL = true;  // the test is about table files, not durability
  for (uint64_t round = 0; round < 2; ++round) {
    for (uint64_t i = round; i < keys; i += 2) {
      check(db->Put(write_options, handles[0], key_of(i), value), "Put");
    }
    check(db->Flush(rocksdb::FlushOptions(), handles[0]), "Flush");
    settle(db, handles[0]);
  }

  rocksdb::ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(handles[0], &meta);
  rocksdb::TablePropertiesCollection props;
  check(db->GetPropertiesOfAllTables(handles[0], &props), "GetPropertiesOfAllTables");
  for (const auto& level : meta.levels) {
    for (const auto& file : level.files) {
      const std::string path = file.db_path + "/" + file.relative_filename;
      const auto it = props.find(path);
      if (it == props.end()) {
        std::fprintf(stderr, "no table properties for %s\n", path.c_str());
        return 1;
      }
      std::printf("level=%d entries=%llu filter_bytes=%llu file=%s\n", level.level,
                  static_cast<unsigned long long>(it->second->num_entries),
                  static_cast<unsigned long long>(it->second->filter_size), file.relative_filename.c_str());
    }
  }
  for (auto* h : handles) check(db->DestroyColumnFamilyHandle(h), "DestroyColumnFamilyHandle");
  check(db->Close(), "Close");
  delete db;
  return 0;
}
