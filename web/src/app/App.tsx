import { lazy, Suspense, useEffect, useMemo, useRef, type ComponentType, type LazyExoticComponent } from 'react';
import { keepEmbedded } from '../ui/layout/embed';
import { useLocation } from '../ui/state/location';
import { PAGE_LOADERS } from './pages';
import { ROUTES } from '../documents/routes';

// One lazy component per route, created once, so revisiting a page does not reload its chunk.
const PAGES = new Map<string, LazyExoticComponent<ComponentType>>(
  ROUTES.map((r) => [r.path, lazy(() => PAGE_LOADERS[r.path]().then((c) => ({ default: c })))]),
);

export function App() {
  const location = useLocation();
  const route = location.path;
  const Current = useMemo(() => PAGES.get(route), [route]);
  const meta = ROUTES.find((r) => r.path === route);
  const main = useRef<HTMLElement>(null);
  const embed = location.embed;
  useEffect(() => {
    if (!embed || !main.current) return;
    return keepEmbedded(main.current, embed);
  }, [embed, route]);
  return (
    <div className={embed ? 'app embed' : 'app'} data-embed-id={embed}>
      <a className="skip-link" href="#main" onClick={(e) => {
        // The hash is the router's; move focus without touching it.
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        Skip to content
      </a>
      <header className="app-header">
        <a className="brand" href="#/">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>LSM Navigator</span>
        </a>
        <nav aria-label="Pages">
          {ROUTES.map((r) => (
            <a key={r.path} href={`#/${r.path}`} aria-current={r.path === route ? 'page' : undefined} title={r.blurb}>
              {r.title}
            </a>
          ))}
        </nav>
      </header>
      <main className="app-main" id="main" tabIndex={-1} ref={main}>
        {location.unknown !== undefined && (
          <p className="notice" role="status" data-testid="route-unknown">
            There is no page “#/{location.unknown}”; here is {meta?.title ?? 'the first page'} instead. Every page is in the menu above.
          </p>
        )}
        <Suspense fallback={<p className="loading">Loading {meta?.title ?? 'page'}…</p>}>
          {Current && <Current key={route} />}
        </Suspense>
      </main>
      <footer className="app-footer">
        <p>
          LSM Navigator — cost models from Monkey, Mnemosyne, SHaMBa, Moose and MSLS; a real LSM engine in
          WebAssembly. Everything runs in your browser; nothing is sent anywhere.
        </p>
        <p className="fine">
          Costs are in page I/Os, as in the papers. Links keep every setting; figures export as SVG, PNG and CSV.
        </p>
      </footer>
    </div>
  );
}
