import { ROUTES, useRoute } from './routes';
import { LabPage } from './pages/LabPage';

export function App() {
  const route = useRoute();
  return (
    <div className="app">
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
      <main className="app-main">{route === 'lab' && <LabPage />}</main>
    </div>
  );
}
