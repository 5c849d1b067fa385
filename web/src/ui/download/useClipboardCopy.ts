import { useEffect, useState } from 'react';
import { copyText } from './clipboard';

export type CopyStatus = 'idle' | 'ok' | 'failed';

/**
 * Copy text to the clipboard (./clipboard) and say how it went: `status` is 'ok' or 'failed' for
 * 2.5 s after a copy, long enough to read the message next to the button, then 'idle' again.
 */
export function useClipboardCopy(): { status: CopyStatus; copy: (text: string) => Promise<void> } {
  const [status, setStatus] = useState<CopyStatus>('idle');
  useEffect(() => {
    if (status === 'idle') return;
    const t = setTimeout(() => setStatus('idle'), 2500);
    return () => clearTimeout(t);
  }, [status]);
  const copy = async (text: string) => setStatus((await copyText(text)) ? 'ok' : 'failed');
  return { status, copy };
}
