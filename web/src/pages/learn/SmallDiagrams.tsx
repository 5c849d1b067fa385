/** Two fixed illustrations with live numbers: the buffer flushing a run, and fence pointers. */
import { formatCount, formatInt } from '../../documents/format';
import { INK, INK_SOFT, SERIES_COLORS } from '../../ui/charts/palette';
import { useWidth } from '../../ui/charts/useWidth';

const BLUE = SERIES_COLORS[0];
const AMBER = SERIES_COLORS[2];

function Arrow({ x1, y1, x2, y2, color = INK_SOFT }: { x1: number; y1: number; x2: number; y2: number; color?: string }) {
  const a = Math.atan2(y2 - y1, x2 - x1);
  const h = 7;
  const p1 = `${x2 - h * Math.cos(a - 0.45)},${y2 - h * Math.sin(a - 0.45)}`;
  const p2 = `${x2 - h * Math.cos(a + 0.45)},${y2 - h * Math.sin(a + 0.45)}`;
  return (
    <g>
      <line x1={x1} y1={y1} x2={x2} y2={y2} stroke={color} strokeWidth={1.6} />
      <polygon points={`${x2},${y2} ${p1} ${p2}`} fill={color} />
    </g>
  );
}

export function BufferDiagram({ bufferEntries, pages, flushes }: { bufferEntries: number; pages: number; flushes: number }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  // Side by side when there is room, stacked on narrow screens.
  const stacked = width < 440;
  const arrowW = 112;
  const boxW = stacked ? Math.min(300, width - 8) : Math.min(250, (width - 8 - arrowW) / 2);
  const mem = { x: 4, y: 28 };
  const run = stacked ? { x: 4, y: 190 } : { x: 4 + boxW + arrowW, y: 28 };
  const height = stacked ? 318 : 172;
  // As many sample keys as fit legibly (about 20 px each).
  const keys = [3, 8, 12, 19, 27, 31, 44, 52, 60, 71].slice(0, Math.max(5, Math.min(10, Math.floor((boxW - 16) / 20))));
  const slot = (boxW - 16) / keys.length;
  return (
    <figure className="chart diagram" data-testid="buffer-diagram">
      <div className="chart-body" ref={ref}>
        <svg className="chart-svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label="The write buffer is flushed to disk as a sorted run">
          <title>The write buffer is flushed to disk as a sorted run</title>
          <text x={mem.x} y={mem.y - 10} fontSize={12} fontWeight={650} fill={INK}>
            Memory: write buffer (sorted)
          </text>
          <rect x={mem.x} y={mem.y} width={boxW} height={64} rx={6} fill="#fff8e8" stroke={AMBER} strokeWidth={1.5} />
          {keys.map((k, i) => (
            <g key={k}>
              <rect x={mem.x + 8 + i * slot} y={mem.y + 14} width={slot - 3} height={36} rx={2} fill={AMBER} fillOpacity={0.35} />
              <text x={mem.x + 8 + (i + 0.5) * slot - 1.5} y={mem.y + 32} dy="0.35em" textAnchor="middle" fontSize={10} fill={INK}>
                {k}
              </text>
            </g>
          ))}
          <text x={mem.x} y={mem.y + 82} fontSize={12} fill={INK_SOFT}>
            holds {formatCount(bufferEntries)} entries
          </text>
          {stacked ? (
            <>
              <Arrow x1={mem.x + boxW / 2} y1={mem.y + 92} x2={mem.x + boxW / 2} y2={run.y - 22} />
              <text x={mem.x + boxW / 2 + 10} y={mem.y + 118} fontSize={12} fill={INK_SOFT}>
                flush when full
              </text>
            </>
          ) : (
            <>
              <Arrow x1={mem.x + boxW + 10} y1={mem.y + 32} x2={run.x - 10} y2={mem.y + 32} />
              <text x={(mem.x + boxW + run.x) / 2} y={mem.y + 22} textAnchor="middle" fontSize={12} fill={INK_SOFT}>
                flush when full
              </text>
            </>
          )}
          <text x={run.x} y={run.y - 10} fontSize={12} fontWeight={650} fill={INK}>
            Disk: a new sorted run
          </text>
          {Array.from({ length: 5 }, (_, i) => (
            <rect key={i} x={run.x + i * (boxW / 5)} y={run.y + 8} width={boxW / 5 - 4} height={48} rx={3} fill={BLUE} fillOpacity={0.18} stroke={BLUE} />
          ))}
          <text x={run.x} y={run.y + 82} fontSize={12} fill={INK_SOFT}>
            {formatInt(pages)} pages of 4 KiB,
          </text>
          <text x={run.x} y={run.y + 97} fontSize={12} fill={INK_SOFT}>
            written in one sequential pass
          </text>
          <text x={4} y={height - 14} fontSize={12.5} fill={INK}>
            {flushes === 1 ? 'All entries fit in one buffer.' : `Loading all entries takes ${formatInt(flushes)} flushes.`}
          </text>
        </svg>
      </div>
    </figure>
  );
}

