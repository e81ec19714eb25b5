import request from 'supertest';
import { TokenSchema, type Token, type TokenUpdate } from '@chat-relay/contract';
import { bearer } from './system-api';
import type { TestRelay } from './test-relay';

/**
 * `PATCH /api/tokens/{id}` as the admin — token policy set as an operator sets it, through the
 * relay's own stores; fails unless it answers 200, and returns the token as shown.
 */
export async function patchToken(relay: TestRelay, id: number, update: TokenUpdate): Promise<Token> {
  const response = await request(relay.app).patch(`/api/tokens/${id}`).set(bearer(relay.adminKey)).send(update).expect(200);
  return TokenSchema.parse(response.body);
}
