/**
 * A page's controls, kept in the URL hash. Read once from the link on load (bad values fall back
 * to defaults with notices), written back with `history.replaceState` on every change, and
 * re-read when the user pastes or navigates to a different link for the same page.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { currentLocation, replaceQuery } from './location';
import { hashFor } from '../../documents/routes';
import { defaultsOf, type Schema, type StateOf } from '../../documents/url/params';
import {
  applyPreset as applyPresetTo,
  decodeQuery,
  encodeQuery,
  matchingPreset,
  type Preset,
  type UrlSpec,
} from '../../documents/url/codec';

export interface Binding<P, V> {
  param: P;
  value: V;
  onChange: (value: V) => void;
}

export interface UrlState<S extends Schema> {
  spec: UrlSpec<S>;
  state: StateOf<S>;
  set: <K extends keyof S>(name: K, value: StateOf<S>[K]) => void;
  patch: (values: Partial<StateOf<S>>) => void;
  reset: () => void;
  /** Problems found in the link this state was read from; shown once, dismissible. */
  notices: string[];
  dismissNotices: () => void;
  /** The preset every one of whose values the state matches, if any. */
  preset: Preset<S> | null;
  applyPreset: (id: string) => void;
  /** The encoded state (`v=1&...`), also used in export file names. */
  query: string;
  /** The absolute link to this exact view. */
  link: string;
  /** Props for a control: `<NumberField {...url.bind('T')} />`. */
  bind: <K extends keyof S>(name: K) => Binding<S[K], StateOf<S>[K]>;
}

/**
 * The last state of each page in this tab, so going Learn → Lab → Learn through the nav (whose
 * links carry no query) comes back to the same view. Not persisted: a reload reads only the URL.
 */
const lastQuery = new Map<string, string>();

/**
 * `history.replaceState` costs several milliseconds per call in Chromium, too much to pay on every
 * frame of a slider drag. The first change writes the URL at once; changes that follow within
 * URL_WRITE_MS are coalesced into one trailing write of the latest state.
 */
const URL_WRITE_MS = 100;
let lastUrlWrite = -Infinity;
let pendingUrlWrite: ReturnType<typeof setTimeout> | null = null;

function writeUrl(page: string, query: string): void {
  lastUrlWrite = performance.now();
  const loc = currentLocation();
  if (loc.path === page && loc.query !== query) replaceQuery(page, query);
}

function scheduleUrlWrite(page: string, query: string): void {
  if (pendingUrlWrite !== null) clearTimeout(pendingUrlWrite);
  pendingUrlWrite = null;
  const wait = lastUrlWrite + URL_WRITE_MS - performance.now();
  if (wait <= 0) {
    writeUrl(page, query);
    return;
  }
  pendingUrlWrite = setTimeout(() => {
    pendingUrlWrite = null;
    writeUrl(page, query);
  }, wait);
}

function readLink<S extends Schema>(spec: UrlSpec<S>) {
  const loc = currentLocation();
  if (loc.path !== spec.page) return { state: defaultsOf(spec.params), notices: [] };
  return decodeQuery(spec, loc.query || (lastQuery.get(spec.page) ?? ''));
}

export function useUrlState<S extends Schema>(spec: UrlSpec<S>): UrlState<S> {
  const [initial] = useState(() => readLink(spec));
  const [state, setState] = useState<StateOf<S>>(initial.state);
  const [notices, setNotices] = useState<string[]>(initial.notices);
  const query = useMemo(() => encodeQuery(spec, state), [spec, state]);
  const queryRef = useRef(query);
  queryRef.current = query;

  useEffect(() => {
    lastQuery.set(spec.page, query);
    scheduleUrlWrite(spec.page, query);
  }, [spec.page, query]);

  useEffect(() => {
    const onHash = () => {
      const loc = currentLocation();
      if (loc.path !== spec.page || loc.query === queryRef.current) return;
      // A bare `#/learn` (the nav link) keeps the current view rather than resetting it.
      if (loc.query === '') {
        replaceQuery(spec.page, queryRef.current);
        return;
      }
      const decoded = decodeQuery(spec, loc.query);
      setState(decoded.state);
      setNotices(decoded.notices);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [spec]);

  const set = useCallback(<K extends keyof S>(name: K, value: StateOf<S>[K]) => {
    setState((s) => (s[name] === value ? s : { ...s, [name]: value }));
  }, []);
  const patch = useCallback((values: Partial<StateOf<S>>) => setState((s) => ({ ...s, ...values })), []);
  const reset = useCallback(() => {
    setState(defaultsOf(spec.params));
    setNotices([]);
  }, [spec]);
  const applyPreset = useCallback((id: string) => setState((s) => applyPresetTo(spec, s, id)), [spec]);
  const dismissNotices = useCallback(() => setNotices([]), []);

  const bind = useCallback(
    <K extends keyof S>(name: K): Binding<S[K], StateOf<S>[K]> => ({
      param: spec.params[name],
      value: state[name],
      onChange: (value: StateOf<S>[K]) => set(name, value),
    }),
    [spec, state, set],
  );

  const link = `${window.location.origin}${window.location.pathname}${hashFor(spec.page, query)}`;
  return {
    spec,
    state,
    set,
    patch,
    reset,
    notices,
    dismissNotices,
    preset: matchingPreset(spec, state),
    applyPreset,
    query,
    link,
    bind,
  };
}