const FENCES = [1, 13, 22, 35, 48, 57, 66, 80];
const LOOKUP = 52;

export function FenceDiagram({ fenceBytesPerEntry }: { fenceBytesPerEntry: number }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const height = 210;
  const n = FENCES.length;
  const narrow = width < 480;
  const left = narrow ? 70 : 96;
  const cellW = (width - left - 4) / n;
  const target = FENCES.findIndex((f, i) => LOOKUP >= f && (i === n - 1 || LOOKUP < FENCES[i + 1]));
  return (
    <figure className="chart diagram" data-testid="fence-diagram">
      <div className="chart-body" ref={ref}>
        <svg className="chart-svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label="Fence pointers locate the one page that may hold a key">
          <title>Fence pointers locate the one page that may hold a key</title>
          <text x={4} y={44} fontSize={12} fontWeight={650} fill={INK}>
            Fence
          </text>
          <text x={4} y={59} fontSize={12} fontWeight={650} fill={INK}>
            pointers
          </text>
          <text x={4} y={74} fontSize={11} fill={INK_SOFT}>
            (memory)
          </text>
          <text x={4} y={146} fontSize={12} fontWeight={650} fill={INK}>
            Run pages
          </text>
          <text x={4} y={161} fontSize={11} fill={INK_SOFT}>
            (disk)
          </text>
          <text x={left} y={18} fontSize={12} fill={INK}>
            {narrow ? `get(${LOOKUP}): search in memory` : `get(${LOOKUP}): binary search in memory, no I/O →`}
          </text>
          {FENCES.map((f, i) => {
            const x = left + i * cellW;
            const hit = i === target;
            const hi = i === n - 1 ? 99 : FENCES[i + 1] - 1;
            return (
              <g key={f}>
                <rect x={x} y={34} width={cellW - 4} height={34} rx={4} fill={hit ? BLUE : '#eef3fa'} stroke={BLUE} strokeWidth={1} />
                <text x={x + (cellW - 4) / 2} y={51} dy="0.35em" textAnchor="middle" fontSize={12} fontWeight={600} fill={hit ? '#fff' : INK}>
                  {f}
                </text>
                <rect x={x} y={124} width={cellW - 4} height={44} rx={4} fill={hit ? '#fde7ea' : '#f7f8fa'} stroke={hit ? SERIES_COLORS[1] : '#c5ccd6'} strokeWidth={hit ? 2 : 1} />
                <text x={x + (cellW - 4) / 2} y={146} dy="0.35em" textAnchor="middle" fontSize={narrow ? 9 : 11} fill={INK_SOFT}>
                  {narrow ? f : `${f}–${hi}`}
                </text>
              </g>
            );
          })}
          <Arrow x1={left + (target + 0.5) * cellW - 2} y1={70} x2={left + (target + 0.5) * cellW - 2} y2={120} color={SERIES_COLORS[1]} />
          <text x={left + (target + 0.5) * cellW + 6} y={100} fontSize={12} fontWeight={600} fill={SERIES_COLORS[1]}>
            1 page read
          </text>
          <text x={narrow ? 4 : left} y={194} fontSize={12} fill={INK_SOFT}>
            One key per 4 KiB page ≈ {fenceBytesPerEntry.toFixed(2)} bytes per entry.
          </text>
        </svg>
      </div>
    </figure>
  );
}
