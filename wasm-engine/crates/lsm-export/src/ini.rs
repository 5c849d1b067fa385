//! RocksDB's dialect of INI, read the way `RocksDBOptionsParser` reads an OPTIONS file:
//!
//! * one statement per line; `#` starts a comment unless escaped as `\#`;
//! * whitespace around names and values is trimmed;
//! * sections are `[Title]` or `[Title "argument"]` (the argument sits between the first and the
//!   last double quote);
//! * a statement is `name=value`, split at the first `=`;
//! * a name repeated within a section keeps its FIRST value (RocksDB inserts into a map without
//!   overwriting), which `Section::get` mirrors;
//! * values stay escaped: `unescape`, `split_list` (colon-separated lists) and `parse_struct`
//!   (nested `{name=value;...}` values) decode them.
//!
//! Statements before the first section are kept apart (`preamble`): RocksDB skips them silently,
//! an importer should report them.

use lsm_core::error::{Error, Result};

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Ini {
    pub preamble: Vec<Entry>,
    pub sections: Vec<Section>,
    /// Whole-line comments, in file order (text after the `#`, trimmed).
    pub comments: Vec<Comment>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Section {
    pub title: String,
    pub argument: Option<String>,
    /// 1-based line of the `[...]` header.
    pub line: usize,
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Entry {
    pub name: String,
    pub value: String,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Comment {
    pub line: usize,
    pub text: String,
}

fn parse_error(line: usize, message: impl Into<String>) -> Error {
    Error::Parse { document: "RocksDB OPTIONS".into(), message: format!("line {line}: {}", message.into()) }
}

/// The part of `line` before an unescaped `#`, trimmed.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let end = (0..bytes.len()).find(|&i| bytes[i] == b'#' && (i == 0 || bytes[i - 1] != b'\\')).unwrap_or(bytes.len());
    line[..end].trim()
}

impl Ini {
    pub(crate) fn parse(text: &str) -> Result<Ini> {
        let mut ini = Ini::default();
        for (idx, raw) in text.lines().enumerate() {
            let line_no = idx + 1;
            let trimmed = raw.trim();
            if let Some(comment) = trimmed.strip_prefix('#') {
                ini.comments.push(Comment { line: line_no, text: comment.trim().to_string() });
                continue;
            }
            let line = strip_comment(raw);
            if line.is_empty() {
                continue;
            }
            if line.len() >= 2 && line.starts_with('[') && line.ends_with(']') {
                ini.sections.push(parse_section(line, line_no));
                continue;
            }
            let (name, value) =
                line.split_once('=').ok_or_else(|| parse_error(line_no, "a statement must have a '='"))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(parse_error(line_no, "a statement must have a name before '='"));
            }
            let entry = Entry { name: name.to_string(), value: value.trim().to_string(), line: line_no };
            match ini.sections.last_mut() {
                Some(section) => section.entries.push(entry),
                None => ini.preamble.push(entry),
            }
        }
        Ok(ini)
    }

    /// The first section titled `title` whose argument is `argument`.
    pub(crate) fn section(&self, title: &str, argument: Option<&str>) -> Option<&Section> {
        self.sections.iter().find(|s| s.title == title && s.argument.as_deref() == argument)
    }
}

fn parse_section(line: &str, line_no: usize) -> Section {
    let inner = &line[1..line.len() - 1];
    let (title, argument) = match (inner.find('"'), inner.rfind('"')) {
        (Some(open), Some(close)) if open != close => {
            (inner[..open].trim().to_string(), Some(unescape(&inner[open + 1..close])))
        }
        _ => (inner.trim().to_string(), None),
    };
    Section { title, argument, line: line_no, entries: Vec::new() }
}

impl Section {
    /// The value of `name`; the first statement wins, as in RocksDB.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.entry(name).map(|e| e.value.as_str())
    }

    /// The statement that sets `name` (the first, as in RocksDB), with its line for messages.
    pub(crate) fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// `Title "argument"` as written in the header, for messages.
    pub(crate) fn label(&self) -> String {
        match &self.argument {
            Some(a) => format!("{} \"{a}\"", self.title),
            None => self.title.clone(),
        }
    }
}

/// Decode RocksDB's escapes: `\n`, `\r` and a backslash before any other character.
pub(crate) fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
/// Escape a string for an OPTIONS value or section argument.
pub(crate) fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' | ':' | '#' | '"' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// A colon-separated list (`1:1:10:10`); `\:` is a literal colon.
pub(crate) fn split_list(value: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let (Some(next), Some(last)) = (chars.next(), items.last_mut()) {
                    last.push(next);
                }
            }
            ':' => items.push(String::new()),
            _ => {
                if let Some(last) = items.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    items.into_iter().map(|s| s.trim().to_string()).collect()
}

