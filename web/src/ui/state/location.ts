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
  // An embedded view stays embedded while its page rewrites its own settings.
  const embed = currentLocation().embed;
  const full = embed ? `${query}${query ? '&' : ''}embed=${embed}` : query;
  const url = `${window.location.pathname}${window.location.search}${hashFor(path, full)}`;
  window.history.replaceState(window.history.state, '', url);
}

/**
 * Set when the hash changed to another page after the first load: the next page heading to mount
 * takes the focus (so a keyboard or screen-reader user lands on the page they chose, not back in
 * the nav). A flag rather than an effect in the app, because a cached page mounts in the same
 * commit as the app re-renders, and a child's effects run before its parent's.
 */
let headingFocusPending = false;

/** True once after a move to another page; the page heading that asks takes the focus. */
export function takeHeadingFocus(): boolean {
  const pending = headingFocusPending;
  headingFocusPending = false;
  return pending;
}

/** The current location, following hash changes (typed links, back/forward, pasted URLs). */
export function useLocation(): HashLocation {
  const [loc, setLoc] = useState(currentLocation);
  useEffect(() => {
    const onChange = () => {
      const next = currentLocation();
      setLoc((prev) => {
        if (prev.path !== next.path) headingFocusPending = true;
        return next;
      });
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return loc;
}

/** The current route path. */
export function useRoute(): string {
  return useLocation().path;
}
