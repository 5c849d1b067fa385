/**
 * Embedded views (`embed=<id>` in a link, documents/routes.ts): only one part of a page shows. The
 * part is found by `data-embed="<id>"` or, for any chart or table card, `data-testid="card-<id>"`;
 * everything in `root` beside the path down to it is hidden, and kept hidden as the page renders
 * more (pages draw their cards as their numbers arrive).
 */
export function embedTarget(root: ParentNode, id: string): HTMLElement | null {
  return root.querySelector<HTMLElement>(`[data-embed="${id}"], [data-testid="card-${id}"]`);
}

/** Hide every element of `root` that is neither on the path down to `target` nor inside it. */
export function isolate(root: HTMLElement, target: HTMLElement): void {
  for (let node: HTMLElement = target; node !== root && node.parentElement; node = node.parentElement) {
    for (const sibling of Array.from(node.parentElement.children)) {
      if (sibling !== node && sibling instanceof HTMLElement) sibling.classList.add('embed-hidden');
    }
    node.classList.remove('embed-hidden');
  }
}

/** Keep `root` isolated to embed `id` until the returned function is called. */
export function keepEmbedded(root: HTMLElement, id: string): () => void {
  const apply = () => {
    const target = embedTarget(root, id);
    if (target) isolate(root, target);
    root.dataset.embedFound = target ? 'true' : 'false';
  };
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}
