import { holdYoungGeneration } from './heap-growth';

/**
 * Imported by main.ts before anything else, so that it runs before the other modules of the
 * bundle are evaluated: the young generation stays small through the start. main.ts calls
 * `releaseYoungGeneration` once the server listens.
 */
export const releaseYoungGeneration = holdYoungGeneration();
