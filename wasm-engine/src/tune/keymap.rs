//! Where a file-granular level's entries lie in the key space: what makes lookups and scans skip
//! a level whose file was pushed down (the hole it leaves until the level above refills it).

/// Segments of the key space a file-granular level is tracked in.
pub(super) const SEGMENTS: usize = 256;

/// Where a file-granular level's entries lie in the key space (keys are uniform over it):
/// entries and the covered share of each of `SEGMENTS` equal key ranges, and the round-robin
/// cursor from which the next file is taken.
#[derive(Clone, Debug)]
pub(super) struct KeyMap {
    pub(super) mass: Vec<f64>,
    pub(super) cover: Vec<f64>,
    cursor: usize,
}

impl KeyMap {
    pub(super) fn empty() -> KeyMap {
        KeyMap { mass: vec![0.0; SEGMENTS], cover: vec![0.0; SEGMENTS], cursor: 0 }
    }

    pub(super) fn coverage(&self) -> f64 {
        self.cover.iter().sum::<f64>() / SEGMENTS as f64
    }

    /// Entries spread over the whole key space (a merge of level 1's files, which span it).
    pub(super) fn spread(&mut self, entries: f64) {
        for (m, c) in self.mass.iter_mut().zip(self.cover.iter_mut()) {
            *m += entries / SEGMENTS as f64;
            *c = 1.0;
        }
    }

    /// Take one file of `entries` from the cursor on (skipping holes, as the engine picks the
    /// first table past its cursor), put it into `below`, and return the entries of `below` the
    /// file's key range overlapped before it arrived.
    pub(super) fn move_file(&mut self, entries: f64, below: &mut KeyMap) -> f64 {
        let total: f64 = self.mass.iter().sum();
        let mut want = entries.min(total);
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
                below.mass[i] += m * f;
                below.cover[i] = (below.cover[i] + moved_cover * (1.0 - below.cover[i])).min(1.0);
                self.mass[i] -= m * f;
                self.cover[i] -= moved_cover;
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
