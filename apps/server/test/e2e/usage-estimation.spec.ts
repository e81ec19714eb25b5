import { performance } from 'node:perf_hooks';
import pino from 'pino';
import request from 'supertest';
import { costOf, NOT_KNOWN_YET } from '../../src/billing/price-book';
import { countCompletionTokens } from '../../src/billing/estimate-usage';
import { patchToken } from '../testing/patch-token';
import { bearer } from '../testing/system-api';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { readRawStream } from './sse-events';

/** Common CJK characters in a fixed pseudo-random order: no spaces, no punctuation. */
function cjkText(length: number): string {
  const alphabet = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明';
  let state = 4242;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

/** Asks `/healthz` back to back until stopped; the slowest answer it saw. */
function pollHealth(url: string) {
  let stopped = false;
  let slowestMs = 0;
  let answers = 0;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      if (response.status === 200) answers += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
      return { slowestMs, answers };
    },
  };
}

/** The first usage row, waiting up to 20 s: estimating a long prompt on a busy machine takes seconds. */
async function firstRow(e2e: E2eRelayWithSim) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [row] = await e2e.usageRows(1);
    if (row || Date.now() > deadline) return row;
  }
}

/**
 * A pause for a row written after the answer closed. An unhandled rejection meanwhile fails the
 * running test: Jest listens for them on the real process (a listener added here would not hear
 * them, the test's `process` is a sandbox copy); that is how these specs saw the defect.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe('issue 10 defect 1: event loop frozen by usage estimation', () => {
  let e2e: E2eRelayWithSim;

  beforeAll(async () => {
    // The tokenizer's tables load once per process; that one-time cost is not what is measured.
    await countCompletionTokens('warm up');
    e2e = await startRelayWithSim();
  }, 30_000);
  afterAll(() => e2e.close());

  it('a 120 KB CJK prompt whose usage must be estimated: /healthz answers quickly all along, the row is estimated', async () => {
    const prompt = cjkText(40_000);
    const poller = pollHealth(e2e.url);
    // The stream breaks before any usage came: prompt and completion are counted by the relay.
    const raw = await readRawStream(
      await e2e.postChat({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }], stream: true, x_sim: { fault: 'stream-error' } }),
    );
    const row = await firstRow(e2e);
    const { slowestMs, answers } = await poller.stop();

    expect(raw.status).toBe(200);
    expect(row).toMatchObject({ stream: true, usageEstimated: true });
    expect(row!.promptTokens).toBeGreaterThanOrEqual(10_000);
    expect(row!.promptTokens).toBeLessThanOrEqual(Buffer.byteLength(prompt) + 7);
    expect(row!.completionTokens).toBeGreaterThan(0);
    expect(answers).toBeGreaterThan(0);
    // Before the fix one poll waited the whole count: 10 s and more. Generous for a loaded machine.
    expect(slowestMs).toBeLessThan(1500);
  }, 30_000);
});

describe('issue 10 defect 2: no rejection inside usage accounting takes the process down', () => {
  const memory = memoryLogger();
  let e2e: E2eRelayWithSim;

  beforeEach(async () => {
    memory.lines.length = 0;
    e2e = await startRelayWithSim({}, { logger: memory.logger });
  });
  afterEach(() => e2e.close());

  const ask = () => e2e.postChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello there' }] });

  it('a price lookup failing while the row is written: logged, the reservation charged, nothing unhandled', async () => {
    const price = { model: 'gpt-4o', input: 2_500_000, output: 10_000_000 };
    await request(e2e.relay.app).put('/api/prices').set(bearer(e2e.relay.adminKey)).send({ data: [price] }).expect(200);
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: 1_000_000_000 });
    // The reservation reads the price; the usage row's lookup is the one that fails.
    const prices = e2e.relay.services.prices;
    const realPriceOf = prices.priceOf.bind(prices);
    let lookups = 0;
    // Every price read through the table's lookup, as when a model's price is not known yet
    // (the hot path asks knownPriceFor first and needs no lookup once it is).
    jest.spyOn(prices, 'knownPriceFor').mockReturnValue(NOT_KNOWN_YET);
    jest
      .spyOn(prices, 'priceOf')
      .mockImplementation((model) => (++lookups === 2 ? Promise.reject(new Error('price table unreadable')) : realPriceOf(model)));

    expect((await ask()).status).toBe(200);
    const [row] = await e2e.usageRows(1);
    await settle();
    expect(lookups).toBe(2);
    expect(memory.lines).toContainEqual(expect.objectContaining({ level: 50, msg: 'price lookup failed; charging the reservation' }));
    // Quota stays taken rather than freed: the reservation is an upper bound of the real cost.
    expect(row!.status).toBe(200);
    expect(row!.cost).toBeGreaterThanOrEqual(costOf({ ...price, cacheRead: null, cacheWrite: null }, row!));
    expect(row!.cost).toBeGreaterThan(0);
    expect((await ask()).status).toBe(200);
  });

  it('a recorder that throws: logged, nothing unhandled, the next request still served', async () => {
    jest.spyOn(e2e.relay.services.recorder, 'record').mockImplementationOnce(() => {
      throw new Error('queue broken');
    });
    expect((await ask()).status).toBe(200);
    await settle();
    expect(memory.lines).toContainEqual(expect.objectContaining({ level: 50, msg: 'usage row not written' }));
    expect((await ask()).status).toBe(200);
    expect(await e2e.usageRows(1)).toHaveLength(1);
  });
});
