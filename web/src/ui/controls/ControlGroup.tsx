import type { ReactNode } from 'react';

/** A titled group of controls in the side panel ("Tree shape", "Workload"). */
export function ControlGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="control-group" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
