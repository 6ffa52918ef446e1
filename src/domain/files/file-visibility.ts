import type { Actor } from '../identity/context';

/** D18: staff see every file of every order at any time, sources included, with signed links. */
export const seesEveryFile = (viewer: Actor | null): boolean => viewer?.kind === 'staff';
