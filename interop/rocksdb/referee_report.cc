#include "referee_report.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>

#include "referee_common.h"
#include "referee_json.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/metadata.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"

namespace referee {

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

namespace {

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

// The options as RocksDB opened them.
void write_options(Json& j, const rocksdb::Options& opened, const rocksdb::BlockBasedTableOptions* opened_table, bool filter_plugin) {
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

// One phase's object: its operations and their counters, the memtable and memory at its end, its
// flushes, compactions and stalls (`e`), the tickers' deltas and RocksDB's own statistics.
void write_phase(Json& j, const Phase& p, const PhaseEvents& e) {
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
  j.field("aborted", e.compactions_aborted);
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

}  // namespace

std::string report_json(const Args& args, const Opened& db, const rocksdb::Options& opened, const Phase (&phases)[kPhases],
                        int current, const Boundary& boundary, Referee& referee, std::vector<std::string>& notes) {
  const auto* opened_table = opened.table_factory ? opened.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>() : nullptr;
  uint64_t cache_in_use = 0;
  if (opened_table != nullptr && !opened_table->no_block_cache && opened_table->block_cache) {
    cache_in_use = opened_table->block_cache->GetCapacity();
  }
  Json j;
  j.begin_object();
  j.field("referee", "rocksdb");
  j.field("rocksdb_version", std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR) + "." + std::to_string(ROCKSDB_PATCH));
  j.field("options_file", args.options_path);
  j.field("db", args.db_path);
  j.field("block_cache_bytes", cache_in_use);
  j.field("block_cache", args.block_cache_bytes < 0 ? "as loaded from the OPTIONS file" : "--block-cache-bytes");
  j.field_bool("direct_reads", db.direct);
  j.field("direct_reads_mode", args.direct_mode);
  if (!db.direct) j.field("direct_reads_reason", db.direct_reason);
  j.field_bool("wal", args.wal);
  j.field_bool("sync_compactions", args.sync_compactions);
  j.field_bool("time_block_reads", args.time_block_reads);
  // The process model (referee.cc's header): how background work ran, what happened between the
  // load and the run, how many clients played the run.
  j.key("process").begin_object();
  j.field("compactions", args.sync_compactions ? "synchronous (lab mode: waited after every write that sealed a memtable)" : "background");
  j.field("between", args.restart ? "restart" : "continue");
  j.field("between_means", args.restart ? "the load's DB closed at the run marker without waiting for background work (what Close did: `between`), "
                                          "reopened with the same OPTIONS: cold block cache, new statistics; the run's counters are the run's only, from Open on"
                                        : "the run played in the load's process: its memtable and block cache as the load left them");
  j.field("threads", args.threads);
  j.field("dealing", args.threads > 1 ? "run operation i to thread i mod threads, each thread in stream order, read into memory before the run's clock"
                                      : "one client, the run played as the stream is read");
  j.field_real("run_buffer_seconds", boundary.run_buffer_seconds);
  j.end_object();

  write_options(j, opened, opened_table, args.filter_plugin);

  {
    std::lock_guard<std::mutex> lock(referee.mu);
    for (int pi = 0; pi < kPhases; ++pi) {
      const Phase& p = phases[pi];
      j.key(p.name);
      if (pi > current) {
        j.null();
        continue;
      }
      write_phase(j, p, referee.events[pi]);
    }
    j.key("trivial_moves_seen").begin_object(true);
    j.field("compaction_notifications", referee.compaction_notifications);
    j.field("by_file_numbers", referee.trivial_moves_by_file_numbers);
    j.end_object();
  }
  {
    std::lock_guard<std::mutex> lock(referee.mu);
    j.key("between");
    if (!args.restart || current < 1) {
      j.null();
    } else {
      const PhaseEvents& e = referee.events[kBetween];
      uint64_t c_count = 0, c_out = 0;
      for (const auto& [level, l] : e.compactions) {
        c_count += l.count;
        c_out += l.output_bytes;
      }
      j.begin_object();
      j.field_real("close_seconds", boundary.close_seconds);
      j.field_real("open_seconds", boundary.open_seconds);
      j.key("flush").begin_object(true);
      j.field("count", e.flushes);
      j.field("bytes", e.flush_bytes);
      j.field("entries", e.flush_entries);
      j.end_object();
      j.key("compactions").begin_object(true);
      j.field("count", c_count);
      j.field("output_bytes", c_out);
      j.field("aborted", e.compactions_aborted);
      j.end_object();
      j.end_object();
    }
  }
  j.key("run_start");
  if (current < 1) {
    j.null();
  } else {
    j.begin_object();
    j.key("files_by_level").begin_array(true);
    for (uint64_t n : boundary.files_by_level) j.num(n);
    j.end_array();
    j.field("level0_files", boundary.files_by_level.empty() ? uint64_t{0} : boundary.files_by_level[0]);
    j.field("running_compactions", boundary.running_compactions);
    j.field("running_flushes", boundary.running_flushes);
    j.field("compaction_pending", boundary.compaction_pending);
    j.field("immutable_memtables", boundary.immutable_memtables);
    j.field("block_cache_usage", boundary.block_cache_usage);
    j.end_object();
  }
  // Compact rows [ops, seconds, level-0 files, compactions running, flushes running, blocks read so far].
  j.key("run_samples");
  j.begin_object();
  j.field("every", kRunSampleEvery);
  j.field("columns", "ops seconds level0_files running_compactions running_flushes block_reads");
  j.key("rows").begin_array();
  for (const auto& s : boundary.run_samples) {
    j.begin_array(true);
    j.num(s.ops);
    j.real(s.seconds);
    j.num(s.level0_files);
    j.num(s.running_compactions);
    j.num(s.running_flushes);
    j.num(s.block_reads);
    j.end_array();
  }
  j.end_array();
  j.end_object();
  j.key("tree_after_load").raw(phases[0].tree);
  j.key("tree_after_run");
  if (current >= 1) j.raw(phases[1].tree); else j.null();
  if (referee.declined_waits > 0) {
    notes.push_back(std::to_string(referee.declined_waits) +
                    " waits ended with rocksdb.compaction-pending at 1 and nothing running for 0.5 s: RocksDB's "
                    "picker declined what its score asked for, and the driver went on");
  }
  j.key("notes").begin_array();
  for (const auto& n : notes) j.str(n);
  j.end_array();
  j.end_object();
  j.out += '\n';
  return j.out;
}

}  // namespace referee
