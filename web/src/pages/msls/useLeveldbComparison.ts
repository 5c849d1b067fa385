/** The stored comparison with a real LevelDB (public/measured), loaded once for the page's cards. */
import { useEffect, useState } from 'react';
import { loadLeveldbComparison } from '../../documents/sources';
import type { LeveldbComparison } from '../../documents/writeAmp';

export interface LeveldbComparisonState {
  doc: LeveldbComparison | null;
  error: string | null;
}

export function useLeveldbComparison(): LeveldbComparisonState {
  const [state, setState] = useState<LeveldbComparisonState>({ doc: null, error: null });
  useEffect(() => {
    let live = true;
    loadLeveldbComparison().then(
      (doc) => live && setState({ doc, error: null }),
      (e: unknown) => live && setState({ doc: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
