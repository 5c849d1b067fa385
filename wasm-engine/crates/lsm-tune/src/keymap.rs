//! Where a file-granular level's entries lie in the key space: what makes lookups and scans skip
//! a level whose file was pushed down (the hole it leaves until the level above refills it).

/// Segments of the key space a file-granular level is tracked in.
pub(super) const SEGMENTS: usize = 256;

/// Where a file-granular level's entries lie in the key space (keys are uniform over it):
/// entries and the covered share of each of `SEGMENTS` equal key ranges, and the round-robin
/// cursor from which the next file is taken. The totals are kept as segments change (summing
/// 256 segments several times per file moved was most of a RocksDB-shaped prediction's time).
#[derive(Clone, Debug)]
pub(super) struct KeyMap {
    mass: Vec<f64>,
    cover: Vec<f64>,
    total_mass: f64,
    total_cover: f64,
    cursor: usize,
}

impl KeyMap {
    pub(super) fn empty() -> KeyMap {
        KeyMap { mass: vec![0.0; SEGMENTS], cover: vec![0.0; SEGMENTS], total_mass: 0.0, total_cover: 0.0, cursor: 0 }
    }

    /// Entries in the level, as written (before duplicates meet).
    pub(super) fn mass(&self) -> f64 {
        self.total_mass
    }

    /// Share of the key space the level's tables span.
    pub(super) fn coverage(&self) -> f64 {
        (self.total_cover / SEGMENTS as f64).clamp(0.0, 1.0)
    }

    /// Entries spread over the whole key space (a merge of level 1's files, which span it).
    pub(super) fn spread(&mut self, entries: f64) {
        for (m, c) in self.mass.iter_mut().zip(self.cover.iter_mut()) {
            *m += entries / SEGMENTS as f64;
            *c = 1.0;
        }
        self.total_mass += entries;
        self.total_cover = SEGMENTS as f64;
    }

    /// Take one file of `entries` from the cursor on (skipping holes, as the engine picks the
    /// first table past its cursor), put it into `below`, and return the entries of `below` the
    /// file's key range overlapped before it arrived.
    pub(super) fn move_file(&mut self, entries: f64, below: &mut KeyMap) -> f64 {
        let mut want = entries.min(self.total_mass);
        let mut overlap = 0.0;
        let mut i = self.cursor;
        let mut visited = 0;
        while want > 1e-9 && visited <= SEGMENTS {
            let m = self.mass[i];
            if m > 0.0 {
                let f = (want / m).min(1.0);
                // The file spans f of this segment's covered range; the level below has, on
                // average, that share of the segment's entries in it.
                overlap += below.mass[i] * f * self.cover[i];
                let moved_cover = self.cover[i] * f;
                let below_cover = (below.cover[i] + moved_cover * (1.0 - below.cover[i])).min(1.0);
                below.total_cover += below_cover - below.cover[i];
                below.cover[i] = below_cover;
                below.mass[i] += m * f;
                below.total_mass += m * f;
                self.mass[i] -= m * f;
                self.total_mass -= m * f;
                self.cover[i] -= moved_cover;
                self.total_cover -= moved_cover;
                want -= m * f;
                if f < 1.0 {
                    break;
                }
            }
            i = (i + 1) % SEGMENTS;
            visited += 1;
        }
        self.cursor = i;
        overlap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_totals_match_the_segments() {
        let (mut upper, mut lower) = (KeyMap::empty(), KeyMap::empty());
        upper.spread(10_000.0);
        lower.spread(40_000.0);
        for _ in 0..7 {
            upper.move_file(900.0, &mut lower);
        }
        for m in [&upper, &lower] {
            let mass: f64 = m.mass.iter().sum();
            let cover: f64 = m.cover.iter().sum::<f64>() / SEGMENTS as f64;
            assert!((m.mass() - mass).abs() < 1e-6, "{} vs {mass}", m.mass());
            assert!((m.coverage() - cover).abs() < 1e-12);
        }
        assert!((upper.mass() - 3_700.0).abs() < 1e-6);
        // 6,300 of the level's 10,000 entries left: 63% of its key range is a hole.
        assert!((upper.coverage() - 0.37).abs() < 0.01, "coverage {}", upper.coverage());
    }
}
