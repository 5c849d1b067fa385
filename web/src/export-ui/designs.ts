/**
 * The designs the explorer pages offer to the export panel, each with its file-name slug. The
 * EngineConfig converters are the pages' own (tradeoffs/engineConfig.ts, moose/engineConfig.ts);
 * this only names the results and turns a converter's error into the panel's message. Pure.
 */
import type { Dataset, Design, MooseLevel, Policy } from '@lsm/models';
import { mooseLayoutToEngineConfig, engineConfigProblem } from '../pages/moose/engineConfig';
import { monkeyDesignToEngineConfig } from '../pages/tradeoffs/engineConfig';
import type { ExportDesign } from './ExportPanel';
import { designSlug } from './formats';

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
