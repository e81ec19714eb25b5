import { ErrorResponseSchema } from '@chat-relay/contract';
import { expectSpecValid, warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, parseSse, readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { mp3FrameSeconds, speechSampleRate, wavDurationSeconds } from './audio';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const speech = (body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> =>
  callOpenAi(sim, 'POST', '/audio/speech', { body: { model: 'tts-1', voice: 'alloy', input: 'Hello, world!', ...body }, signal });

/** The body's bytes, how many reads they came in, and the error that ended a broken body. */
async function readBytes(response: Response): Promise<{ bytes: Buffer; reads: number; error?: unknown }> {
  const parts: Buffer[] = [];
  try {
    for await (const part of response.body ?? []) parts.push(Buffer.from(part));
  } catch (error) {
    return { bytes: Buffer.concat(parts), reads: parts.length, error };
  }
  return { bytes: Buffer.concat(parts), reads: parts.length };
}

describe('POST /v1/audio/speech', () => {
  it('streams a 24 kHz 16-bit mono WAV of 0.1 s per 10 characters, chunked, in several pieces', async () => {
    const response = await speech({ response_format: 'wav' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const { bytes, reads } = await readBytes(response);
    expect(reads).toBeGreaterThan(1);
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.readUInt32LE(24)).toBe(speechSampleRate);
    expect(bytes.readUInt16LE(22)).toBe(1);
    expect(bytes.readUInt32LE(40)).toBe(bytes.length - 44);
    expect(wavDurationSeconds(bytes)).toBeCloseTo(0.2, 6); // 13 characters: two tenths
    const samples = Array.from({ length: 50 }, (_, index) => bytes.readInt16LE(44 + index * 2));
    expect(Math.max(...samples)).toBeGreaterThan(5000);
    const longer = await readBytes(await speech({ response_format: 'wav', input: 'x'.repeat(95) }));
    expect(wavDurationSeconds(longer.bytes)).toBeCloseTo(1, 6);
  });

  it('sends silent MPEG-1 Layer III frames as audio/mpeg by default', async () => {
    const response = await speech({});
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const { bytes } = await readBytes(response);
    expect(bytes.length % 144).toBe(0);
    expect(bytes.length / 144).toBe(Math.ceil(0.2 / mp3FrameSeconds));
    for (let offset = 0; offset < bytes.length; offset += 144) expect([...bytes.subarray(offset, offset + 4)]).toEqual([0xff, 0xfb, 0x18, 0xc0]);
  });

  it('sends headerless PCM as audio/pcm, and WAV as audio/wav for the formats it cannot encode', async () => {
    const pcm = await speech({ response_format: 'pcm' });
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    expect((await readBytes(pcm)).bytes.length).toBe(0.2 * speechSampleRate * 2);
    for (const format of ['opus', 'aac', 'flac']) {
      const response = await speech({ response_format: format });
      expect(response.headers.get('content-type')).toBe('audio/wav');
      expect((await readBytes(response)).bytes.toString('ascii', 8, 12)).toBe('WAVE');
    }
  });

  it('plays x_sim.audio_seconds or [sim:audio_seconds=N] and leaves markers out of the length', async () => {
    const fromBody = await readBytes(await speech({ response_format: 'wav', x_sim: { audio_seconds: 1.5 } }));
    expect(wavDurationSeconds(fromBody.bytes)).toBeCloseTo(1.5, 6);
    const fromMarker = await readBytes(await speech({ response_format: 'wav', input: 'Hi [sim:audio_seconds=0.3]' }));
    expect(wavDurationSeconds(fromMarker.bytes)).toBeCloseTo(0.3, 6);
    const bad = await speech({ x_sim: { audio_seconds: -1 } });
    expect(ErrorResponseSchema.parse(await bad.json()).error.param).toBe('x_sim.audio_seconds');
  });

  it('lets a client stop reading a long slow stream midway, and keeps serving', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const response = await speech({ response_format: 'wav', x_sim: { audio_seconds: 20, latency_ms_per_token: 50 } }, controller.signal);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(first?.done).toBe(false);
    controller.abort();
    await expect(reader?.read()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await speech({})).status).toBe(200);
  });

  it('streams speech.audio.delta events and a speech.audio.done with usage for stream_format sse', async () => {
    const response = await speech({ model: 'gpt-4o-mini-tts', response_format: 'pcm', stream_format: 'sse' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse((await readAll(response)).text).map((event) => JSON.parse(event.data) as { type: string; audio?: string });
    for (const event of events) expectSpecValid(event.type === 'speech.audio.done' ? 'SpeechAudioDoneEvent' : 'SpeechAudioDeltaEvent', event);
    expect(events.at(-1)).toEqual({ type: 'speech.audio.done', usage: { input_tokens: 4, output_tokens: 4, total_tokens: 8 } });
    const audio = Buffer.concat(events.slice(0, -1).map((event) => Buffer.from(event.audio ?? '', 'base64')));
    expect(audio).toEqual((await readBytes(await speech({ response_format: 'pcm' }))).bytes);
  });

  it('plays faults: a status, stream-error as a 500 before any audio, cut after the first chunks', async () => {
    expect((await speech({ x_sim: { fault: 'status:429' } })).status).toBe(429);
    const streamError = await speech({ input: 'hello [sim:fault=stream-error]' });
    expect(streamError.status).toBe(500);
    expect(ErrorResponseSchema.parse(await streamError.json()).error.type).toBe('server_error');
    const cut = await speech({ response_format: 'wav', x_sim: { fault: 'cut', audio_seconds: 1 } });
    expect(cut.status).toBe(200);
    const { bytes, error } = await readBytes(cut);
    expect(error).toBeDefined();
    expect(bytes.length).toBeLessThan(44 + speechSampleRate * 2);
  });

  it('answers 400 for an empty input or a missing voice', async () => {
    const empty = await speech({ input: '' });
    expect(empty.status).toBe(400);
    expect(ErrorResponseSchema.parse(await empty.json()).error.param).toBe('input');
    const noVoice = await callOpenAi(sim, 'POST', '/audio/speech', { body: { model: 'tts-1', input: 'x' } });
    expect(ErrorResponseSchema.parse(await noVoice.json()).error).toMatchObject({ message: "Missing required parameter: 'voice'." });
  });
});
