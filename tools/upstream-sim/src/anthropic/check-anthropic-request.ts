import type { ZodType, ZodTypeDef } from 'zod';
import { dottedPath, firstIssue } from '../zod-issues';
import type { AnthropicPrompt } from './anthropic-api';
import { checkAnthropicConversation, checkTextBlocks, type ConversationProblem } from './check-anthropic-conversation';
import { checkAnthropicThinking } from './check-anthropic-thinking';
import { checkBreakpointCount, promptSegments, type PromptSegment } from './prompt-segments';

export type ParsedBody<T> = { ok: true; value: T } | { ok: false; message: string };

/** The body parsed by `schema`, or the 400 message the API would write (`field.path: what`). */
export function parseAnthropicBody<T>(rawBody: string, schema: ZodType<T, ZodTypeDef, unknown>): ParsedBody<T> {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ok: false, message: 'There was an issue with your request body: it is not valid JSON.' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = firstIssue(parsed.error);
  return { ok: false, message: `${dottedPath(issue.path)}: ${issue.missing ? 'Field required' : issue.message}` };
}

export type CheckedPrompt = { ok: true; segments: PromptSegment[] } | { ok: false; message: string };

/**
 * The rules a well-formed prompt can still break, shared by messages and count_tokens: blank
 * system or message text, the conversation's shape, thinking (budget against `maxTokens`,
 * undefined for count_tokens; signatures), and at most four cache breakpoints.
 */
export function checkAnthropicPrompt(prompt: AnthropicPrompt, maxTokens: number | undefined): CheckedPrompt {
  const system = typeof prompt.system === 'string' ? [] : (prompt.system ?? []);
  const problem: ConversationProblem =
    checkTextBlocks('system', system) ??
    checkAnthropicConversation(prompt.messages) ??
    checkAnthropicThinking(prompt, maxTokens);
  if (problem) return { ok: false, message: problem };
  const segments = promptSegments(prompt);
  const tooMany = checkBreakpointCount(segments);
  return tooMany ? { ok: false, message: tooMany } : { ok: true, segments };
}
