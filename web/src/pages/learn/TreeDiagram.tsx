/**
 * The tree as levels of runs, one column per merge policy: the buffer in memory, then levels 1..L
 * on disk, each drawn wider than the last (not to scale: real levels grow T× per step), with the
 * runs a level holds at steady state and its entry count.
 */
import { formatCount } from '../../documents/format';
import { INK, INK_SOFT, SERIES_COLORS } from '../../ui/charts/palette';
import { useWidth } from '../../ui/charts/useWidth';
import type { MergePolicy, TreeShape } from '../../compute/sweeps/learn';

const ROW = 30;
const GAP = 8;
const MAX_BOXES = 5;

export interface TreeDiagramProps {
  shape: TreeShape;
  sizeRatio: number;
  policies: readonly MergePolicy[];
  /** The policy selected on the page, outlined. */
  selected?: MergePolicy;
  title: string;
  'data-testid'?: string;
}

/** Levels to draw: all of them when few, else the first three, a gap, and the last three. */
function visibleLevels(count: number): (number | 'gap')[] {
  if (count <= 8) return Array.from({ length: count }, (_, i) => i);
  return [0, 1, 2, 'gap', count - 3, count - 2, count - 1];
}

export function TreeDiagram({ shape, sizeRatio, policies, selected, title, ...rest }: TreeDiagramProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const rows = visibleLevels(shape.levels.length);
  const blockH = HEAD + (rows.length + 1) * (ROW + GAP) + 6;
  // Policies side by side when there is room, one above the other on narrow screens.
  const stacked = policies.length > 1 && width < 440;
  const perRow = stacked ? 1 : policies.length;
  const colGap = 22;
  // The outlined columns reach 8 px past their content on both sides.
  const colW = (width - LABEL_W - 10 - colGap * (perRow - 1)) / perRow;
  const height = stacked ? policies.length * (blockH + 12) : blockH;

  return (
    <figure className="chart diagram" data-testid={rest['data-testid']}>
      <div className="chart-body" ref={ref}>
        <svg className="chart-svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
          <title>{title}</title>
          {policies.map((pol, pi) => (
            <PolicyBlock
              key={pol}
              policy={pol}
              x0={LABEL_W + (stacked ? 0 : pi * (colW + colGap))}
              y0={stacked ? pi * (blockH + 12) : 0}
              colW={colW}
              blockH={blockH}
              width={width}
              rows={rows}
              shape={shape}
              sizeRatio={sizeRatio}
              outlined={policies.length > 1}
              selected={selected === pol}
              labels={stacked || pi === 0}
              single={policies.length === 1}
            />
          ))}
        </svg>
      </div>
    </figure>
  );
}

const HEAD = 50;
const LABEL_W = 74;

