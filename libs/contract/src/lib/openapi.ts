import { generateOpenApi } from '@ts-rest/open-api';
import { relayContract } from './contract';

let cached: Record<string, unknown> | undefined;

/** The OpenAPI 3 document of the whole contract, generated once per process. */
export function buildOpenApiDocument(version = '0.1.0'): Record<string, unknown> {
  cached ??= generateOpenApi(
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
  return cached;
}
