/**
 * The engine's tree as it is right now (a TreeShape snapshot): the buffer filling, each level's
 * runs sized by their bytes and coloured by their filter bits per key, a merge in progress
 * outlined. Runs keep their React key (the engine's run id), so a run that grows or moves glides
 * there (CSS transitions on the SVG geometry) and a new run grows in.
 */
import { memo, useId, type CSSProperties } from 'react';
import type { TreeShape } from '../../documents/engine';
import { useWidth } from '../charts/useWidth';
import { formatBytes, formatCount, formatPercent } from '../../documents/format';
import { BITS_DOMAIN, bitsColor, bitsInk, layoutTree, mergeView, type MergeView } from './treeLayout';
import { TreeTable } from './TreeTable';
import './tree.css';

export interface TreeViewProps {
  tree: TreeShape;
  title: string;
  /** Bigger type and rows (the classroom view). */
  large?: boolean;
  minLevels?: number;
  /**
   * Presenter mode: fill this many pixels of height (rows grow to fit, type scales with them), for
   * a projector. Unset: the usual sizes.
   */
  fitHeight?: number;
  /** The level whose merge the engine has due and not started (the snapshot's `stall.merge_due_level`): marked "merge due". */
  dueLevel?: number | null;
  'data-testid'?: string;
}

const BUFFER_COLOR = '#e09f3e';

