/**
 * In-page contents. Buttons rather than `#anchor` links, because the hash holds the route and
 * the page's state.
 */
const SECTIONS = [
  ['buffer', 'The write buffer'],
  ['levels', 'Runs and levels'],
  ['fences', 'Fence pointers'],
  ['bloom', 'Bloom filters'],
  ['merge', 'Merge policies'],
  ['size-ratio', 'The size ratio'],
  ['monkey', 'Monkey’s allocation'],
] as const;

export function Toc() {
  return (
    <nav className="toc" aria-label="On this page">
      <h2>On this page</h2>
      <ol>
        {SECTIONS.map(([id, title]) => (
          <li key={id}>
            <button
              type="button"
              className="link"
              onClick={() => document.getElementById(`learn-${id}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
            >
              {title}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
