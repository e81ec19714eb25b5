import type { GeminiGenerateContentRequest } from '@chat-relay/contract';
import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import { GEMINI_TO_CHAT } from '../gemini-bridge-losses';

/**
 * Gemini CLI (0.61, and reported since 0.1: gemini-cli #3814, #5443, #16543, #21830) sends a
 * turn's functionResponse twice when it resumes a session; Gemini itself then refuses every
 * later request of the session ("Please ensure that the number of function response parts is
 * equal to the number of function call parts of the function call turn."), and so would a
 * bridge. A repeat — the same call id answered again in the same turn, or without ids the same
 * name with the same response — is left out, on every channel; the body is the caller's own
 * object when there is none (the common case: nothing copied).
 */
export function dropRepeatedFunctionResponses(body: GeminiGenerateContentRequest): { body: GeminiGenerateContentRequest; dropped: Adjustment[] } {
  const dropped: Adjustment[] = [];
  const contents = body.contents.map((content, contentIndex) => {
    const responses = content.parts.filter((part) => part.functionResponse !== undefined);
    if (responses.length < 2) return content;
    const seen = new Set<string>();
    const parts = content.parts.filter((part, partIndex) => {
      const response = part.functionResponse;
      if (!response) return true;
      const key = response.id ? `id:${response.id}` : `name:${response.name}:${JSON.stringify(response.response)}`;
      if (!seen.has(key)) {
        seen.add(key);
        return true;
      }
      dropped.push(lossOf(GEMINI_TO_CHAT.rules.repeatedResponse, { field: `contents[${contentIndex}].parts[${partIndex}].functionResponse` }));
      return false;
    });
    return parts.length === content.parts.length ? content : { ...content, parts };
  });
  return dropped.length === 0 ? { body, dropped } : { body: { ...body, contents }, dropped };
}