export const TreeView = memo(function TreeView({ tree, title, large, minLevels, fitHeight, dueLevel, ...rest }: TreeViewProps) {
  const [ref, width] = useWidth<HTMLDivElement>(720);
  const testId = rest['data-testid'] ?? 'tree';
  const narrow = width < 520;
  const rows = Math.max(tree.levels.length, minLevels ?? 0) + 1;
  // Presenter: rows share the height given (less the legend), between the usual size and 150 px.
  const fitRow = fitHeight ? Math.max(54, Math.min(150, (fitHeight - 90) / rows - 22)) : null;
  const font = fitRow ? Math.round(Math.max(16, Math.min(30, fitRow * 0.3))) : large && !narrow ? 16 : 13;
  const rowHeight = fitRow ?? (large && !narrow ? 54 : 40);
  const labelWidth = narrow ? 96 : fitRow ? font * 10 : large ? 170 : 132;
  const rowGap = fitRow ? 22 : large ? 18 : 12;
  const layout = layoutTree(tree, {
    width,
    labelWidth,
    rowHeight,
    rowGap,
    top: 8,
    minLevels,
    dueLevel,
    bufferBytes: tree.buffer_capacity_bytes,
  });
  const legendY = layout.height + 6;
  // The legend: its title and tick labels at font − 2, with the gradient bar between.
  const height = legendY + (fitRow ? (font - 2) * 2 + 28 : 44);
  const totalEntries = layout.levels.reduce((n, l) => n + l.entries, 0) + layout.buffer.entries;
  const merge = mergeView(tree, layout);

  return (
    <figure
      className={`chart tree-view${large ? ' large' : ''}`}
      data-testid={testId}
      data-entries={totalEntries}
      data-merge-read={merge?.pagesRead}
      data-merge-written={merge?.pagesWritten}
      data-font={font}
    >
      <div className="chart-body" ref={ref}>
        <svg className="chart-svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
          <title>{title}</title>
          <g
            data-testid={`${testId}-buffer`}
            data-entries={layout.buffer.entries}
            data-bytes={layout.buffer.bytes}
            transform={`translate(0, ${layout.buffer.y})`}
          >
            <text x={4} y={rowHeight / 2 - 2} fontSize={font} fontWeight={600} fill="#1b2430" dominantBaseline="middle">
              Buffer
            </text>
            <text x={4} y={rowHeight / 2 + font} fontSize={font - 3} fill="#4a5566" dominantBaseline="middle">
              in memory
            </text>
            <rect x={layout.trackX} y={0} width={layout.buffer.width} height={rowHeight} rx={6} fill="#fff7ea" stroke={BUFFER_COLOR} strokeWidth={1.5} />
            <rect
              className="tv-grow"
              x={layout.trackX}
              y={0}
              height={rowHeight}
              rx={6}
              fill={BUFFER_COLOR}
              opacity={0.85}
              width={Math.max(0, layout.buffer.width * layout.buffer.fill)}
              style={{ width: `${Math.max(0, layout.buffer.width * layout.buffer.fill)}px` }}
            />
            <text
              x={layout.trackX + layout.buffer.width - 10}
              y={rowHeight / 2}
              fontSize={font - 1}
              fill="#1b2430"
              textAnchor="end"
              dominantBaseline="middle"
            >
              {formatCount(layout.buffer.entries)} entries · {formatBytes(layout.buffer.bytes)} of {formatBytes(layout.buffer.capacity)}
            </text>
          </g>
          {layout.levels.map((l) => (
            <g
              key={l.level}
              className={`tv-level${l.merging ? ' merging' : ''}${l.receiving ? ' receiving' : ''}`}
              data-testid={`${testId}-level-${l.level}`}
              data-runs={l.runs.length}
              data-entries={l.entries}
              data-merging={l.merging ? 'true' : 'false'}
              data-over-full={l.overFull ? 'true' : 'false'}
              transform={`translate(0, ${l.y})`}
            >
              <text x={4} y={rowHeight / 2 - 2} fontSize={font} fontWeight={600} fill="#1b2430" dominantBaseline="middle">
                Level {l.level}
              </text>
              <text
                x={4}
                y={rowHeight / 2 + font}
                fontSize={font - 3}
                fill={l.merging || l.receiving || l.overFull ? '#d1495b' : '#4a5566'}
                fontWeight={l.merging || l.receiving || l.overFull ? 700 : 400}
                dominantBaseline="middle"
                data-testid={`${testId}-level-${l.level}-label`}
              >
                {l.merging
                  ? `merging ↓ into L${l.level + 1}`
                  : l.receiving
                    ? 'receiving ↓'
                    : l.placeholder
                      ? 'empty'
                      : `${l.capacityBytes === null ? `${l.runs.length} of ${l.maxRuns} files` : `${formatPercent(l.fill, 2)}${narrow ? '' : ' full'}`}${l.overFull ? ' · merge due' : ''}`}
                {l.overFull && <title>{`Level ${l.level}: a merge of it is due and has not started yet.`}</title>}
              </text>
              {l.merging && (
                <path
                  className="tv-arrow"
                  d={`M ${layout.trackX - 14} ${rowHeight * 0.3} V ${rowHeight + rowGap + rowHeight * 0.55} m -6 -8 l 6 8 l 6 -8`}
                  fill="none"
                  stroke="#d1495b"
                  strokeWidth={2.5}
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              )}
              {l.slots.map((s, i) => (
                <rect key={i} x={s.x} y={0} width={Math.max(0, s.width - 4)} height={rowHeight} rx={6} className="tv-slot" />
              ))}
              {l.runs.map((r, i) => (
                // With one run per level, a flush or merge replaces the run (new id): keying the oldest
                // run by its level lets it grow in place (or slide aside) instead of blinking out and in.
                <g key={l.maxRuns === 1 && i === l.runs.length - 1 ? 'solo' : r.id} className="tv-run" data-run={r.id} data-entries={r.entries}>
                  <rect
                    className="tv-grow"
                    x={r.x}
                    width={r.width}
                    y={0}
                    height={rowHeight}
                    rx={5}
                    fill={bitsColor(r.bitsPerKey)}
                    stroke="#1b2430"
                    strokeOpacity={0.35}
                    style={{ x: `${r.x}px`, width: `${r.width}px` } as CSSProperties}
                  >
                    <title>
                      {`Run ${r.id}: ${r.entries.toLocaleString('en-US')} entries, ${r.run.data_pages} pages, ${r.bitsPerKey.toFixed(2)} bits/key, FPR ${formatPercent(r.fpr, 3)}${r.run.tables.length > 1 ? `, ${r.run.tables.length} files` : ''}`}
                    </title>
                  </rect>
                  {r.cuts.map((c, i) => (
                    <line key={i} x1={c} x2={c} y1={3} y2={rowHeight - 3} stroke={bitsInk(r.bitsPerKey)} strokeOpacity={0.45} />
                  ))}
                  {r.width > font * 5 && (
                    <text
                      x={r.x + 8}
                      y={rowHeight / 2}
                      fontSize={font - 1}
                      fill={bitsInk(r.bitsPerKey)}
                      dominantBaseline="middle"
                      pointerEvents="none"
                    >
                      {formatCount(r.entries)}
                      {r.width > font * 11 ? ` · ${r.bitsPerKey.toFixed(1)} b/k` : ''}
                    </text>
                  )}
                </g>
              ))}
              {merge?.consumed
                .filter((c) => c.level === l.level)
                .map((c, i) => (
                  <g key={`read-${i}`} className="tv-consumed" pointerEvents="none">
                    <rect x={c.x} y={0} width={Math.max(0, c.width)} height={rowHeight} rx={5} fill="#ffffff" opacity={0.6} />
                    <line x1={c.x + c.width} x2={c.x + c.width} y1={-4} y2={rowHeight + 4} stroke="#d1495b" strokeWidth={3} />
                  </g>
                ))}
              {merge && merge.into === l.level && (
                <g className="tv-output" data-testid={`${testId}-merge-output`} data-width={merge.output.width.toFixed(1)} pointerEvents="none">
                  <rect
                    x={merge.output.x}
                    y={rowHeight * 0.5}
                    width={Math.max(2, merge.output.width)}
                    height={rowHeight * 0.5}
                    rx={4}
                    fill="#d1495b"
                    fillOpacity={0.3}
                    stroke="#d1495b"
                    strokeWidth={2}
                  />
                  <text {...mergeTextAt(merge, font - 2, layout.trackX + layout.trackWidth)} y={rowHeight * 0.75} fontSize={font - 2} fill="#a3202f" fontWeight={600} dominantBaseline="middle">
                    new run: {merge.pagesRead.toLocaleString('en-US')} of {merge.inputPages.toLocaleString('en-US')} pages merged
                    {merge.pagesWritten > 0 ? ` · ${merge.pagesWritten.toLocaleString('en-US')} written` : ''}
                  </text>
                </g>
              )}
            </g>
          ))}
          <Legend x={layout.trackX} y={legendY} width={Math.min(320, layout.trackWidth)} font={font - 2} />
        </svg>
      </div>
      <TreeTable tree={tree} testId={testId} />
    </figure>
  );
});

