/**
 * Teaching view: a tiny LSM-tree on the real engine, stepped or played so a class can watch the
 * buffer fill, flush into level 1, and merges carry data down, with filter memory as colour.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ControlGroup, ParamControl } from '../../ui/controls';
import { Page } from '../../ui/layout';
import { useUrlState } from '../../ui/state/useUrlState';
import { totalWrites } from '../../documents/engine';
import { formatBytes, formatInt } from '../../documents/format';
import { teachUrl } from '../../documents/urls/teaching';
import { TEACH_BATCH, TEACH_BUFFER_BYTES, TEACH_KEY_BYTES, TEACH_MERGE_PAGES, TEACH_PAGE_BYTES, TEACH_VALUE_BYTES, teachConfig } from './teach';
import { TreeView } from '../../ui/tree/TreeView';
import { useClassroomTree } from './useClassroomTree';
import './teaching.css';

export function TeachingPage() {
  const url = useUrlState(teachUrl);
  const { sizeRatio, policy, allocation, bits, speed } = url.state;
  const config = useMemo(() => teachConfig(sizeRatio, policy, allocation, bits), [sizeRatio, policy, allocation, bits]);
  const classroom = useClassroomTree(config);
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
  }, [playing, speed, classroom.step]);

  useEffect(() => {
    if (classroom.error) setPlaying(false);
  }, [classroom.error]);

  const writes = classroom.stats ? totalWrites(classroom.stats) : null;
  const tree = classroom.tree;

  return (
    <Page
      title="Teaching view: watch an LSM-tree work"
      lede={
        <>
          A tiny tree on the real engine — {formatBytes(TEACH_BUFFER_BYTES)} buffer, {TEACH_PAGE_BYTES} B pages, {TEACH_KEY_BYTES} B keys with {TEACH_VALUE_BYTES} B values — drawn
          from the engine’s own state after every step. Merges run only when you step, a few pages at a time. See the <a href="#/lab">workload lab</a> for big runs.
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
          </ControlGroup>
          <ControlGroup title="Playback">
            <ParamControl {...url.bind('speed')} />
          </ControlGroup>
        </>
      }
    >
      <div className="teach-stage card" ref={figure} data-testid="teach-stage" data-steps={classroom.steps}>
        <div className="teach-toolbar" role="toolbar" aria-label="Playback">
          <button type="button" className="primary" onClick={() => setPlaying((p) => !p)} aria-pressed={playing} data-testid="teach-play">
            {playing ? '❚❚ Pause' : '▶ Play'}
          </button>
          <button type="button" onClick={() => void classroom.step()} disabled={playing} data-testid="teach-step">
            Step
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
          <button
            type="button"
            className="ghost"
            onClick={() => (document.fullscreenElement ? void document.exitFullscreen() : void figure.current?.requestFullscreen())}
            title="Show the tree full screen (for a projector)"
          >
            Full screen
          </button>
          <span className="teach-next" aria-live="polite">
            Next step: {classroom.merging ? `advance the merge by ${TEACH_MERGE_PAGES} pages` : `insert ${TEACH_BATCH} keys`}
          </span>
        </div>
        {classroom.error && (
          <p role="alert" className="error">
            {classroom.error}
          </p>
        )}
        {tree ? (
          <TreeView tree={tree} title="The classroom tree: buffer and levels" large minLevels={3} data-testid="teach-tree" />
        ) : (
          <p className="chart-placeholder">Opening the engine…</p>
        )}
        <dl className="teach-counters" aria-label="Counters">
          <div>
            <dt>Keys inserted</dt>
            <dd data-testid="teach-inserted">{formatInt(classroom.inserted)}</dd>
          </div>
          <div>
            <dt>Flushes</dt>
            <dd data-testid="teach-flushes">{formatInt(writes?.flushes ?? 0)}</dd>
          </div>
          <div>
            <dt>Merges</dt>
            <dd data-testid="teach-merges">{formatInt(writes?.compactions ?? 0)}</dd>
          </div>
          <div>
            <dt>Pages written</dt>
            <dd>{formatInt(writes?.data_pages_written ?? 0)}</dd>
          </div>
          <div>
            <dt>Write amplification</dt>
            <dd title="Entries written by flushes and merges ÷ keys inserted">
              {writes && classroom.inserted > 0 ? (writes.entries_written / classroom.inserted).toFixed(2) : '—'}
            </dd>
          </div>
        </dl>
      </div>
      <div className="card teach-log">
        <h2>What just happened</h2>
        <ol aria-live="polite" data-testid="teach-log">
          {classroom.log.map((l) => (
            <li key={l.id}>{l.text}</li>
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
