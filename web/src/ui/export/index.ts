/**
 * Export and import of designs, for any page. The lab (or any page) embeds the panel with
 *
 *   <ExportCard designs={[{ id: 'current', slug: designSlug('lab', config.name), label: 'This design', config }]} workload={workload} />
 *
 * (`workload` given: the page decides it; left out: the panel offers the example workloads).
 * "Run in the lab" uses the lab's own link convention, `labLink(config, workload)` in
 * documents/urls/labDocuments.ts.
 */
export { ExportCard, ExportPanel, type ExportDesign, type ExportPanelProps } from './ExportPanel';
export { DesignSummary } from './DesignSummary';
export { WarningList } from './WarningList';
export { designFileName, designSlug, EXPORT_FORMATS } from '../../documents/exportFormats';
export { mooseDatasetFor, mooseLinkFor } from '../../documents/urls/mooseLink';
