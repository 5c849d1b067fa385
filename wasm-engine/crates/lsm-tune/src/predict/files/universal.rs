//! Universal compaction (`compaction.universal`) replayed on the file tree, as the engine's
//! `universal.rs` executes it: after each flush the tree's sorted runs (each level-0 file, newest
//! first, then each non-empty deeper level) go to RocksDB 7.8's picker (`universal::pick`, the
//! engine's own), and each pick merges runs `first..=last` into its output level, until the
//! picker declines. An output to level 0 is one file, in the place of the newest run it merged;
//! a deeper output is one run cut every `target_file_bytes` of entries.
//!
//! The runs merged are consecutive, and every run holds the writes of one stretch of time (a
//! flush's, or the merged runs' together), so a merge holds exactly the distinct keys written
//! over its inputs' stretch (`WriteSequence::keys_in`): older versions of keys the newer runs
//! rewrote are dropped. Every run spans the whole key space (keys are hashed), so no two runs are
//! disjoint and `allow_trivial_move` never applies; it is not replayed.
//!
//! Flushes of a steady workload hold nearly the same number of keys, and the default
//! `size_ratio` of 1% then decides on differences of a few keys: the replay's flushes are
//! expectations, the engine's and RocksDB's vary, so at some scales they pick other stretches
//! (and write other amounts) than the replay does.

use lsm_core::universal::{self, SortedRun, UniversalConfig, UniversalPick};

use super::{Cumulative, File, FileTree, Span, size_cuts};

