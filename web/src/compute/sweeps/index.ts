/**
 * Every computation the model worker can run, by name. A page adds its sweeps in its own file
 * (`sweeps/<page>.ts`, functions of plain, structured-cloneable arguments and results) and spreads
 * them in here. The same registry runs on the main thread for light work (`mode: 'main'`).
 */
import { learnSweeps } from './learn';
import { monkeySweeps } from './monkey';
import { tradeoffSweeps } from './tradeoffs';
import { memorySweeps } from './memory';
import { mslsSweeps } from './msls';
import { mooseSweeps } from './moose';

export const SWEEPS = {
  ...learnSweeps,
  ...monkeySweeps,
  ...tradeoffSweeps,
  ...memorySweeps,
  ...mslsSweeps,
  ...mooseSweeps,
};

export type Sweeps = typeof SWEEPS;
export type SweepName = keyof Sweeps;
export type SweepArgs<N extends SweepName> = Parameters<Sweeps[N]>[0];
export type SweepResult<N extends SweepName> = ReturnType<Sweeps[N]>;

export function isSweepName(name: string): name is SweepName {
  return Object.prototype.hasOwnProperty.call(SWEEPS, name);
}

export function runSweep<N extends SweepName>(name: N, args: SweepArgs<N>): SweepResult<N> {
  // Indexing a record of different function types by a generic key loses the pairing of N's
  // argument and result types; this cast restores it.
  const fn = SWEEPS[name] as unknown as (a: SweepArgs<N>) => SweepResult<N>;
  return fn(args);
}
