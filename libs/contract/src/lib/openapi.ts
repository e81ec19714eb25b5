import { generateOpenApi } from '@ts-rest/open-api';
import { relayContract } from './contract';

const cache = new Map<string, Record<string, unknown>>();

/** The OpenAPI 3 document of the whole contract, generated once per process. */
export function buildOpenApiDocument(version = '0.1.0'): Record<string, unknown> {
  const cached = cache.get(version);
  if (cached) return cached;
  const document = generateOpenApi(
    relayContract,
    {
      info: {
        title: 'chat-relay',
        version,
        description: 'OpenAI-compatible LLM relay: chat completions, models, channels and tokens.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    { setOperationId: true },
  ) as unknown as Record<string, unknown>;
  cache.set(version, document);
  return document;
}
