import { createHash } from 'node:crypto';
import { ErrorResponseSchema } from '@chat-relay/contract';
import { expectSpecValid, warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { postForm, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { toneWav } from './audio';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const wav = toneWav(1.5);

function audioForm(fields: [string, string][], file: { bytes: Buffer; name: string } | null = { bytes: wav, name: 'speech.wav' }): FormData {
  const form = new FormData();
  if (file) form.append('file', new Blob([file.bytes], { type: 'audio/wav' }), file.name);
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

async function transcribe(fields: [string, string][], path = '/audio/transcriptions', file?: { bytes: Buffer; name: string }): Promise<Response> {
  const response = await postForm(sim, path, audioForm(fields, file ?? undefined));
  expect(response.status).toBe(200);
  return response;
}

const transcribedText = `Transcribed ${wav.length} bytes of speech.wav.`;

describe('POST /v1/audio/transcriptions', () => {
  it('answers whisper-1 json with the text and the duration (from the WAV header) as usage, recording the upload whole', async () => {
    const response = await transcribe([['model', 'whisper-1']]);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body: unknown = await response.json();
    expectSpecValid('CreateTranscriptionResponseJson', body);
    expect(body).toEqual({ text: transcribedText, usage: { type: 'duration', seconds: 2 } });
    expect(sim.requests[0]?.multipart?.files).toEqual([
      { field: 'file', filename: 'speech.wav', contentType: 'audio/wav', size: wav.length, sha256: createHash('sha256').update(wav).digest('hex') },
    ]);
    expect(sim.requests[0]?.bodyBytes).toBeGreaterThan(wav.length);
  });

  it('answers verbose_json with language, duration, segments, and words when asked', async () => {
    const granular = (await (
      await transcribe([
        ['model', 'whisper-1'],
        ['response_format', 'verbose_json'],
        ['language', 'fr'],
        ['timestamp_granularities[]', 'word'],
        ['timestamp_granularities[]', 'segment'],
      ])
    ).json()) as Record<string, unknown>;
    expectSpecValid('CreateTranscriptionResponseVerboseJson', granular);
    expect(granular).toMatchObject({ task: 'transcribe', language: 'french', duration: 1.5, text: transcribedText, usage: { type: 'duration', seconds: 2 } });
    expect(granular['words']).toEqual([
      { word: 'Transcribed', start: 0, end: 0.3 },
      { word: String(wav.length), start: 0.3, end: 0.6 },
      { word: 'bytes', start: 0.6, end: 0.9 },
      { word: 'of', start: 0.9, end: 1.2 },
      { word: 'speech.wav', start: 1.2, end: 1.5 },
    ]);
    expect(granular['segments']).toMatchObject([
      { id: 0, start: 0, end: 1.2, text: ` Transcribed ${wav.length} bytes of` },
      { id: 1, start: 1.2, end: 1.5, text: ' speech.wav.' },
    ]);
    const plain = (await (await transcribe([['model', 'whisper-1'], ['response_format', 'verbose_json']])).json()) as Record<string, unknown>;
    expect(plain).toMatchObject({ language: 'english' });
    expect(plain).not.toHaveProperty('words');
    expect(plain['segments']).toHaveLength(2);
  });

  it('formats text, srt and vtt as text/plain, SRT and WebVTT', async () => {
    const text = await transcribe([['model', 'whisper-1'], ['response_format', 'text']]);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe(`${transcribedText}\n`);
    const srt = await (await transcribe([['model', 'whisper-1'], ['response_format', 'srt']])).text();
    expect(srt).toBe(`1\n00:00:00,000 --> 00:00:01,200\nTranscribed ${wav.length} bytes of\n\n2\n00:00:01,200 --> 00:00:01,500\nspeech.wav.\n\n`);
    const vtt = await (await transcribe([['model', 'whisper-1'], ['response_format', 'vtt']])).text();
    expect(vtt).toBe(`WEBVTT\n\n00:00:00.000 --> 00:00:01.200\nTranscribed ${wav.length} bytes of\n\n00:00:01.200 --> 00:00:01.500\nspeech.wav.\n\n`);
  });

  it('counts 16,000 bytes a second for audio that is not WAV', async () => {
    const mp3 = { bytes: Buffer.alloc(40_000, 1), name: 'clip.mp3' };
    const body = (await (await transcribe([['model', 'whisper-1'], ['response_format', 'verbose_json']], '/audio/transcriptions', mp3)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ duration: 2.5, text: 'Transcribed 40000 bytes of clip.mp3.' });
  });

  it('reports tokens for GPT-4o transcription models, which answer only json and text', async () => {
    const body: unknown = await (await transcribe([['model', 'gpt-4o-mini-transcribe'], ['prompt', 'A tone']])).json();
    expectSpecValid('CreateTranscriptionResponseJson', body);
    expect(body).toEqual({
      text: transcribedText,
      usage: { type: 'tokens', input_tokens: 15 + 2, input_token_details: { text_tokens: 2, audio_tokens: 15 }, output_tokens: 8, total_tokens: 25 },
    });
    const verbose = await postForm(sim, '/audio/transcriptions', audioForm([['model', 'gpt-4o-mini-transcribe'], ['response_format', 'verbose_json']]));
    expect(verbose.status).toBe(400);
    expect(ErrorResponseSchema.parse(await verbose.json()).error).toMatchObject({ param: 'response_format', code: 'unsupported_value' });
  });

  it('receives a large upload whole', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 7);
    const body = (await (await transcribe([['model', 'whisper-1']], '/audio/transcriptions', { bytes: big, name: 'big.bin' })).json()) as { text: string };
    expect(body.text).toBe(`Transcribed ${big.length} bytes of big.bin.`);
    expect(sim.requests[0]?.multipart?.files[0]?.sha256).toBe(createHash('sha256').update(big).digest('hex'));
  });

  it('answers 400 without a file and plays the x_sim field of the form', async () => {
    const noFile = await postForm(sim, '/audio/transcriptions', audioForm([['model', 'whisper-1']], null));
    expect(noFile.status).toBe(400);
    expect(ErrorResponseSchema.parse(await noFile.json()).error).toMatchObject({ message: "Missing required parameter: 'file'.", param: 'file' });
    const fault = await postForm(sim, '/audio/transcriptions', audioForm([['model', 'whisper-1'], ['x_sim', '{"fault": "status:503"}']]));
    expect(fault.status).toBe(503);
    const marker = await postForm(sim, '/audio/transcriptions', audioForm([['model', 'whisper-1'], ['prompt', 'names [sim:fault=status:502]']]));
    expect(marker.status).toBe(502);
  });
});

describe('POST /v1/audio/translations', () => {
  it('answers the English text without usage, and verbose_json in English', async () => {
    const body: unknown = await (await transcribe([['model', 'whisper-1']], '/audio/translations')).json();
    expectSpecValid('CreateTranslationResponseJson', body);
    expect(body).toEqual({ text: `Translated ${wav.length} bytes of speech.wav.` });
    const verbose: unknown = await (await transcribe([['model', 'whisper-1'], ['response_format', 'verbose_json']], '/audio/translations')).json();
    expectSpecValid('CreateTranslationResponseVerboseJson', verbose);
    expect(verbose).toMatchObject({ task: 'translate', language: 'english', duration: 1.5 });
  });
});
