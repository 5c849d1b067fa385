/**
 * scripts/system.mjs decides what to install and how, without touching the machine: files that
 * do not exist, apt-get and sudo replaced by recorders. Run by `npm test` (lint suite):
 * `node --test scripts/system.test.mjs`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ensureSystemPackages, missingPackages, SYSTEM_NEEDS } from './system.mjs';

/** A machine with `present` files, apt-get, and `status(argv)` as each command's exit status. */
function machine({ present = [], isRoot = true, commands = ['apt-get', 'sudo'], status = () => 0, installs = {} } = {}) {
  const files = new Set(present);
  const calls = [];
  const lines = [];
  return {
    calls,
    lines,
    options: {
      exists: (f) => files.has(f),
      isRoot,
      hasCommand: (c) => commands.includes(c),
      log: (line) => lines.push(line),
      dryRun: false,
      run: (cmd, args, env) => {
        const argv = [cmd, ...args];
        calls.push(argv);
        assert.equal(env.DEBIAN_FRONTEND, 'noninteractive');
        const code = status(argv);
        // A successful install puts the packages' files in place.
        if (code === 0 && argv.includes('install')) for (const f of Object.keys(installs)) if (argv.includes(installs[f])) files.add(f);
        return code;
      },
    },
  };
}

const ALL_FILES = Object.values(SYSTEM_NEEDS).flatMap((needs) => needs.map((n) => n.file));
const PROVIDES = Object.fromEntries(Object.values(SYSTEM_NEEDS).flatMap((needs) => needs.map((n) => [n.file, n.pkg])));

test('nothing is installed when every file is there, and suites without needs need nothing', () => {
  const m = machine({ present: ALL_FILES });
  assert.equal(ensureSystemPackages(['rust', 'e2e', 'rocksdb', 'leveldb'], m.options), true);
  assert.equal(ensureSystemPackages(['rust', 'models', 'web'], machine().options), true);
  assert.deepEqual(m.calls, []);
});

test('missing files map to their packages, once each, with the suites that need them', () => {
  const missing = missingPackages(['rocksdb', 'leveldb'], { exists: (f) => f === '/usr/bin/db_bench' });
  assert.deepEqual(
    missing.map((m) => [m.pkg, m.suites]),
    [
      ['librocksdb-dev', ['rocksdb']],
      ['g++', ['rocksdb', 'leveldb']],
      ['libleveldb-dev', ['leveldb']],
    ],
  );
});

test('as root: apt-get install -y of exactly what is missing, and the suites then have their files', () => {
  const m = machine({ present: ['/usr/bin/g++'], installs: PROVIDES });
  assert.equal(ensureSystemPackages(['e2e', 'leveldb'], m.options), true);
  assert.deepEqual(m.calls, [['apt-get', 'install', '-y', '-q', 'chromium', 'libleveldb-dev']]);
  assert.ok(m.lines.some((l) => l.includes('/usr/bin/chromium') && l.includes('e2e suite')));
});

test('not root: through sudo, with DEBIAN_FRONTEND on the command line (sudo drops the environment)', () => {
  const m = machine({ isRoot: false, installs: PROVIDES, present: ALL_FILES.filter((f) => f !== '/usr/bin/chromium') });
  assert.equal(ensureSystemPackages(['e2e'], m.options), true);
  assert.deepEqual(m.calls, [['sudo', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', 'chromium']]);
});

test('a failed install updates the package lists and tries again', () => {
  let updated = false;
  const m = machine({
    installs: PROVIDES,
    status: (argv) => {
      if (argv.includes('update')) updated = true;
      return argv.includes('install') && !updated ? 100 : 0;
    },
  });
  assert.equal(ensureSystemPackages(['leveldb'], m.options), true);
  assert.deepEqual(m.calls, [
    ['apt-get', 'install', '-y', '-q', 'libleveldb-dev', 'g++'],
    ['apt-get', 'update', '-q'],
    ['apt-get', 'install', '-y', '-q', 'libleveldb-dev', 'g++'],
  ]);
});

test('when installing fails for good, it says what to run and reports failure', () => {
  const m = machine({ isRoot: false, status: () => 100 });
  assert.equal(ensureSystemPackages(['rocksdb'], m.options), false);
  assert.equal(m.calls.length, 2); // install, then update (failed: no second install)
  assert.ok(m.lines.some((l) => l.includes('sudo apt-get update && sudo apt-get install -y rocksdb-tools librocksdb-dev g++')));
});

test('an install that succeeds but leaves a file missing is a failure', () => {
  const m = machine();
  assert.equal(ensureSystemPackages(['e2e'], m.options), false);
  assert.ok(m.lines.some((l) => l.includes('still missing: /usr/bin/chromium')));
});

test('without apt-get, or without root and sudo, it runs nothing and says what to install', () => {
  const noApt = machine({ commands: [] });
  assert.equal(ensureSystemPackages(['e2e'], noApt.options), false);
  assert.ok(noApt.lines.some((l) => l.includes('apt-get was not found')));
  const noSudo = machine({ isRoot: false, commands: ['apt-get'] });
  assert.equal(ensureSystemPackages(['e2e'], noSudo.options), false);
  assert.ok(noSudo.lines.some((l) => l.includes('sudo was not found')));
  assert.deepEqual([...noApt.calls, ...noSudo.calls], []);
});

test('a dry run prints the command and runs nothing', () => {
  const m = machine();
  assert.equal(ensureSystemPackages(['e2e'], { ...m.options, dryRun: true }), false);
  assert.deepEqual(m.calls, []);
  assert.ok(m.lines.some((l) => l === '$ apt-get install -y -q chromium'));
});
