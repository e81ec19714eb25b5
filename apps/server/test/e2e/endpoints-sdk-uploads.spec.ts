import { createHash } from 'node:crypto';
import { simImageSide, simPng, toneWav, toSrt, toVtt, transcriptOf, type RecordedMultipart } from '@chat-relay/upstream-sim';
import { toFile } from 'openai';
import {
  expectAnswersValid,
  pngSize,
  prepareSpec,
  PREPARE_SPEC_MS,
  rowSummary,
  startEndpointsRelay,
  usageRowsOfExchanges,
  type EndpointsE2e,
} from './endpoints-sdk-e2e';

/**
 * The official `openai` SDK (v6) on the relay's upload and audio routes through an `openai`
 * channel: image edits and transcriptions as multipart forms that reach the simulator byte for
 * byte (its recorded sha256 of each file), speech bytes streamed through whole, every format of
 * a transcript, and one usage row per call with its units (images, characters, seconds).
 */

let e2e: EndpointsE2e;
beforeAll(async () => {
  prepareSpec();
  e2e = await startEndpointsRelay();
  await e2e.addChannel(e2e.sim.baseUrl, { name: 'openai, every model', models: ['*'] });
}, PREPARE_SPEC_MS);
afterAll(() => e2e.close());
beforeEach(() => e2e.forget());

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
/** What the simulator received of the last multipart request to `path`. */
const lastForm = (path: string): RecordedMultipart | undefined => e2e.sim.requests.filter((request) => request.path === path).at(-1)?.multipart;
const fileSummary = (field: string, filename: string, contentType: string, bytes: Buffer) => ({
  field,
  filename,
  contentType,
  size: bytes.length,
  sha256: sha256(bytes),
});

describe('images.edit with toFile', () => {
  it('one image (dall-e-2, a URL), then two images as image[] with a mask (gpt-image-1, b64_json): every file arrives whole', async () => {
    const photo = simPng('photo');
    const one = await e2e.sdk().images.edit({ model: 'dall-e-2', prompt: 'add a moon', image: await toFile(photo, 'photo.png', { type: 'image/png' }) });
    const served = await fetch(one.data?.[0]?.url ?? 'missing');
    expect(pngSize(Buffer.from(await served.arrayBuffer()))).toEqual({ width: simImageSide, height: simImageSide });
    expect(lastForm('/v1/images/edits')?.files).toEqual([fileSummary('image', 'photo.png', 'image/png', photo)]);
    expect(lastForm('/v1/images/edits')?.fields).toEqual(expect.arrayContaining([['prompt', 'add a moon'], ['model', 'dall-e-2']]));

    const [first, second, mask] = [simPng('first'), simPng('second'), simPng('mask')];
    const two = await e2e.sdk().images.edit({
      model: 'gpt-image-1',
      prompt: 'merge them',
      image: [await toFile(first, 'first.png', { type: 'image/png' }), await toFile(second, 'second.png', { type: 'image/png' })],
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
    });
    expect(lastForm('/v1/images/edits')?.files).toEqual([
      fileSummary('image[]', 'first.png', 'image/png', first),
      fileSummary('image[]', 'second.png', 'image/png', second),
      fileSummary('mask', 'mask.png', 'image/png', mask),
    ]);
    expect(pngSize(Buffer.from(two.data?.[0]?.b64_json ?? '', 'base64'))).toEqual({ width: simImageSide, height: simImageSide });
    // The simulator bills 255 image tokens per uploaded image: the two images reached it as images.
    expect(two.usage?.input_tokens_details.image_tokens).toBe(2 * 255);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['ImagesResponse', 'ImagesResponse']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual([
      { endpoint: 'images', requestedModel: 'dall-e-2', status: 200, units: 1, stream: false },
      { endpoint: 'images', requestedModel: 'gpt-image-1', status: 200, units: 1, stream: false },
    ]);
    expect(rows[1]).toMatchObject({ promptTokens: two.usage?.input_tokens, completionTokens: two.usage?.output_tokens });
  });
});