/** The merge's words right of the growing output, or right-aligned at the track's end when they would not fit there. */
function mergeTextAt(merge: MergeView, font: number, trackEnd: number): { x: number; textAnchor: 'start' | 'end' } {
  const chars = `new run: ${merge.pagesRead} of ${merge.inputPages} pages merged${merge.pagesWritten > 0 ? ` · ${merge.pagesWritten} written` : ''}`.length;
  const x = merge.output.x + Math.max(2, merge.output.width) + 8;
  return x + chars * font * 0.56 <= trackEnd ? { x, textAnchor: 'start' } : { x: trackEnd - 6, textAnchor: 'end' };
}

function Legend({ x, y, width, font }: { x: number; y: number; width: number; font: number }) {
  // One gradient per picture: several trees can be on a page (some in hidden tabs).
  const gradient = `tv-bits-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const stops = [0, 0.25, 0.5, 0.75, 1];
  const ticks = [0, 3, 6, 9, 12];
  return (
    <g transform={`translate(${x}, ${y})`} aria-hidden="true">
      <defs>
        <linearGradient id={gradient}>
          {stops.map((s) => (
            <stop key={s} offset={`${s * 100}%`} stopColor={bitsColor(s * BITS_DOMAIN)} />
          ))}
        </linearGradient>
      </defs>
      <text x={0} y={font} fontSize={font} fill="#4a5566">
        filter bits per key (run colour)
      </text>
      <rect x={0} y={font + 5} width={width} height={10} rx={3} fill={`url(#${gradient})`} stroke="#dde2e9" />
      {ticks.map((t) => (
        <text key={t} x={(t / BITS_DOMAIN) * width} y={font * 2 + 18} fontSize={font} fill="#4a5566" textAnchor={t === 0 ? 'start' : t === 12 ? 'end' : 'middle'}>
          {t === 12 ? '12+' : t}
        </text>
      ))}
    </g>
  );
}
