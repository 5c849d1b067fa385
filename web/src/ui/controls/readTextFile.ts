/**
 * Every importer's way to read a file the user picked: the shared size-and-type check
 * (`documents/fileCheck.ts`) on the file's size and first 64 KiB, and only then its text. A file
 * that fails the check is never read whole, so it never reaches a textarea or the engine.
 */
import { blankTextProblem, HEAD_BYTES, textFileProblem, type TextFileKind } from '../../documents/fileCheck';

/** A file the check refused; its message says why, starting with the file's name. */
export class FileRefused extends Error {
  override name = 'FileRefused';
}

/** The text of `file`, or a FileRefused error saying why it is not a `kind` (too large, binary, empty). */
export async function readTextFile(file: Blob & { name: string }, kind: TextFileKind): Promise<string> {
  const head = file.size === 0 ? new Uint8Array(0) : new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  const problem = textFileProblem(file.name, file.size, head, kind);
  if (problem) throw new FileRefused(problem);
  const text = await file.text();
  if (text.trim() === '') throw new FileRefused(blankTextProblem(file.name, kind));
  return text;
}
