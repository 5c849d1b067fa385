/** The preset index and the chosen preset's design, loaded from public/presets. */
import { useEffect, useState } from 'react';
import type { EngineConfig } from '../../documents/engine';
import { loadPreset, loadPresetIndex, type PresetEntry, type PresetIndex } from '../../documents/sources';

type Loaded<T> = { status: 'loading' } | { status: 'ok'; value: T } | { status: 'error'; message: string };

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function usePresetIndex(): Loaded<PresetIndex> {
  const [state, setState] = useState<Loaded<PresetIndex>>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    loadPresetIndex().then(
      (value) => live && setState({ status: 'ok', value }),
      (err: unknown) => live && setState({ status: 'error', message: message(err) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

export function usePresetConfig(entry: PresetEntry | undefined): Loaded<EngineConfig> | null {
  const [state, setState] = useState<{ id: string; loaded: Loaded<EngineConfig> } | null>(null);
  useEffect(() => {
    if (!entry) return;
    let live = true;
    loadPreset(entry).then(
      (value) => live && setState({ id: entry.id, loaded: { status: 'ok', value } }),
      (err: unknown) => live && setState({ id: entry.id, loaded: { status: 'error', message: message(err) } }),
    );
    return () => {
      live = false;
    };
  }, [entry]);
  if (!entry) return null;
  return state?.id === entry.id ? state.loaded : { status: 'loading' };
}
