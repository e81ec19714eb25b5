import request from 'supertest';
import { TokenPageSchema, TokenSchema, type Token, type TokenUpdate } from '@chat-relay/contract';
import { keyHint } from '../security/keys';
import { bearer } from './system-api';
import type { TestRelay } from './test-relay';

/** Token policy set as an operator sets it: over the admin API, through the relay's own stores. */

/** `PATCH /api/tokens/{id}` as the admin; fails unless it answers 200, and returns the token as shown. */
export async function patchToken(relay: TestRelay, id: number, update: TokenUpdate): Promise<Token> {
  const response = await request(relay.app).patch(`/api/tokens/${id}`).set(bearer(relay.adminKey)).send(update).expect(200);
  return TokenSchema.parse(response.body);
}

/** The id of the token whose key is `key`, found by its hint through `GET /api/tokens/search`. */
export async function tokenIdOf(relay: TestRelay, key: string): Promise<number> {
  const hint = keyHint(key);
  const response = await request(relay.app)
    .get('/api/tokens/search')
    .query({ q: hint, per_page: 100 })
    .set(bearer(relay.adminKey))
    .expect(200);
  // The search ignores case, and a hint is only four characters: insist on one exact match.
  const matches = TokenPageSchema.parse(response.body).data.filter((token) => token.key_hint === hint);
  const [match] = matches;
  if (!match || matches.length > 1) throw new Error(`tokenIdOf: ${matches.length} tokens with the hint ${hint}`);
  return match.id;
}
