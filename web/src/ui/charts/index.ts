export { LineChart } from './LineChart';
export { BarChart } from './BarChart';
export { ScatterChart } from './ScatterChart';
export { ChartCard, type ChartCardProps } from './ChartCard';
export { barChartCsv, columnTitle, lineChartCsv, scatterChartCsv, tableCsv, toCsv, type TableColumn } from './csv';
export { SERIES_COLORS, seriesColor } from './palette';
export type * from './types';
