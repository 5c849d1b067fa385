//! Holds no code: its tests read the other crates (see `tests/`).
