import { digestKey, generateTokenKey, keyHint } from '../../../src/security/keys';
import { usageEntry } from '../../testing/system-api';
import { sampleRows } from '../suites/usage-sample';
import type { AssistantRecord, NewTask, Storage, StoredResponseRecord, TokenRecord, WindowKey } from '../../../src/storage/types';
import { newAssistant } from '../../testing/assistant-record';
import { ROOMY } from '../testing/roomy-limits';

/** What the copy specs fill a database with, and the handles they ask the stores about. */
export interface CopyFixture {
  adminId: number;
  aliceId: number;
  bobId: number;
  aliceAccessKey: string;
  /** The token with every policy field set (its key works from 127.0.0.1). */
  tokenKey: string;
  token: TokenRecord;
  tokenIds: number[];
  /** The highest token id given, deleted since: no new token may take it. */
  deletedTokenId: number;
  channelIds: number[];
  privateAssistant: AssistantRecord;
  publicAssistant: AssistantRecord;
  responseIds: string[];
  /** Quota reserved and never settled (a request under way when the relay stopped). */
  pendingAmount: number;
  /** The periodic window that reservation counts in (with 777 tokens). */
  pendingWindow: WindowKey;
  /** Alice's videos: one running (holding its reservation), one settled, one deleted; and Bob's song. */
  taskIds: string[];
}

export const FIXTURE_NOW = '2026-03-01T12:00:00.000Z';
const LATER = '2026-04-01T00:00:00.000Z';

/**
 * Everything a relay keeps, written through `storage`'s own stores: accounts with access keys,
 * tokens with every policy field, channels with key states, endpoints and synced models,
 * assistants private and public, edited prices, 1,500 usage rows (some settling reservations,
 * some past retention), a reservation never settled, and stored responses chained.
 */
