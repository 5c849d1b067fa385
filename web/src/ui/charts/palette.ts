/**
 * Series colours, the same as the --series-* CSS variables. Charts set them as attributes (not
 * CSS variables) so an exported SVG keeps its colours outside the app.
 */
export const SERIES_COLORS = ['#1f5fa8', '#d1495b', '#e09f3e', '#00798c', '#6a4c93', '#5d6b7f', '#8c564b'];

export const INK = '#1b2430';
export const INK_SOFT = '#4a5566';
export const GRID = '#e6eaf0';

export function seriesColor(index: number, explicit?: string): string {
  return explicit ?? SERIES_COLORS[index % SERIES_COLORS.length];
}
