/**
 * The one check every importer makes before a file's content is read: its size against what the
 * format can hold, and whether its first bytes are text at all. It sees the file's name, size and
 * first `HEAD_BYTES` bytes only, so a 20 MB binary file is refused in the time it takes to read
 * 64 KiB, and nothing of it reaches the page. Pure: `ui/controls/readTextFile.ts` feeds it.
 */

/** What a file is expected to be: how it is named in messages, what an empty one lacks, how large it may be. */
export interface TextFileKind {
  /** "OPTIONS file", "workload", … — starts the empty-file message ("empty OPTIONS file"). */
  what: string;
  /** What an empty file is missing, said after its name: "no [DBOptions] or [CFOptions] section, no key=value line". */
  missing: string;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
}

const MIB = 1_048_576;

/** A RocksDB OPTIONS file (RocksDB writes 10–60 KB per column family), as Tune and Export read it. */
export const OPTIONS_FILE: TextFileKind = {
  what: 'OPTIONS file',
  missing: 'no [DBOptions] or [CFOptions] section and no key=value line to read',
  maxBytes: MIB,
};
/** An engine config (JSON) or a RocksDB OPTIONS file: Export & import's design. */
export const DESIGN_FILE: TextFileKind = {
  what: 'design file',
  missing: 'no engine config JSON and no RocksDB OPTIONS section to read',
  maxBytes: MIB,
};
/** A YCSB properties file, a Workload JSON or a KVBench trace (fitted). */
export const WORKLOAD_FILE: TextFileKind = {
  what: 'workload',
  missing: 'no YCSB properties (recordcount=…, readproportion=…), no Workload JSON and no trace lines (I k v, Q k, …)',
  maxBytes: 256 * MIB,
};
/** A RocksDB LOG (its stats dumps), which Tune fits a workload to. */
export const LOG_FILE: TextFileKind = {
  what: 'RocksDB LOG',
  missing: 'no "------- DUMPING STATS -------" block to read',
  maxBytes: 256 * MIB,
};
/** A KVBench trace the Lab runs. */
export const TRACE_FILE: TextFileKind = {
  what: 'trace',
  missing: 'no operation lines (I k v, U k v, D k, Q k, S a b)',
  maxBytes: 256 * MIB,
};
/** A Lab report (JSON) with its design and workload. */
export const REPORT_FILE: TextFileKind = {
  what: 'report',
  missing: 'no report JSON ({"kind": "lsm-navigator/report", …})',
  maxBytes: 64 * MIB,
};
/** Anything the Lab's document box takes: a design, a workload, a report or a trace. */
export const LAB_DOCUMENT_FILE: TextFileKind = {
  what: 'document',
  missing: 'no design, workload, report or trace to read',
  maxBytes: 256 * MIB,
};

/** How many of a file's first bytes the check reads. */
export const HEAD_BYTES = 65_536;

function article(what: string): string {
  return /^[aeiouAEIOU]/.test(what) ? 'an' : 'a';
}

function sizeText(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/**
 * Why `head` (a file's first bytes) is not text, or null if it is: a NUL byte, more than 1% of
 * control characters other than tab, newline, carriage return and form feed, or bytes that are not
 * UTF-8 (a multi-byte character cut at the end of `head` is allowed when `truncated`).
 */
export function binaryProblem(head: Uint8Array, truncated: boolean): string | null {
  let controls = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b === 0) return `a NUL byte at offset ${i}`;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) || b === 0x7f) controls++;
  }
  if (head.length > 0 && controls / head.length > 0.01) return `${controls} control bytes in its first ${head.length}`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: truncated });
  } catch {
    return 'bytes that are not UTF-8 text';
  }
  return null;
}

/**
 * Why a file named `name`, `size` bytes long, whose first bytes are `head`, cannot be read as
 * `kind`, or null if it can. The message starts with what the file is.
 */
export function textFileProblem(name: string, size: number, head: Uint8Array, kind: TextFileKind): string | null {
  if (size === 0) return `${name}: empty ${kind.what} (0 bytes): ${kind.missing}`;
  const binary = binaryProblem(head, size > head.length);
  if (binary) return `${name} is not a text file (${binary}); ${article(kind.what)} ${kind.what} is text, so it was not read`;
  if (size > kind.maxBytes)
    return `${name} is ${sizeText(size)}; ${article(kind.what)} ${kind.what} is at most ${sizeText(kind.maxBytes)}, so it was not read`;
  return null;
}

/** The message for text that holds nothing but white space (a file of blank lines, or an empty paste). */
export function blankTextProblem(name: string, kind: TextFileKind): string {
  return `${name}: empty ${kind.what} (only blank lines): ${kind.missing}`;
}