export async function fillRelayData(storage: Storage): Promise<CopyFixture> {
  const admin = await storage.accounts.createAdmin(digestKey('sk-admin-copy-fixture-key-0123456789'));
  const aliceAccessKey = 'sk-acct-alice-0123456789abcdef';
  const alice = await storage.accounts.create({
    name: 'Alice "A" \\ Ünïcode',
    role: 'user',
    status: 'active',
    quotaLimit: 5_000_000_000,
    keyDigest: digestKey(aliceAccessKey),
    keyHint: keyHint(aliceAccessKey),
    limits: { periodicLimits: [{ period: 'month', metric: 'cost', limit: 50_000_000 }], timeZone: 'Europe/Paris', alertThresholds: [50, 80] },
  });
  const bob = await storage.accounts.create({ name: 'bob', role: 'user', status: 'disabled', quotaLimit: null, keyDigest: digestKey('sk-acct-bob-0123456789'), keyHint: '...6789' });

  const tokenKey = generateTokenKey();
  const token = await storage.tokens.create({
    accountId: alice.id,
    name: 'Grüße "full" \\ token',
    keyDigest: digestKey(tokenKey),
    keyHint: keyHint(tokenKey),
    status: 'active',
    expiresAt: '2099-01-02T03:04:05.678Z',
    quotaLimit: 900_000_000,
    models: ['gpt-4o*', 'claude-*', 'text-embedding-3-small'],
    allowedIps: ['10.0.0.0/8', '127.0.0.1', '::1'],
    rateLimit: { rpm: 600, tpm: 1_000_000, concurrency: 4 },
    periodicLimits: [
      { period: 'day', metric: 'requests', limit: 1_000 },
      { period: 'day', metric: 'cost', limit: 2_000_000 },
    ],
    timeZone: 'America/New_York',
    alertThresholds: [80, 100],
  });
  const expired = await storage.tokens.create({ accountId: alice.id, name: 'expired', keyDigest: digestKey('sk-expired'), keyHint: '...ired', expiresAt: '2020-01-01T00:00:00.000Z' });
  const empty = await storage.tokens.create({ accountId: bob.id, name: 'lists empty', keyDigest: digestKey('sk-empty'), keyHint: '...mpty', status: 'disabled', models: [], allowedIps: [] });
  const deleted = await storage.tokens.create({ accountId: bob.id, name: 'deleted', keyDigest: digestKey('sk-deleted'), keyHint: '...eted' });
  await storage.tokens.delete(deleted.id);
  await storage.tokens.touchLastUsed(new Map([[token.id, '2026-02-02T10:00:00.123Z']]));

  const openai = await storage.channels.create({
    name: 'openai main',
    type: 'openai',
    baseUrl: 'http://127.0.0.1:9/v1',
    keys: ['sk-up-a', 'sk-up-b', 'sk-up-c'],
    models: ['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small'],
    // Key order someone sees (a json column keeps it).
    modelMapping: { 'z-alias': 'gpt-4o', 'a-alias': 'gpt-4o-mini' },
    priority: 2,
    weight: 3,
    enabled: true,
    timeouts: { connectMs: 1_500, firstByteMs: 30_000, idleMs: 20_000 },
    responsesApi: 'native',
    endpoints: ['chat', 'embeddings'],
  });
  await storage.channels.disableKey(openai.id, 'sk-up-b', 'upstream 401: invalid "key"');
  await storage.channels.setSyncedModels(openai.id, [{ id: 'gpt-4o', endpoints: null }, { id: 'text-embedding-3-small', endpoints: ['embeddings'] }], '2026-02-03T04:05:06.789Z');
  const anthropic = await storage.channels.create({
    name: 'anthropic off',
    type: 'anthropic',
    baseUrl: 'http://127.0.0.1:9',
    keys: ['sk-ant'],
    models: ['claude-sonnet-4'],
    modelMapping: {},
    priority: 0,
    weight: 1,
    enabled: false,
    timeouts: { connectMs: 1_000, firstByteMs: 10_000, idleMs: 10_000 },
  });

  const privateAssistant = await storage.assistants.create({
    id: 'g-helper',
    accountId: alice.id,
    name: 'Helper',
    description: 'private one',
    instructions: 'Answer like a pirate.',
    tools: [{ type: 'function', function: { name: 'lookup', description: 'finds', parameters: { type: 'object', required: ['q'], properties: { q: { type: 'string' } } } } }],
    temperature: 0.3,
    topP: 0.95,
    maxTokens: 512,
    responseFormat: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { z: { type: 'string' }, a: { type: 'number' } } } } },
    models: ['gpt-4o'],
    visibility: 'private',
  });
  const shared = newAssistant(admin.id, 'g-shared', { name: 'Shared', instructions: 'Be brief.', visibility: 'public' });
  // Bob's own g-shared, made before the public one, shadows it for him alone.
  await storage.assistants.create({ ...shared, accountId: bob.id, name: 'Bob shadows it', visibility: 'private' });
  const publicAssistant = await storage.assistants.create(shared);

  const prices = await storage.prices.list();
  await storage.prices.replace([
    { model: 'house-model*', input: 123_456, output: 654_321, cacheRead: 1, cacheWrite: null, image: 7, imageVariants: { 'hd/1024x1024': 9, '256x256': 3 }, searchUnit: 11, characters: 13, audioMinute: 17 },
    { model: 'house-video', input: 0, output: 0, cacheRead: null, cacheWrite: null, videoSecond: 19, videoSecondVariants: { '1792x1024': 29, '1280x720': 23 }, song: 31, searchQuery: 37 },
    ...prices.filter((price) => price.model !== 'o3*').map((price) => (price.model === 'gpt-4o*' ? { ...price, input: 2_000_000 } : price)),
  ]);

  const rows = sampleRows(1_500, { tokens: [token.id, expired.id], accounts: [alice.id, bob.id] }, 11);
  for (const [index, row] of rows.slice(0, 3).entries()) {
    const reservation = { requestId: row.requestId, tokenId: token.id, accountId: alice.id, amount: 500 + index };
    expect(await storage.quota.reserve(reservation)).toEqual({ ok: true });
    Object.assign(row, { tokenId: token.id, accountId: alice.id, quotaReserved: reservation.amount });
  }
  for (const row of rows.slice(3, 40)) Object.assign(row, { assistantId: privateAssistant.id, accountId: alice.id, stream: true, usageEstimated: true, ttfbMs: null, clientIp: null, errorCode: 'upstream_error' });
  await storage.usageLog.insertBatch(rows.slice(0, 700));
  await storage.usageLog.insertBatch(rows.slice(700));
  await storage.usageLog.insertBatch([usageEntry({ createdAt: '2026-02-04T00:30:00.000Z', tokenId: token.id, accountId: alice.id, cost: 5, endpoint: 'rerank', units: 2.5 })]);
  // Past retention: the raw rows go, the hourly totals keep them.
  expect(await storage.usageLog.purgeBefore('2026-02-01T06:00:00.000Z', 10_000)).toBeGreaterThan(0);
  const pendingAmount = 4_321;
  const pendingWindow: WindowKey = { owner: 'token', ownerId: token.id, period: 'day', start: '2026-03-01' };
  const windows = [{ ...pendingWindow, limits: { cost: 2_000_000, requests: 1_000, tokens: null } }];
  expect(await storage.quota.reserve({ requestId: 'req-pending', tokenId: token.id, accountId: alice.id, amount: pendingAmount, windows, tokens: 777 })).toEqual({ ok: true });

  const responses = storedResponses(alice.id, token.id, openai.id);
  for (const record of responses) await storage.responses.put(record, ROOMY);

  const taskIds = await fillTasks(storage, alice.id, token.id, bob.id, openai.id);

  return {
    adminId: admin.id,
    aliceId: alice.id,
    bobId: bob.id,
    aliceAccessKey,
    tokenKey,
    token: (await storage.tokens.get(token.id)) ?? token,
    tokenIds: [token.id, expired.id, empty.id],
    deletedTokenId: deleted.id,
    channelIds: [openai.id, anthropic.id],
    privateAssistant,
    publicAssistant,
    responseIds: responses.map((record) => record.id),
    pendingAmount,
    pendingWindow,
    taskIds,
  };
}

