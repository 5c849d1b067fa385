import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { keepEmbedded } from '../ui/layout/embed';
import { scrollWhenShown } from '../ui/layout/anchor';
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
  const compact = useScrolledPast();
  const embed = location.embed;
  // On a phone the nav is one line that scrolls sideways: bring the current page's link into it.
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const bar = nav.current;
    const link = bar?.querySelector<HTMLElement>('[aria-current="page"]');
    if (bar && link && bar.scrollWidth > bar.clientWidth) bar.scrollLeft = link.offsetLeft - (bar.clientWidth - link.offsetWidth) / 2;
  }, [route]);
  // Which sides of the nav hold links scrolled out of sight.
  const [more, setMore] = useState({ left: false, right: false });
  const measureNav = useCallback(() => {
    const bar = nav.current;
    if (!bar) return;
    const left = bar.scrollLeft > 1;
    const right = bar.scrollLeft + bar.clientWidth < bar.scrollWidth - 1;
    setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
  }, []);
  useEffect(() => {
    const bar = nav.current;
    if (!bar) return;
    measureNav();
    const observer = new ResizeObserver(measureNav);
    observer.observe(bar);
    return () => observer.disconnect();
  }, [measureNav, route, compact]);
  const scrollNav = (direction: 1 | -1) => {
    const bar = nav.current;
    if (bar) bar.scrollBy({ left: direction * bar.clientWidth * 0.7, behavior: 'smooth' });
  };
  useEffect(() => {
    if (!embed || !main.current) return;
    return keepEmbedded(main.current, embed);
  }, [embed, route]);
  // `at=<id>`: a link to one part of a page (a section of Learn).
  const at = location.at;
  useEffect(() => {
    if (!at || !main.current) return;
    return scrollWhenShown(main.current, at);
  }, [at, route]);
  return (
    <div className={embed ? 'app embed' : 'app'} data-embed-id={embed}>
      <a className="skip-link" href="#main" onClick={(e) => {
        // The hash is the router's; move focus without touching it.
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        Skip to content
      </a>
      <header className={compact ? 'app-header compact' : 'app-header'} data-testid="app-header">
        <a className="brand" href="#/">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>LSM Navigator</span>
        </a>
        <div className="nav-scroller" data-more-left={more.left ? 'true' : 'false'} data-more-right={more.right ? 'true' : 'false'} data-testid="nav-scroller">
          {/* On a phone the pages scroll sideways: a fade and an arrow on each side that has more. The
              links themselves stay in the tab order; the arrows are for pointers. */}
          <button type="button" className="nav-more nav-more-left" tabIndex={-1} aria-hidden="true" hidden={!more.left} onClick={() => scrollNav(-1)} data-testid="nav-more-left">
            ‹
          </button>
          <nav aria-label="Pages" ref={nav} onScroll={measureNav}>
            {ROUTES.map((r) => (
              <a key={r.path} href={`#/${r.path}`} aria-current={r.path === route ? 'page' : undefined} title={r.blurb}>
                {r.title}
              </a>
            ))}
          </nav>
          <button type="button" className="nav-more nav-more-right" tabIndex={-1} aria-hidden="true" hidden={!more.right} onClick={() => scrollNav(1)} data-testid="nav-more-right">
            ›
          </button>
        </div>
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

/**
 * Whether the page is scrolled down (the phone header folds to one line then). Two thresholds,
 * so the header's own change of height cannot flip it back and forth.
 */
function useScrolledPast(down = 96, up = 16): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const onScroll = () => setPast((was) => (was ? window.scrollY > up : window.scrollY > down));
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [down, up]);
  return past;
}
