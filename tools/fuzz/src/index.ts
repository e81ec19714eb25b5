// What the relay's own specs use to fuzz a relay they started in their process.
export { seedFuzzTargets, type FuzzSim } from './fuzz-fixtures';
export type { FuzzContext } from './fuzz-context';
export { DEFAULT_SEED, fuzzOptionsFromEnv, plantedNames, prototypeSnapshot } from './fuzz-options';
export { failureReport, runFuzz, summaryLine, type FuzzFailure, type FuzzOptions, type FuzzResult } from './run-fuzz';
export { simAt } from './sim-urls';
export { SERVING, stillServing, type StillServing } from './still-serving';
