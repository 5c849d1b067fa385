import { useWidth } from './useWidth';

/**
 * What every chart hands its `ChartFigure` and its `ChartTooltip` from its own props and its
 * container: one place for the figure's test id, title, size and body, and the tooltip's id and
 * bounds, so the three charts cannot drift apart.
 */
export function useChartFigure(title: string, testId: string | undefined, height: number) {
  const [bodyRef, width] = useWidth<HTMLDivElement>();
  return {
    width,
    figure: { testId, title, bodyRef, width, height },
    tooltip: { testId: testId ? `${testId}-tooltip` : undefined, bodyWidth: width },
  };
}
