/**
 * Teaching view: a tiny LSM-tree on the real engine, stepped or played so a class can watch the
 * buffer fill, flush into level 1, and merges carry data down, with filter memory as colour.
 * Every step is kept: step back, scrub the timeline (flushes and merges marked), and read what
 * each step did and what it cost in pages.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ControlGroup, ParamControl } from '../../ui/controls';
import { Page } from '../../ui/layout';
import { isPresenterKey, useFullscreen, useFullscreenToggle, useViewportSize } from '../../ui/layout/presenter';
import { useUrlState } from '../../ui/state/useUrlState';
import { totalWrites } from '../../documents/engine';
import { formatBytes, formatInt } from '../../documents/format';
import { teachUrl } from '../../documents/urls/teaching';
import {
  collapseLog,
  countersOnScreen,
  stallHeadline,
  TEACH_BATCH,
  TEACH_BUFFER_BYTES,
  TEACH_KEY_BYTES,
  TEACH_MERGE_PAGES,
  TEACH_PAGE_BYTES,
  TEACH_VALUE_BYTES,
  teachConfig,
  type StepEvent,
  type TeachStalls,
} from './teach';
import { currentLocation } from '../../ui/state/location';
import { useClipboardCopy } from '../../ui/download/useClipboardCopy';
import { TreeView } from '../../ui/tree/TreeView';
import { useClassroomTree, type Frame } from './useClassroomTree';
import './teaching.css';
import { ErrorAlert } from '../../ui/layout/ErrorAlert';

export function TeachingPage() {
  const url = useUrlState(teachUrl);
  const { sizeRatio, policy, allocation, bits, speed, merges, slowdown, stop } = url.state;
  const paced = merges === 'paced';
  const limits = useMemo<TeachStalls>(() => ({ slowdown, stop }), [slowdown, stop]);
  const config = useMemo(() => teachConfig(sizeRatio, policy, allocation, bits, paced ? limits : undefined), [sizeRatio, policy, allocation, bits, paced, limits]);
  const classroom = useClassroomTree(config, paced);
  const { frames, cursor } = classroom;
  const frame = frames[cursor];
  const [playing, setPlaying] = useState(false);
  const figure = useRef<HTMLDivElement>(null);

  // Play: one step, then wait 1/speed seconds, until paused (never two engine calls at once).
  useEffect(() => {
    if (!playing) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const loop = async () => {
      if (stop) return;
      await classroom.step();
      if (!stop) timer = setTimeout(loop, 1000 / speed);
    };
    void loop();
    return () => {
      stop = true;
      if (timer) clearTimeout(timer);
    };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the loop calls classroom.step; the classroom object is new each render
  }, [playing, speed, classroom.step]);

  useEffect(() => {
    if (classroom.error) setPlaying(false);
  }, [classroom.error]);

  const writes = frame ? totalWrites(frame.stats) : null;
  // Counted as the tree draws them: a flush or merge from its first page on, not once installed.
  const counted = countersOnScreen(frame?.tree ?? null, frame?.stats ?? null);
  const tree = frame?.tree ?? null;
  const inserted = frame?.inserted ?? 0;
  const atNewest = cursor === frames.length - 1;
  // The narration of the steps up to the one on screen, newest first, identical steps told once.
  const told = useMemo(() => collapseLog(frames, cursor, 8), [frames, cursor]);

  // Full screen (presenter mode): the stage fills the screen and the tree its height.
  const fullscreen = useFullscreen(figure);
  const embedded = currentLocation().embed === 'tree';
  const viewport = useViewportSize().height;
  // Full screen: the tree takes the height the toolbar and narration leave (the stage is a column
  // whose last row, the tree with the counters beside it, grows), so the counters stay on the screen.
  const treeBox = useRef<HTMLDivElement>(null);
  const [treeRoom, setTreeRoom] = useState<number | null>(null);
  useEffect(() => {
    const box = treeBox.current;
    if (!fullscreen || !box) return setTreeRoom(null);
    const observer = new ResizeObserver(() => setTreeRoom(box.clientHeight));
    observer.observe(box);
    return () => observer.disconnect();
  }, [fullscreen]);
  const fitHeight = embedded ? viewport - 40 : fullscreen ? (treeRoom ?? viewport - 420) - 34 : undefined;
  const toggleFullscreen = useFullscreenToggle(figure);
  const embedCopy = useClipboardCopy();

  // A presenter's keys (and a clicker's, which sends them): anywhere on the page but in a text box.
  const keys = useRef({ classroom, playing, toggleFullscreen, last: frames.length - 1 });
  keys.current = { classroom, playing, toggleFullscreen, last: frames.length - 1 };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isPresenterKey(e)) return;
      const { classroom: c, playing: isPlaying, toggleFullscreen: full, last } = keys.current;
      const act: Record<string, () => void> = {
        ArrowRight: () => !isPlaying && void c.step(),
        PageDown: () => !isPlaying && void c.step(),
        ' ': () => !isPlaying && void c.step(),
        ArrowLeft: () => !isPlaying && c.back(),
        PageUp: () => !isPlaying && c.back(),
        Home: () => c.seek(0),
        End: () => c.seek(last),
        p: () => setPlaying((x) => !x),
        P: () => setPlaying((x) => !x),
        f: full,
        F: full,
      };
      const run = act[e.key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <Page
      question="What does an LSM-tree do as keys arrive? Try first: press Step (or →, Space, Page Down) to insert keys and watch the buffer flush and the levels merge; F shows it full screen."
      title="Teaching view: watch an LSM-tree work"
      lede={
        <>
          A tiny tree on the real engine — {formatBytes(TEACH_BUFFER_BYTES)} buffer, {TEACH_PAGE_BYTES} B pages, {TEACH_KEY_BYTES} B keys with {TEACH_VALUE_BYTES} B values — drawn
          from the engine’s own state after every step.{' '}
          {paced ? 'Merges are paced by the writes: each write does a few pages of them.' : 'Merges run only when you step, a few pages at a time.'} See the{' '}
          <a href="#/lab">workload lab</a> for big runs.
        </>
      }
      url={url}
      controls={
        <>
          <ControlGroup title="Tree">
            <ParamControl {...url.bind('sizeRatio')} />
            <ParamControl {...url.bind('policy')} />
            <ParamControl {...url.bind('allocation')} />
            <ParamControl {...url.bind('bits')} />
            <ParamControl {...url.bind('merges')} />
            {paced && (
              <>
                <ParamControl {...url.bind('slowdown')} />
                <ParamControl {...url.bind('stop')} />
              </>
            )}
          </ControlGroup>
          <ControlGroup title="Playback">
            <ParamControl {...url.bind('speed')} />
          </ControlGroup>
        </>
      }
    >
      <div
        className={`teach-stage card${fullscreen ? ' presenting' : ''}`}
        ref={figure}
        data-testid="teach-stage"
        data-steps={classroom.steps}
        data-frame={cursor}
        data-fullscreen={fullscreen ? 'true' : 'false'}
        tabIndex={-1}
        aria-label="The classroom tree. Keys: Right, Space or Page Down step; Left or Page Up back; Home, End; P play or pause; F full screen."
      >
        <div className="teach-toolbar" role="toolbar" aria-label="Playback">
          <button type="button" className="primary" onClick={() => setPlaying((p) => !p)} aria-pressed={playing} data-testid="teach-play">
            {playing ? '❚❚ Pause' : '▶ Play'}
          </button>
          <button type="button" onClick={classroom.back} disabled={playing || cursor === 0} data-testid="teach-back" title="Show the step before (the engine keeps its newest state)">
            ◀ Back
          </button>
          <button type="button" onClick={() => void classroom.step()} disabled={playing} data-testid="teach-step">
            Step ▶
          </button>
          <button type="button" onClick={() => void classroom.flush()} disabled={playing} title="Write the buffer out now, full or not">
            Flush buffer
          </button>
          <button
            type="button"
            onClick={() => {
              setPlaying(false);
              void classroom.reset();
            }}
          >
            Start over
          </button>
          <button type="button" className="ghost" onClick={toggleFullscreen} title="Presenter mode: the tree full screen, large, for a projector (key F)" data-testid="teach-fullscreen">
            {fullscreen ? 'Exit full screen' : 'Full screen'}
          </button>
          <button
            type="button"
            className="ghost"
            onClick={() => embedCopy.copy(`${url.link}${url.link.includes('?') ? '&' : '?'}embed=tree`)}
            title="A link that shows only the tree, without controls — for slides and course pages (the keys still step it)"
            data-testid="teach-embed"
          >
            {embedCopy.status === 'ok' ? 'Embed link copied' : 'Copy embed link'}
          </button>
          <span className="teach-next" aria-live="polite">
            {atNewest ? `Next step: ${nextStep(frame, paced)}` : `Replaying step ${cursor} of ${frames.length - 1}`}
          </span>
        </div>
        <Timeline frames={frames} cursor={cursor} onSeek={(i) => { setPlaying(false); classroom.seek(i); }} />
        <p className="teach-narration" aria-live="polite" data-testid="teach-narration">
          <strong>Step {cursor}:</strong> {frame?.lines.join(' ') ?? ''}
        </p>
        {paced && frame?.stall && <StallPanel frame={frame} limits={limits} maxRuns={policy === 'leveling' ? 1 : Math.max(1, sizeRatio - 1)} />}
        <ErrorAlert error={classroom.error} />
        <div className="teach-main">
        <div data-embed="tree" className="teach-tree-box" ref={treeBox}>
          {tree ? (
            <TreeView tree={tree} title="The classroom tree: buffer and levels" large minLevels={3} fitHeight={fitHeight} data-testid="teach-tree" />
          ) : (
            <p className="chart-placeholder">Opening the engine…</p>
          )}
        </div>
        <dl className="teach-counters" aria-label="Counters">
          <div>
            <dt>Keys inserted</dt>
            <dd data-testid="teach-inserted">{formatInt(inserted)}</dd>
          </div>
          <div>
            <dt>Flushes</dt>
            <dd data-testid="teach-flushes" data-value={counted.flushes}>{formatInt(counted.flushes)}</dd>
            {counted.flushUnderWay && <dd className="teach-counter-note" data-testid="teach-flush-underway">1 under way</dd>}
          </div>
          <div>
            <dt>Merges</dt>
            <dd data-testid="teach-merges" data-value={counted.merges}>{formatInt(counted.merges)}</dd>
            {counted.mergeUnderWay && <dd className="teach-counter-note" data-testid="teach-merge-underway">1 under way</dd>}
          </div>
          <div>
            <dt>Pages written</dt>
            <dd>{formatInt(writes?.data_pages_written ?? 0)}</dd>
          </div>
          {paced && (
            <>
              <div>
                <dt>Writes slowed</dt>
                <dd data-testid="teach-slowdowns">{formatInt(frame?.stats.stalls?.slowdowns ?? 0)}</dd>
              </div>
              <div>
                <dt>Writes stopped</dt>
                <dd data-testid="teach-stops">{formatInt(frame?.stats.stalls?.stops ?? 0)}</dd>
              </div>
            </>
          )}
          <div>
            <dt>Write amplification</dt>
            <dd title="Entries written by flushes and merges ÷ keys inserted">
              {writes && inserted > 0 ? (writes.entries_written / inserted).toFixed(2) : '—'}
            </dd>
          </div>
        </dl>
        </div>
      </div>
      <div className="card teach-log">
        <h2>What just happened</h2>
        <ol data-testid="teach-log">
          {told.map((l) => (
            <li key={l.first} data-event={l.event} data-count={l.count}>
              <span className="teach-log-step">{l.count > 1 ? `Steps ${l.first}–${l.last}` : `Step ${l.first}`}</span>
              <span className="teach-log-text">{l.text}</span>
              {l.count > 1 && <span className="teach-log-count" aria-label={`${l.count} times`}>× {l.count}</span>}
            </li>
          ))}
        </ol>
        <p className="caption">
          Each run is coloured by the filter bits per key it got: with Monkey, small young runs get more bits (darker) and the big last level fewer, so a lookup
          for a missing key wastes fewer I/Os overall; with uniform filters every run has the same colour. Hover a run for its entries, pages and false-positive rate.
        </p>
      </div>
    </Page>
  );
}

const EVENT_LABEL: Record<StepEvent, string> = { start: 'start', insert: 'keys inserted', flush: 'flush', merge: 'merge step', stall: 'writes waited' };

/** What the next Step does, for the toolbar. */
function nextStep(frame: Frame | undefined, paced: boolean): string {
  if (paced) return frame?.stall?.stall === 'stop' ? 'a write waits for the merge' : `write up to ${TEACH_BATCH} keys`;
  return frame?.merging ? `advance the merge by ${TEACH_MERGE_PAGES} pages` : `insert ${TEACH_BATCH} keys`;
}

