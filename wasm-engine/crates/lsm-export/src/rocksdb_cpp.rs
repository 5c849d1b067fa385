//! EngineConfig → a C++ `FilterPolicy` giving each RocksDB level its own bits per key, the one
//! thing about filters an OPTIONS file cannot say. RocksDB (7.x+) tells a policy the level a
//! table file is built for (`FilterBuildingContext::level_at_creation`); the policy defers to the
//! built-in filter the design's kind names (FastLocalBloom, or Ribbon with its
//! `bloom_before_level`) with that level's bits, so files stay readable by any RocksDB.

use lsm_core::config::{Allocation, EngineConfig, FilterKind, FilterSkip};
use lsm_core::workload::Workload;

use super::mapping::{Mapping, Style};
use super::{Export, Warning, WarningKind, number, one_line};

pub(crate) fn filter_policy(config: &EngineConfig, workload: Option<&Workload>) -> Export {
    let m = Mapping::new(config, workload);
    let engine_bits = m.level_bits();
    let bits_of = |level: usize| engine_bits[level.clamp(1, m.depth) - 1];
    let mut warnings = Vec::new();

    // Bits by RocksDB level (index = level_at_creation; flushes are built at level 0).
    // RocksDB's universal compaction as the engine runs it (`compaction.universal`) lines its
    // levels up as L0-tiered leveling does: L0 is engine level 1, Li engine level i + 1.
    let style = if config.compaction.universal.is_some() { Style::L0Tiered } else { m.style };
    let (by_level, bottommost, mapping_note): (Vec<f64>, Option<f64>, &str) = match style {
        Style::Leveled => (
            (0..m.num_levels()).map(|r| bits_of(r.max(1))).collect(),
            None,
            "RocksDB level Li holds engine level i; L0 (flushes, compacted into L1 at once) gets level 1's bits",
        ),
        Style::L0Tiered => (
            (0..m.num_levels()).map(|r| bits_of(r + 1)).collect(),
            None,
            "RocksDB L0 holds engine level 1 and Li holds engine level i+1",
        ),
        Style::Universal => {
            // Universal places sorted runs in levels by age, not by engine level: only "bottommost"
            // is known when a file is built.
            let upper: f64 = (1..m.depth).map(|i| m.capacity(i)).sum();
            let mean = if upper > 0.0 {
                (1..m.depth).map(|i| m.capacity(i) * bits_of(i)).sum::<f64>() / upper
            } else {
                bits_of(1)
            };
            let same_everywhere = engine_bits.windows(2).all(|w| w[0] == w[1]);
            if !same_everywhere {
                warnings.push(Warning::new(
                "levels",
                WarningKind::Approximated,
                format!(
                    "universal compaction does not keep engine levels apart: files of the bottommost run get level {}'s \
                     {} bits per key, all others the capacity-weighted mean of the upper levels, {}",
                    m.depth,
                    number(bits_of(m.depth), 3),
                    number(mean, 3)
                ),
            ));
            }
            (
                vec![mean],
                Some(bits_of(m.depth)),
                "universal compaction: bottommost runs get the last engine level's bits, other runs the upper levels' mean",
            )
        }
    };

    match config.filter.allocation {
        Allocation::Monkey => warnings.push(Warning::new(
            "filter.allocation",
            WarningKind::Approximated,
            format!(
                "Monkey's split is computed for {} full levels; the engine re-splits over the runs it actually has",
                m.depth
            ),
        )),
        Allocation::Mnemosyne => warnings.push(Warning::new(
            "filter.allocation",
            WarningKind::Dropped,
            "Mnemosyne sizes each file's filter from lookups measured at run time; no static policy can; \
             every level gets filter.bits_per_key",
        )),
        Allocation::Uniform | Allocation::Explicit => {}
    }
    if config.filter.monkey_policy == lsm_core::config::MonkeyPolicy::Reoptimised {
        warnings.push(Warning::new("filter.monkey_policy", WarningKind::Dropped, super::REOPTIMISED_NOT_EXPRESSIBLE));
    }
    if config.filter.kind == FilterKind::Modular {
        warnings.push(Warning::new(
            "filter.kind",
            WarningKind::Dropped,
            format!("SHaMBa's modular filter ({} modules) becomes one Bloom filter per file", config.filter.modules),
        ));
    }
    if config.filter.skip != FilterSkip::None {
        warnings.push(Warning::new("filter.skip", WarningKind::Dropped, "RocksDB always probes a file's whole filter"));
    }

    let name = if config.name.is_empty() { "unnamed".to_string() } else { one_line(&config.name) };
    let mut t = String::new();
    t.push_str(&format!(
        "// Per-level Bloom filter bits for RocksDB 7.x or later, exported by LSM Navigator from design \"{name}\".\n"
    ));
    t.push_str(
        "//\n\
         // An OPTIONS file has one bits-per-key for every level. This FilterPolicy picks the bits by the level a\n\
         // table file is built for (FilterBuildingContext::level_at_creation) and defers to RocksDB's built-in\n\
         // filter (Bloom, or Ribbon below), so the files stay readable by any RocksDB. Use it with the OPTIONS file exported from the\n\
         // same design:\n\
         //\n\
         //   rocksdb::ConfigOptions config_options;\n\
         //   rocksdb::DBOptions db_options;\n\
         //   std::vector<rocksdb::ColumnFamilyDescriptor> cf_descs;\n\
         //   rocksdb::LoadOptionsFromFile(config_options, \"OPTIONS.ini\", &db_options, &cf_descs);\n\
         //   auto* table = cf_descs[0].options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();\n\
         //   table->filter_policy = lsm_navigator::NewPerLevelBloomPolicy();\n\
         //   // then rocksdb::DB::Open(db_options, path, cf_descs, &handles, &db)\n\
         //\n\
         // RocksDB persists the policy by its name; to reopen from the OPTIONS file it writes, set the policy\n\
         // again as above (or register it with rocksdb::ObjectLibrary).\n\
         //\n\
         // A file RocksDB moves down without rewriting it (a trivial move, typically into an empty level)\n\
         // keeps the filter it was built with; files written by compactions get their level's bits.\n//\n",
    );
    t.push_str(&format!("// Levels: {mapping_note}.\n"));
    if warnings.is_empty() {
        t.push_str("// Lossless for filters: every level gets the design's bits per key.\n");
    } else {
        t.push_str("// Not expressible (dropped, rounded or approximated):\n");
        for w in &warnings {
            t.push_str(&w.comment_line("//"));
            t.push('\n');
        }
    }
    let list = by_level.iter().map(|&b| number(b, 3)).collect::<Vec<_>>().join(", ");
    t.push_str(&format!(
        "\n#include <algorithm>\n#include <cstddef>\n#include <memory>\n#include <vector>\n\n\
         #include \"rocksdb/filter_policy.h\"\n#include \"rocksdb/table.h\"\n\n\
         namespace lsm_navigator {{\n\n\
         // Bits per key by RocksDB level (index = level_at_creation); the last entry serves deeper levels.\n\
         // Below 0.5 bits RocksDB builds no filter.\n\
         constexpr double kBitsPerKeyByLevel[] = {{{list}}};\n\n\
         // Bits per key for files known to belong to the bottommost sorted run; negative: use the table above.\n\
         constexpr double kBottommostBitsPerKey = {};\n\n\
         // The built-in filter each level gets: RocksDB's Ribbon filter (with its own bloom_before_level rule,\n\
         // which sees the same build context) or its cache-local Bloom filter.\n\
         constexpr bool kRibbon = {};\n\
         constexpr int kBloomBeforeLevel = {};\n\n",
        bottommost.map_or("-1".to_string(), |b| number(b, 3)),
        config.filter.kind == FilterKind::Ribbon,
        config.filter.bloom_before_level
    ));
    t.push_str(CPP_POLICY);
    Export { text: t, warnings }
}

