#include "referee_listener.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>

#include "referee_common.h"

namespace referee {

const char* reason_name(rocksdb::CompactionReason r) {
  using R = rocksdb::CompactionReason;
  switch (r) {
    case R::kUnknown: return "Unknown";
    case R::kLevelL0FilesNum: return "LevelL0FilesNum";
    case R::kLevelMaxLevelSize: return "LevelMaxLevelSize";
    case R::kUniversalSizeAmplification: return "UniversalSizeAmplification";
    case R::kUniversalSizeRatio: return "UniversalSizeRatio";
    case R::kUniversalSortedRunNum: return "UniversalSortedRunNum";
    case R::kFIFOMaxSize: return "FIFOMaxSize";
    case R::kFIFOReduceNumFiles: return "FIFOReduceNumFiles";
    case R::kFIFOTtl: return "FIFOTtl";
    case R::kManualCompaction: return "ManualCompaction";
    case R::kFilesMarkedForCompaction: return "FilesMarkedForCompaction";
    case R::kBottommostFiles: return "BottommostFiles";
    case R::kTtl: return "Ttl";
    case R::kFlush: return "Flush";
    case R::kExternalSstIngestion: return "ExternalSstIngestion";
    case R::kPeriodicCompaction: return "PeriodicCompaction";
    case R::kChangeTemperature: return "ChangeTemperature";
    case R::kForcedBlobGC: return "ForcedBlobGC";
    case R::kRoundRobinTtl: return "RoundRobinTtl";
    default: return "Other";
  }
}

void Referee::OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) {
  if (!info.status.ok()) return;
  uint64_t number = file_number(info.file_path);
  std::lock_guard<std::mutex> lock(mu);
  files[number].size = info.file_size;
  if (info.reason == rocksdb::TableFileCreationReason::kFlush) {
    PhaseEvents& e = events[phase.load()];
    e.flush_bytes += info.file_size;
    e.flush_entries += info.table_properties.num_entries;
    e.flush_deletions += info.table_properties.num_deletions;
  }
}

void Referee::OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo&) {
  {
    std::lock_guard<std::mutex> lock(mu);
    events[phase.load()].flushes += 1;
  }
  changed.notify_all();
}

void Referee::OnCompactionCompleted(rocksdb::DB*, const rocksdb::CompactionJobInfo& ci) {
  {
    std::lock_guard<std::mutex> lock(mu);
    compaction_notifications += 1;
    if (ci.status.IsShutdownInProgress()) {
      events[phase.load()].compactions_aborted += 1;
    } else if (!ci.status.ok()) {
      if (background_error.empty()) background_error = "compaction failed: " + ci.status.ToString();
    } else {
      record_compaction(ci);
    }
  }
  changed.notify_all();
}

void Referee::OnStallConditionsChanged(const rocksdb::WriteStallInfo& info) {
  using C = rocksdb::WriteStallCondition;
  std::lock_guard<std::mutex> lock(mu);
  PhaseEvents& e = events[phase.load()];
  if (info.condition.cur == C::kDelayed && info.condition.prev != C::kDelayed) e.stalls_delayed += 1;
  if (info.condition.cur == C::kStopped && info.condition.prev != C::kStopped) e.stalls_stopped += 1;
}

void Referee::OnBackgroundError(rocksdb::BackgroundErrorReason, rocksdb::Status* error) {
  {
    std::lock_guard<std::mutex> lock(mu);
    // A job cut short by Close (--between restart) is not a failure.
    if (background_error.empty() && error != nullptr && !error->IsShutdownInProgress()) background_error = error->ToString();
  }
  changed.notify_all();
}

uint64_t Referee::file_number(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return std::strtoull(path.c_str() + (slash == std::string::npos ? 0 : slash + 1), nullptr, 10);
}

void Referee::record_compaction(const rocksdb::CompactionJobInfo& ci) {
  PhaseEvents& e = events[phase.load()];
  LevelCompactions& l = e.compactions[ci.output_level];
  std::set<uint64_t> in, out;
  for (const auto& f : ci.input_file_infos) in.insert(f.file_number);
  for (const auto& f : ci.output_file_infos) out.insert(f.file_number);
  const bool trivial = !in.empty() && in == out;
  l.count += 1;
  l.reasons[reason_name(ci.compaction_reason)] += 1;
  if (trivial) {
    l.trivial_moves += 1;
    trivial_moves_by_file_numbers += 1;
    for (uint64_t n : out) l.moved_bytes += files[n].size;
  } else {
    for (uint64_t n : in) {
      const FileInfo& f = files[n];
      l.input_bytes[f.level] += f.size;
      l.input_files[f.level] += 1;
    }
    for (uint64_t n : out) l.output_bytes += files[n].size;
    l.output_files += out.size();
    l.input_records += ci.stats.num_input_records;
    l.output_records += ci.stats.num_output_records;
    for (uint64_t n : in) files.erase(n);
  }
  for (uint64_t n : out) files[n].level = ci.output_level;
}

const char* Quiet::busy() const {
  static const char* const props[] = {
      "rocksdb.num-immutable-mem-table", "rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes",
      "rocksdb.num-running-compactions", "rocksdb.compaction-pending",
  };
  for (const char* p : props) {
    if (!auto_compactions && std::strcmp(p, "rocksdb.compaction-pending") == 0) continue;
    uint64_t v = 0;
    if (!db->GetIntProperty(p, &v)) fail(std::string("RocksDB has no property ") + p);
    if (v != 0) return p;
  }
  return nullptr;
}

void settle(const Quiet& quiet, Referee& ref) {
  auto last_progress = Clock::now();
  uint64_t last_jobs = ref.flushes_begun.load() + ref.compactions_begun.load();
  for (;;) {
    const char* busy = quiet.busy();
    if (busy == nullptr) return;
    std::unique_lock<std::mutex> lock(ref.mu);
    if (!ref.background_error.empty()) fail("RocksDB background error: " + ref.background_error);
    ref.changed.wait_for(lock, std::chrono::microseconds(200));
    lock.unlock();
    uint64_t jobs = ref.flushes_begun.load() + ref.compactions_begun.load();
    if (jobs != last_jobs || std::strcmp(busy, "rocksdb.compaction-pending") != 0) {
      last_jobs = jobs;
      last_progress = Clock::now();
    } else if (seconds_since(last_progress) > 0.5) {
      // Compaction pending with nothing running or starting for 0.5 s: RocksDB schedules a
      // compaction as soon as a job ends (well under a millisecond here), so its picker has
      // declined what the score asks for (universal compaction does this between merges).
      // Counted, and said once in the notes.
      ref.declined_waits += 1;
      return;
    }
  }
}

}  // namespace referee