/**
 * Where writes stand, from the engine's verdict after the step on screen: in words (announced
 * when it changes), and level 1's files drawn against the slow-down and stop marks.
 */
function StallPanel({ frame, limits, maxRuns }: { frame: Frame; limits: TeachStalls; maxRuns: number }) {
  const state = frame.stall;
  if (!state) return null;
  const { title, detail } = stallHeadline(state, limits);
  const slots = Math.max(limits.stop, state.level0_files);
  // Level 1 is merged once it holds more runs than it may: it never holds more than that plus one.
  const unreachable = limits.stop > maxRuns + 1;
  return (
    <div className={`teach-stall ${state.stall}`} data-testid="teach-stall" data-stall={state.stall} data-files={state.level0_files}>
      <p role="status" aria-live="polite" aria-atomic="true">
        <strong className="teach-stall-title">
          <span aria-hidden="true">{state.stall === 'stop' ? '■ ' : state.stall === 'slowdown' ? '▼ ' : '▶ '}</span>
          {title}
        </strong>{' '}
        <span data-testid="teach-stall-detail">{detail}</span>
      </p>
      {/* A picture of the sentence above (which says the counts), so screen readers skip it. */}
      <ol className="teach-l0" aria-hidden="true">
        {Array.from({ length: slots }, (_, i) => {
          const n = i + 1;
          const mark = n === limits.stop ? 'stop' : n === limits.slowdown ? 'slow' : '';
          return (
            <li key={n} className={`${n <= state.level0_files ? 'full' : ''} ${mark}`}>
              <span className="teach-l0-n">{n}</span>
              {mark && <span className="teach-l0-mark">{mark}</span>}
            </li>
          );
        })}
      </ol>
      {unreachable && (
        <p className="caption">
          Level 1 is merged past {maxRuns} {maxRuns === 1 ? 'run' : 'runs'}, so it never holds {limits.stop} files: writes here never stop.
        </p>
      )}
    </div>
  );
}

