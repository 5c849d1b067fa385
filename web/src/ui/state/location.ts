/**
 * The browser's side of the hash router: where we are, following hash changes, and rewriting a
 * page's query in place. The route table and the hash format are documents/routes.ts.
 */
import { useEffect, useState } from 'react';
import { hashFor, parseHash, type HashLocation } from '../../documents/routes';

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
