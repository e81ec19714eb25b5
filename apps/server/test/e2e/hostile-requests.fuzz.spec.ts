import { monitorEventLoopDelay } from 'node:perf_hooks';
import { failureReport, fuzzOptionsFromEnv, plantedNames, prototypeSnapshot, runFuzz, seedFuzzTargets, summaryLine, type FuzzContext } from '@chat-relay/fuzz';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';

async function adminGet<T>(url: string, context: FuzzContext, path: string): Promise<T> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${context.adminKey}` } });
  return (await response.json()) as T;
}

/** `quota_used` of the chat token and its account, and the cost of the token's usage rows. */
async function chargedVersusLogged(url: string, context: FuzzContext) {
  const token = await adminGet<{ quota_used: number }>(url, context, `/api/tokens/${context.fixtureIds.token}`);
  const account = await adminGet<{ quota_used: number }>(url, context, `/api/accounts/${context.fixtureIds.account}`);
  const to = new Date(Date.now() + 86_400_000).toISOString();
  const usage = await adminGet<{ total: { cost: number } }>(url, context, `/api/tokens/${context.fixtureIds.token}/usage?from=2000-01-01T00:00:00Z&to=${to}`);
  return { token: token.quota_used, account: account.quota_used, logged: usage.total.cost };
}

/**
 * Issue 10's fuzz suite: ≥ 10,000 generated hostile requests over HTTP on /v1 and /api against
 * a real relay (in this process, for speed: and only here can the prototypes and the crash
 * handlers be watched) with the simulator behind its OpenAI, Anthropic and
 * Gemini channels. Every answer: status < 500 (unless the case asked the upstream to fail),
 * error bodies and streams in the caller's dialect — OpenAI's, or Anthropic's on the Messages
 * routes; afterwards the relay still serves a normal chat, and no prototype gained a property.
 */
describe('hostile requests: 10,000 fuzzed requests on /v1 and /api', () => {
  const options = fuzzOptionsFromEnv({ runs: 10_000, concurrency: 12 });
  let e2e: E2eRelay;
  let context: FuzzContext;
  const crashes: string[] = [];
  const onCrash = (error: unknown) => crashes.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));

  beforeAll(async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    context = await seedFuzzTargets(e2e.url, e2e.relay.adminKey, { ...sim, key: SIM_KEY });
    // Seen here, an error that would have killed a production process counts as a failure.
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
  });

  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    await e2e?.close();
  });

  it('answers every one below 500 in the error shape, stays up, serves a chat after and leaves every prototype alone', async () => {
    const prototypesBefore = prototypeSnapshot();
    const loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
    const result = await runFuzz(e2e.url, context, options);
    loopDelay.disable();

    process.stderr.write(`${summaryLine('fuzz (in-process relay)', result, options)} | max event-loop delay ${(loopDelay.max / 1e6).toFixed(0)} ms\n`);
    if (result.failures.length > 0) process.stderr.write(`${failureReport(result, options)}\n`);

    // Still alive and still serving: health, a plain chat and a streamed one through the SDK.
    const health = await fetch(`${e2e.url}/healthz`);
    const client = e2e.client({ apiKey: context.token });
    const completion = await client.chat.completions.create({ model: context.model, messages: [{ role: 'user', content: 'still there?' }] });
    const stream = await client.chat.completions.create({ model: context.model, messages: [{ role: 'user', content: 'and streaming?' }], stream: true });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';

    // Money: what the token and its account were charged is what their usage rows cost.
    await e2e.relay.services.recorder.flush();
    const charged = await chargedVersusLogged(e2e.url, context);

    expect({
      charged: charged.token === charged.logged && charged.account === charged.logged ? 'equal' : charged,
      crashes,
      pollutedPrototypes: prototypeSnapshot() === prototypesBefore ? [] : [prototypeSnapshot()],
      plantedNames: plantedNames(),
      health: health.status,
      chat: completion.choices[0]?.message.content,
      streamed,
      sent: result.sent,
      failures: result.failures.map((failure) => `${failure.problem} ← ${failure.family}`).slice(0, 30),
    }).toEqual({
      charged: 'equal',
      crashes: [],
      pollutedPrototypes: [],
      plantedNames: [],
      health: 200,
      chat: 'You said: still there?',
      streamed: 'You said: and streaming?',
      sent: options.only?.length ?? options.runs,
      failures: [],
    });
  }, 240_000);
});
