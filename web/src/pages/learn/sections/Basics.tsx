/** Sections 1–3: the write buffer, runs and levels, fence pointers. */
import { ChartCard } from '../../../ui/charts/ChartCard';
import { tableCsv } from '../../../ui/charts/csv';
import type { MergePolicy, TreeShape } from '../../../compute/sweeps/learn';
import { formatBytes, formatCount, formatFixed, formatInt } from '../../../documents/format';
import { DataTable, type Column } from '../../../ui/layout/DataTable';
import { Readouts } from '../../../ui/layout/Readouts';
import { Concept, Formula } from '../Concept';
import { BufferDiagram, FenceDiagram } from '../SmallDiagrams';
import { ENTRIES_PER_PAGE, ENTRY_BYTES, KEY_BYTES, MIB, PAGE_BYTES } from '../../../documents/urls/learn';
import { TreeDiagram } from '../TreeDiagram';

export function BufferSection({ bufferMiB, entries }: { bufferMiB: number; entries: number }) {
  const bufferEntries = (bufferMiB * MIB) / ENTRY_BYTES;
  const flushes = Math.ceil(entries / bufferEntries);
  return (
    <Concept
      id="buffer"
      n={1}
      title="The write buffer"
      figure={
        <ChartCard
          id="buffer"
          title="Buffer → sorted run"
          caption={`${formatBytes(bufferMiB * MIB)} buffer, ${ENTRY_BYTES}-byte entries, ${PAGE_BYTES / 1024} KiB pages.`}
        >
          <BufferDiagram bufferEntries={bufferEntries} pages={Math.ceil((bufferMiB * MIB) / PAGE_BYTES)} flushes={flushes} />
        </ChartCard>
      }
    >
      <p>
        An LSM-tree never changes data on disk in place. Every insert, update and delete first goes into a{' '}
        <strong>write buffer</strong> in memory (RocksDB calls it the <em>memtable</em>), kept sorted by key. An update
        is simply a newer entry for the same key; a delete writes a special entry, a <em>tombstone</em>, that hides older
        versions.
      </p>
      <p>
        When the buffer is full it is written to disk in one sequential pass as a sorted, immutable file, a{' '}
        <strong>run</strong>, and an empty buffer takes its place. Writing whole runs sequentially is what makes
        LSM-trees fast at taking in data.
      </p>
      <Readouts
        items={[
          { label: 'Entries per buffer', value: bufferEntries, text: formatCount(bufferEntries), testId: 'buffer-entries' },
          { label: 'Flushes to load N entries', value: flushes, text: formatInt(flushes) },
        ]}
      />
    </Concept>
  );
}

interface LevelRow extends Record<string, number> {
  level: number;
  capacity: number;
  entries: number;
  runs: number;
  share: number;
}

const LEVEL_COLUMNS: Column<LevelRow>[] = [
  { key: 'level', label: 'Level' },
  { key: 'capacity', label: 'Capacity', unit: 'entries', format: (v) => formatCount(v) },
  { key: 'entries', label: 'Holds', unit: 'entries', format: (v) => formatCount(v) },
  { key: 'runs', label: 'Runs', format: (v) => formatInt(v) },
  { key: 'share', label: 'Share of data', unit: '%', format: (v) => formatFixed(v * 100, 2) },
];

export function LevelsSection({
  shape,
  sizeRatio,
  policy,
  entries,
}: {
  shape: TreeShape;
  sizeRatio: number;
  policy: MergePolicy;
  entries: number;
}) {
  const L = shape.levels.length;
  const total = shape.levels.reduce((s, l) => s + l.entries, 0);
  const rows: LevelRow[] = shape.levels.map((l) => ({
    level: l.level,
    capacity: l.capacity,
    entries: l.entries,
    runs: l.runs,
    share: l.entries / total,
  }));
  return (
    <Concept
      id="levels"
      n={2}
      title="Runs and levels"
      figure={
        <ChartCard
          id="levels"
          title={`${L} level${L === 1 ? '' : 's'} for ${formatCount(entries)} entries`}
          caption={`Size ratio T = ${sizeRatio}; drawn wider per level, not to scale (each level is ${sizeRatio}× the previous).`}
          csv={() => tableCsv(LEVEL_COLUMNS, rows)}
          footer={<DataTable columns={LEVEL_COLUMNS} rows={rows} rowKey={(r) => String(r.level)} testId="levels-table" />}
        >
          <TreeDiagram
            shape={shape}
            sizeRatio={sizeRatio}
            policies={[policy]}
            title={`The tree: buffer and ${L} levels`}
            data-testid="levels-diagram"
          />
        </ChartCard>
      }
    >
      <p>
        Each flush adds a run, and a lookup may have to search every run from newest to oldest. To keep the number of
        runs small, the tree <strong>merges</strong> runs into <strong>levels</strong> of growing capacity: level{' '}
        <var>i</var> holds up to <var>T</var>
        <sup>i</sup> times what the buffer holds. When a level fills up, its data is sort-merged into the next level,
        again with sequential I/O, and newer versions of a key replace older ones during the merge.
      </p>
      <p>With N entries of E bytes and a buffer of M<sub>buf</sub> bytes, the number of levels is</p>
      <Formula>
        L = ⌈ log<sub>T</sub>( N·E / M<sub>buf</sub> · (T−1)/T ) ⌉
      </Formula>
      <p>
        The largest level holds the fraction (T−1)/T of all entries, here {formatFixed(((sizeRatio - 1) / sizeRatio) * 100, 1)}%.
      </p>
      <Readouts items={[{ label: 'Levels L', value: L, text: formatInt(L), testId: 'levels-count' }]} />
    </Concept>
  );
}

export function FenceSection({ entries }: { entries: number }) {
  const pages = Math.ceil(entries / ENTRIES_PER_PAGE);
  const fenceBytes = pages * KEY_BYTES;
  return (
    <Concept
      id="fences"
      n={3}
      title="Fence pointers"
      figure={
        <ChartCard id="fences" title="Finding the page for a key" caption={`${ENTRIES_PER_PAGE} entries per ${PAGE_BYTES / 1024} KiB page, ${KEY_BYTES}-byte keys.`}>
          <FenceDiagram fenceBytesPerEntry={KEY_BYTES / ENTRIES_PER_PAGE} />
        </ChartCard>
      }
    >
      <p>
        A run is stored as pages (here 4 KiB, so B = {ENTRIES_PER_PAGE} entries of {ENTRY_BYTES} bytes each). For every
        page the tree keeps its smallest key in memory: the <strong>fence pointers</strong>. A lookup binary-searches
        them without any I/O and reads the single page whose key range could contain the key.
      </p>
      <p>
        So a point lookup costs at most <strong>one I/O per run</strong> it has to check, and a range lookup one
        random read per run followed by sequential reads.
      </p>
      <Readouts
        items={[
          { label: 'Pages on disk', value: pages, text: formatCount(pages) },
          { label: 'Fence pointer memory', value: fenceBytes, text: formatBytes(fenceBytes), testId: 'fence-memory' },
        ]}
      />
    </Concept>
  );
}
