/**
 * The dependency rules (.dependency-cruiser.cjs) catch what they are for. Each case copies web/src
 * and models/src, adds one forbidden import to the copy, runs dependency-cruiser over it and expects
 * exactly the rules that import breaks; the untouched copy must pass. Run by `npm test` (lint suite):
 * `node --test scripts/dependency-rules.test.mjs`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, '.cache', 'dependency-rules');
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise');

/** Copy the sources into a fresh folder (inside the repo, so node_modules resolves) and apply `edit`. */
function copyWith(name, edit) {
  const dir = path.join(work, name);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const src of ['web/src', 'models/src']) {
    fs.cpSync(path.join(root, src), path.join(dir, src), { recursive: true });
  }
  if (edit) {
    const file = path.join(dir, edit.file);
    assert.ok(fs.existsSync(file), `${edit.file} exists`);
    fs.writeFileSync(file, `${edit.line}\n${fs.readFileSync(file, 'utf8')}`);
  }
  return dir;
}

/** The names of the rules broken in `dir`, sorted and deduplicated. */
async function brokenRules(dir) {
  const r = await promisify(execFile)(
    depcruise,
    ['web/src', 'models/src', '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'],
    { cwd: dir, encoding: 'utf8', maxBuffer: 256 << 20 },
  ).catch((err) => err); // depcruise exits non-zero when a rule is broken: that is the point here
  assert.ok(r.stdout, `dependency-cruiser printed nothing: ${r.stderr ?? r.message}`);
  const result = JSON.parse(r.stdout);
  return [...new Set(result.summary.violations.map((v) => v.rule.name))].sort();
}

const CASES = [
  {
    name: 'a cycle in the models',
    edit: { file: 'models/src/moose/smoose-search.ts', line: "import './smoose';" },
    rules: ['no-circular'],
  },
  {
    name: 'the ui kit importing a page',
    edit: { file: 'web/src/ui/layout/Page.tsx', line: "import '../../pages/lab/LabPage';" },
    // LabPage uses the layout, so this is a cycle too.
    rules: ['no-circular', 'ui-knows-no-page'],
  },
  {
    name: 'a page importing another page',
    edit: { file: 'web/src/pages/tradeoffs/TradeoffsPage.tsx', line: "import '../monkey/Summary';" },
    rules: ['no-page-imports-another'],
  },
  {
    name: 'documents importing React',
    edit: { file: 'web/src/documents/format.ts', line: "import 'react';" },
    rules: ['documents-are-pure'],
  },
  {
    name: 'documents importing compute',
    edit: { file: 'web/src/documents/routes.ts', line: "import '../compute/sweeps/learn';" },
    rules: ['documents-are-the-bottom'],
  },
  {
    name: 'the engine client importing the model worker',
    edit: { file: 'web/src/engine/client.ts', line: "import '../compute/client';" },
    rules: ['engine-below-ui'],
  },
  {
    name: 'the models importing the web app',
    edit: { file: 'models/src/bloom.ts', line: "import '../../web/src/documents/format';" },
    rules: ['models-stand-alone'],
  },
];

// Each case is its own copy and its own dependency-cruiser process: they run side by side.
describe('dependency rules', { concurrency: os.availableParallelism() }, () => {
  test('the sources as they are break no rule', async () => {
    assert.deepEqual(await brokenRules(copyWith('clean')), []);
  });

  for (const c of CASES) {
    test(`caught: ${c.name}`, async () => {
      assert.deepEqual(await brokenRules(copyWith(c.name.replaceAll(' ', '-'), c.edit)), c.rules);
    });
  }
});

test.after(() => fs.rmSync(work, { recursive: true, force: true }));
