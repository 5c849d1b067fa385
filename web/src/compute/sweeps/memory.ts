/**
 * Sweeps of the Memory-pressure page (Mnemosyne and SHaMBa). The model math lives in
 * memoryTree.ts, memoryMnemosyne.ts and memoryShamba.ts; this file names what the page calls.
 */
import { mnemosyneBudgetSweep, mnemosyneSolverTiming, mnemosyneView } from './memoryMnemosyne';
import { accessCost, mbfByModules, shambaBudgetCurves, utilityTable, type AccessCostArgs } from './memoryShamba';

export interface ShambaViewArgs extends Omit<AccessCostArgs, 'layout'> {
  /** Budget for the read-outs and the utility table, as a fraction (0.7 = 70 %). */
  budgetFraction: number;
}

/** The SHaMBa read-outs at the chosen budget, the utility table and the MBF-vs-modules series. */
export function shambaView(a: ShambaViewArgs) {
  return {
    mono: accessCost({ ...a, layout: 'mono' }),
    eq: accessCost({ ...a, layout: 'eq' }),
    prop: accessCost({ ...a, layout: 'prop' }),
    utilities: utilityTable(a),
    modules: mbfByModules(a.bitsPerKey, a.existingRatio),
  };
}

export const memorySweeps = {
  'memory.mnemosyne': mnemosyneView,
  'memory.mnemosyneBudget': mnemosyneBudgetSweep,
  'memory.solverTiming': mnemosyneSolverTiming,
  'memory.shamba': shambaView,
  'memory.shambaBudget': shambaBudgetCurves,
};