const CPP_POLICY: &str = r#"inline const rocksdb::FilterPolicy* NewBuiltinPolicy(double bits) {
  return kRibbon ? rocksdb::NewRibbonFilterPolicy(bits, kBloomBeforeLevel) : rocksdb::NewBloomFilterPolicy(bits);
}

// Named for the per-level bits it gives; with kRibbon its filters are Ribbon filters.
class PerLevelBloomPolicy : public rocksdb::FilterPolicy {
 public:
  PerLevelBloomPolicy() : reader_(rocksdb::NewBloomFilterPolicy(10)) {
    for (double bits : kBitsPerKeyByLevel) {
      by_level_.emplace_back(NewBuiltinPolicy(bits));
    }
    if (kBottommostBitsPerKey >= 0) {
      bottommost_.reset(NewBuiltinPolicy(kBottommostBitsPerKey));
    }
  }

  const char* Name() const override { return "lsm_navigator.PerLevelBloomPolicy"; }

  // Built-in filters (Bloom and Ribbon) read each other's data whatever their bits per key.
  const char* CompatibilityName() const override { return reader_->CompatibilityName(); }

  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    if (bottommost_ && context.is_bottommost) {
      return bottommost_->GetBuilderWithContext(context);
    }
    // An unknown level (-1, e.g. SstFileWriter) is treated as the deepest, as RocksDB's own
    // Ribbon policy does.
    const std::size_t deepest = by_level_.size() - 1;
    const std::size_t level = context.level_at_creation < 0
                                  ? deepest
                                  : std::min(static_cast<std::size_t>(context.level_at_creation), deepest);
    return by_level_[level]->GetBuilderWithContext(context);
  }

  rocksdb::FilterBitsReader* GetFilterBitsReader(const rocksdb::Slice& contents) const override {
    return reader_->GetFilterBitsReader(contents);
  }

 private:
  std::unique_ptr<const rocksdb::FilterPolicy> reader_;
  std::vector<std::unique_ptr<const rocksdb::FilterPolicy>> by_level_;
  std::unique_ptr<const rocksdb::FilterPolicy> bottommost_;
};

inline std::shared_ptr<const rocksdb::FilterPolicy> NewPerLevelBloomPolicy() {
  return std::make_shared<PerLevelBloomPolicy>();
}

}  // namespace lsm_navigator
"#;
