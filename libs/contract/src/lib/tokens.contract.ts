import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import { IdParamSchema } from './schemas/common.schema';
import {
  TokenCreatedSchema,
  TokenCreateSchema,
  TokenListQuerySchema,
  TokenPageSchema,
  TokenSchema,
} from './schemas/token.schema';

const c = initContract();
const admin = meta({ auth: 'admin' });

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
