import fc from 'fast-check';
import { apiCaseArb } from './api-requests';
import { chatCaseArb } from './chat-requests';
import { checkAnswer, describeRequest } from './check-answer';
import type { FuzzCase, FuzzContext } from './fuzz-context';
import { messagesCaseArb } from './messages-requests';
import { mapBounded } from '../core/map-bounded';
import { sendRaw } from './raw-http';
import { reachedResponsesPipeline, watchResponsesAccounting } from './responses-accounting';
import { foreignAccessProblem } from './responses-ownership';
import { responsesCaseArb } from './responses-requests';
import { transportCaseArb } from './transport-requests';

export interface FuzzOptions {
  seed: number;
  runs: number;
  concurrency: number;
  /** Per request; a hung request is a finding, not a stuck suite. */
  timeoutMs: number;
  maxStringBytes: number;
  /** Replay only these case indices (from a failure report). */
  only?: readonly number[];
}

export interface FuzzFailure {
  index: number;
  problem: string;
  family: string;
  repro: string;
  bytes: number;
}

export interface FuzzResult {
  sent: number;
  /** The slowest answers (a freeze shows here first), slowest first. */
  slowest: Array<{ index: number; family: string; ms: number }>;
  byStatus: Record<string, number>;
  /** Cases sent per family group (the family's first word: chat, api, transport, messages, count, responses). */
  byGroup: Record<string, number>;
  failures: FuzzFailure[];
  elapsedMs: number;
}

/** Cases are generated in batches, each from `seed + batch`: memory stays bounded, any case replays. */
const BATCH = 256;

/** Every family of hostile request, weighted towards those that reach an upstream: chat, Messages and Responses. */
export const fuzzCaseArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<FuzzCase> =>
  fc.oneof(
    { weight: 5, arbitrary: chatCaseArb(context, { maxStringBytes }) },
    { weight: 3, arbitrary: messagesCaseArb(context, { maxStringBytes }) },
    { weight: 3, arbitrary: responsesCaseArb(context, { maxStringBytes }) },
    { weight: 4, arbitrary: apiCaseArb(context, { maxStringBytes }) },
    { weight: 2, arbitrary: transportCaseArb(context) },
  );

const groupOf = (family: string): string => /^[a-z]+/.exec(family)?.[0] ?? family;

function batchOf(arbitrary: fc.Arbitrary<FuzzCase>, options: FuzzOptions, batch: number): FuzzCase[] {
  return fc.sample(arbitrary, { seed: options.seed + batch, numRuns: BATCH });
}

/** Keys shown by role in repro lines, so a report never carries them. */
function masked(context: FuzzContext, text: string): string {
  return text
    .split(context.adminKey)
    .join('<admin-key>')
    .split(context.accountKey)
    .join('<account-key>')
    .split(context.token)
    .join('<token>');
}