/**
 * Tasks of every state, written through the stores: a running video holding its reservation
 * (which the copy must keep held), a settled one, one deleted by its owner, and a song of the
 * admin key (no token) with a result holding U+0000 and key order someone sees.
 */
async function fillTasks(storage: Storage, aliceId: number, tokenId: number, bobId: number, channelId: number): Promise<string[]> {
  const video = (id: string, minute: number): NewTask => ({
    id,
    kind: 'video',
    accountId: aliceId,
    tokenId,
    requestId: `req-${id}`,
    channelId,
    keyDigest: digestKey('sk-up-a'),
    upstreamId: `up-${id}`,
    model: 'sora-2',
    pricedModel: 'sora-2',
    upstreamModel: 'sora-2-2025-10-06',
    params: { prompt: 'Grüße "video"', size: '1280x720', seconds: 8 },
    quotaReserved: 0,
    units: 8,
    unitVariant: '1280x720',
    clientIp: '10.0.0.7',
    createdAt: `2026-03-01T11:${String(minute).padStart(2, '0')}:00.123Z`,
    nextPollAt: `2026-03-01T11:${String(minute + 1).padStart(2, '0')}:00.000Z`,
  });
  const running = video('video_running', 10);
  expect(await storage.quota.reserve({ requestId: running.requestId, tokenId, accountId: aliceId, amount: 800_000 })).toEqual({ ok: true });
  await storage.tasks.create({ ...running, quotaReserved: 800_000, status: 'in_progress', progress: 42.5, startedAt: '2026-03-01T11:10:05.000Z' });
  await storage.tasks.claimDue('2026-03-01T11:20:00.000Z', '2026-03-01T11:20:30.000Z', 1);
  const done = await storage.tasks.create(video('video_done', 5));
  await storage.tasks.settle(done.id, {
    status: 'completed',
    progress: 100,
    error: null,
    result: { status: 'completed', id: 'up-video_done', expires_at: 1_800_000_000 },
    units: 4,
    unitVariant: '1792x1024',
    cost: 2_000_000,
    completedAt: '2026-03-01T11:07:00.000Z',
    usage: usageEntry({ createdAt: '2026-03-01T11:07:00.000Z', requestId: done.requestId, tokenId, accountId: aliceId, endpoint: 'videos', units: 4, cost: 2_000_000 }),
  });
  const deleted = await storage.tasks.create(video('video_deleted', 1));
  await storage.tasks.markDeleted(aliceId, deleted.id, '2026-03-01T11:30:00.000Z');
  const song = await storage.tasks.create({
    ...video('task_song', 2),
    kind: 'music',
    accountId: bobId,
    tokenId: null,
    params: { action: 'MUSIC', prompt: 'nul \u0000 inside' },
    result: { z_last: 'first written', a_first: 'second' },
    units: 2,
    unitVariant: null,
  });
  await storage.tasks.update(song.id, { error: { code: 'slow', message: 'still "queued"' }, polls: 3 }, '2026-03-01T11:40:00.000Z');
  return [running.id, done.id, deleted.id, song.id];
}

function storedResponses(accountId: number, tokenId: number, channelId: number): StoredResponseRecord[] {
  const base = {
    accountId,
    tokenId,
    origin: 'bridged' as const,
    channelId: null,
    keyDigest: null,
    model: 'gpt-4o-mini',
    previousResponseId: null,
    status: 'completed',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: LATER,
  };
  return [
    {
      ...base,
      id: 'resp_first',
      // Key order as answered, and prompt text holding U+0000: json columns keep both.
      response: { status: 'completed', id: 'resp_first', object: 'response', output: [{ type: 'message', id: 'msg_out_1', role: 'assistant', content: [] }] },
      inputItems: [{ type: 'message', role: 'user', id: 'msg_in_1', content: [{ type: 'input_text', text: 'nul \u0000 inside' }] }],
    },
    {
      ...base,
      id: 'resp_second',
      previousResponseId: 'resp_first',
      createdAt: '2026-03-01T11:00:00.000Z',
      response: { id: 'resp_second', object: 'response', status: 'completed', output: [{ type: 'function_call', id: 'fc_1', name: 'lookup', arguments: '{"q":"x"}' }] },
      inputItems: [],
    },
    { ...base, id: 'resp_native', origin: 'native', channelId, keyDigest: digestKey('sk-up-a'), response: null, inputItems: null, status: 'in_progress' },
    { ...base, id: 'resp_expired', expiresAt: '2026-03-01T11:59:59.999Z', response: { id: 'resp_expired' }, inputItems: [] },
  ];
}
