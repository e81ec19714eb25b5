import type { PerMinuteLimits, RateLimitDecision, RateLimiter } from '../../../../src/policy/rate-limiter';

/** Milliseconds since the epoch the scenarios start at (a whole second, as a real clock may not be). */
export const T0 = 1_700_000_000_000;
const S = 1000;

type Step =
  | { check: PerMinuteLimits; at: number; token?: number }
  | { record: number; at: number; token?: number };

export interface RateLimitScenario {
  name: string;
  steps: Step[];
  /** Refusals the scenario must produce: a table whose every check is admitted proves little. */
  refusals: number;
}

const rpm = (limit: number): PerMinuteLimits => ({ rpm: limit, tpm: null });
const tpm = (limit: number): PerMinuteLimits => ({ rpm: null, tpm: limit });
const checks = (limits: PerMinuteLimits, times: number[], token?: number): Step[] => times.map((at) => ({ check: limits, at, token }));
const range = (count: number, every: number, from = 0) => Array.from({ length: count }, (_, i) => from + i * every);

/**
 * Sequences of calls whose decisions and headers a limiter must give exactly as
 * InMemoryRateLimiter does. Additions are at least a bucket (1 s) apart or in the same instant:
 * within a bucket the Redis window is stricter by design (see rate-limit-scripts.ts).
 */
export const RATE_LIMIT_SCENARIOS: RateLimitScenario[] = [
  { name: 'rpm: five a minute, the sixth refused with Retry-After', steps: checks(rpm(5), range(6, 10 * S)), refusals: 1 },
  { name: 'rpm: headers on an allowed request', steps: checks(rpm(5), [0]), refusals: 0 },
  {
    name: 'rpm: recovers as the window slides, one request at a time',
    steps: checks(rpm(5), [...range(5, S), 59_999, 60_000, 60_500, 61_000, 61_999, 62_000]),
    refusals: 3,
  },
  { name: 'rpm: a refused request is not counted', steps: checks(rpm(5), [0, 0, 0, 0, 0, ...range(20, 0, 30 * S), 60 * S]), refusals: 20 },
  { name: 'rpm: Retry-After rounds up, at least 1', steps: checks(rpm(5), [0, 0, 0, 0, 0, 59_900, 58_500, 1, 59_999]), refusals: 4 },
  { name: 'rpm: tokens apart', steps: [...checks(rpm(2), [0, 0, 0], 1), ...checks(rpm(2), [0], 2)], refusals: 1 },
  { name: 'rpm: raising the limit admits at once', steps: [...checks(rpm(2), [0, 0, 0]), ...checks(rpm(3), [0, 0])], refusals: 2 },
  { name: 'rpm 0 refuses everything', steps: checks(rpm(0), [0, 30 * S]), refusals: 2 },
  { name: 'rpm: sparse traffic over three minutes', steps: checks(rpm(3), range(26, 7 * S)), refusals: 17 },
  {
    name: 'tpm: counted when requests complete, refused at the limit',
    steps: [
      { check: tpm(1000), at: 0 },
      { record: 600, at: S },
      { check: tpm(1000), at: 2 * S },
      { record: 400, at: 3 * S },
      { check: tpm(1000), at: 4 * S },
      { check: tpm(1000), at: 60 * S },
      { check: tpm(1000), at: 61 * S },
      { check: tpm(1000), at: 63 * S },
    ],
    refusals: 2,
  },
  {
    name: 'tpm: one request over the whole limit blocks until it leaves',
    steps: [{ record: 5000, at: 0 }, ...checks(tpm(1000), [30 * S, 59_999, 60 * S])],
    refusals: 2,
  },
  {
    name: 'tpm: reset headers from sub-second records',
    steps: [{ record: 10, at: 1_250 }, { record: 20, at: 2_750 }, ...checks(tpm(25), [3_100, 61_249, 61_250, 62_749, 62_750])],
    refusals: 2,
  },
  {
    name: 'both limits: both sets of headers, Retry-After the later',
    steps: [
      ...checks({ rpm: 2, tpm: 100 }, [0, 10 * S]),
      { record: 150, at: 20 * S },
      ...checks({ rpm: 2, tpm: 100 }, [30 * S, 60 * S, 70 * S, 80 * S]),
    ],
    refusals: 3,
  },
  {
    name: 'both limits: refused by tokens alone does not count a request',
    steps: [{ record: 100, at: 0 }, ...checks({ rpm: 10, tpm: 100 }, [S, 2 * S, 60 * S, 61 * S])],
    refusals: 2,
  },
  {
    name: 'a clock that steps back joins the newest bucket',
    steps: [...checks(rpm(2), [10 * S, 9_500, 69_999, 70 * S]), { record: 50, at: 80 * S }, { record: 50, at: 79_200 }, ...checks(tpm(100), [81 * S, 139_999, 140 * S])],
    refusals: 3,
  },
  { name: 'no limits: allowed, no headers', steps: checks({ rpm: null, tpm: null }, [0, 0, 0]), refusals: 0 },
];

/** What a scenario's checks answered, in order (records answer nothing). */
export async function runScenario(limiter: RateLimiter, scenario: RateLimitScenario): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (const step of scenario.steps) {
    if ('check' in step) decisions.push(await limiter.checkRequest(step.token ?? 1, step.check, T0 + step.at));
    else await limiter.recordTokens(step.token ?? 1, step.record, T0 + step.at);
  }
  return decisions;
}
