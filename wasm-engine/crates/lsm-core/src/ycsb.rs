//! YCSB's CoreWorkload as its two clients compute it: the key names, the rows, Gray et al.'s
//! Zipfian sampler with YCSB's constants, and the document section (`YcsbPlay`) that asks the
//! generator to play a workload as one of those clients does.
//!
//! The facts come from YCSB (site.ycsb.workloads.CoreWorkload, site.ycsb.generator.*,
//! site.ycsb.Utils, the RocksDB binding's RocksDBClient) and YCSB-cpp (core/core_workload.cc,
//! core/*_generator.h, utils/utils.h, rocksdb/rocksdb_db.cc):
//! - A key is `"user"` + the decimal key number, hashed by FNV-1a-64 over its 8 little-endian
//!   bytes unless `insertorder=ordered`, left-padded with zeros to `zeropadding` digits. YCSB (Java)
//!   takes `Math.abs` of the signed hash; YCSB-cpp keeps it unsigned (up to 20 digits).
//! - `zipfian` is the *scrambled* Zipfian: a Zipf(0.99) rank over 10¹⁰ + 1 items drawn by Gray's
//!   formula with the precomputed ζ = 26.46902820178302, then FNV-hashed modulo the item count
//!   (records + 2 × the expected inserts; Java adds one). Draws above the last inserted key are
//!   drawn again.
//! - `latest` is `last − Zipf(last)`, Gray's sampler over the current count, ζ grown
//!   incrementally and η kept from the first count (both clients do so).
//! - A row is `fieldcount` fields `field0 …`; both RocksDB bindings store it as, per field, a
//!   4-byte name length, the name, a 4-byte value length and the value — and both perform an
//!   update as Get, merge the fields, Put (a read-modify-write).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::math::{ln, pow};

/// YCSB's precomputed ζ(10¹⁰, 0.99), used by the scrambled Zipfian whatever the item count.
pub const SCRAMBLED_ZETAN: f64 = 26.469_028_201_783_02;
/// The Zipf items the scrambled Zipfian draws ranks from, less one (`ITEM_COUNT`, `kItemCount`).
pub const SCRAMBLED_ITEM_COUNT: u64 = 10_000_000_000;
/// The ranks the scrambled Zipfian draws over: `ZipfianGenerator(0, ITEM_COUNT)` holds one more.
pub const SCRAMBLED_RANKS: u64 = SCRAMBLED_ITEM_COUNT + 1;
/// The only Zipfian constant YCSB's scrambled Zipfian has ζ for (`USED_ZIPFIAN_CONSTANT`).
pub const ZIPFIAN_CONSTANT: f64 = 0.99;
/// Most fields a row may have here.
pub const MAX_FIELD_COUNT: u32 = 1000;
/// Most digits `zeropadding` may ask for (a u64 has at most 20).
pub const MAX_ZERO_PADDING: u32 = 64;

const FNV_OFFSET_BASIS_64: u64 = 0xCBF2_9CE4_8422_2325;
const FNV_PRIME_64: u64 = 1_099_511_628_211;

/// Whose arithmetic: the clients differ in the sign of the key hash and in the scrambled
/// Zipfian's item count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum YcsbClient {
    /// YCSB-cpp (its RocksDB binding links librocksdb directly): unsigned FNV hashes.
    #[default]
    Cpp,
    /// YCSB itself (Java, RocksDBClient over RocksJava): `Math.abs` of the signed FNV hash.
    Java,
}

/// How the client writes an existing key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum YcsbUpdates {
    /// Get the row, replace the fields, Put the whole row: what both YCSB RocksDB bindings do.
    #[default]
    ReadModifyWrite,
    /// Put only the fields the operation carries, without reading (a binding with column updates).
    Blind,
}

/// `insertorder`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum InsertOrder {
    /// Key numbers are FNV-hashed into the name: loads land all over the key space (the default).
    #[default]
    Hashed,
    /// The name holds the key number itself: loads are appends in string order (with zero padding).
    Ordered,
}

/// `fieldlengthdistribution` (YCSB-cpp: `field_len_dist`); lengths lie in [min, fieldlength].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum LengthDistribution {
    /// Every field `fieldlength` bytes.
    #[default]
    Constant,
    /// Uniform over [min, max].
    Uniform,
    /// Gray's Zipfian over [min, max] (shortest most likely).
    Zipfian,
}

