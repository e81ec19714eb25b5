import { createOpenAI } from '@ai-sdk/openai';
import { embedMany, experimental_transcribe as transcribe, generateImage } from 'ai';
import OpenAI, { toFile } from 'openai';
import { startUpstreamSim } from '../sim-server';
import { testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { toneWav, wavDurationSeconds } from './audio';
import { embeddingVector } from './embedding-vector';
import { simPng } from './png';
import { readPng } from './testing/read-png';

// The clients the relay's users run read the simulator's endpoints as they read OpenAI's: the
// official SDK (which asks embeddings in base64 and decodes them) and the Vercel AI SDK.

let sim: UpstreamSim;
let client: OpenAI;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
  client = new OpenAI({ apiKey: testKey, baseURL: sim.baseUrl, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('official openai SDK', () => {
  it('creates completions, whole and streamed', async () => {
    const completion = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Hi SDK', max_tokens: 10 });
    expect(completion.choices[0]?.text).toBe('You said: Hi SDK');
    const stream = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Hi SDK', stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('You said: Hi SDK');
  });

  it('creates embeddings (asked in base64, decoded by the SDK) equal to embeddingVector', async () => {
    const answer = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'], dimensions: 64 });
    expect(sim.requests[0]?.body).toMatchObject({ encoding_format: 'base64' });
    expect(answer.data.map((item) => item.embedding)).toEqual([embeddingVector('one', 64), embeddingVector('two', 64)]);
    expect(answer.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it('moderates, generates and edits images', async () => {
    const moderation = await client.moderations.create({ model: 'omni-moderation-latest', input: 'I hate this' });
    expect(moderation.results[0]?.categories.hate).toBe(true);
    const generated = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse' });
    expect(readPng(Buffer.from(generated.data?.[0]?.b64_json ?? '', 'base64')).width).toBe(8);
    const edited = await client.images.edit({
      model: 'gpt-image-1',
      prompt: 'at night',
      image: [await toFile(simPng('a'), 'a.png', { type: 'image/png' }), await toFile(simPng('b'), 'b.png', { type: 'image/png' })],
    });
    expect(edited.usage?.input_tokens_details.image_tokens).toBeGreaterThan(0);
    expect(sim.requests.at(-1)?.multipart?.files.map((file) => [file.field, file.filename])).toEqual([
      ['image[]', 'a.png'],
      ['image[]', 'b.png'],
    ]);
  });

  it('speaks, transcribes and translates', async () => {
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Ten chars!'.repeat(3), response_format: 'wav' });
    const wav = Buffer.from(await speech.arrayBuffer());
    expect(wavDurationSeconds(wav)).toBeCloseTo(0.3, 6);
    const transcript = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(wav, 'speech.wav', { type: 'audio/wav' }),
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    expect(transcript).toMatchObject({ text: `Transcribed ${wav.length} bytes of speech.wav.`, duration: 0.3 });
    expect(transcript.words?.at(-1)?.end).toBe(0.3);
    expect(sim.requests.at(-1)?.multipart?.fields).toContainEqual(['timestamp_granularities[]', 'word']);
    const text = await client.audio.translations.create({ model: 'whisper-1', file: await toFile(wav, 'speech.wav'), response_format: 'text' });
    expect(String(text)).toBe(`Translated ${wav.length} bytes of speech.wav.\n`);
  });

  it('lists the models and raises its errors', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('whisper-1');
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: '' })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const wrongKey = new OpenAI({ apiKey: 'sk-wrong', baseURL: sim.baseUrl, maxRetries: 0 });
    await expect(wrongKey.moderations.create({ input: 'x' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('Vercel AI SDK', () => {
  const openai = () => createOpenAI({ apiKey: testKey, baseURL: sim.baseUrl });

  it('embeds many, generates an image and transcribes', async () => {
    const { embeddings, usage } = await embedMany({ model: openai().embedding('text-embedding-3-small'), values: ['alpha', 'beta gamma'] });
    expect(embeddings).toEqual([embeddingVector('alpha', 1536), embeddingVector('beta gamma', 1536)]);
    expect(usage.tokens).toBe(3);
    const { image } = await generateImage({ model: openai().image('gpt-image-1'), prompt: 'a kite' });
    expect(readPng(Buffer.from(image.uint8Array)).height).toBe(8);
    const result = await transcribe({ model: openai().transcription('whisper-1'), audio: toneWav(0.5) });
    expect(result.text).toMatch(/^Transcribed \d+ bytes of /);
    // It asks json and reads the billed seconds, whole seconds rounded up as OpenAI bills them.
    expect(result.durationInSeconds).toBe(1);
    expect(sim.requests.at(-1)?.multipart?.files[0]).toMatchObject({ field: 'file', contentType: 'audio/wav', size: toneWav(0.5).length });
  });
});
