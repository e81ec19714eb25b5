import v8 from 'node:v8';
import vm from 'node:vm';
import { createParser } from 'eventsource-parser';
import { readFixture } from '../../testing/fixtures';
import { ContentChunkFrame } from './content-chunk-frame';
import { OpenAiStreamTransformer } from './openai-stream-transformer';

const sseDataOf = (text: string): string[] => {
  const events: string[] = [];
  createParser({ onEvent: (event) => events.push(event.data) }).feed(text);
  return events;
};

const options = (publicModel: string, callerWantsUsage: boolean) => ({ publicModel, callerWantsUsage, secrets: ['sk-secret'] });

/**
 * Each chunk through one transformer for the whole stream (frames learned and used) and through a
 * fresh one (every chunk parsed in full): the same step and the same delivered text, chunk by chunk.
 */
function expectSameAsFullParse(data: readonly string[], publicModel: string, callerWantsUsage: boolean): number {
  const whole = new OpenAiStreamTransformer(options(publicModel, callerWantsUsage));
  let framed = 0;
  for (const payload of data) {
    const before = whole.deliveredText;
    const spy = jest.spyOn(JSON, 'parse');
    const step = whole.transform({ data: payload });
    if (spy.mock.calls.every(([text]) => text !== payload)) framed++;
    spy.mockRestore();
    const alone = new OpenAiStreamTransformer(options(publicModel, callerWantsUsage));
    expect({ payload, step }).toEqual({ payload, step: alone.transform({ data: payload }) });
    expect(whole.deliveredText.slice(before.length)).toBe(alone.deliveredText);
  }
  return framed;
}

