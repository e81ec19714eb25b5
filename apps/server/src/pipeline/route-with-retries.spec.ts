import { RelayError } from '@chat-relay/wire';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import type { NewChannel, Storage } from '../storage/types';
import { ChannelRegistry } from '../channels/channel-registry';
import { candidatesFor } from '../channels/candidates-for';

const newChannel = (overrides: Partial<NewChannel> = {}): NewChannel => ({
  name: 'sim',
  type: 'openai',
  baseUrl: 'http://127.0.0.1:9/v1',
  keys: ['sk-one'],
  models: ['*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
  ...overrides,
});

/** The 404 routing answers before any upstream call, by what the channels serve. */
describe('candidatesFor (routing)', () => {
  let dataDir: string;
  let storage: Storage;
  let registry: ChannelRegistry;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-routing-'));
    storage = openSqliteStorage(dataDir);
    registry = new ChannelRegistry(storage.channels);
  });
  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The error `candidatesFor` throws, as the caller receives it. */
  const refusal = async (model: string, endpoint: Parameters<typeof candidatesFor>[2]) => {
    const error = await Promise.resolve()
      .then(() => candidatesFor(registry, model, endpoint))
      .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof RelayError)) throw new Error(`expected a RelayError, got ${String(error)}`);
    return { status: error.status, ...error.toBody().error };
  };

  it('returns the channels serving the model on the endpoint', async () => {
    const first = await storage.channels.create(newChannel({ name: 'a' }));
    const second = await storage.channels.create(newChannel({ name: 'b', models: ['text-embedding-3-small'], endpoints: ['embeddings'] }));
    expect((await candidatesFor(registry, 'text-embedding-3-small', 'embeddings')).map((channel) => channel.id)).toEqual([first.id, second.id]);
    // Once the channels are loaded, at once, without a promise (issue 30).
    const known = candidatesFor(registry, 'text-embedding-3-small', 'embeddings');
    expect(known).not.toBeInstanceOf(Promise);
    expect((known as Awaited<typeof known>).map((channel) => channel.id)).toEqual([first.id, second.id]);
  });

  it('answers 404 model_not_found for a model no enabled channel takes', async () => {
    await storage.channels.create(newChannel({ models: ['gpt-4o'] }));
    await storage.channels.create(newChannel({ models: ['gpt-5'], enabled: false }));
    for (const model of ['gpt-5', 'unknown-model']) {
      expect(await refusal(model, 'chat')).toEqual({
        status: 404,
        type: 'invalid_request_error',
        code: 'model_not_found',
        param: 'model',
        message: `The model '${model}' does not exist or you do not have access to it.`,
      });
    }
  });

  it('answers 404 naming the endpoint asked and where the model is served, for a model served elsewhere', async () => {
    await storage.channels.create(newChannel({ models: ['*'] }));
    expect(await refusal('text-embedding-3-small', 'chat')).toEqual({
      status: 404,
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: 'model',
      message: "The model 'text-embedding-3-small' is not served for chat; it is served for embeddings (/v1/embeddings).",
    });
    expect((await refusal('dall-e-3', 'audio_speech')).message).toBe(
      "The model 'dall-e-3' is not served for audio_speech (/v1/audio/speech); it is served for images (/v1/images).",
    );
  });

  it('names every endpoint the model is served on, across channels', async () => {
    await storage.channels.create(newChannel({ name: 'chat only', models: ['house-model'], endpoints: ['chat'] }));
    await storage.channels.create(newChannel({ name: 'embeddings', models: ['house-model'], endpoints: ['embeddings', 'moderations'] }));
    const { message, status } = await refusal('house-model', 'rerank');
    expect(status).toBe(404);
    expect(message).toMatch(/^The model 'house-model' is not served for rerank \(\/v1\/rerank\); it is served for /);
    for (const where of ['chat', 'embeddings (/v1/embeddings)', 'moderations (/v1/moderations)']) expect(message).toContain(where);
  });

  it('does not name an endpoint that only a disabled channel serves the model on', async () => {
    await storage.channels.create(newChannel({ name: 'on', models: ['house-model'], endpoints: ['chat'] }));
    await storage.channels.create(newChannel({ name: 'off', models: ['house-model'], endpoints: ['rerank'], enabled: false }));
    const { message } = await refusal('house-model', 'embeddings');
    expect(message).toBe("The model 'house-model' is not served for embeddings (/v1/embeddings); it is served for chat.");
  });
});
