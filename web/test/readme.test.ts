/**
 * The README's page table is the nav: the same names in the same order (a person reading one
 * looks for the other), and the Memory page opens on a named preset.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../src/documents/routes';
import { defaultsOf } from '../src/documents/url/params';
import { matchingPreset } from '../src/documents/url/codec';
import { memoryParams, memoryUrl } from '../src/documents/urls/memory';

describe('README', () => {
  it('lists every page by its nav name, in nav order', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| page | what it shows |'));
    const lines = table.split('\n').slice(2);
    const rows = lines.slice(0, lines.findIndex((l) => !l.startsWith('|')));
    expect(rows.map((r) => r.split('|')[1].trim())).toEqual(ROUTES.map((r) => r.title));
  });
});

describe('presets', () => {
  it('the Memory page opens on a named preset, not "Custom settings"', () => {
    expect(matchingPreset(memoryUrl, defaultsOf(memoryParams))?.id).toBe('start');
  });
});
