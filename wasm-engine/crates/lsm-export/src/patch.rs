//! The user's own OPTIONS file with exactly the recommended options set. Every other line —
//! compression, `max_write_buffer_number`, the options the tool does not model, comments, blank
//! lines, line endings — stays byte for byte: a recommendation is the user's file with a diff
//! applied, never the exporter's file in its place.

use lsm_core::error::Result;

use super::ini::Ini;

/// One option to set: its section as the exporter names it (`CFOptions "default"`,
/// `TableOptions/BlockBasedTable "default"`), its name and its new value (already in OPTIONS
/// notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionEdit<'a> {
    /// `Title` or `Title "argument"`, as between the brackets.
    pub section: &'a str,
    /// The option's name.
    pub option: &'a str,
    /// Its value, as the file will say it.
    pub value: &'a str,
}

/// `original` with each of `edits` applied: an option the section sets gets its new value on its
/// own line (its indentation kept; the first statement, which RocksDB reads); one it does not set
/// is added after the section's last statement; a section the file lacks is added at its end.
/// With no edits the text comes back unchanged. Errors if `original` is not an OPTIONS file.
pub fn with_options(original: &str, edits: &[OptionEdit<'_>]) -> Result<String> {
    if edits.is_empty() {
        return Ok(original.to_string());
    }
    let ini = Ini::parse(original)?;
    // Lines with their endings, so that untouched lines are copied exactly.
    let lines: Vec<&str> = original.split_inclusive('\n').collect();
    let eol = if original.contains("\r\n") { "\r\n" } else { "\n" };
    let mut replaced: Vec<Option<String>> = vec![None; lines.len()];
    let mut added_after: Vec<Vec<String>> = vec![Vec::new(); lines.len()];
    let mut new_sections: Vec<(String, Vec<String>)> = Vec::new();
    for edit in edits {
        let Some(section) = ini.sections.iter().find(|s| s.label() == edit.section) else {
            match new_sections.iter_mut().find(|(name, _)| name == edit.section) {
                Some((_, body)) => body.push(format!("  {}={}", edit.option, edit.value)),
                None => {
                    new_sections.push((edit.section.to_string(), vec![format!("  {}={}", edit.option, edit.value)]))
                }
            }
            continue;
        };
        match section.entry(edit.option) {
            Some(entry) => {
                let i = entry.line - 1;
                let line = lines[i];
                let indent = &line[..line.len() - line.trim_start().len()];
                let ending = &line[line.trim_end_matches(['\r', '\n']).len()..];
                replaced[i] = Some(format!("{indent}{}={}{ending}", edit.option, edit.value));
            }
            None => {
                let last = section.entries.last().map_or(section.line, |e| e.line) - 1;
                let indent = section.entries.first().map_or("  ", |e| {
                    let line = lines[e.line - 1];
                    &line[..line.len() - line.trim_start().len()]
                });
                added_after[last].push(format!("{indent}{}={}", edit.option, edit.value));
            }
        }
    }
    let mut out = String::with_capacity(original.len() + 64 * edits.len());
    for (i, line) in lines.iter().enumerate() {
        out.push_str(replaced[i].as_deref().unwrap_or(line));
        for added in &added_after[i] {
            if !out.ends_with('\n') {
                out.push_str(eol);
            }
            out.push_str(added);
            out.push_str(eol);
        }
    }
    for (name, body) in new_sections {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        out.push_str(&format!("{eol}[{name}]{eol}"));
        for line in body {
            out.push_str(&line);
            out.push_str(eol);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# mine\n[Version]\n  rocksdb_version=7.8.3\n\n[DBOptions]\n  create_if_missing=true\n\n\
                        [CFOptions \"default\"]\n  compression=kSnappyCompression\n  write_buffer_size=67108864\n\
                        \tmax_write_buffer_number=3\n\n[TableOptions/BlockBasedTable \"default\"]\n  block_size=4096\n";

    fn edit<'a>(section: &'a str, option: &'a str, value: &'a str) -> OptionEdit<'a> {
        OptionEdit { section, option, value }
    }

    #[test]
    fn only_the_edited_options_change_and_every_other_byte_stays() {
        let cf = "CFOptions \"default\"";
        let table = "TableOptions/BlockBasedTable \"default\"";
        let out = with_options(
            FILE,
            &[edit(cf, "write_buffer_size", "33554432"), edit(table, "filter_policy", "bloomfilter:10:false")],
        )
        .expect("patches");
        let before: Vec<&str> = FILE.lines().collect();
        let after: Vec<&str> = out.lines().collect();
        // One line replaced in place, one added at the end of its section.
        assert_eq!(after.len(), before.len() + 1);
        assert_eq!(after[9], "  write_buffer_size=33554432");
        assert_eq!(after[14], "  filter_policy=bloomfilter:10:false");
        let changed: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
        assert_eq!(changed, vec![9], "{out}");
        assert!(out.contains("  compression=kSnappyCompression\n") && out.contains("\tmax_write_buffer_number=3\n"));
    }

    #[test]
    fn no_edits_give_the_file_back_and_a_missing_section_is_added() {
        assert_eq!(with_options(FILE, &[]).expect("unchanged"), FILE);
        let out = with_options("[DBOptions]\r\n  a=1\r\n", &[edit("CFOptions \"default\"", "write_buffer_size", "1")])
            .expect("patches");
        assert_eq!(out, "[DBOptions]\r\n  a=1\r\n\r\n[CFOptions \"default\"]\r\n  write_buffer_size=1\r\n");
        assert!(with_options("  = 1\n", &[edit("DBOptions", "a", "1")]).is_err());
    }
}
