import type { ChatCompletionRequest } from '@chat-relay/contract';
import { countTokens } from 'gpt-tokenizer';
import { performance } from 'node:perf_hooks';
import { countCompletionTokens, countPromptTokens } from './estimate-usage';

/** Common CJK characters in a fixed pseudo-random order: no spaces, no punctuation. */
function cjkText(length: number): string {
  const alphabet = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明';
  let state = 12345;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Runs `work` while a 5 ms timer watches the event loop; the longest gap between its ticks. A gap
 * counts as the loop held only as far as this process spent CPU in it: on a loaded CI machine the
 * process can go unscheduled for longer than any slice (a CI run saw 442 ms of wall time), while
 * a count that held the loop spends the whole gap on the CPU (11 s before the fix).
 */
async function watchEventLoop<T>(work: () => Promise<T>): Promise<{ result: T; longestBlockMs: number; elapsedMs: number }> {
  const started = performance.now();
  let last = started;
  let lastCpu = cpuMs();
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    const cpu = cpuMs();
    longest = Math.max(longest, Math.min(now - last, cpu - lastCpu));
    last = now;
    lastCpu = cpu;
  };
  const probe = setInterval(tick, 5);
  try {
    const result = await work();
    tick();
    return { result, longestBlockMs: longest, elapsedMs: performance.now() - started };
  } finally {
    clearInterval(probe);
  }
}

/** Slices last ~8 ms; the margin is for garbage collection of a 6 MB text and the tokenizer's work. */
const MAX_BLOCK_MS = 300;

const userPrompt = (content: string): ChatCompletionRequest => ({ model: 'gpt-4o', messages: [{ role: 'user', content }] });

describe('issue 10 defect 1: event loop frozen by usage estimation', () => {
  // Loading the tokenizer's tables is a one-time cost of the process, not what is measured here.
  beforeAll(() => countCompletionTokens('warm up'), 30_000);

  it('counts a 40,000-character CJK prompt (120 KB, no spaces) in slices, never blocking the loop for long', async () => {
    const text = cjkText(40_000);
    const { result, longestBlockMs, elapsedMs } = await watchEventLoop(() => countPromptTokens(userPrompt(text)));
    expect(longestBlockMs).toBeLessThan(MAX_BLOCK_MS);
    expect(elapsedMs).toBeLessThan(10_000);
    expect(result).toBeGreaterThanOrEqual(10_000);
    expect(result).toBeLessThanOrEqual(Buffer.byteLength(text) + 7);
  }, 30_000);

  it('counts a 6 MB completion without spaces in bounded time, never blocking the loop for long', async () => {
    const text = cjkText(2_000_000);
    expect(Buffer.byteLength(text)).toBe(6_000_000);
    const { result, longestBlockMs, elapsedMs } = await watchEventLoop(() => countCompletionTokens(text));
    expect(longestBlockMs).toBeLessThan(MAX_BLOCK_MS);
    expect(elapsedMs).toBeLessThan(20_000);
    expect(result).toBeGreaterThanOrEqual(500_000);
    expect(result).toBeLessThanOrEqual(6_000_000);
  }, 30_000);

  it('counts a 6 MB ASCII prompt without spaces the same way', async () => {
    const unit = 'aZ3kQ9xW7mP2vB8nL4cR6tY1uH5jD0sF';
    const text = unit.repeat(6_000_000 / unit.length);
    const { result, longestBlockMs } = await watchEventLoop(() => countPromptTokens(userPrompt(text)));
    expect(longestBlockMs).toBeLessThan(MAX_BLOCK_MS);
    expect(result).toBeGreaterThanOrEqual(6_000_000 / 8);
    expect(result).toBeLessThanOrEqual(6_000_000 + 7);
  }, 30_000);

  it('leaves ordinary prompts counted exactly as the tokenizer counts the whole text', async () => {
    const english = 'The quick brown fox, who is not lazy, jumps over 1,234 sleeping dogs.\nAgain! '.repeat(800);
    const chinese = '今天的天气很好，我们去公园散步吧。你觉得怎么样？'.repeat(800);
    for (const text of [english, chinese, 'Hello there', '']) {
      expect(await countPromptTokens(userPrompt(text))).toBe(3 + 4 + countTokens(text));
      expect(await countCompletionTokens(text)).toBe(countTokens(text));
    }
  });
});

describe('issue 10 defect 2: no rejection inside usage accounting takes the process down', () => {
  it('counts tools nested 10,000 levels deep without throwing', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 10_000; level++) schema = { type: 'object', properties: { a: schema } };
    const request = {
      ...userPrompt('hi'),
      tools: [{ type: 'function', function: { name: 'deep', parameters: schema } }],
    } as ChatCompletionRequest;
    const tokens = await countPromptTokens(request);
    expect(tokens).toBeGreaterThan(10_000);
  });

  it('counts text that spells a special token as text instead of throwing', async () => {
    await expect(countPromptTokens(userPrompt('say <|endoftext|> and <|im_start|>'))).resolves.toBeGreaterThan(7);
    await expect(countCompletionTokens('<|endoftext|>')).resolves.toBeGreaterThan(1);
  });
});