/** Sends `options.runs` generated requests to 127.0.0.1:`port` and checks every answer. */
export async function runFuzz(port: number, context: FuzzContext, options: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const byStatus: Record<string, number> = {};
  const byGroup: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  // Built once: some arbitraries index all of Unicode on first use.
  const arbitrary = fuzzCaseArb(context, options.maxStringBytes);
  const indices = options.only ?? Array.from({ length: options.runs }, (_, index) => index);
  let sent = 0;
  const slowest: FuzzResult['slowest'] = [];
  // The Responses family's token and account are its own: their rows and quota are counted whole.
  const accounting = await watchResponsesAccounting(`http://127.0.0.1:${port}`, context);
  let reachedResponses = 0;
  for (let first = 0; first < indices.length; ) {
    const batch = Math.floor((indices[first] as number) / BATCH);
    const cases = batchOf(arbitrary, options, batch);
    const inBatch: number[] = [];
    while (first < indices.length && Math.floor((indices[first] as number) / BATCH) === batch) inBatch.push(indices[first++] as number);
    await mapBounded(inBatch, options.concurrency, async (index) => {
      const fuzzCase = cases[index % BATCH] as FuzzCase;
      const sentAt = Date.now();
      const outcome = await sendRaw(port, fuzzCase.request, options.timeoutMs);
      const ms = Date.now() - sentAt;
      if (slowest.length < 5 || ms > (slowest[slowest.length - 1]?.ms ?? 0)) {
        slowest.push({ index, family: fuzzCase.family, ms });
        slowest.sort((left, right) => right.ms - left.ms).splice(5);
      }
      const checked = checkAnswer(fuzzCase.request, outcome, fuzzCase.upstreamFault);
      const foreign = checked.problem ? undefined : foreignAccessProblem(context, fuzzCase.request, outcome);
      const verdict = foreign ? { ...checked, problem: foreign } : checked;
      if (reachedResponsesPipeline(context, fuzzCase.request, outcome)) reachedResponses++;
      sent++;
      byStatus[verdict.statusKey] = (byStatus[verdict.statusKey] ?? 0) + 1;
      byGroup[groupOf(fuzzCase.family)] = (byGroup[groupOf(fuzzCase.family)] ?? 0) + 1;
      if (verdict.problem) {
        failures.push({
          index,
          problem: verdict.problem,
          family: fuzzCase.family,
          repro: masked(context, describeRequest(fuzzCase.request)),
          bytes: fuzzCase.request.body?.length ?? 0,
        });
      }
    });
  }
  for (const problem of await accounting.finish(reachedResponses)) {
    failures.push({ index: -1, problem, family: 'responses-accounting', repro: `${reachedResponses} Responses requests reached the pipeline`, bytes: 0 });
  }
  return { sent, slowest, byStatus, byGroup, failures, elapsedMs: Date.now() - started };
}

/** `fuzz: 10000 requests in 41.2 s (seed 1, 12 in flight): 200×… 400×… | failures 0`, then the families and the slowest. */
export function summaryLine(label: string, result: FuzzResult, options: FuzzOptions): string {
  const counts = Object.entries(result.byStatus)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  const slowest = result.slowest.map((slow) => `${slow.ms} ms case ${slow.index} ${slow.family}`).join('; ');
  const groups = Object.entries(result.byGroup)
    .sort(([, left], [, right]) => right - left)
    .map(([group, count]) => `${group}×${count}`)
    .join(' ');
  return `${label}: ${result.sent} requests in ${(result.elapsedMs / 1000).toFixed(1)} s (seed ${options.seed}, ${options.concurrency} in flight): ${counts} | failures ${result.failures.length}\n  families: ${groups}\n  slowest: ${slowest}`;
}

/** Failures grouped by problem, then by family root; the smallest request of each as its repro. */
export function failureReport(result: FuzzResult, options: FuzzOptions, perProblem = 6): string {
  const byProblem = new Map<string, FuzzFailure[]>();
  for (const failure of result.failures) byProblem.set(failure.problem, [...(byProblem.get(failure.problem) ?? []), failure]);
  const lines: string[] = [];
  for (const [problem, failures] of [...byProblem].sort((left, right) => right[1].length - left[1].length)) {
    lines.push(`■ ${problem}: ${failures.length} cases`);
    const byFamily = new Map<string, FuzzFailure>();
    const familyCounts = new Map<string, number>();
    for (const failure of failures) {
      const root = failure.family.replace(/\s*\[.*$/, '').replace(/\+.*$/, '');
      familyCounts.set(root, (familyCounts.get(root) ?? 0) + 1);
      const smallest = byFamily.get(root);
      if (!smallest || failure.bytes + failure.repro.length < smallest.bytes + smallest.repro.length) byFamily.set(root, failure);
    }
    for (const [root, failure] of [...byFamily].slice(0, perProblem)) {
      lines.push(`  ${root} ×${familyCounts.get(root)} — case ${failure.index} (${failure.family}): ${failure.repro}`);
    }
  }
  // A failure of the run as a whole (index -1, the Responses accounting) replays with no case.
  const replay = result.failures.filter((failure) => failure.index >= 0).slice(0, 20).map((failure) => failure.index).join(',');
  lines.push(`replay: FUZZ_SEED=${options.seed} FUZZ_RUNS=${options.runs} FUZZ_ONLY=${replay}`);
  return lines.join('\n');
}