/// Play the workload as YCSB's CoreWorkload does, through one of its clients (JSON `ycsb`). The
/// mix is CoreWorkload's: `get_existing` is `readproportion`, `update`, `insert`, `range`
/// (scans of a drawn length) and `read_modify_write`; deletes and zero-result lookups do not exist.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct YcsbPlay {
    /// Which client's arithmetic (`cpp`, the default, or `java`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub client: YcsbClient,
    /// How an update writes: `read_modify_write` (default, both RocksDB bindings) or `blind`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub updates: YcsbUpdates,
    /// `insertorder`: `hashed` (default) or `ordered`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub insert_order: InsertOrder,
    /// `zeropadding`: digits the key number is padded to; in [1, 64], default 1.
    #[serde(default = "one")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub zero_padding: u32,
    /// `fieldcount`: fields per row; in [1, 1000].
    pub field_count: u32,
    /// `fieldlength`: bytes per field value (the largest, for non-constant lengths); at least 1.
    pub field_length: u32,
    /// `fieldlengthdistribution`: `constant` (default), `uniform` or `zipfian`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub field_length_distribution: LengthDistribution,
    /// `minfieldlength` for uniform lengths (YCSB; YCSB-cpp always uses 1); in [1, field_length].
    #[serde(default = "one")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub min_field_length: u32,
    /// `writeallfields`: an update carries every field (true) or one random field (false, default).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub write_all_fields: bool,
    /// `minscanlength`; in [1, max_scan_length], default 1.
    #[serde(default = "one")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub min_scan_length: u32,
    /// `maxscanlength`: most records a scan reads; default 1000.
    #[serde(default = "thousand")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub max_scan_length: u32,
    /// `scanlengthdistribution`: `uniform` (default) or `zipfian`; `constant` is refused.
    #[serde(default = "uniform")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub scan_length_distribution: LengthDistribution,
}

fn one() -> u32 {
    1
}
fn thousand() -> u32 {
    1000
}
fn uniform() -> LengthDistribution {
    LengthDistribution::Uniform
}

impl YcsbPlay {
    /// CoreWorkload's defaults for `client`: 10 fields of 100 bytes, hashed inserts, scans of 1–1000.
    pub fn defaults(client: YcsbClient) -> YcsbPlay {
        YcsbPlay {
            client,
            updates: YcsbUpdates::ReadModifyWrite,
            insert_order: InsertOrder::Hashed,
            zero_padding: 1,
            field_count: 10,
            field_length: 100,
            field_length_distribution: LengthDistribution::Constant,
            min_field_length: 1,
            write_all_fields: false,
            min_scan_length: 1,
            max_scan_length: 1000,
            scan_length_distribution: LengthDistribution::Uniform,
        }
    }

    /// Checks each field; errors name it as `ycsb.<field>` with its allowed range.
    pub fn validate(&self, max_value_bytes: u32) -> Result<()> {
        let int = |field: &str, v: u32, lo: u32, hi: u32| -> Result<()> {
            if v < lo || v > hi {
                return Err(Error::invalid(field, format!("must be an integer in [{lo}, {hi}], got {v}")));
            }
            Ok(())
        };
        int("ycsb.zero_padding", self.zero_padding, 1, MAX_ZERO_PADDING)?;
        int("ycsb.field_count", self.field_count, 1, MAX_FIELD_COUNT)?;
        let names = self.row_name_bytes();
        let most = max_value_bytes.saturating_sub(names as u32) / self.field_count.max(1);
        if self.field_length < 1 || self.field_length > most {
            return Err(Error::invalid(
                "ycsb.field_length",
                format!(
                    "must be an integer in [1, {most}] (a row of {} fields is at most {max_value_bytes} bytes), got {}",
                    self.field_count, self.field_length
                ),
            ));
        }
        if self.field_length_distribution == LengthDistribution::Uniform {
            int("ycsb.min_field_length", self.min_field_length, 1, self.field_length)?;
        }
        int("ycsb.max_scan_length", self.max_scan_length, 1, 1_000_000)?;
        int("ycsb.min_scan_length", self.min_scan_length, 1, self.max_scan_length)?;
        if self.scan_length_distribution == LengthDistribution::Constant {
            return Err(Error::invalid(
                "ycsb.scan_length_distribution",
                "must be uniform or zipfian (YCSB allows no other), got constant".to_string(),
            ));
        }
        Ok(())
    }

    /// The smallest field length a draw can give.
    pub fn shortest_field(&self) -> u32 {
        match self.field_length_distribution {
            LengthDistribution::Constant => self.field_length,
            LengthDistribution::Uniform if self.client == YcsbClient::Java => self.min_field_length,
            _ => 1,
        }
    }

