// The fuzz CLI: the same generators and checks as the specs, aimed at any running relay.
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import { parseFuzzCliOptions, usage, type FuzzCliOptions } from './cli-options';
import { seedFuzzTargets } from './fuzz-fixtures';
import { failureReport, runFuzz, summaryLine } from './run-fuzz';
import { simAt } from './sim-urls';
import { SERVING, stillServing } from './still-serving';

function log(line: string): void {
  process.stderr.write(`fuzz: ${line}\n`);
}

async function main(): Promise<number> {
  let options: FuzzCliOptions;
  try {
    options = parseFuzzCliOptions(process.argv.slice(2), process.env);
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }

  let ownSim: UpstreamSim | undefined;
  try {
    if (!options.simUrl) ownSim = await startUpstreamSim({ acceptedKeys: [options.simKey] });
    const sim = ownSim ? { ...ownSim, key: options.simKey } : simAt(options.simUrl as string, options.simKey);
    log(`seeding ${options.url} (simulator ${ownSim ? `started at ${ownSim.origin}` : options.simUrl})`);
    const context = await seedFuzzTargets(options.url, options.adminKey, sim);
    const result = await runFuzz(options.url, context, options.fuzz);
    process.stderr.write(`${summaryLine(`fuzz (${options.url})`, result, options.fuzz)}\n`);
    if (result.failures.length > 0) process.stderr.write(`${failureReport(result, options.fuzz)}\n`);
    const after = await stillServing(options.url, context);
    const serving = after.health === SERVING.health && after.chat === SERVING.chat && after.content === SERVING.content;
    if (!serving) log(`not serving after the run: /healthz ${after.health}, chat ${after.chat} ${JSON.stringify(after.content)}`);
    return result.failures.length === 0 && serving ? 0 : 1;
  } finally {
    await ownSim?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
