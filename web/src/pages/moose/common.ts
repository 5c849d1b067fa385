/** Colours and labels shared by the Moose page's cards. */
import { INK, SERIES_COLORS } from '../../ui/charts/palette';
import type { DesignFamily } from '../../compute/sweeps/moose';

export const FAMILY_COLORS: Record<DesignFamily, string> = {
  leveling: SERIES_COLORS[0],
  tiering: SERIES_COLORS[1],
  lazyLeveling: SERIES_COLORS[2],
  moose: SERIES_COLORS[3],
};

export const FAMILY_LABELS: Record<DesignFamily, string> = {
  leveling: 'Leveling (n = 1)',
  tiering: 'Tiering (n = T)',
  lazyLeveling: 'Lazy leveling (Dostoevsky)',
  moose: 'Moose, N_L ∈ {0.5…0.95}N, every k',
};

/** The user's layout. */
export const YOURS_COLOR = INK;
/** Smoose's choice. */
export const SMOOSE_COLOR = SERIES_COLORS[4];

/** A point of a chart: the user's layout or Smoose's choice, with its costs. */
export interface MarkedDesign {
  label: string;
  zeroResultPoint: number;
  range: number;
  update: number;
}