    /// Bytes a row spends on its field names and length prefixes (4 + name + 4 per field).
    pub fn row_name_bytes(&self) -> u64 {
        (0..self.field_count).map(|i| 8 + field_name(i).len() as u64).sum()
    }

    /// Mean bytes of a freshly written row (every field), as the bindings serialise it.
    pub fn mean_row_bytes(&self) -> f64 {
        self.row_name_bytes() as f64 + self.field_count as f64 * self.mean_field_length()
    }

    /// Mean of a field value's length under `field_length_distribution`.
    pub fn mean_field_length(&self) -> f64 {
        let (lo, hi) = (self.shortest_field() as f64, self.field_length as f64);
        match self.field_length_distribution {
            LengthDistribution::Constant => hi,
            LengthDistribution::Uniform => (lo + hi) / 2.0,
            LengthDistribution::Zipfian => {
                let items = self.field_length as u64;
                let z = GrayZipf::new(items, ZIPFIAN_CONSTANT, zeta(items, ZIPFIAN_CONSTANT));
                1.0 + (0..items).map(|k| k as f64 * z.mass(k, items)).sum::<f64>()
            }
        }
    }
}

/// `field<i>`, the i-th field's name.
pub fn field_name(i: u32) -> String {
    format!("field{i}")
}

/// FNV-1a over the 8 little-endian bytes of `value`, as both clients' `fnvhash64` computes it
/// (unsigned; Java then takes `Math.abs` — see `key_hash`).
pub fn fnv64(value: u64) -> u64 {
    let mut hash = FNV_OFFSET_BASIS_64;
    let mut v = value;
    for _ in 0..8 {
        hash ^= v & 0xff;
        hash = hash.wrapping_mul(FNV_PRIME_64);
        v >>= 8;
    }
    hash
}

/// The hash a client puts in key names and scrambles ranks with: YCSB-cpp's unsigned FNV, or
/// Java's `Math.abs` of it as a signed long (which leaves −2⁶³ negative, as Java does).
pub fn key_hash(client: YcsbClient, value: u64) -> i128 {
    let h = fnv64(value);
    match client {
        YcsbClient::Cpp => h as i128,
        YcsbClient::Java => (h as i64).wrapping_abs() as i128,
    }
}

/// The name of key number `keynum`: `user` + (hashed) number, zero-padded to `zero_padding` digits.
pub fn key_name(play: &YcsbPlay, keynum: u64, out: &mut Vec<u8>) {
    use std::io::Write as _;
    out.clear();
    out.extend_from_slice(b"user");
    let number: i128 = match play.insert_order {
        InsertOrder::Hashed => key_hash(play.client, keynum),
        InsertOrder::Ordered => keynum as i128,
    };
    let digits = number.to_string();
    for _ in digits.len()..play.zero_padding as usize {
        out.push(b'0');
    }
    let _ = write!(out, "{digits}");
}

/// The scrambled Zipfian's item count: records plus twice the expected inserts
/// (`operations × insert × 2`, truncated to an int as both clients do), Java counting one more.
pub fn scrambled_items(client: YcsbClient, records: u64, operations: u64, insert_share: f64) -> u64 {
    let new_keys = (operations as f64 * insert_share * 2.0) as i32 as i64;
    let items = records as i64 + new_keys.max(0);
    match client {
        YcsbClient::Cpp => items as u64,
        YcsbClient::Java => items as u64 + 1,
    }
}

/// ζ(n, θ) = Σ_{i=1..n} i^−θ, summed as YCSB does (one term per item).
pub fn zeta(n: u64, theta: f64) -> f64 {
    zeta_from(0, n, theta, 0.0)
}

/// ζ grown from `from` to `to` items, starting at `sum` (YCSB's incremental recomputation).
pub fn zeta_from(from: u64, to: u64, theta: f64, sum: f64) -> f64 {
    let mut s = sum;
    for i in from..to {
        s += 1.0 / pow((i + 1) as f64, theta);
    }
    s
}

/// Gray et al.'s Zipfian sampler ("Quickly generating billion-record synthetic databases",
/// SIGMOD'94) as YCSB implements it: item 0 with mass 1/ζ, item 1 with 0.5^θ/ζ, the rest by a
/// closed-form inverse. η is fixed by the item count at construction, as in both clients.
#[derive(Clone, Debug)]
pub struct GrayZipf {
    theta: f64,
    alpha: f64,
    zeta2: f64,
    zetan: f64,
    eta: f64,
    /// Items ζ was summed over, grown by `grow_to`.
    count_for_zeta: u64,
    /// Items at construction: η's (2/items) term keeps it, as YCSB's does.
    items: u64,
}

