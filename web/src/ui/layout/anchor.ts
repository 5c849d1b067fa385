/**
 * `at=<id>` links (documents/learnSections.ts): scroll to the element with that id as soon as the
 * page has drawn it (pages are lazy chunks and draw once their numbers arrive), once.
 */
export function scrollWhenShown(root: HTMLElement, id: string, timeoutMs = 10_000): () => void {
  let done = false;
  const tryScroll = () => {
    const target = document.getElementById(id);
    if (done || !target || !root.contains(target)) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    // After the page heading has taken the focus (which scrolls to the top).
    requestAnimationFrame(() => target.scrollIntoView({ block: 'start' }));
  };
  const observer = new MutationObserver(tryScroll);
  observer.observe(root, { childList: true, subtree: true });
  const timer = setTimeout(() => observer.disconnect(), timeoutMs);
  tryScroll();
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}
