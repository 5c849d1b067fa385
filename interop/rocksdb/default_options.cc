// RocksDB's true defaults as RocksDB itself writes them: opens an empty database at argv[1] with
// a default-constructed rocksdb::Options (create_if_missing the only change, and the only line of
// the file that differs from Options()) and closes it.
// RocksDB writes the OPTIONS file (OPTIONS-NNNNNN) into the directory on open; tune-proof's
// RocksDB mode reads it as the "current" design when the user gives no OPTIONS file.
//
//   g++ -std=c++17 default_options.cc -o default_options -lrocksdb -lpthread
//   ./default_options DIR && cat DIR/OPTIONS-*
#include <cstdio>
#include <memory>

#include "rocksdb/db.h"
#include "rocksdb/options.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: default_options DIR (a directory that does not exist yet)\n");
    return 2;
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, argv[1], &db);
  if (!s.ok()) {
    std::fprintf(stderr, "default_options: cannot open %s: %s\n", argv[1], s.ToString().c_str());
    return 1;
  }
  s = db->Close();
  delete db;
  if (!s.ok()) {
    std::fprintf(stderr, "default_options: closing %s: %s\n", argv[1], s.ToString().c_str());
    return 1;
  }
  return 0;
}
