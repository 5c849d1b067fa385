/**
 * The pages of the app and the hash route each lives at (`#/learn?v=1&b=10`). One table, so the
 * nav, the router and the tests agree. The part after `?` belongs to the page (its URL state,
 * see state/useUrlState.ts); the router only looks at the path.
 */
import { useEffect, useState, type ComponentType } from 'react';

export interface Route {
  path: string;
  title: string;
  /** One line under the title in the nav. */
  blurb: string;
  /** Loads the page's component on first visit, so each page is its own chunk. */
  load: () => Promise<ComponentType>;
}

export const ROUTES: Route[] = [
  {
    path: 'learn',
    title: 'Learn',
    blurb: 'LSM-trees from first principles, with live models',
    load: () => import('./pages/learn/LearnPage').then((m) => m.LearnPage),
  },
  {
    path: 'teach',
    title: 'Teaching view',
    blurb: 'Watch a tiny LSM-tree on the engine fill, flush and merge, step by step',
    load: () => import('./pages/teaching/TeachingPage').then((m) => m.TeachingPage),
  },
  {
    path: 'monkey',
    title: 'Monkey vs SOTA',
    blurb: 'Optimal Bloom filters against uniform bits per key',
    load: () => import('./pages/monkey/MonkeyPage').then((m) => m.MonkeyPage),
  },
  {
    path: 'tradeoffs',
    title: 'Trade-offs',
    blurb: 'Lookup vs update cost for every design, and the holistic optimum for a workload',
    load: () => import('./pages/tradeoffs/TradeoffsPage').then((m) => m.TradeoffsPage),
  },
  {
    path: 'moose',
    title: 'Moose',
    blurb: 'Per-level size ratios, runs and filters; Smoose’s pick for a workload',
    load: () => import('./pages/moose/MoosePage').then((m) => m.MoosePage),
  },
  {
    path: 'memory',
    title: 'Memory pressure',
    blurb: 'Mnemosyne’s per-file filter bits and SHaMBa’s modular filters when memory is scarce',
    load: () => import('./pages/memory/MemoryPage').then((m) => m.MemoryPage),
  },
  {
    path: 'msls',
    title: 'Write amp (MSLS)',
    blurb: 'Bytes written per byte inserted: MSLS model vs worst case, optimized level sizes',
    load: () => import('./pages/msls/MslsPage').then((m) => m.MslsPage),
  },
  {
    path: 'lab',
    title: 'Workload lab',
    blurb: 'Run real workloads on the engine; measured I/O over the models’ predictions, sweeps, persistent databases',
    load: () => import('./pages/lab/LabPage').then((m) => m.LabPage),
  },
  {
    path: 'export',
    title: 'Export & import',
    blurb: 'Tuned designs as RocksDB OPTIONS, db_bench scripts and engine JSON; import OPTIONS files back',
    load: () => import('./pages/export/ExportPage').then((m) => m.ExportPage),
  },
  {
    path: 'bench',
    title: 'Benchmark',
    blurb: 'The engine on OPFS and IndexedDB against a plain IndexedDB key-value store, in this browser',
    load: () => import('./pages/bench/BenchPage').then((m) => m.BenchPage),
  },
];

export const DEFAULT_ROUTE = 'learn';

export interface HashLocation {
  /** A known route path (unknown paths fall back to DEFAULT_ROUTE). */
  path: string;
  /** Everything after `?`, without the `?`; '' when absent. */
  query: string;
}

/** Split `#/learn?v=1&b=10` into path and query. Pure, for tests. */
export function parseHash(hash: string, routes: readonly { path: string }[] = ROUTES): HashLocation {
  const body = hash.replace(/^#\/?/, '');
  const q = body.indexOf('?');
  const path = (q < 0 ? body : body.slice(0, q)).replace(/\/+$/, '');
  const query = q < 0 ? '' : body.slice(q + 1);
  return routes.some((r) => r.path === path) ? { path, query } : { path: DEFAULT_ROUTE, query: '' };
}

export function hashFor(path: string, query = ''): string {
  return `#/${path}${query ? `?${query}` : ''}`;
}

export function currentLocation(): HashLocation {
  return parseHash(window.location.hash);
}

/**
 * Rewrite the page's query without adding a history entry or firing `hashchange`: moving a slider
 * should not fill the back button with hundreds of steps.
 */
export function replaceQuery(path: string, query: string): void {
  const url = `${window.location.pathname}${window.location.search}${hashFor(path, query)}`;
  window.history.replaceState(window.history.state, '', url);
}

/** The current location, following hash changes (typed links, back/forward, pasted URLs). */
export function useLocation(): HashLocation {
  const [loc, setLoc] = useState(currentLocation);
  useEffect(() => {
    const onChange = () => setLoc(currentLocation());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return loc;
}

/** The current route path. */
export function useRoute(): string {
  return useLocation().path;
}