impl GrayZipf {
    /// A sampler over `items` ranks with skew `theta` (≠ 1) and ζ given (precomputed or summed).
    pub fn new(items: u64, theta: f64, zetan: f64) -> GrayZipf {
        let zeta2 = zeta(2, theta);
        let mut z =
            GrayZipf { theta, alpha: 1.0 / (1.0 - theta), zeta2, zetan, eta: 0.0, count_for_zeta: items, items };
        z.eta = z.eta_now();
        z
    }

    fn eta_now(&self) -> f64 {
        (1.0 - pow(2.0 / self.items as f64, 1.0 - self.theta)) / (1.0 - self.zeta2 / self.zetan)
    }

    /// Grows ζ to `count` items (never shrinks, as YCSB's default), updating η.
    pub fn grow_to(&mut self, count: u64) {
        if count > self.count_for_zeta {
            self.zetan = zeta_from(self.count_for_zeta, count, self.theta, self.zetan);
            self.count_for_zeta = count;
            self.eta = self.eta_now();
        }
    }

    /// The rank a uniform draw `u` in [0, 1) gives, over `count` items (YCSB's `nextLong(count)`).
    pub fn rank(&self, u: f64, count: u64) -> u64 {
        let uz = u * self.zetan;
        if uz < 1.0 {
            return 0;
        }
        if uz < 1.0 + pow(0.5, self.theta) {
            return 1;
        }
        (count as f64 * pow(self.eta * u - self.eta + 1.0, self.alpha)) as u64
    }

    /// P(rank < x) over `count` items for x ≥ 2, from inverting `rank`: the u below which the
    /// formula gives less than x, floored by the two explicit items' share.
    fn below(&self, x: f64, count: u64) -> f64 {
        let first_two = (1.0 + pow(0.5, self.theta)) / self.zetan;
        let u = 1.0 - (1.0 - pow(x / count as f64, 1.0 / self.alpha)) / self.eta;
        u.clamp(first_two, 1.0)
    }

    /// P(rank < x) over `count` items: the cumulative mass of ranks 0 … x − 1.
    pub fn cdf(&self, x: u64, count: u64) -> f64 {
        match x {
            0 => 0.0,
            1 => (1.0 / self.zetan).min(1.0),
            2 => ((1.0 + pow(0.5, self.theta)) / self.zetan).min(1.0),
            _ if x >= count => 1.0,
            _ => self.below(x as f64, count),
        }
    }

    /// A rank over the items it was built for (YCSB's `nextValue()`).
    pub fn draw(&self, u: f64) -> u64 {
        self.rank(u, self.items)
    }

    /// The probability `rank` gives `k` over `count` items (exact for Gray's formula).
    pub fn mass(&self, k: u64, count: u64) -> f64 {
        match k {
            0 => (1.0 / self.zetan).min(1.0),
            1 => ((1.0 + pow(0.5, self.theta)) / self.zetan).min(1.0) - (1.0 / self.zetan).min(1.0),
            _ => {
                let lo = if k == 2 { (1.0 + pow(0.5, self.theta)) / self.zetan } else { self.below(k as f64, count) };
                (self.below(k as f64 + 1.0, count) - lo.min(1.0)).max(0.0)
            }
        }
    }
}

/// The scrambled Zipfian's rank sampler: Gray's formula over 10¹⁰ + 1 items, with YCSB's
/// precomputed ζ at θ = 0.99 and ζ by Euler–Maclaurin otherwise (YCSB-cpp sums 10¹⁰ terms).
pub fn scrambled_ranks(theta: f64) -> GrayZipf {
    let items = SCRAMBLED_RANKS;
    let zetan = if theta == ZIPFIAN_CONSTANT { SCRAMBLED_ZETAN } else { zeta_large(items, theta) };
    GrayZipf::new(items, theta, zetan)
}

/// ζ(n, θ) for large n: 10,000 terms summed, the rest by Euler–Maclaurin (relative error < 1e-12).
pub fn zeta_large(n: u64, theta: f64) -> f64 {
    const M: u64 = 10_000;
    if n <= M {
        return zeta(n, theta);
    }
    let f = |x: f64| pow(x, -theta);
    let df = |x: f64| -theta * pow(x, -theta - 1.0);
    let (m, nf) = (M as f64, n as f64);
    let integral = (pow(nf, 1.0 - theta) - pow(m, 1.0 - theta)) / (1.0 - theta);
    zeta(M, theta) + integral + (f(nf) - f(m)) / 2.0 + (df(nf) - df(m)) / 12.0
}