function PolicyBlock({
  policy,
  x0,
  y0,
  colW,
  blockH,
  width,
  rows,
  shape,
  sizeRatio,
  outlined,
  selected,
  labels,
  single,
}: {
  policy: MergePolicy;
  x0: number;
  y0: number;
  colW: number;
  blockH: number;
  width: number;
  rows: (number | 'gap')[];
  shape: TreeShape;
  sizeRatio: number;
  outlined: boolean;
  selected: boolean;
  /** Draw the row labels (Buffer, Level i) and the memory/disk line with this block. */
  labels: boolean;
  single: boolean;
}) {
  const L = shape.levels.length;
  const color = policy === 'leveling' ? SERIES_COLORS[0] : SERIES_COLORS[1];
  const runs = policy === 'leveling' ? 1 : Math.round(sizeRatio - 1);
  const barMax = colW - 50;
  const barMin = barMax * 0.3;
  const rowY = (ri: number) => y0 + HEAD + (ri + 1) * (ROW + GAP);
  const lineY = y0 + HEAD + ROW + GAP / 2;
  return (
    <g data-policy={policy}>
      {outlined && (
        <rect
          x={x0 - 8}
          y={y0 + 2}
          width={colW + 16}
          height={blockH - 4}
          rx={8}
          fill={selected ? '#f3f7fd' : 'none'}
          stroke={selected ? color : '#dde2e9'}
          strokeWidth={selected ? 1.5 : 1}
        />
      )}
      <text x={x0} y={y0 + 20} fontSize={13} fontWeight={650} fill={color}>
        {policy === 'leveling' ? 'Leveling' : 'Tiering'}
      </text>
      <text x={x0} y={y0 + 36} fontSize={11.5} fill={INK_SOFT}>
        {runs === 1 ? '1 run per level' : `up to ${runs} runs per level`}
      </text>
      <BufferRow x={x0} y={y0 + HEAD} w={barMin * 0.7} label={`${formatCount(shape.bufferEntries)} entries${single ? ', then flush' : ''}`} />
      {rows.map((lv, ri) => {
        const y = rowY(ri);
        if (lv === 'gap') {
          return (
            <text key="gap" x={x0 + barMin / 2} y={y + ROW / 2} dy="0.35em" textAnchor="middle" fontSize={12} fill={INK_SOFT}>
              ⋮ {L - 6} more levels
            </text>
          );
        }
        const level = shape.levels[lv];
        const barW = L === 1 ? barMax : barMin + (barMax - barMin) * (lv / (L - 1));
        return (
          <g key={lv} data-level={level.level}>
            <RunBoxes x={x0} y={y} w={barW} runs={runs} color={color} />
            <text x={x0 + barW + 6} y={y + ROW / 2} dy="0.35em" fontSize={11.5} fill={INK_SOFT}>
              {formatCount(level.entries)}
            </text>
          </g>
        );
      })}
      {labels && (
        <g>
          <text x={4} y={y0 + HEAD + ROW / 2 - 3} fontSize={12} fontWeight={600} fill={INK}>
            Buffer
          </text>
          <text x={4} y={y0 + HEAD + ROW / 2 + 10} fontSize={10.5} fill={INK_SOFT}>
            in memory
          </text>
          <line x1={0} x2={width} y1={lineY} y2={lineY} stroke={INK_SOFT} strokeOpacity={0.6} strokeDasharray="4 4" strokeWidth={1} />
          {rows.map((lv, ri) =>
            lv === 'gap' ? null : (
              <text key={lv} x={4} y={rowY(ri) + ROW / 2} dy="0.35em" fontSize={12} fontWeight={600} fill={INK}>
                Level {lv + 1}
              </text>
            ),
          )}
        </g>
      )}
    </g>
  );
}

function BufferRow({ x, y, w, label }: { x: number; y: number; w: number; label: string }) {
  return (
    <g>
      <rect x={x} y={y + 4} width={w} height={ROW - 8} rx={3} fill="#fff4dc" stroke={SERIES_COLORS[2]} strokeWidth={1.5} />
      <text x={x + w + 6} y={y + ROW / 2} dy="0.35em" fontSize={11.5} fill={INK_SOFT}>
        {label}
      </text>
    </g>
  );
}

/** The runs of one level; more than MAX_BOXES are drawn as the first few, an ellipsis, the last. */
function RunBoxes({ x, y, w, runs, color }: { x: number; y: number; w: number; runs: number; color: string }) {
  const elided = runs > MAX_BOXES;
  const slots = elided ? MAX_BOXES : runs;
  const gap = 3;
  const boxW = Math.max(3, (w - gap * (slots - 1)) / slots);
  return (
    <g>
      {Array.from({ length: slots }, (_, slot) => {
        const sx = x + slot * (boxW + gap);
        if (elided && slot === slots - 2) {
          return (
            <text key={slot} x={sx + boxW / 2} y={y + ROW / 2} dy="0.35em" textAnchor="middle" fontSize={13} fontWeight={700} fill={color}>
              ⋯
            </text>
          );
        }
        return (
          <rect
            key={slot}
            x={sx}
            y={y + 3}
            width={boxW}
            height={ROW - 6}
            rx={3}
            fill={color}
            fillOpacity={0.25 + 0.45 * ((slot + 1) / slots)}
            stroke={color}
            strokeWidth={1}
          />
        );
      })}
    </g>
  );
}
