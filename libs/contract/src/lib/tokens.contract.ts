import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import { IdParamSchema } from './schemas/common.schema';
import {
  TokenBatchResultSchema,
  TokenBatchSchema,
  TokenCreatedSchema,
  TokenCreateSchema,
  TokenListQuerySchema,
  TokenPageSchema,
  TokenSchema,
  TokenSearchQuerySchema,
  TokenUpdateSchema,
  TokenUsageQuerySchema,
  TokenUsageSchema,
} from './schemas/token.schema';

const c = initContract();
// The admin key reaches every token; an account's access key only its own.
const admin = meta({ auth: 'management' });

export const tokensContract = c.router(
  {
    listTokens: {
      method: 'GET',
      path: '/api/tokens',
      query: TokenListQuerySchema,
      responses: { 200: TokenPageSchema },
      metadata: admin,
    },
    createToken: {
      method: 'POST',
      path: '/api/tokens',
      body: TokenCreateSchema,
      responses: { 201: TokenCreatedSchema },
      metadata: admin,
    },
    // Fixed paths before /:id, which would otherwise take 'search' and 'batch' as ids.
    searchTokens: {
      method: 'GET',
      path: '/api/tokens/search',
      query: TokenSearchQuerySchema,
      responses: { 200: TokenPageSchema },
      metadata: admin,
    },
    batchTokens: {
      method: 'POST',
      path: '/api/tokens/batch',
      body: TokenBatchSchema,
      responses: { 200: TokenBatchResultSchema },
      metadata: admin,
    },
    getTokenUsage: {
      method: 'GET',
      path: '/api/tokens/:id/usage',
      pathParams: IdParamSchema,
      query: TokenUsageQuerySchema,
      responses: { 200: TokenUsageSchema },
      metadata: admin,
    },
    updateToken: {
      method: 'PATCH',
      path: '/api/tokens/:id',
      pathParams: IdParamSchema,
      body: TokenUpdateSchema,
      responses: { 200: TokenSchema },
      metadata: admin,
    },
    getToken: {
      method: 'GET',
      path: '/api/tokens/:id',
      pathParams: IdParamSchema,
      responses: { 200: TokenSchema },
      metadata: admin,
    },
    deleteToken: {
      method: 'DELETE',
      path: '/api/tokens/:id',
      pathParams: IdParamSchema,
      responses: { 204: c.noBody() },
      metadata: admin,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
