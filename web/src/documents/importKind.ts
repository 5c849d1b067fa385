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