describe('audio.speech.create', () => {
  it('streams the WAV through: read chunk by chunk, the bytes are the simulator’s tone of [sim:audio_seconds=N]', async () => {
    // A character beyond the BMP: billed as one character, not as its two UTF-16 units.
    const input = 'Read this aloud, please 🎵 [sim:audio_seconds=2]';
    expect([...input].length).toBe(input.length - 1);
    const response = await e2e.sdk().audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format: 'wav' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const body = response.body;
    if (!body) throw new Error('speech answered without a body');
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk));
    const wav = Buffer.concat(chunks);
    expect(wav.length).toBe(44 + 2 * 24_000 * 2);
    expect(wav.equals(toneWav(2))).toBe(true);
    // Streamed as it came (the simulator sends ~0.1 s a chunk), not gathered into one piece.
    expect(chunks.length).toBeGreaterThan(1);

    const [row] = await usageRowsOfExchanges(e2e);
    expect(rowSummary(row)).toEqual({ endpoint: 'audio_speech', requestedModel: 'tts-1', status: 200, units: [...input].length, stream: false });
  });
});

describe('audio.transcriptions.create and audio.translations.create', () => {
  const wav = toneWav(2.5);
  const transcript = transcriptOf('transcribe', { filename: 'speech.wav', data: wav });
  const audio = () => toFile(wav, 'speech.wav', { type: 'audio/wav' });

  it('json, text, srt, vtt and verbose_json with word and segment timestamps: the simulator’s transcript in each', async () => {
    const sdk = e2e.sdk();
    const json = await sdk.audio.transcriptions.create({ model: 'whisper-1', file: await audio() });
    expect(json).toEqual({ text: transcript.text, usage: { type: 'duration', seconds: 3 } });
    expect(lastForm('/v1/audio/transcriptions')?.files).toEqual([fileSummary('file', 'speech.wav', 'audio/wav', wav)]);
    expect(await sdk.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: 'text' })).toBe(`${transcript.text}\n`);
    expect(await sdk.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: 'srt' })).toBe(toSrt(transcript));
    expect(await sdk.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: 'vtt' })).toBe(toVtt(transcript));
    const verbose = await sdk.audio.transcriptions.create({
      model: 'whisper-1',
      file: await audio(),
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
      language: 'de',
    });
    expect(verbose).toMatchObject({ task: 'transcribe', language: 'german', duration: 2.5, text: transcript.text });
    expect(verbose.words).toEqual(transcript.words);
    expect(verbose.segments).toEqual(transcript.segments);
    expect(lastForm('/v1/audio/transcriptions')?.fields).toEqual(
      expect.arrayContaining([
        ['timestamp_granularities[]', 'word'],
        ['timestamp_granularities[]', 'segment'],
      ]),
    );
    expect(e2e.exchanges.map((exchange) => exchange.contentType.split(';')[0])).toEqual([
      'application/json',
      'text/plain',
      'text/plain',
      'text/plain',
      'application/json',
    ]);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateTranscriptionResponseJson', 'CreateTranscriptionResponseVerboseJson']);

    // Seconds as the answer reports them (whisper bills whole seconds), else from the WAV header, estimated.
    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map((row) => [row?.endpoint, row?.requestedModel, row?.status, row?.units, row?.usageEstimated])).toEqual([
      ['audio_transcriptions', 'whisper-1', 200, 3, false],
      ['audio_transcriptions', 'whisper-1', 200, 2.5, true],
      ['audio_transcriptions', 'whisper-1', 200, 2.5, true],
      ['audio_transcriptions', 'whisper-1', 200, 2.5, true],
      ['audio_transcriptions', 'whisper-1', 200, 3, false],
    ]);
  });

  it('translations: json and verbose_json in English, text as plain text', async () => {
    const translated = transcriptOf('translate', { filename: 'speech.wav', data: wav });
    const sdk = e2e.sdk();
    expect(await sdk.audio.translations.create({ model: 'whisper-1', file: await audio() })).toEqual({ text: translated.text });
    const verbose = await sdk.audio.translations.create({ model: 'whisper-1', file: await audio(), response_format: 'verbose_json' });
    expect(verbose).toMatchObject({ task: 'translate', language: 'english', duration: 2.5, text: translated.text, segments: translated.segments });
    expect(await sdk.audio.translations.create({ model: 'whisper-1', file: await audio(), response_format: 'text' })).toBe(`${translated.text}\n`);
    expect(lastForm('/v1/audio/translations')?.files).toEqual([fileSummary('file', 'speech.wav', 'audio/wav', wav)]);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateTranslationResponseJson', 'CreateTranslationResponseVerboseJson']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(3).fill({ endpoint: 'audio_transcriptions', requestedModel: 'whisper-1', status: 200, units: 2.5, stream: false }));
  });
});
