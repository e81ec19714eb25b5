import { tokensContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { notFound } from '../errors/relay-error';
import { digestKey, generateTokenKey, keyHint } from '../security/keys';
import type { TokenStore } from '../storage/types';
import { assertPageInRange } from './paging';
import { tokenView } from './views';

export interface TokenRouteDeps {
  tokens: TokenStore;
}

const tokenNotFound = (id: number) => notFound('token_not_found', `No token with id ${id}.`, 'id');

/** Token administration (admin key). The key is generated here, shown once, stored as a digest. */
export function tokensRouter(deps: TokenRouteDeps) {
  const s = initServer();
  return s.router(tokensContract, {
    listTokens: async ({ query }) => {
      const now = new Date().toISOString();
      const { rows, total } = await deps.tokens.list({ page: query.page, perPage: query.per_page, status: query.status, now });
      assertPageInRange(query.page, query.per_page, total);
      return {
        status: 200,
        body: { data: rows.map((token) => tokenView(token, now)), total, page: query.page, per_page: query.per_page },
      };
    },
    createToken: async ({ body, res }) => {
      const key = generateTokenKey();
      const caller = res.locals.caller;
      if (caller?.kind !== 'admin') throw new Error('createToken reached without an admin caller');
      const accountId = caller.account.id;
      const token = await deps.tokens.create({ accountId, name: body.name, keyDigest: digestKey(key), keyHint: keyHint(key) });
      return { status: 201, body: { ...tokenView(token, new Date().toISOString()), key } };
    },
    getToken: async ({ params }) => {
      const token = await deps.tokens.get(params.id);
      if (!token) throw tokenNotFound(params.id);
      return { status: 200, body: tokenView(token, new Date().toISOString()) };
    },
    deleteToken: async ({ params }) => {
      if (!(await deps.tokens.delete(params.id))) throw tokenNotFound(params.id);
      return { status: 204, body: undefined };
    },
  });
}
