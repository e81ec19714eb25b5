import { isAppRoute, isAppRouteOtherResponse, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { generateOpenApi as GenerateOpenApi } from '@ts-rest/open-api';
import type { RouteMetadata } from './common-responses';
import { relayContract } from './contract';

/**
 * Gemini's methods share one path (`{model}:{method}`), which OpenAPI would document once: each
 * route of a single method is given a path of its own here (`…/{target}/~method`), written back
 * as `…/{target}:method` once generated (the generator reads `:name` as a parameter).
 */
const METHOD_MARK = '/~';

/**
 * The contract as the OpenAPI generator should see it: a response declared with
 * `c.otherResponse` (JSON sent pre-serialised) documented by its body schema, which the
 * generator would otherwise leave out.
 */
function documentedRoutes(router: AppRouter): AppRouter {
  const out: AppRouter = {};
  for (const [key, entry] of Object.entries(router)) {
    if (!isAppRoute(entry)) {
      out[key] = documentedRoutes(entry);
      continue;
    }
    const responses: AppRoute['responses'] = {};
    for (const [status, response] of Object.entries(entry.responses)) {
      responses[Number(status)] = isAppRouteOtherResponse(response) && response.contentType === 'application/json' ? response.body : response;
    }
    const methods = (entry.metadata as RouteMetadata | undefined)?.geminiMethods;
    const path = methods?.length === 1 ? `${entry.path}${METHOD_MARK}${methods[0]}` : entry.path;
    out[key] = { ...entry, path, responses };
  }
  return out;
}

/** The generated paths with each Gemini method back after its colon. */
function withGeminiMethods(document: Record<string, unknown>): Record<string, unknown> {
  const paths = document['paths'] as Record<string, unknown>;
  const renamed = Object.fromEntries(Object.entries(paths).map(([path, item]) => [path.replace(METHOD_MARK, ':'), item]));
  return { ...document, paths: renamed };
}

const cache = new Map<string, Record<string, unknown>>();

/** The OpenAPI 3 document of the whole contract, generated once per process. */
export function buildOpenApiDocument(version = '0.1.0'): Record<string, unknown> {
  const cached = cache.get(version);
  if (cached) return cached;
  // Required here, not imported: the generator (with @anatine/zod-openapi, ~0.7 MB of heap) is
  // loaded when the document is first asked for, not by every process that imports the contract.
  const { generateOpenApi } = require('@ts-rest/open-api') as { generateOpenApi: typeof GenerateOpenApi };
  const document = generateOpenApi(
    documentedRoutes(relayContract),
    {
      info: {
        title: 'chat-relay',
        version,
        description:
          'OpenAI-compatible LLM relay: chat completions, the Responses API, the Anthropic Messages API, the Gemini API, embeddings, images, audio, video and music generation as tasks (submit, poll, fetch), web search, models, channels and tokens.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          googApiKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key' },
          googKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
        },
      },
      security: [{ bearer: [] }],
    },
    {
      setOperationId: true,
      // Anthropic clients send their key as `x-api-key` (Claude Code and the SDKs may also use Bearer).
      // Google's SDKs send theirs as `x-goog-api-key`, Google's examples as `?key=`.
      operationMapper: (operation, route) => {
        const dialect = (route.metadata as RouteMetadata | undefined)?.dialect;
        if (dialect === 'anthropic') return { ...operation, security: [{ bearer: [] }, { apiKey: [] }] };
        if (dialect === 'gemini') return { ...operation, security: [{ bearer: [] }, { googApiKey: [] }, { googKeyQuery: [] }] };
        return operation;
      },
    },
  ) as unknown as Record<string, unknown>;
  const documented = withGeminiMethods(document);
  cache.set(version, documented);
  return documented;
}
