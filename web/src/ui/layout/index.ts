export { CardGrid, Page, type PageProps } from './Page';
export { PageHeading } from './PageHeading';
export { DataTable, type Column } from './DataTable';
export { ScrollRegion, useOverflow } from './ScrollRegion';
export { DownloadableCard, type DownloadableCardProps } from './DownloadableCard';
export { usePageInfo } from './pageContext';
export { Readouts, type ReadoutItem } from './Readouts';
export { ChartPlaceholder, sweepStatus } from './sweepStatus';
export { TableCard, type TableCardProps } from './TableCard';
