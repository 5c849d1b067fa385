/** The stored RocksDB twin (public/measured/rocksdb-twin.json), loaded and checked once for the page. */
import { useEffect, useState } from 'react';
import { loadRocksdbTwin, type RocksdbTwin } from '../../documents/rocksdbTwin';

export interface RocksdbTwinState {
  doc: RocksdbTwin | null;
  error: string | null;
}

export function useRocksdbTwin(): RocksdbTwinState {
  const [state, setState] = useState<RocksdbTwinState>({ doc: null, error: null });
  useEffect(() => {
    let live = true;
    loadRocksdbTwin().then(
      (doc) => live && setState({ doc, error: null }),
      (e: unknown) => live && setState({ doc: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