/// A nested value `{a=1;b={c=2};}` as `name=value` pairs in order. Outer braces are optional
/// and stripped (as RocksDB's `StringToMap` does); a nested value is returned without its braces.
pub(crate) fn parse_struct(value: &str) -> Result<Vec<(String, String)>> {
    let bad = |message: String| Error::Parse { document: "RocksDB option value".into(), message };
    if value.matches('{').count() != value.matches('}').count() {
        return Err(bad(format!("unbalanced braces in \"{value}\"")));
    }
    let mut s = value.trim();
    while s.len() >= 2 && s.starts_with('{') && s.ends_with('}') && matching_brace(s, 0) == Some(s.len() - 1) {
        s = s[1..s.len() - 1].trim();
    }
    let mut pairs = Vec::new();
    let mut rest = s;
    while !rest.trim().is_empty() {
        let (name, after) = rest.split_once('=').ok_or_else(|| bad(format!("'{rest}' has no '=' in \"{value}\"")))?;
        let after = after.trim_start();
        let (field, remainder) = if after.starts_with('{') {
            let close = matching_brace(after, 0).ok_or_else(|| bad(format!("unbalanced '{{' in \"{value}\"")))?;
            let tail = after[close + 1..].trim_start();
            let tail = match tail.strip_prefix(';') {
                Some(t) => t,
                None if tail.is_empty() => tail,
                None => return Err(bad(format!("expected ';' after '}}' in \"{value}\""))),
            };
            (after[1..close].trim(), tail)
        } else {
            match after.find(';') {
                Some(semi) => (after[..semi].trim(), &after[semi + 1..]),
                None => (after.trim(), ""),
            }
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(bad(format!("a field has no name in \"{value}\"")));
        }
        pairs.push((name.to_string(), field.to_string()));
        rest = remainder;
    }
    Ok(pairs)
}

/// Index of the `}` closing the `{` at `open`.
fn matching_brace(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in s.bytes().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sections_statements_and_comments_like_rocksdb() {
        let text = "# header\n[Version]\n  rocksdb_version=7.0.0\n\n[DBOptions]\n  create_if_missing = true # why\n\
                    [CFOptions \"default\"]\n  write_buffer_size=1024\n  write_buffer_size=2048\n  \
                    compaction_options_universal={size_ratio=1;min_merge_width=4;}\n\
                    [TableOptions/BlockBasedTable \"default\"]\n  filter_policy=bloomfilter:10:false\n";
        let ini = Ini::parse(text).unwrap();
        assert_eq!(ini.comments, vec![Comment { line: 1, text: "header".into() }]);
        assert_eq!(ini.sections.len(), 4);
        assert_eq!(ini.section("DBOptions", None).unwrap().get("create_if_missing"), Some("true"));
        let cf = ini.section("CFOptions", Some("default")).unwrap();
        assert_eq!(cf.get("write_buffer_size"), Some("1024"), "the first value wins");
        let t = ini.section("TableOptions/BlockBasedTable", Some("default")).unwrap();
        assert_eq!(t.get("filter_policy"), Some("bloomfilter:10:false"));
        assert_eq!(t.label(), "TableOptions/BlockBasedTable \"default\"");
        let u = parse_struct(cf.get("compaction_options_universal").unwrap()).unwrap();
        assert_eq!(u, vec![("size_ratio".into(), "1".into()), ("min_merge_width".into(), "4".into())]);
    }

    #[test]
    fn escaped_hash_is_not_a_comment_and_lists_split_on_unescaped_colons() {
        let ini = Ini::parse("[DBOptions]\n  wal_dir=/a\\#b # c\n").unwrap();
        let v = ini.section("DBOptions", None).unwrap().get("wal_dir").unwrap();
        assert_eq!(v, "/a\\#b");
        assert_eq!(unescape(v), "/a#b");
        assert_eq!(split_list("1:2: 10 :a\\:b"), vec!["1", "2", "10", "a:b"]);
        assert_eq!(unescape(&escape("x:y#z\n")), "x:y#z\n");
    }

    #[test]
    fn nested_values_keep_their_inner_structs() {
        let p = parse_struct("{a=1; b={c=2;d={e=3}}; f = x ;}").unwrap();
        assert_eq!(p, vec![("a".into(), "1".into()), ("b".into(), "c=2;d={e=3}".into()), ("f".into(), "x".into())]);
        assert!(parse_struct("{a=1;b={c=2}").is_err());
        assert!(parse_struct("a").is_err());
        assert_eq!(parse_struct("capacity=8M;high_pri_pool_ratio=0.5").unwrap().len(), 2);
    }

    #[test]
    fn statements_without_equals_are_errors_naming_the_line() {
        let e = Ini::parse("[DBOptions]\n\n  oops\n").unwrap_err().to_string();
        assert_eq!(e, "RocksDB OPTIONS: line 3: a statement must have a '='");
        let e = Ini::parse("[DBOptions]\n =1\n").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
    }

    #[test]
    fn statements_before_any_section_are_kept_apart() {
        let ini = Ini::parse("stray=1\n[DBOptions]\n").unwrap();
        assert_eq!(ini.preamble.len(), 1);
        assert!(ini.sections[0].entries.is_empty());
    }
}
