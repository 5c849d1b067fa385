/**
 * Export & import: every preset design (and any design pasted, uploaded or imported) as the files
 * native builds read — engine JSON for `lsm run`, a RocksDB OPTIONS file, a C++ filter policy and
 * db_bench commands — with what each target cannot express; and RocksDB OPTIONS files or engine
 * configs read back into the explorer.
 */
import { useMemo, useState } from 'react';
import type { EngineConfig } from '../../documents/engine';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { ParamControl } from '../../ui/controls/ParamControl';
import { ExportCard } from '../../ui/export/ExportPanel';
import { designSlug } from '../../documents/exportFormats';
import type { PresetIndex } from '../../documents/sources';
import { useExampleWorkload } from '../../ui/export/useExports';
import { Page } from '../../ui/layout/Page';
import { PageHeading } from '../../ui/layout/PageHeading';
import { useUrlState } from '../../ui/state/useUrlState';
import { DesignCard } from './DesignCard';
import { ImportCard } from './ImportCard';
import { CUSTOM_DESIGN, exportUrlSpec } from '../../documents/urls/export';
import { usePresetConfig, usePresetIndex } from './usePresets';
import '../../ui/export/export-ui.css';
import './export.css';

const TITLE = 'Export & import';

export function ExportPage() {
  const index = usePresetIndex();
  if (index.status !== 'ok') {
    return (
      <section className="page" data-testid="page-export">
        <header className="page-header">
          <PageHeading>{TITLE}</PageHeading>
        </header>
        {index.status === 'error' ? (
          <p className="error" role="alert">
            The preset list could not be loaded: {index.message}
          </p>
        ) : (
          <p className="loading">Loading the presets…</p>
        )}
      </section>
    );
  }
  return <ExportView index={index.value} />;
}

function ExportView({ index }: { index: PresetIndex }) {
  const url = useUrlState(exportUrlSpec(index));
  const s = url.state;
  const [custom, setCustom] = useState<{ config: EngineConfig; source: string } | null>(null);

  const entry = index.presets.find((p) => p.id === s.design);
  const preset = usePresetConfig(entry);
  const example = useExampleWorkload(s.workload);
  const workload = example.workload;

  const isCustom = s.design === CUSTOM_DESIGN;
  const config = isCustom ? (custom?.config ?? null) : preset?.status === 'ok' ? preset.value : null;
  const problem = isCustom
    ? custom
      ? null
      : 'Pasted and imported designs are not carried in links: paste or upload it under “Import a design”, or pick a preset.'
    : preset?.status === 'error'
      ? preset.message
      : null;
  const slug = isCustom ? designSlug(custom?.config.name || 'custom') : s.design;
  const designs = useMemo(() => [{ id: 'current', slug, label: entry?.label ?? 'Your design', config, problem }], [slug, entry, config, problem]);

  return (
    <Page
      question="How do you take a design to RocksDB or to the native engine? Try first: pick a design, choose a format tab and download the file."
      title={TITLE}
      lede="Take a design out of the explorer: the engine config the native lsm CLI runs unchanged, a RocksDB OPTIONS file with a C++ filter policy for per-level bits, and db_bench commands for a workload — each with what its target cannot express. Or read a RocksDB OPTIONS file or engine config back in."
      url={url}
      controls={
        <>
          <ControlGroup title="Workload (optional)">
            <ParamControl {...url.bind('workload')} variant="select" />
            {example.error && <p className="field-msg field-error">{example.error}</p>}
          </ControlGroup>
          <ControlGroup title="Your own design">
            <p className="field-msg">
              Pick a preset above, or paste, upload or import a design under{' '}
              <a href="#import-design" onClick={(e) => { e.preventDefault(); document.getElementById('import-design')?.scrollIntoView({ behavior: 'smooth' }); }}>
                Import a design
              </a>
              ; “Export this design” there makes it the one exported here.
            </p>
          </ControlGroup>
        </>
      }
    >
      <DesignCard
        title={isCustom ? `Your design${custom ? ` (from ${custom.source})` : ''}` : (entry?.label ?? s.design)}
        caption={isCustom ? 'A design you pasted, uploaded or imported; the engine validated it.' : (entry?.description ?? '')}
        config={config}
        workload={workload}
        problem={problem}
      />
      <ExportCard
        title="Export for native builds"
        designs={designs}
        workload={workload}
        format={s.format}
        onFormatChange={(f) => url.set('format', f)}
      />
      <div id="import-design">
        <ImportCard
          workload={workload}
          onExport={(imported, source) => {
            setCustom({ config: imported, source });
            url.set('design', CUSTOM_DESIGN);
            window.scrollTo({ top: 0, behavior: 'smooth' });
          }}
        />
      </div>
    </Page>
  );
}
