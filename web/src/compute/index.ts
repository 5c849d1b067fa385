export { useSweep, type SweepOptions, type SweepState } from './useSweep';
export { useModel } from './useModel';
export { runSweep, SWEEPS, type SweepArgs, type SweepName, type SweepResult } from './sweeps';
