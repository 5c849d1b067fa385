/**
 * A chart's <svg> as a standalone file: computed styles inlined (the app's stylesheet is not
 * there when the file is opened elsewhere), xmlns set, interaction-only parts (hit areas,
 * crosshair) removed, and a white background so it reads on any viewer.
 */

const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'paint-order',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
] as const;

const SVG_NS = 'http://www.w3.org/2000/svg';

export function serializeSvg(svg: SVGSVGElement, background = '#ffffff'): { text: string; width: number; height: number } {
  const width = svg.width.baseVal.value || svg.getBoundingClientRect().width;
  const height = svg.height.baseVal.value || svg.getBoundingClientRect().height;
  const clone = svg.cloneNode(true) as SVGSVGElement;

  // Inline styles pairwise, before removing anything, so the two element lists line up.
  const originals = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const copies = [clone, ...Array.from(clone.querySelectorAll('*'))];
  originals.forEach((el, i) => {
    const computed = window.getComputedStyle(el);
    const decl = STYLE_PROPS.map((p) => [p, computed.getPropertyValue(p)] as const)
      .filter(([, v]) => v !== '' && v !== 'normal' && v !== 'auto')
      .map(([p, v]) => `${p}:${v}`)
      .join(';');
    if (decl) copies[i].setAttribute('style', decl);
  });
  clone.querySelectorAll('.no-export').forEach((el) => el.remove());

  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('xmlns:xlink', 'http://www.w3.org/1999/xlink');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.setAttribute('viewBox', `0 0 ${width} ${height}`);
  clone.removeAttribute('tabindex');
  clone.removeAttribute('class');
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', background);
  const title = clone.querySelector('title');
  clone.insertBefore(bg, title ? title.nextSibling : clone.firstChild);

  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
  return { text, width, height };
}

/** Draw the SVG on a canvas at `scale`× and encode it as PNG. */
export async function svgToPng(svgText: string, width: number, height: number, scale: number): Promise<Blob> {
  const img = new Image();
  // A data: URL (rather than a blob: URL) keeps the canvas untainted in every browser.
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function downloadText(text: string, filename: string, type: string): void {
  downloadBlob(new Blob([text], { type }), filename);
}
