/**
 * Chart snapshots: a component rendered to static markup (react-dom/server, no DOM), its chart
 * <svg> elements cut out and written one element per line, so a snapshot is a file a reviewer can
 * open as an image and a change to a chart is a readable diff.
 *
 * Rendered on the server, a chart draws at useWidth's fallback width (560 px; TreeView 720 px):
 * layout effects, which would measure the container, do not run. React's ids (useId, used for clip
 * paths and gradients) are numbered by the position in the tree, so they are stable too.
 */
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The few rules of the app's stylesheets (styles.css, ui/tree/tree.css) that change how a chart
 * looks, so a snapshot opened on its own looks like the chart on the page. Only for viewing: the
 * snapshot's content is what the component draws.
 */
const VIEWER_CSS = [
  'svg { font-family: system-ui, sans-serif; font-variant-numeric: tabular-nums; background: #fff }',
  '.halo, .annotation text { paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round }',
  '.tv-slot { fill: #f6f7f9; stroke: #c3cad5; stroke-dasharray: 4 4 }',
  '.tv-level.merging .tv-slot { stroke: #d1495b; stroke-width: 2.5; stroke-dasharray: 8 6 }',
  '.tv-level.receiving .tv-slot { stroke: #d1495b; stroke-width: 2; fill: #fdf0f2 }',
].join(' ');

/** Coordinates to 2 decimals: sub-pixel noise stays out of the diff, every visible change is in it. */
function roundNumbers(attr: string): string {
  return attr.replace(/-?\d+\.\d{3,}/g, (n) => {
    const r = Number(Number(n).toFixed(2));
    return String(Object.is(r, -0) ? 0 : r);
  });
}

/** One element per line, nested by two spaces; an element holding only text stays on one line. */
export function prettySvg(svg: string): string {
  const tokens = svg.match(/<[^>]+>|[^<]+/g) ?? [];
  const lines: string[] = [];
  let depth = 0;
  const emit = (s: string) => lines.push(`${'  '.repeat(depth)}${s}`);
  const isClose = (t: string | undefined) => t !== undefined && t.startsWith('</');
  const isText = (t: string | undefined) => t !== undefined && !t.startsWith('<');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isText(t)) {
      if (t.trim()) emit(t.trim());
    } else if (isClose(t)) {
      depth--;
      emit(t);
    } else {
      const open = roundNumbers(t);
      if (open.endsWith('/>')) emit(open);
      else if (isClose(tokens[i + 1])) {
        // <path …></path> → <path …/>
        emit(`${open.slice(0, -1)}/>`);
        i++;
      } else if (isText(tokens[i + 1]) && isClose(tokens[i + 2])) {
        emit(`${open}${tokens[i + 1]}${tokens[i + 2]}`);
        i += 2;
      } else {
        emit(open);
        depth++;
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Every chart <svg> a component draws (a card may hold more than one), each pretty-printed and
 * made a standalone file: xmlns on the root, as the app's own SVG export does, and VIEWER_CSS.
 */
export function chartSvgs(element: ReactElement): string[] {
  const html = renderToStaticMarkup(element);
  const svgs = html.match(/<svg[\s>][\s\S]*?<\/svg>/g) ?? [];
  return svgs.map((svg) => prettySvg(svg.replace(/^<svg([^>]*)>/, `<svg xmlns="${SVG_NS}"$1><style>${VIEWER_CSS}</style>`)));
}

/** The one chart <svg> a component draws; fails if it draws none or several. */
export function chartSvg(element: ReactElement): string {
  const svgs = chartSvgs(element);
  if (svgs.length !== 1) throw new Error(`expected one chart <svg>, found ${svgs.length}`);
  return svgs[0];
}
