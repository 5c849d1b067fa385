export { CardGrid, Page, type PageProps } from './Page';
export { DataTable, type Column } from './DataTable';
export { usePageInfo } from './pageContext';
export { Readouts, type ReadoutItem } from './Readouts';
