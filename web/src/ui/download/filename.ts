/**
 * Export file names say what the file shows: `lsm-learn_bloom-fpr_b10_T10_pol-lev.svg`.
 * Page, chart, then the page's state from its URL (minus the version), so two exports of
 * different settings never overwrite each other in a Downloads folder.
 */

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `v=1&b=10&T=10,4&pol=lev` → `b10_T10-4_pol-lev`: numbers glued to their key, words hyphenated. */
export function stateSlug(query: string): string {
  return query
    .split('&')
    .filter((pair) => pair !== '' && !pair.startsWith('v='))
    .map((pair) => {
      const [k, v = ''] = pair.split('=');
      const value = v.replace(/[^A-Za-z0-9.]+/g, '-');
      return /^[-\d.]/.test(value) ? `${k}${value}` : `${k}-${value}`;
    })
    .join('_');
}

export function exportFileName(page: string, chart: string, query: string, ext: 'svg' | 'png' | 'csv'): string {
  const stem = [`lsm-${slug(page)}`, slug(chart), stateSlug(query)].filter(Boolean).join('_');
  // File systems cap names near 255 bytes; long per-level arrays are cut rather than rejected.
  return `${stem.slice(0, 150).replace(/[-_]+$/, '')}.${ext}`;
}