const frame = (content: string, extra = '') =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"delta":{"content":${content}},"logprobs":null,"finish_reason":null}]${extra}}`;

describe('content chunks read by their frame, the same as read in full', () => {
  it.each(['chat-stream-text', 'chat-stream-refusal', 'chat-stream-tool-call', 'chat-stream-parallel-tool-calls', 'chat-stream-n3-choices', 'chat-stream-logprobs', 'chat-stream-finish-length'])(
    'recorded OpenAI stream %s: every step and delivered text as without frames, model renamed and usage dropped or kept',
    (name) => {
      const data = sseDataOf(readFixture(`openai/${name}.sse`));
      for (const [model, wantsUsage] of [['my-model', false], ['gpt-4o-2024-08-06', true]] as const) expectSameAsFullParse(data, model, wantsUsage);
    },
  );

  it('a recorded text answer: every text chunk is read by its frame (the first by the role chunk\'s), none parsed whole', () => {
    const data = sseDataOf(readFixture('openai/chat-stream-text.sse')).filter((payload) => payload !== '[DONE]');
    const textChunks = data.filter((payload) => /"delta":\{"content":"/.test(payload)).length;
    expect(textChunks).toBeGreaterThan(20);
    expect(data[0]).toContain('"delta":{"role":"assistant","content":"","refusal":null}');
    expect(expectSameAsFullParse(data, 'my-model', false)).toBe(textChunks);
    // Without the role chunk, the first text chunk is parsed whole and sets the frame.
    expect(expectSameAsFullParse(data.slice(1), 'my-model', false)).toBe(textChunks - 1);
  });

  it('texts with escapes, quotes, unicode and empty text, and `"usage":null` after the choices', () => {
    const texts = ['plain', ' with \\"quotes\\"', 'line\\nbreak\\ttab', '\\u00e9t\\u00e9 \\ud83d\\ude00', 'é 😀 ✓', 'back\\\\slash', 'slash\\/', '', '"content":"x"', '\\\\"'];
    const data = texts.map((text) => frame(`"${text}"`, ',"usage":null'));
    expect(expectSameAsFullParse(data, 'my-model', false)).toBeGreaterThanOrEqual(5);
    expectSameAsFullParse(data, 'gpt-4o-2024-08-06', true);
  });

  it('whatever fills the frame that is not one JSON string goes the full way: errors and extra keys as without frames', () => {
    const data = [frame('"first"'), frame('"a","x":"b"'), frame('"a","x":1'), frame('"unterminated\\"'), frame('12'), frame('null'), frame('"ok"'), frame('"a"b"'), frame('"ctl\u0001"')];
    expectSameAsFullParse(data, 'my-model', false);
    const whole = new OpenAiStreamTransformer(options('my-model', false));
    const kinds = data.map((payload) => whole.transform({ data: payload })[0]?.kind);
    // A number for the text is a malformed chunk, as it always was; `null` is no text.
    expect(kinds).toEqual(['chunk', 'chunk', 'chunk', 'error', 'error', 'chunk', 'chunk', 'error', 'error']);
  });

  it('a recorded 2026 OpenAI answer, `"usage":null` and a different `obfuscation` in every chunk: read by its frame, the padding carried over', () => {
    const data = readFixture('openai/chat-completion-text.stream.jsonl').split('\n').filter((line) => line.trim() !== '');
    const textChunks = data.filter((payload) => /"delta":\{"content":"/.test(payload)).length;
    expect(textChunks).toBeGreaterThan(10);
    expect(data.every((payload) => payload.includes('"obfuscation":"'))).toBe(true);
    expect(expectSameAsFullParse(data, 'my-model', false)).toBe(textChunks);
    expectSameAsFullParse(data, 'gpt-4.1-nano-2025-04-14', true);
  });

  it('padding that is not plain, or a field after it, goes the full way', () => {
    const data = [frame('"a"', ',"obfuscation":"xy"'), frame('"b"', ',"obfuscation":"x\\"y"'), frame('"c"', ',"obfuscation":"xy","z":1'), frame('"d"', ',"obfuscation":"x\u0001"'), frame('"e"', ',"obfuscation":"q"'), frame('"f"')];
    expectSameAsFullParse(data, 'my-model', false);
  });

  it('a frame that changes otherwise in every chunk is never matched, and the answer is still right', () => {
    const data = ['abc', 'defg', 'h'].map((pad, index) => frame(`"t${index}"`, `,"padding":"${pad}"`));
    expect(expectSameAsFullParse(data, 'my-model', false)).toBe(0);
  });

  it('the role chunk\'s frame: what fills it that is not one JSON string goes the full way, as without frames', () => {
    const role = frame('""').replace('"delta":{"content":""}', '"delta":{"role":"assistant","content":"","refusal":null}');
    const data = [role, frame('"a","x":"b"'), frame('12'), frame('"unterminated\\"'), frame('null'), frame('"ok"'), frame('"a"b"')];
    expectSameAsFullParse(data, 'my-model', false);
    const whole = new OpenAiStreamTransformer(options('my-model', false));
    expect(data.map((payload) => whole.transform({ data: payload })[0]?.kind)).toEqual(['chunk', 'chunk', 'error', 'error', 'chunk', 'chunk', 'error']);
  });

  it('a role chunk whose frame is not its text chunks\' (another field differs) frames nothing, and the first text chunk sets the frame', () => {
    const role = frame('""', ',"usage":null').replace('"delta":{"content":""},"logprobs":null', '"delta":{"role":"assistant"},"logprobs":{"content":[]}');
    const data = [role, frame('"a"', ',"usage":null'), frame('"b"', ',"usage":null'), frame('"c"', ',"usage":null')];
    expect(expectSameAsFullParse(data, 'my-model', false)).toBe(2);
  });

  it('learns the role chunk\'s frame only from its compact delta, found once', () => {
    const role = (delta: string, extra = '') => frame('""', extra).replace('"delta":{"content":""}', `"delta":${delta}`);
    const roleDelta = { role: 'assistant', content: '' };
    const learned = ContentChunkFrame.learnAfter(role('{"role":"assistant","content":""}'), role('{"role":"assistant","content":""}'), roleDelta);
    expect(learned?.match(frame('"hi"'))).toEqual({ edited: frame('"hi"'), content: 'hi' });
    expect(learned?.match(frame('"hi"').replace('"delta":{"content":"hi"}', '"delta":{"content":"hi","role":"x"}'))).toBeUndefined();
    expect(ContentChunkFrame.learnAfter(role('{"role": "assistant", "content": ""}'), role('{"role": "assistant", "content": ""}'), roleDelta)).toBeUndefined();
    const twice = role('{"role":"assistant","content":""}', ',"x":{"delta":{"role":"assistant","content":""}}');
    expect(ContentChunkFrame.learnAfter(twice, twice, roleDelta)).toBeUndefined();
    // The caller's frame comes from the caller's chunk: its model, and its padding carried over.
    const padded = role('{"role":"assistant"}', ',"obfuscation":"pq"');
    const renamed = padded.replace('"model":"gpt-4o-2024-08-06"', '"model":"my-model"');
    const paddedFrame = ContentChunkFrame.learnAfter(padded, renamed, { role: 'assistant' });
    expect(paddedFrame?.match(frame('"yo"', ',"obfuscation":"xyz"'))).toEqual({
      edited: frame('"yo"', ',"obfuscation":"xyz"').replace('"model":"gpt-4o-2024-08-06"', '"model":"my-model"'),
      content: 'yo',
    });
  });

  it('learns nothing from a chunk whose text is not written as JSON.stringify writes it', () => {
    expect(ContentChunkFrame.learn(frame('"\\u0061"'), frame('"\\u0061"'), 'a')).toBeUndefined();
    expect(ContentChunkFrame.learn(frame('"a"', ',"x":{"content":"a"}'), frame('"a"'), 'a')).toBeUndefined();
    expect(ContentChunkFrame.learn(frame('"a"'), frame('"a"'), 'a')?.match(frame('"b"'))).toEqual({ edited: frame('"b"'), content: 'b' });
  });

  it('keeps none of the text a chunk was cut from: a frame holds its own copy of what it matches (issue 30)', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // Each chunk cut out of a large piece of its own, as an SSE parser cuts an event out of what
    // the upstream sent: a frame that kept a slice would keep the whole piece alive.
    const learnFromPieces = (count: number) =>
      Array.from({ length: count }, (_, index) => {
        const piece = `${String(index).padStart(6, '0')}${'x'.repeat(100_000)}data: ${frame('"a"')}`;
        const text = piece.slice(piece.indexOf('data: ') + 6);
        return ContentChunkFrame.learn(text, text, 'a');
      });
    gc();
    const before = process.memoryUsage().heapUsed;
    const frames = learnFromPieces(100);
    gc();
    const held = process.memoryUsage().heapUsed - before;
    expect(frames.every((learned) => learned?.match(frame('"b"'))?.content === 'b')).toBe(true);
    // 100 pieces of 100 KB: ~10 MB if the frames kept them; a few KB of frames otherwise.
    expect(held).toBeLessThan(1_000_000);
  });
});