impl FileTree<'_> {
    /// Merge until the picker is satisfied.
    pub(super) fn maintain_universal(&mut self, options: &UniversalConfig) {
        let num_levels = self.config.compaction.num_levels as usize;
        // A picker that never settles would be a bug in it; bound the replay rather than hang.
        for _ in 0..100_000 {
            let runs = self.sorted_runs();
            let Some(pick) = universal::pick(&runs, options, num_levels) else {
                return;
            };
            self.merge_runs(&runs, pick);
        }
    }

    /// The sorted runs, newest first, sized as the picker compares them (entry bytes: the
    /// engine's file sizes add index, filter and footer, which scale alike for every run).
    fn sorted_runs(&self) -> Vec<SortedRun> {
        let bytes = |files: &[File]| (files.iter().map(|f| f.entries).sum::<f64>() * self.entry_bytes).round() as u64;
        let level0 = self.levels[0].iter().map(|f| SortedRun { level: 1, bytes: bytes(std::slice::from_ref(f)) });
        let deeper = self
            .levels
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, files)| !files.is_empty())
            .map(|(i, files)| SortedRun { level: i + 1, bytes: bytes(files) });
        level0.chain(deeper).collect()
    }

    /// Runs `pick.first..=pick.last` of `runs` (the tree's, as picked from) merged into
    /// `pick.output_level`.
    fn merge_runs(&mut self, runs: &[SortedRun], pick: UniversalPick) {
        let level0 = self.levels[0].len();
        let mut inputs: Vec<File> = self.levels[0].drain(pick.first.min(level0)..(pick.last + 1).min(level0)).collect();
        for run in runs.iter().take(pick.last + 1).skip(pick.first.max(level0)) {
            inputs.append(&mut self.levels[run.level - 1]);
        }
        let outputs = self.merged(&inputs, pick.output_level);
        self.merges += 1;
        self.entries_written += outputs.iter().map(|f| f.entries).sum::<f64>();
        self.files_written += outputs.len() as f64;
        if pick.output_level == 1 {
            let at = pick.first.min(self.levels[0].len());
            self.levels[0].splice(at..at, outputs);
        } else {
            self.ensure_level(pick.output_level);
            self.place(pick.output_level, outputs);
        }
    }

    /// The files a merge of `inputs` writes to `level`: the distinct keys of the inputs' stretch
    /// of writes, spread evenly over the key space, one file at level 0, else cut every target
    /// file's entries. Each flush keeps its share of the inputs' entries.
    fn merged(&mut self, inputs: &[File], level: usize) -> Vec<File> {
        let mut content: Vec<(usize, f64)> = Vec::new();
        for &(t, e) in inputs.iter().flat_map(|f| &f.content) {
            match content.iter_mut().find(|(k, _)| *k == t) {
                Some((_, sum)) => *sum += e,
                None => content.push((t, e)),
            }
        }
        content.sort_by_key(|x| x.0);
        let (Some(&(first, _)), Some(&(last, _))) = (content.first(), content.last()) else {
            return Vec::new();
        };
        let entries = self.writes.keys_in(self.flushed[first].0, self.flushed[last].1);
        let held: f64 = content.iter().map(|x| x.1).sum();
        let (lo, hi) = (1.0 / (entries + 1.0), entries / (entries + 1.0));
        let per_file =
            if level == 1 { f64::INFINITY } else { self.config.compaction.target_file_bytes as f64 / self.entry_bytes };
        let curve = Cumulative::new(vec![(lo, hi, entries / (hi - lo).max(1e-300))]);
        let mut edges = vec![lo];
        edges.extend(size_cuts(&curve, per_file));
        edges.push(hi);
        edges
            .windows(2)
            .map(|w| {
                let share = if hi > lo { (w[1] - w[0]) / (hi - lo) } else { 1.0 };
                let scale = share * entries / held.max(1e-300);
                let id = self.id();
                let content: Vec<(usize, f64)> = content.iter().map(|&(t, e)| (t, e * scale)).collect();
                let spans = content.iter().map(|&(flush, e)| Span { flush, lo: w[0], hi: w[1], entries: e }).collect();
                File { id, lo: w[0], hi: w[1], entries: entries * share, content, spans, born: self.now }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::super::popularity::Popularity;
    use super::super::super::super::writes::WriteSequence;
    use super::*;
    use lsm_core::config::{Allocation, EngineConfig, Granularity};
    use lsm_workload::ycsb::{core_workload, from_properties};

    /// YCSB `letter` over 100,000 records and 100,000 operations.
    fn sequence(letter: char) -> WriteSequence {
        let text = core_workload(letter, 100_000, 100_000).expect("core workload");
        let w = from_properties(&text, "workload").expect("properties").workload;
        let keys = w.preload.entries as f64 + w.operations as f64 * w.mix.insert;
        WriteSequence::new(&w, Popularity::of(&w, keys, 64.0, 1.06))
    }

    /// RocksDB's universal defaults over 7 levels, files of 2,000 entries of 100 bytes.
    fn universal() -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.compaction.granularity = Granularity::File;
        c.compaction.target_file_bytes = 200_000;
        c.compaction.num_levels = 7;
        c.compaction.universal = Some(UniversalConfig::default());
        c
    }

    fn entries(files: &[File]) -> f64 {
        files.iter().map(|f| f.entries).sum()
    }

    #[test]
    fn equal_flushes_merge_as_the_picker_chooses() {
        // Twelve flushes of 1,000 inserts: lsm-core's `equal_flushes_replayed` picks (all four
        // into L6; three into L5; two into L4; at flush 11 all five runs into L6).
        let (config, writes) = (universal(), sequence('c'));
        let mut tree = FileTree::new(&config, &writes, 100.0);
        for i in 0..12 {
            tree.flush(f64::from(i) * 1_000.0, f64::from(i + 1) * 1_000.0);
        }
        assert_eq!(tree.merges, 4);
        assert_eq!(tree.levels.len(), 7);
        assert_eq!(tree.levels[0].len(), 1);
        assert!(tree.levels[1..6].iter().all(Vec::is_empty));
        // Inserts only: the last level holds every key of flushes 1..=11, cut every 2,000.
        assert!((entries(&tree.levels[6]) - 11_000.0).abs() < 1e-6);
        assert_eq!(tree.levels[6].len(), 6);
        assert!((tree.levels[6][0].entries - 2_000.0).abs() < 1e-6);
        assert!(tree.levels[6].windows(2).all(|w| w[0].hi <= w[1].lo + 1e-12), "key order, disjoint");
        // Written: 12 flushes, then merges of 4, 3, 2 and 11 flushes' entries.
        assert!((tree.entries_written - 32_000.0).abs() < 1e-6, "{}", tree.entries_written);
        assert_eq!(tree.files_written, 12.0 + 2.0 + 2.0 + 1.0 + 6.0);
    }

    #[test]
    fn a_merge_keeps_one_version_of_each_key() {
        // YCSB A's run half updates Zipf-hot keys: four flushes of 5,000 run writes each hold
        // fewer distinct keys together than apart.
        let (config, writes) = (universal(), sequence('a'));
        let mut tree = FileTree::new(&config, &writes, 100.0);
        let starts: Vec<f64> = (0..4).map(|i| 100_000.0 + f64::from(i) * 5_000.0).collect();
        let apart: f64 = starts.iter().map(|&s| writes.keys_in(s, s + 5_000.0)).sum();
        for &s in &starts {
            tree.flush(s, s + 5_000.0);
        }
        let together = writes.keys_in(100_000.0, 120_000.0);
        assert!(together < 0.95 * apart, "{together} distinct keys of {apart}");
        // 4 runs: everything merges into the last level, holding the distinct keys.
        assert_eq!(tree.merges, 1);
        assert!(tree.levels[0].is_empty());
        assert!((entries(&tree.levels[6]) - together).abs() < 1e-6 * together);
        // Each flush keeps its share: the content adds up to the entries in every file.
        for f in &tree.levels[6] {
            let held: f64 = f.content.iter().map(|x| x.1).sum();
            assert!((held - f.entries).abs() < 1e-6 * f.entries);
        }
    }
}
