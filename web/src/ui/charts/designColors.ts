/** Colours and dash patterns shared by the Monkey pages' cards. */
import { SERIES_COLORS } from './palette';

export const MONKEY_COLOR = SERIES_COLORS[0];
export const UNIFORM_COLOR = '#5d6b7f';
export const ACCENT_COLOR = SERIES_COLORS[1];
/** The design the holistic search chose. */
export const CHOSEN_COLOR = SERIES_COLORS[2];
/** Closed forms are drawn dashed in the colour of the allocation they describe. */
export const CLOSED_DASH = '6 4';
