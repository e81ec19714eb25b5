import request from 'supertest';
import { AccountCreatedSchema, TokenCreatedSchema, type TokenCreated } from '@chat-relay/contract';
import type { UsageLogEntry } from '../../src/storage/types';
import type { TestRelay } from './test-relay';

/** Shortcuts for HTTP specs of the system API: callers, accounts, tokens and usage rows. */

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export type AccountCreated = ReturnType<typeof AccountCreatedSchema.parse>;

export async function createAccount(relay: TestRelay, body: object): Promise<AccountCreated> {
  const response = await request(relay.app).post('/api/accounts').set(bearer(relay.adminKey)).send(body).expect(201);
  return AccountCreatedSchema.parse(response.body);
}

/** A token created by `managementKey` (the admin's by default). */
export async function createToken(relay: TestRelay, body: object, managementKey = relay.adminKey): Promise<TokenCreated> {
  const response = await request(relay.app).post('/api/tokens').set(bearer(managementKey)).send(body).expect(201);
  return TokenCreatedSchema.parse(response.body);
}

let requestCounter = 0;

/** A usage log row as the relay writes it; no reservation, so the whole cost settles on insert. */
export const usageEntry = (overrides: Partial<UsageLogEntry>): UsageLogEntry => ({
  createdAt: new Date().toISOString(),
  requestId: `req-test-${++requestCounter}`,
  tokenId: null,
  accountId: null,
  endpoint: 'chat',
  units: 0,
  requestedModel: 'gpt-4o',
  upstreamModel: 'gpt-4o-2024-08-06',
  channelId: 1,
  assistantId: null,
  stream: false,
  status: 200,
  errorCode: null,
  promptTokens: 0,
  completionTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  usageEstimated: false,
  cost: 0,
  quotaReserved: 0,
  latencyMs: 12,
  ttfbMs: 7,
  clientIp: '127.0.0.1',
  attempts: 1,
  pricedBy: null,
  ...overrides,
});

export const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString();