/**
 * Every kept step on one track: a slider to scrub, with a mark under each flush and merge step.
 * Arrow keys step through it (the slider's own keyboard).
 */
function Timeline({ frames, cursor, onSeek }: { frames: Frame[]; cursor: number; onSeek: (frame: number) => void }) {
  const last = Math.max(1, frames.length - 1);
  const marks = frames.map((f, i) => ({ f, i })).filter(({ f }) => f.event === 'flush' || f.event === 'merge' || f.event === 'stall');
  return (
    <div className="teach-timeline" data-testid="teach-timeline">
      <input
        type="range"
        min={0}
        max={Math.max(0, frames.length - 1)}
        value={cursor}
        onChange={(e) => onSeek(Number(e.target.value))}
        aria-label="Timeline: the step shown"
        aria-valuetext={`step ${cursor} of ${frames.length - 1}: ${EVENT_LABEL[frames[cursor]?.event ?? 'start']}`}
        disabled={frames.length < 2}
      />
      <div className="teach-marks" aria-hidden="true">
        {marks.map(({ f, i }) => (
          <span key={i} className={`teach-mark ${f.event}`} style={{ left: `${(100 * i) / last}%` }} title={`step ${i}: ${EVENT_LABEL[f.event]}`} />
        ))}
      </div>
      <p className="teach-legend">
        <span className="teach-mark flush" /> flush <span className="teach-mark merge" /> merge step
        {marks.some(({ f }) => f.event === 'stall') && (
          <>
            {' '}
            <span className="teach-mark stall" /> writes waited
          </>
        )}{' '}
        · {frames.length - 1} steps kept
      </p>
    </div>
  );
}
