/** A term linked to the section of Learn that explains it. */
import type { ReactNode } from 'react';
import { learnLink, type LearnSection } from '../../documents/learnSections';

export function LearnLink({ to, children }: { to: LearnSection; children: ReactNode }) {
  return (
    <a href={learnLink(to)} className="learn-link" data-learn={to}>
      {children}
    </a>
  );
}
