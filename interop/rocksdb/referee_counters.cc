#include "referee_counters.h"

#include <cinttypes>
#include <cstdio>
#include <utility>

#include "referee_common.h"

namespace referee {

void PerfSums::add_current() {
  const rocksdb::PerfContext* p = rocksdb::get_perf_context();
  count += 1;
  block_reads += p->block_read_count;
  index_block_reads += p->index_block_read_count;
  filter_block_reads += p->filter_block_read_count;
  compression_dict_block_reads += p->compression_dict_block_read_count;
  block_cache_hits += p->block_cache_hit_count;
  index_cache_hits += p->block_cache_index_hit_count;
  filter_cache_hits += p->block_cache_filter_hit_count;
  bloom_sst_hits += p->bloom_sst_hit_count;
  bloom_sst_misses += p->bloom_sst_miss_count;
  bytes_read += p->block_read_byte;
  internal_keys_skipped += p->internal_key_skipped_count;
  internal_deletes_skipped += p->internal_delete_skipped_count;
  memtables_queried += p->get_from_memtable_count;
  block_read_ns += p->block_read_time + p->block_checksum_time + p->block_decompress_time;
  iostats_bytes_read += rocksdb::get_iostats_context()->bytes_read;
  if (p->level_to_perf_context != nullptr) {
    for (const auto& [level, c] : *p->level_to_perf_context) {
      if (c.bloom_filter_useful == 0 && c.bloom_filter_full_positive == 0 && c.bloom_filter_full_true_positive == 0 &&
          c.block_cache_hit_count == 0 && c.block_cache_miss_count == 0) {
        continue;
      }
      LevelPerf& l = by_level[level];
      l.filter_useful += c.bloom_filter_useful;
      l.filter_positive += c.bloom_filter_full_positive;
      l.filter_true_positive += c.bloom_filter_full_true_positive;
      l.block_cache_hits += c.block_cache_hit_count;
      l.block_cache_misses += c.block_cache_miss_count;
    }
  }
}

void PerfSums::merge(const PerfSums& o) {
  count += o.count;
  found += o.found;
  keys += o.keys;
  block_reads += o.block_reads;
  index_block_reads += o.index_block_reads;
  filter_block_reads += o.filter_block_reads;
  compression_dict_block_reads += o.compression_dict_block_reads;
  block_cache_hits += o.block_cache_hits;
  index_cache_hits += o.index_cache_hits;
  filter_cache_hits += o.filter_cache_hits;
  bloom_sst_hits += o.bloom_sst_hits;
  bloom_sst_misses += o.bloom_sst_misses;
  bytes_read += o.bytes_read;
  iostats_bytes_read += o.iostats_bytes_read;
  internal_keys_skipped += o.internal_keys_skipped;
  internal_deletes_skipped += o.internal_deletes_skipped;
  memtables_queried += o.memtables_queried;
  block_read_ns += o.block_read_ns;
  for (const auto& [level, l] : o.by_level) {
    LevelPerf& m = by_level[level];
    m.filter_useful += l.filter_useful;
    m.filter_positive += l.filter_positive;
    m.filter_true_positive += l.filter_true_positive;
    m.block_cache_hits += l.block_cache_hits;
    m.block_cache_misses += l.block_cache_misses;
  }
  latency.merge(o.latency);
}

void OpSums::merge(const OpSums& o) {
  for (int t = 0; t < 256; ++t) ops[t] += o.ops[t];
  key_bytes += o.key_bytes;
  value_bytes += o.value_bytes;
  writes.merge(o.writes);
  existing.merge(o.existing);
  missing.merge(o.missing);
  unknown.merge(o.unknown);
  scans.merge(o.scans);
}

void PerfSums::write(Json& j, bool lookups, bool scans) const {
  j.field("count", count);
  if (lookups) j.field("found", found);
  if (scans) j.field("keys", keys);
  j.field("block_reads", block_reads);
  j.field("index_block_reads", index_block_reads);
  j.field("filter_block_reads", filter_block_reads);
  j.field("compression_dict_block_reads", compression_dict_block_reads);
  j.field("data_block_reads", block_reads - index_block_reads - filter_block_reads - compression_dict_block_reads);
  j.field("block_cache_hits", block_cache_hits);
  j.field("index_cache_hits", index_cache_hits);
  j.field("filter_cache_hits", filter_cache_hits);
  j.field("data_cache_hits", block_cache_hits - index_cache_hits - filter_cache_hits);
  j.field("filters_probed", bloom_sst_hits + bloom_sst_misses);
  j.field("filter_negatives", bloom_sst_misses);
  j.field("bytes_read", bytes_read);
  j.field("iostats_bytes_read", iostats_bytes_read);
  j.field("internal_keys_skipped", internal_keys_skipped);
  j.field("internal_deletes_skipped", internal_deletes_skipped);
  j.field("memtables_queried", memtables_queried);
  if (block_read_ns > 0) j.field("block_read_ns", block_read_ns);
  j.key("latency_ns").begin_object(true);
  j.field("count", latency.count);
  j.field_real("mean", latency.count > 0 ? latency.sum / static_cast<double>(latency.count) : 0.0);
  j.field_real("p50", latency.quantile(0.5));
  j.field_real("p99", latency.quantile(0.99));
  j.field("max", latency.max);
  j.end_object();
  j.key("by_level").begin_array();
  for (const auto& [level, l] : by_level) {
    j.begin_object();
    j.field("level", static_cast<uint64_t>(level));
    j.field("filter_useful", l.filter_useful);
    j.field("filter_positive", l.filter_positive);
    j.field("filter_true_positive", l.filter_true_positive);
    j.field("block_cache_hits", l.block_cache_hits);
    j.field("block_cache_misses", l.block_cache_misses);
    j.end_object();
  }
  j.end_array();
}

std::string summary_line(const Phase& p, uint64_t written) {
  uint64_t ops = 0;
  for (uint64_t c : p.ops) ops += c;
  uint64_t blocks = p.writes.block_reads, data = p.writes.block_reads - p.writes.index_block_reads - p.writes.filter_block_reads;
  Latency gets;
  for (const PerfSums* l : {&p.existing, &p.missing, &p.unknown}) {
    blocks += l->block_reads;
    data += l->block_reads - l->index_block_reads - l->filter_block_reads - l->compression_dict_block_reads;
    gets.merge(l->latency);
  }
  uint64_t misses = 0;
  for (const auto& [level, l] : p.scans.by_level) misses += l.block_cache_misses;
  const uint64_t meta = p.scans.index_block_reads + p.scans.filter_block_reads;
  const uint64_t scan_data =
      misses > meta ? misses - meta : p.scans.block_reads - meta - p.scans.compression_dict_block_reads;
  blocks += scan_data + meta;
  data += scan_data;
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "referee: summary phase=%s ops=%" PRIu64 " seconds=%.3f blocks_read=%" PRIu64 " data_blocks_read=%" PRIu64
                " bytes_written=%" PRIu64 " user_bytes=%" PRIu64,
                p.name, ops, p.seconds, blocks, data, written, p.key_bytes + p.value_bytes);
  std::string line = buf;
  for (const auto& [name, l] : {std::pair<const char*, const Latency*>{"get", &gets}, {"write", &p.writes.latency}, {"scan", &p.scans.latency}}) {
    if (l->count == 0) continue;
    std::snprintf(buf, sizeof buf, " %s_p50_ns=%.0f %s_p99_ns=%.0f", name, l->quantile(0.5), name, l->quantile(0.99));
    line += buf;
  }
  return line + "\n";
}

