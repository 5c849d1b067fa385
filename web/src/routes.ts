/**
 * The pages of the app and the hash route each lives at (`#/lab`, ...). One table, so the nav,
 * the router and the tests agree.
 */
import { useEffect, useState } from 'react';

export interface Route {
  path: string;
  title: string;
  /** One line under the title in the nav. */
  blurb: string;
}

export const ROUTES: Route[] = [
  { path: 'lab', title: 'Workload lab', blurb: 'Run real workloads on the engine' },
];

export const DEFAULT_ROUTE = 'lab';

function parseHash(): string {
  const path = window.location.hash.replace(/^#\/?/, '').split('?')[0];
  return ROUTES.some((r) => r.path === path) ? path : DEFAULT_ROUTE;
}

/** The current route, following hash changes. */
export function useRoute(): string {
  const [route, setRoute] = useState(parseHash);
  useEffect(() => {
    const onChange = () => setRoute(parseHash());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
