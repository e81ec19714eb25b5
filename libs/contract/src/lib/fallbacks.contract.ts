import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import { IdParamSchema } from './schemas/common.schema';
import { FallbackRuleCreateSchema, FallbackRuleListSchema, FallbackRuleSchema, FallbackRuleUpdateSchema } from './schemas/fallback.schema';

const c = initContract();
const admin = meta({ auth: 'admin' });

/** Admin-defined fallback chains across models (issue 32). */
export const fallbacksContract = c.router(
  {
    listFallbackRules: { method: 'GET', path: '/api/fallbacks', responses: { 200: FallbackRuleListSchema }, metadata: admin },
    createFallbackRule: { method: 'POST', path: '/api/fallbacks', body: FallbackRuleCreateSchema, responses: { 201: FallbackRuleSchema }, metadata: admin },
    getFallbackRule: { method: 'GET', path: '/api/fallbacks/:id', pathParams: IdParamSchema, responses: { 200: FallbackRuleSchema }, metadata: admin },
    updateFallbackRule: {
      method: 'PATCH',
      path: '/api/fallbacks/:id',
      pathParams: IdParamSchema,
      body: FallbackRuleUpdateSchema,
      responses: { 200: FallbackRuleSchema },
      metadata: admin,
    },
    deleteFallbackRule: {
      method: 'DELETE',
      path: '/api/fallbacks/:id',
      pathParams: IdParamSchema,
      responses: { 204: c.noBody() },
      metadata: admin,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
