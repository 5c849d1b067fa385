/**
 * The designs the explorer pages offer to the export panel, each with its file-name slug. The
 * EngineConfig converters are in this folder (tradeoffs.ts, moose.ts, memory.ts and msls.ts);
 * this only names the results and turns a converter's error into the panel's message. Pure.
 */
import type { Dataset, Design, MooseLevel, MslsLevelParams, Policy } from '@lsm/models';
import type { EngineConfig } from '../engine';
import { shambaToEngineConfig, treeToEngineConfig, type MemoryTree, type ShambaChoice, type TreeAllocation } from './memory';
import { mooseLayoutToEngineConfig, engineConfigProblem } from './moose';
import { mslsToEngineConfig } from './msls';
import { monkeyDesignToEngineConfig } from './tradeoffs';
import { designSlug } from '../exportFormats';

/** A design the export panel offers: a named EngineConfig, or why there is none right now. */
export interface ExportDesign {
  /** Stable id among the panel's designs. */
  id: string;
  /** Name in file names, from designSlug(): `OPTIONS-<slug>.ini`. */
  slug: string;
  /** Shown in the design chooser when there is more than one. */
  label: string;
  config: EngineConfig | null;
  /** Why there is no config for this design right now. */
  problem?: string | null;
}

/** A number short enough for a file name: 4 significant digits. */
const short = (v: number) => String(Number(v.toPrecision(4)));

/** The Monkey page's design with Monkey's filter allocation and with the uniform one it is compared to. */
export function monkeyPageDesigns(
  dataset: Dataset,
  d: { policy: Policy; sizeRatio: number; bufferBytes: number; filterBitsPerEntry: number },
): ExportDesign[] {
  return (['monkey', 'uniform'] as const).map((allocation) => ({
    id: allocation,
    slug: designSlug(allocation, d.policy, `T${short(d.sizeRatio)}`, `${short(d.filterBitsPerEntry)}bpk`),
    label: allocation === 'monkey' ? 'Monkey’s filter allocation' : 'Uniform bits per key (state of the art)',
    config: monkeyDesignToEngineConfig(dataset, { ...d, allocation }),
  }));
}

/** The holistic optimizer's choice on the trade-off page. */
export function holisticDesign(dataset: Dataset, design: Design): ExportDesign {
  return {
    id: 'holistic',
    slug: designSlug('holistic', design.policy, `T${short(design.sizeRatio)}`, `${short(design.filterBitsPerEntry)}bpk`),
    label: 'Holistic design',
    config: monkeyDesignToEngineConfig(dataset, design),
  };
}

/** A Moose layout (the user's table or Smoose's choice); `levels` undefined while it is being computed. */
export function mooseDesign(
  id: string,
  label: string,
  dataset: Dataset,
  levels: readonly MooseLevel[] | undefined,
  bufferBytes: number,
): ExportDesign {
  const slugBase = id === 'smoose' ? 'smoose' : 'moose';
  if (!levels) return { id, label, slug: slugBase, config: null, problem: `${label}: still computing…` };
  const slug = designSlug(slugBase, ...levels.map((l) => `${short(l.sizeRatio)}x${l.runs}`));
  try {
    const config = mooseLayoutToEngineConfig(dataset, levels, bufferBytes);
    const problem = engineConfigProblem(config);
    return problem ? { id, label, slug, config: null, problem } : { id, label, slug, config };
  } catch (err) {
    return { id, label, slug, config: null, problem: err instanceof Error ? err.message : String(err) };
  }
}

/** A design from a converter that may throw: its error becomes the panel's message. */
function guarded(id: string, label: string, slug: string, build: () => EngineConfig): ExportDesign {
  try {
    return { id, label, slug, config: build() };
  } catch (err) {
    return { id, label, slug, config: null, problem: err instanceof Error ? err.message : String(err) };
  }
}

const TREE_DESIGNS: { id: TreeAllocation; label: string }[] = [
  { id: 'mnemosyne', label: 'Mnemosyne' },
  { id: 'monkey', label: 'Monkey+' },
  { id: 'uniform', label: 'Uniform' },
];

/**
 * The Memory-pressure page's designs: section A's tree with Mnemosyne's filter allocation and the
 * Monkey+ and uniform ones it is compared with, at `bitsPerKey`; and section B's SHaMBa filters.
 */
export function memoryPageDesigns(tree: MemoryTree, bitsPerKey: number, shamba: ShambaChoice): ExportDesign[] {
  const shape = [`T${tree.sizeRatio}`, `L${tree.levels}`];
  return [
    ...TREE_DESIGNS.map(({ id, label }) =>
      guarded(id, label, designSlug(id, ...shape, `${short(bitsPerKey)}bpk`), () => treeToEngineConfig(tree, id, bitsPerKey)),
    ),
    guarded(
      'shamba',
      'SHaMBa',
      designSlug('shamba', `D${shamba.modules}`, `skip-${shamba.skip}`, `${short(shamba.bitsPerKey)}bpk`, `cache${shamba.budgetPercent}pct`, ...shape),
      () => shambaToEngineConfig(tree, shamba),
    ),
  ];
}

/**
 * The MSLS page's designs: the user's level sizes (`params`) and the optimiser's (Size(1..L) in
 * items and the parameters it optimised; undefined while it is being computed).
 */
export function mslsPageDesigns(
  params: MslsLevelParams,
  optimized: { params: MslsLevelParams; levelItems: readonly number[] } | undefined,
): ExportDesign[] {
  const mib = (bytes: number | undefined) => `${short((bytes ?? 0) / 2 ** 20)}mib`;
  const yours = guarded(
    'yours',
    'Your level sizes',
    designSlug('msls', `c0-${params.level0Trigger ?? 4}`, `l1-${mib(params.level1Bytes)}`, `r${short(params.growthFactor ?? 10)}`, params.levels ? `L${params.levels}` : ''),
    () => mslsToEngineConfig(params, 'yours'),
  );
  const label = 'MSLS-optimized level sizes';
  if (!optimized) return [yours, { id: 'optimized', label, slug: 'msls-optimized', config: null, problem: `${label}: still computing…` }];
  const L = optimized.levelItems.length;
  return [
    yours,
    guarded('optimized', label, designSlug('msls-optimized', `c0-${optimized.params.level0Trigger ?? 4}`, `L${L}`), () =>
      mslsToEngineConfig(optimized.params, 'optimized', optimized.levelItems),
    ),
  ];
}