uint64_t int_property(rocksdb::DB* db, const char* name) {
  uint64_t v = 0;
  if (!db->GetIntProperty(name, &v)) fail(std::string("RocksDB has no property ") + name);
  return v;
}

std::vector<uint64_t> ticker_snapshot(rocksdb::Statistics& stats) {
  std::vector<uint64_t> v;
  v.reserve(rocksdb::TickersNameMap.size());
  for (const auto& t : rocksdb::TickersNameMap) v.push_back(stats.getTickerCount(t.first));
  return v;
}

const std::set<rocksdb::Tickers>& key_tickers() {
  static const std::set<rocksdb::Tickers> k = {
      rocksdb::BLOCK_CACHE_DATA_HIT,   rocksdb::BLOCK_CACHE_DATA_MISS,    rocksdb::BLOCK_CACHE_INDEX_HIT,
      rocksdb::BLOCK_CACHE_INDEX_MISS, rocksdb::BLOCK_CACHE_FILTER_HIT,   rocksdb::BLOCK_CACHE_FILTER_MISS,
      rocksdb::BLOCK_CACHE_HIT,        rocksdb::BLOCK_CACHE_MISS,         rocksdb::BLOOM_FILTER_USEFUL,
      rocksdb::BLOOM_FILTER_FULL_POSITIVE, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE, rocksdb::FLUSH_WRITE_BYTES,
      rocksdb::COMPACT_WRITE_BYTES,    rocksdb::COMPACT_READ_BYTES,       rocksdb::STALL_MICROS,
      rocksdb::NUMBER_KEYS_WRITTEN,    rocksdb::BYTES_WRITTEN,            rocksdb::NUMBER_DB_SEEK,
      rocksdb::NUMBER_DB_NEXT,         rocksdb::NUMBER_KEYS_READ,         rocksdb::NUMBER_KEYS_UPDATED,
      rocksdb::MEMTABLE_HIT,           rocksdb::MEMTABLE_MISS,            rocksdb::GET_HIT_L0,
      rocksdb::GET_HIT_L1,             rocksdb::GET_HIT_L2_AND_UP,        rocksdb::WAL_FILE_BYTES,
      rocksdb::COMPACTION_KEY_DROP_NEWER_ENTRY, rocksdb::COMPACTION_KEY_DROP_OBSOLETE,
  };
  return k;
}

}  // namespace referee
