/**
 * What the suites need from Debian beyond Node and rustup, and installing it when missing:
 * Chromium for the end-to-end tests; RocksDB's db_bench, headers and library, LevelDB's headers
 * and library, and g++ for the interop tests. `npm test` calls `ensureSystemPackages` for the
 * suites it is about to run, so a fresh Debian machine needs nothing but Node and rustup.
 *
 * apt-get runs as root, or through sudo otherwise, non-interactively; if installing fails it
 * tries once more after `apt-get update`, and if that fails too it says what to run. Only Node
 * built-ins here: this runs before node_modules exists.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** Per suite: the files it needs, each with the Debian package that provides it and what it is. */
export const SYSTEM_NEEDS = {
  e2e: [{ file: CHROMIUM, pkg: 'chromium', what: 'Chromium, which Playwright drives' }],
  rocksdb: [
    { file: '/usr/bin/db_bench', pkg: 'rocksdb-tools', what: "RocksDB's db_bench" },
    { file: '/usr/include/rocksdb/db.h', pkg: 'librocksdb-dev', what: "RocksDB's C++ headers and library" },
    { file: '/usr/bin/g++', pkg: 'g++', what: 'a C++ compiler' },
  ],
  leveldb: [
    { file: '/usr/include/leveldb/db.h', pkg: 'libleveldb-dev', what: "LevelDB's C++ headers and library" },
    { file: '/usr/bin/g++', pkg: 'g++', what: 'a C++ compiler' },
  ],
};

/**
 * The packages missing for `suites`: [{ pkg, file, what, suites }], one entry per package.
 * `exists` is injectable for tests.
 */
export function missingPackages(suites, { needs = SYSTEM_NEEDS, exists = fs.existsSync } = {}) {
  const byPkg = new Map();
  for (const suite of suites) {
    for (const need of needs[suite] ?? []) {
      if (exists(need.file)) continue;
      const entry = byPkg.get(need.pkg) ?? { ...need, suites: [] };
      entry.suites.push(suite);
      byPkg.set(need.pkg, entry);
    }
  }
  return [...byPkg.values()];
}

function defaultRun(cmd, args, env) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  return r.error ? 127 : (r.status ?? 1);
}

/**
 * Install what `suites` need and is missing. Returns true when everything is present afterwards.
 * Options (for tests and a dry run): `exists`, `needs`, `isRoot`, `hasCommand`, `run(cmd, args, env)`
 * returning an exit status, `log`, and `dryRun` (print the commands, run nothing, report false if
 * anything was missing).
 */
export function ensureSystemPackages(suites, options = {}) {
  const {
    needs = SYSTEM_NEEDS,
    exists = fs.existsSync,
    isRoot = typeof process.getuid === 'function' && process.getuid() === 0,
    hasCommand = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0,
    run = defaultRun,
    log = (line) => console.log(`[system] ${line}`),
    dryRun = Boolean(process.env.LSM_APT_DRY_RUN),
  } = options;
  const missing = missingPackages(suites, { needs, exists });
  if (missing.length === 0) return true;

  const pkgs = missing.map((m) => m.pkg);
  for (const m of missing) log(`missing ${m.file} (${m.what}, for the ${m.suites.join(' and ')} suite${m.suites.length > 1 ? 's' : ''}): package ${m.pkg}`);
  const sudo = isRoot ? [] : ['sudo'];
  const manual = `${isRoot ? '' : 'sudo '}apt-get update && ${isRoot ? '' : 'sudo '}apt-get install -y ${pkgs.join(' ')}`;
  const fail = (why) => {
    log(`${why}. Install them yourself, then run this again:\n  ${manual}`);
    return false;
  };
  if (!hasCommand('apt-get')) return fail(`apt-get was not found (not Debian?): cannot install ${pkgs.join(' ')}`);
  if (!isRoot && !hasCommand('sudo')) return fail('not root and sudo was not found');

  // sudo drops the environment, so DEBIAN_FRONTEND goes on its command line as well.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const aptGet = (...args) => [...sudo, ...(isRoot ? [] : ['DEBIAN_FRONTEND=noninteractive']), 'apt-get', ...args];
  const install = aptGet('install', '-y', '-q', ...pkgs);
  const update = aptGet('update', '-q');
  const attempt = (argv) => {
    log(`$ ${argv.join(' ')}`);
    return dryRun ? 0 : run(argv[0], argv.slice(1), env);
  };
  log(`installing from Debian's packages: ${pkgs.join(' ')}`);
  if (dryRun) {
    attempt(install);
    log('(dry run: nothing installed; if that install fails, apt-get update comes first, then the install again)');
    return false;
  }
  if (attempt(install) !== 0) {
    log('the install failed; updating the package lists and trying again');
    if (attempt(update) !== 0 || attempt(install) !== 0) return fail(`could not install ${pkgs.join(' ')}`);
  }
  const still = missingPackages(suites, { needs, exists });
  if (still.length > 0) return fail(`installed, but still missing: ${still.map((m) => m.file).join(', ')}`);
  log(`installed ${pkgs.join(' ')}`);
  return true;
}
