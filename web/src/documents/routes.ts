/**
 * The pages of the app and the hash route each lives at (`#/learn?v=1&b=10`). One table, so the
 * nav, the router, links between pages and the tests agree. The part after `?` belongs to the page
 * (its URL state, see documents/url/codec.ts); the router only looks at the path. Pure: the browser
 * side is ui/state/location.ts, the page components are mapped in app/pages.ts.
 */

export interface Route {
  path: string;
  title: string;
  /** One line under the title in the nav. */
  blurb: string;
}

export const ROUTES: readonly Route[] = [
  {
    path: 'learn',
    title: 'Learn',
    blurb: 'LSM-trees from first principles, with live models',
  },
  {
    path: 'teach',
    title: 'Teaching view',
    blurb: 'Watch a tiny LSM-tree on the engine fill, flush and merge, step by step',
  },
  {
    path: 'monkey',
    title: 'Monkey vs SOTA',
    blurb: 'Optimal Bloom filters against uniform bits per key',
  },
  {
    path: 'tradeoffs',
    title: 'Trade-offs',
    blurb: 'Lookup vs update cost for every design, and the holistic optimum for a workload',
  },
  {
    path: 'moose',
    title: 'Moose',
    blurb: 'Per-level size ratios, runs and filters; Smoose’s pick for a workload',
  },
  {
    path: 'memory',
    title: 'Memory pressure',
    blurb: 'Mnemosyne’s per-file filter bits and SHaMBa’s modular filters when memory is scarce',
  },
  {
    path: 'msls',
    title: 'Write amp (MSLS)',
    blurb: 'Bytes written per byte inserted: MSLS model vs worst case, optimized level sizes',
  },
  {
    path: 'tune',
    title: 'Tune',
    blurb: 'Your design and workload in; a design proven better, measured on the engine, and the files to take home',
  },
  {
    path: 'lab',
    title: 'Workload lab',
    blurb: 'Run real workloads on the engine; measured I/O over the models’ predictions, sweeps, persistent databases',
  },
  {
    path: 'export',
    title: 'Export & import',
    blurb: 'Tuned designs as RocksDB OPTIONS, db_bench scripts and engine JSON; import OPTIONS files back',
  },
  {
    path: 'bench',
    title: 'Benchmark',
    blurb: 'The engine on OPFS and IndexedDB against a plain IndexedDB key-value store, in this browser',
  },
];

export const DEFAULT_ROUTE = 'learn';

export interface HashLocation {
  /** A known route path (unknown paths fall back to DEFAULT_ROUTE). */
  path: string;
  /** Everything after `?`, without the `?`; '' when absent. */
  query: string;
  /** The path asked for when it names no page (the default page is shown instead). */
  unknown?: string;
  /**
   * `embed=<id>` in the query: show only that part of the page (a chart card's id, or `tree` on the
   * teaching view), without header, controls or other cards — for slides and course pages, like
   * TensorFlow Playground's `_hide`. The app's, not the page's: it is taken out of `query`.
   */
  embed?: string;
  /**
   * `at=<element id>` in the query: scroll to that part of the page once it is drawn (links to a
   * section of Learn, documents/learnSections.ts). The app's too, taken out of `query`.
   */
  at?: string;
}

const APP_ID = /^[A-Za-z0-9_-]+$/;

/** The query without the app's `embed=` and `at=` pairs, and their ids if there were any (and valid). */
export function splitEmbed(query: string): { query: string; embed?: string; at?: string } {
  const out: { query: string; embed?: string; at?: string } = { query: '' };
  const rest: string[] = [];
  for (const p of query.split('&')) {
    if (p === '') continue;
    const name = p.startsWith('embed=') ? 'embed' : p.startsWith('at=') ? 'at' : null;
    if (!name) {
      rest.push(p);
      continue;
    }
    const id = decodeURIComponent(p.slice(name.length + 1));
    if (APP_ID.test(id)) out[name] = id;
  }
  out.query = rest.join('&');
  return out;
}

/** Split `#/learn?v=1&b=10` into path and query. Pure, for tests. */
export function parseHash(hash: string, routes: readonly { path: string }[] = ROUTES): HashLocation {
  const body = hash.replace(/^#\/?/, '');
  const q = body.indexOf('?');
  const path = (q < 0 ? body : body.slice(0, q)).replace(/\/+$/, '');
  const { query, embed, at } = splitEmbed(q < 0 ? '' : body.slice(q + 1));
  if (routes.some((r) => r.path === path)) return { path, query, ...(embed ? { embed } : {}), ...(at ? { at } : {}) };
  return path === '' ? { path: DEFAULT_ROUTE, query: '' } : { path: DEFAULT_ROUTE, query: '', unknown: path };
}

export function hashFor(path: string, query = ''): string {
  return `#/${path}${query ? `?${query}` : ''}`;
}
