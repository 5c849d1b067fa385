import type { ReactNode } from 'react';

/** A failure the page reports, read out by screen readers as it appears; nothing when there is none. */
export function ErrorAlert({ error, testId }: { error: ReactNode; testId?: string }) {
  if (!error) return null;
  return (
    <p role="alert" className="error" data-testid={testId}>
      {error}
    </p>
  );
}
