import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonResponses, meta } from './common-responses';
import { HealthSchema } from './schemas/common.schema';

const c = initContract();
const open = meta({ auth: 'none' });

export const systemContract = c.router(
  {
    health: {
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness: the process serves and its storage answers',
      responses: { 200: HealthSchema },
      metadata: open,
    },
    openApi: {
      method: 'GET',
      path: '/openapi.json',
      summary: 'The OpenAPI document generated from this contract',
      responses: { 200: z.record(z.unknown()) },
      metadata: open,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
