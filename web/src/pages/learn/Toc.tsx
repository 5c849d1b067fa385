/**
 * In-page contents. Buttons rather than `#anchor` links, because the hash holds the route and
 * the page's state.
 */
import { LEARN_SECTIONS, learnSectionId } from '../../documents/learnSections';

export function Toc() {
  return (
    <nav className="toc" aria-label="On this page">
      <h2>On this page</h2>
      <ol>
        {LEARN_SECTIONS.map(([id, title]) => (
          <li key={id}>
            <button
              type="button"
              className="link"
              onClick={() => document.getElementById(learnSectionId(id))?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
            >
              {title}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
