import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonResponses, meta } from './common-responses';
import { HealthSchema, ReadinessSchema } from './schemas/common.schema';

const c = initContract();
const open = meta({ auth: 'none' });

export const systemContract = c.router(
  {
    health: {
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness: the process serves; reports whether the database and Redis answer (503 when the database does not)',
      responses: { 200: HealthSchema, 503: HealthSchema },
      metadata: open,
    },
    ready: {
      method: 'GET',
      path: '/readyz',
      summary:
        'Readiness for a load balancer: 200 when the database answers, the instance is not shutting down, and Redis answers or limits fail open; 503 with the reasons otherwise',
      responses: { 200: ReadinessSchema, 503: ReadinessSchema },
      metadata: open,
    },
    metrics: {
      method: 'GET',
      path: '/metrics',
      summary:
        'Prometheus metrics (text exposition format 0.0.4): requests, latency, upstream attempts, tokens, cost, streams, circuits, the process; the admin key or RELAY_METRICS_TOKEN',
      responses: { 200: c.otherResponse({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: z.string() }) },
      metadata: meta({ auth: 'metrics' }),
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
