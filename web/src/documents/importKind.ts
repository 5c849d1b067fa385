/** Which reader a pasted or uploaded design needs. Pure. */

export type ImportKind = 'engine' | 'rocksdb';

/**
 * Engine JSON when the file is `.json` or the text is a JSON object; a RocksDB OPTIONS file (INI)
 * otherwise. The user can still switch: this only picks the starting point.
 */
export function detectImportKind(text: string, fileName?: string): ImportKind {
  if (fileName && /\.json$/i.test(fileName)) return 'engine';
  if (fileName && /(^OPTIONS|\.ini$)/i.test(fileName)) return 'rocksdb';
  return text.trimStart().startsWith('{') ? 'engine' : 'rocksdb';
}

/** A YCSB workload properties file: `name=value` lines naming CoreWorkload properties. */
export function looksLikeYcsb(text: string): boolean {
  return /^\s*(workload|recordcount|operationcount|readproportion|updateproportion|insertproportion|scanproportion|requestdistribution)\s*[=:\s]/m.test(text);
}

/** A KVBench trace: operation lines `I k v`, `U k v`, `D k`, `Q k`, `S a b` (and # comments). */
export function looksLikeTrace(text: string): boolean {
  const lines = text.split('\n', 50).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  return lines.length > 0 && lines.every((l) => /^[IUDQS] \S/.test(l));
}
