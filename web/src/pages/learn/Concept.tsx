import type { ReactNode } from 'react';

/** One idea of the Learn page: numbered heading and explanation beside its live figure. */
export function Concept({
  id,
  n,
  title,
  children,
  figure,
}: {
  id: string;
  n: number;
  title: string;
  children: ReactNode;
  figure: ReactNode;
}) {
  return (
    <section className="concept" id={`learn-${id}`} aria-labelledby={`learn-${id}-h`}>
      <div className="concept-text">
        <h2 id={`learn-${id}-h`}>
          <span className="concept-num" aria-hidden="true">
            {n}
          </span>
          {title}
        </h2>
        {children}
      </div>
      <div className="concept-figure">{figure}</div>
    </section>
  );
}

/** A displayed formula, typeset in the serif math style of the papers. */
export function Formula({ children }: { children: ReactNode }) {
  return <p className="formula">{children}</p>;
}
