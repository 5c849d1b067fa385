/**
 * The host's steal time, sampled beside a benchmark: how long the hypervisor kept each of this
 * virtual machine's cores from running it (`/proc/stat`'s `steal`, in ticks of 10 ms).
 *
 * Why: on a shared VM a thread can stand still for tens of milliseconds without being descheduled
 * by Linux, using no CPU, while the host runs something else (measured here: block I/O makes the
 * host take 20–60 ms at a time). An insert that spans such a moment is slow whatever the store
 * does, so the bench prints the steal next to every insert-latency tail, and for the engine (which
 * reports when its slowest insert ended, on CLOCK_MONOTONIC) the steal inside that insert.
 *
 * `startHostSteal()` runs this file as a separate process (the bench's own children run under
 * `spawnSync`, which blocks this one) that appends a line per change, `<CLOCK_MONOTONIC ns> <core
 * 0's ticks> <core 1's> …`, to a file; `stop()` ends it and returns the summary.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How often the sampler reads `/proc/stat`: once per tick of the steal counter. It then costs 2.7% of
 * one core (an idle Node timer at this rate, 1.2%); every 5 ms cost 3.7%.
 */
const SAMPLE_MS = 10;
/** The counter's unit (USER_HZ = 100 on Linux). */
const TICK_MS = 10;
/** The window in which `longestMs` counts one core's steal. */
const WINDOW_MS = 100;

/** Per-core steal ticks, or null where `/proc/stat` has no steal column (not Linux, or too old). */
export function readSteal(text = fs.readFileSync('/proc/stat', 'utf8')) {
  const cores = [...text.matchAll(/^cpu\d+ (.*)$/gm)].map((m) => m[1].trim().split(/\s+/).map(Number));
  if (cores.length === 0 || cores.some((c) => c.length < 8)) return null;
  // user nice system idle iowait irq softirq steal …
  return cores.map((c) => c[7]);
}

/**
 * What a list of samples `[[t_ns, [ticks per core]], …]` says: the steal of all cores in ms, the
 * most one core lost within any `WINDOW_MS`, and `within(t0, t1)`: the most one core lost between
 * two CLOCK_MONOTONIC instants (ns), widened by a tick either side (the counter moves at ticks).
 */
export function summarise(samples) {
  if (samples.length < 2) return { totalMs: 0, longestMs: 0, within: () => 0 };
  const first = samples[0][1];
  const last = samples.at(-1)[1];
  const totalMs = last.reduce((s, v, i) => s + (v - first[i]) * TICK_MS, 0);
  // Ticks of a core at the last sample at or before t (the first sample if none is).
  const at = (t, core) => {
    let v = samples[0][1][core];
    for (const [ts, ticks] of samples) {
      if (ts > t) break;
      v = ticks[core];
    }
    return v;
  };
  const within = (t0, t1) =>
    Math.max(...first.map((_, core) => (at(t1 + TICK_MS * 1e6, core) - at(t0 - TICK_MS * 1e6, core)) * TICK_MS));
  let longestMs = 0;
  for (const [t] of samples) longestMs = Math.max(longestMs, within(t, t + WINDOW_MS * 1e6 - 2 * TICK_MS * 1e6));
  return { totalMs, longestMs, within };
}

/** Start sampling; `stop()` returns `summarise`'s result, or null where there is no steal counter. */
export function startHostSteal() {
  if (readSteal() === null) return { stop: () => null };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'host-steal-')), 'samples');
  fs.writeFileSync(file, '');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), file], { stdio: 'ignore' });
  child.unref();
  // The sampler's first line, so that the span measured starts here.
  const deadline = Date.now() + 5000;
  while (fs.statSync(file).size === 0 && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  return {
    stop() {
      child.kill();
      const end = [Number(process.hrtime.bigint()), readSteal()];
      const samples = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.endsWith(';'))
        .map((l) => {
          const [t, ...ticks] = l.slice(0, -1).split(' ').map(Number);
          return [t, ticks];
        })
        .concat([end]);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      return summarise(samples);
    },
  };
}

/** The sampler: a line whenever a core's steal moves (and the first), each ended by `;`. */
function sample(file) {
  let previous = '';
  // One descriptor read again from offset 0 (18 µs a read here, against 60 µs opening it each time),
  // and only its head, where the core lines are.
  const stat = fs.openSync('/proc/stat', 'r');
  const head = Buffer.alloc(1 << 16);
  const tick = () => {
    const steal = readSteal(head.toString('latin1', 0, fs.readSync(stat, head, 0, head.length, 0)).replace(/\n[^\n]*$/, '\n'));
    if (steal === null) return;
    const key = steal.join(' ');
    if (key !== previous) {
      fs.appendFileSync(file, `${process.hrtime.bigint()} ${key};\n`);
      previous = key;
    }
  };
  tick();
  setInterval(tick, SAMPLE_MS);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) sample(process.argv[2]);
