/**
 * The sections of the Learn page, and links to one of them from anywhere in the app
 * (`#/learn?at=learn-bloom`): other pages link a term to the section that explains it. The
 * `at=` pair is the app's, like `embed=` (documents/routes.ts): the router scrolls to the element
 * with that id once the page has drawn it.
 */
import { hashFor } from './routes';

export const LEARN_SECTIONS = [
  ['buffer', 'The write buffer'],
  ['levels', 'Runs and levels'],
  ['fences', 'Fence pointers'],
  ['bloom', 'Bloom filters'],
  ['merge', 'Merge policies'],
  ['size-ratio', 'The size ratio'],
  ['monkey', 'Monkey’s allocation'],
] as const;

export type LearnSection = (typeof LEARN_SECTIONS)[number][0];

/** The element id of a Learn section. */
export const learnSectionId = (section: LearnSection) => `learn-${section}`;

/** A link to one section of Learn (with Learn's own settings as they were last). */
export function learnLink(section: LearnSection): string {
  return hashFor('learn', `at=${learnSectionId(section)}`);
}
