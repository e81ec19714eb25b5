import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { DEFAULT_MODERATION_MODEL, ModerationRequestSchema, type ModerationRequest } from '@chat-relay/contract';
import { sendError } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { openAiError } from '../openai-error';
import { parseOpenAiBody } from '../parse-openai-body';
import { openAiDialect, planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from './endpoint-answer';

/** OpenAI's moderation categories, in the order the API lists them. */
export const moderationCategories = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/instructions',
  'self-harm/intent',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;
type Category = (typeof moderationCategories)[number];

/** The words that flag a text, by category (whole words, any case). */
export const flaggedWords: Readonly<Partial<Record<Category, readonly string[]>>> = {
  hate: ['hate'],
  violence: ['kill', 'murder'],
  'self-harm': ['suicide'],
  harassment: ['idiot'],
};

/** The categories omni models also judge images for. */
const imageCategories = new Set<Category>(['self-harm', 'self-harm/instructions', 'self-harm/intent', 'sexual', 'violence', 'violence/graphic']);

const flaggedScore = 0.95;

/** One item to judge: its text, and whether an image came with it. */
interface ModerationItem {
  text: string;
  hasImage: boolean;
}

function itemsOf(input: ModerationRequest['input']): ModerationItem[] {
  if (typeof input === 'string') return [{ text: input, hasImage: false }];
  if (input.every((item): item is string => typeof item === 'string')) return input.map((text) => ({ text, hasImage: false }));
  // Multi-modal parts are one input: one result for all of them.
  const parts = input.filter((item) => typeof item !== 'string');
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
  return [{ text, hasImage: parts.some((part) => part.type === 'image_url') }];
}

/** A small score, the same for the same text, for a category the text does not touch. */
function quietScore(category: Category, text: string): number {
  const value = createHash('sha256').update(`${category}\n${text}`).digest().readUInt16LE(0);
  return Math.round((value / 65_536) * 0.01 * 1e6) / 1e6;
}

function appliedTypes(category: Category, item: ModerationItem, omni: boolean): string[] {
  const types = item.text.length > 0 || !item.hasImage ? ['text'] : [];
  return omni && item.hasImage && imageCategories.has(category) ? [...types, 'image'] : types;
}

/** One result: categories flagged by `flaggedWords`, the input types each applied to (the OpenAPI description requires them). */
export function moderationResult(item: ModerationItem, omni: boolean): Record<string, unknown> {
  const words = new Set(stripSimMarkers(item.text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const scores = Object.fromEntries(
    moderationCategories.map((category) => {
      const hit = (flaggedWords[category] ?? []).some((word) => words.has(word));
      return [category, hit ? flaggedScore : quietScore(category, item.text)];
    }),
  ) as Record<Category, number>;
  const categories = Object.fromEntries(moderationCategories.map((category) => [category, scores[category] > 0.5]));
  return {
    flagged: Object.values(categories).some((value) => value === true),
    categories,
    category_scores: scores,
    category_applied_input_types: Object.fromEntries(moderationCategories.map((category) => [category, appliedTypes(category, item, omni)])),
  };
}

/**
 * POST /v1/moderations: one result per text (one for a list of multi-modal parts, images
 * accepted), flagged when a word of `flaggedWords` is in it.
 */
export async function handleModerations(res: ServerResponse, rawBody: string, context: EndpointFaultContext): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, ModerationRequestSchema);
  if (!request) return;
  const items = itemsOf(request.input);
  const planned = planEndpointCall(request['x_sim'], items.map((item) => item.text).join('\n'), 'input', context);
  if (planned.kind === 'invalid') {
    sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
    return;
  }
  const model = request.model ?? DEFAULT_MODERATION_MODEL;
  const omni = !model.startsWith('text-moderation');
  const digest = createHash('sha256').update(JSON.stringify([model, request.input])).digest('hex');
  const body = { id: `modr-sim${digest.slice(0, 24)}`, model, results: items.map((item) => moderationResult(item, omni)) };
  await sendEndpointAnswer(res, planned.plan, openAiDialect, { body: JSON.stringify(body), work: 1 });
}
