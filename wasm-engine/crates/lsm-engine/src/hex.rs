//! Keys as lowercase hex: how the manifest records round-robin cursors and how the tree names a
//! table's key range (as RocksDB's `GetLiveFilesMetaData` gives `smallestkey` in hex).

/// `bytes` as lowercase hex, two digits a byte.
pub(crate) fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of a hex string; `None` if it is not pairs of hex digits.
pub(crate) fn decode_hex(s: &str) -> Option<Vec<u8>> {
    (0..s.len()).step_by(2).map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_odd_or_foreign_digits() {
        assert_eq!(encode_hex(&[0x00, 0x7f, 0xff]), "007fff");
        assert_eq!(decode_hex("007fff"), Some(vec![0x00, 0x7f, 0xff]));
        assert_eq!(decode_hex("0g"), None);
        assert_eq!(decode_hex("abc"), None);
    }
}