/// The key number a scrambled rank lands on among `items` (Java's `%` keeps the sign of a
/// negative hash; such a number is above every key and gets drawn again, as in YCSB).
pub fn scramble(client: YcsbClient, rank: u64, items: u64) -> Option<u64> {
    let r = key_hash(client, rank) % items as i128;
    u64::try_from(r).ok()
}

/// `-ln(u)/γ` for YCSB's exponential chooser with γ = −ln(1 − percentile/100)/(records × fraction).
pub fn exponential_gamma(percentile: f64, fraction: f64, records: u64) -> f64 {
    -ln(1.0 - percentile / 100.0) / (records as f64 * fraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_clients() {
        // FNV-1a-64 of eight zero bytes: the offset basis xored and multiplied eight times.
        let mut h = FNV_OFFSET_BASIS_64;
        for _ in 0..8 {
            h = h.wrapping_mul(FNV_PRIME_64);
        }
        assert_eq!(fnv64(0), h);
        assert_eq!(fnv64(0), 0xA8C7_F832_281A_39C5);
        // Java's Math.abs of the signed value.
        assert_eq!(key_hash(YcsbClient::Java, 0), (0xA8C7_F832_281A_39C5u64 as i64).wrapping_abs() as i128);
    }

    #[test]
    fn first_keys_of_a_load_are_the_ones_ycsb_writes() {
        // "user6284781860667377211" is the first key every YCSB (Java) load writes; YCSB-cpp's
        // unsigned hash of the same number gives 20 digits.
        let mut key = Vec::new();
        key_name(&YcsbPlay::defaults(YcsbClient::Java), 0, &mut key);
        assert_eq!(key, b"user6284781860667377211");
        key_name(&YcsbPlay::defaults(YcsbClient::Cpp), 0, &mut key);
        assert_eq!(key, b"user12161962213042174405");
        let ordered =
            YcsbPlay { insert_order: InsertOrder::Ordered, zero_padding: 8, ..YcsbPlay::defaults(YcsbClient::Java) };
        key_name(&ordered, 5, &mut key);
        assert_eq!(key, b"user00000005");
    }

    #[test]
    fn gray_masses_sum_to_one_and_follow_rank() {
        let z = GrayZipf::new(1000, 0.99, zeta(1000, 0.99));
        let total: f64 = (0..1000).map(|k| z.mass(k, 1000)).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        assert!(z.mass(0, 1000) > z.mass(1, 1000) && z.mass(1, 1000) > z.mass(5, 1000));
    }

    #[test]
    fn euler_maclaurin_zeta_matches_the_sum_and_ycsbs_constant() {
        let summed = zeta(200_000, 0.99);
        assert!((zeta_large(200_000, 0.99) / summed - 1.0).abs() < 1e-12);
        // YCSB's ζ(10¹⁰, 0.99), computed once by summing every term.
        assert!((zeta_large(SCRAMBLED_ITEM_COUNT, 0.99) / SCRAMBLED_ZETAN - 1.0).abs() < 1e-9);
    }

    #[test]
    fn rows_are_serialised_as_the_bindings_do() {
        let p = YcsbPlay::defaults(YcsbClient::Cpp);
        // 10 × (4 + "fieldN" 6 + 4 + 100).
        assert_eq!(p.mean_row_bytes(), 1140.0);
        assert_eq!(p.row_name_bytes(), 140);
    }

    #[test]
    fn errors_name_the_field() {
        let mut p = YcsbPlay::defaults(YcsbClient::Java);
        p.field_count = 0;
        assert_eq!(
            p.validate(60_000).unwrap_err().to_string(),
            "ycsb.field_count: must be an integer in [1, 1000], got 0"
        );
        let mut p = YcsbPlay::defaults(YcsbClient::Java);
        p.field_length = 7000;
        assert!(
            p.validate(60_000)
                .unwrap_err()
                .to_string()
                .starts_with("ycsb.field_length: must be an integer in [1, 5986]")
        );
        let mut p = YcsbPlay::defaults(YcsbClient::Java);
        p.min_scan_length = 2000;
        assert_eq!(
            p.validate(60_000).unwrap_err().to_string(),
            "ycsb.min_scan_length: must be an integer in [1, 1000], got 2000"
        );
    }
}
