import { describe, expect, it } from 'vitest';
import { binaryProblem, HEAD_BYTES, OPTIONS_FILE, textFileProblem, WORKLOAD_FILE } from '../src/documents/fileCheck';

const enc = new TextEncoder();

describe('the shared file check', () => {
  it('names what an empty file is missing', () => {
    expect(textFileProblem('OPTIONS-1', 0, new Uint8Array(0), OPTIONS_FILE)).toBe(
      'OPTIONS-1: empty OPTIONS file (0 bytes): no [DBOptions] or [CFOptions] section and no key=value line to read',
    );
    expect(textFileProblem('w.properties', 0, new Uint8Array(0), WORKLOAD_FILE)).toMatch(/^w\.properties: empty workload \(0 bytes\): no YCSB properties/);
  });
  it('refuses a file larger than its kind holds, from its size alone', () => {
    expect(textFileProblem('big', 20 * 1_048_576, enc.encode('a=1\n'), OPTIONS_FILE)).toBe('big is 20.0 MiB; an OPTIONS file is at most 1.0 MiB, so it was not read');
  });
  it('refuses random bytes and accepts text, UTF-8 included', () => {
    let x = 12345;
    const random = new Uint8Array(HEAD_BYTES).map(() => ((x = (x * 1103515245 + 12345) >>> 0) >>> 24));
    expect(textFileProblem('r.bin', 20_000_000, random, WORKLOAD_FILE)).toMatch(/^r\.bin is not a text file \(/);
    expect(binaryProblem(enc.encode('[DBOptions]\n  max_open_files=-1\n# θ = 0.99\r\n'), false)).toBeNull();
    // A multi-byte character cut at the end of the head is not a reason to refuse.
    const cut = enc.encode('key=θ').slice(0, -1);
    expect(binaryProblem(cut, true)).toBeNull();
    expect(binaryProblem(cut, false)).toBe('bytes that are not UTF-8 text');
    expect(binaryProblem(enc.encode('a\u0000b'), false)).toBe('a NUL byte at offset 1');
    expect(binaryProblem(new Uint8Array([0xff, 0xfe, 0x41]), false)).toBe('bytes that are not UTF-8 text');
  });
});
