import { geminiContract, parseGeminiTarget, type ChatCompletionRequest, type GeminiGenerateContentResponse } from '@chat-relay/contract';
import { convertGenerateContentToChat, geminiNativeAdapter, inspectGenerateContentRequest, invalidRequest, nativeChannelType } from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import { applyAssistantToGemini } from '../dialects/gemini/apply-assistant-to-gemini';
import { geminiDialect, unknownGeminiMethod } from '../dialects/gemini/gemini-dialect';
import { runPipeline, type PipelineDeps } from '../pipeline/run-pipeline';
import { relayAnswer } from './relay-answer';

/**
 * Hub fields a Gemini request sends as hints: a thinking budget or level. A channel whose
 * converter cannot express one (an effort it has no mapping for) refuses it by name, and it is then
 * left out for that channel (named in `x-relay-adjusted`) rather than failing a request Gemini
 * itself would have served. The rest of a bridged Gemini request is covered the same way
 * without being listed here (issue 28): what the upstream model does not take is left out up
 * front from the catalogue (OpenAI's models take no topK, gpt-4o no thinking, Claude 4.5 not
 * topP with temperature), and a parameter the upstream itself refuses by name is left out and
 * the request sent once more. topK is no hint any more: Anthropic and Gemini take it.
 */
const GEMINI_HINTS: readonly (keyof ChatCompletionRequest)[] = ['reasoning_effort'];

/**
 * `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent` (the Gemini API, for
 * `@google/genai` and Google's other SDKs), on the one pipeline: to `gemini` channels the request
 * passes through as sent (the model in the URL mapped), to the others it is bridged through the hub.
 * A stream is server-sent events with `?alt=sse` (what the SDKs send), else a JSON array, as Google
 * streams it.
 */
export function geminiRouter(deps: PipelineDeps) {
  const s = initServer();
  return s.router(geminiContract, {
    generateContent: async ({ params, query, body, req, res }) => {
      const target = parseGeminiTarget(params.target);
      if (!target) throw unknownGeminiMethod(params.target);
      const stream = target.method === 'streamGenerateContent';
      const alt = query.alt ?? 'json';
      if (alt !== 'json' && alt !== 'sse') {
        throw invalidRequest(`alt=${alt} is not served: answers come as JSON (alt=json, the default) or server-sent events (alt=sse).`, 'alt', 'unsupported_value');
      }
      const converted = convertGenerateContentToChat({ body, model: target.model, stream });
      const result = await runPipeline(deps, req, res, {
        request: converted.request,
        dialect: geminiDialect({ includeThoughts: converted.includeThoughts, sse: alt === 'sse' }),
        native: {
          channelType: nativeChannelType('generate_content'),
          adapter: geminiNativeAdapter,
          body,
          rawBody: res.locals.rawBody,
          headers: {},
          inspect: inspectGenerateContentRequest,
          applyAssistant: (assistant) => applyAssistantToGemini(assistant, body),
        },
        nativeOnly: converted.nativeOnly,
        bridgeWarnings: converted.warnings,
        hooks: { advisory: GEMINI_HINTS },
      });
      const answer = relayAnswer<GeminiGenerateContentResponse>(res, result);
      // Without alt=sse a stream is one JSON array, written as it grows.
      if (result.kind === 'stream' && alt === 'json') res.setHeader('content-type', 'application/json; charset=utf-8');
      return answer;
    },
  });
}
