import http from 'node:http';
import type { FuzzOptions } from './run-fuzz';

/** The fixed seed CI runs with; `FUZZ_SEED=<n>` replays another run, `FUZZ_SEED=random` picks one. */
export const DEFAULT_SEED = 20_261_123;

/** Options from the environment: FUZZ_SEED, FUZZ_RUNS, FUZZ_ONLY (comma-separated case indices); FUZZ_PROCESS_RUNS for the spawned-bundle spec. */
export function fuzzOptionsFromEnv(defaults: { runs: number; concurrency: number }): FuzzOptions {
  const env = process.env;
  const seedText = env['FUZZ_SEED'];
  const seed = seedText === 'random' ? Math.floor(Math.random() * 2 ** 31) : seedText ? Number(seedText) : DEFAULT_SEED;
  const only = env['FUZZ_ONLY']
    ?.split(',')
    .filter(Boolean)
    .map(Number)
    .sort((left, right) => left - right);
  return {
    seed,
    runs: env['FUZZ_RUNS'] ? Number(env['FUZZ_RUNS']) : defaults.runs,
    concurrency: defaults.concurrency,
    timeoutMs: 15_000,
    maxStringBytes: 50_000,
    ...(only && only.length > 0 ? { only } : {}),
  };
}

/** Own names of the prototypes a merge or a qs parse could pollute, in this context and Node's own. */
export function prototypeSnapshot(): string {
  const nodeObjectPrototype = Object.getPrototypeOf(http.STATUS_CODES) as object;
  const prototypes: Array<[string, object]> = [
    ['Object', Object.prototype],
    ['Array', Array.prototype],
    ['Function', Function.prototype],
    ['node:Object', nodeObjectPrototype],
  ];
  return prototypes.map(([name, prototype]) => `${name}: ${Object.getOwnPropertyNames(prototype).sort().join(',')}`).join('\n');
}

/** Names a hostile body tried to plant; any of them readable on a fresh object means pollution. */
export function plantedNames(): string[] {
  const probe = {} as Record<string, unknown>;
  const nodeProbe = Object.create(Object.getPrototypeOf(http.STATUS_CODES) as object) as Record<string, unknown>;
  return ['polluted', 'isAdmin', 'fuzz'].filter((name) => probe[name] !== undefined || nodeProbe[name] !== undefined);
}
