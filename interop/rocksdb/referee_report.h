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

// The tree as RocksDB holds it: every live table file per level, with its key range and entries.
std::string tree_json(rocksdb::DB* db, int num_levels, int indent_depth);

// The whole document, newline-terminated. Adds the note on declined waits, if any, to `notes`.
std::string report_json(const Args& args, const Opened& db, const rocksdb::Options& opened, const Phase (&phases)[kPhases],
                        int current, Referee& referee, std::vector<std::string>& notes);

}  // namespace referee
