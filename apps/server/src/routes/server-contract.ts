import { cloudMessagesContract, relayContract, type CloudMessagesContract, type RelayContract } from '@chat-relay/contract';
import type { z } from 'zod';
import { isPlainChatRequest } from './plain-chat-request';

/**
 * `schema`, except that `safeParse` first asks `vouch`: a value it vouches for is returned as
 * it is, anything else goes to the schema (which writes the errors). Everything but `safeParse`
 * — what ts-rest calls to validate — is the schema's own, through the prototype.
 */
function prechecked<T extends z.ZodTypeAny>(schema: T, vouch: (value: unknown) => value is z.output<T>): T {
  const safeParse = (data: unknown): z.SafeParseReturnType<z.input<T>, z.output<T>> =>
    vouch(data) ? { success: true, data } : schema.safeParse(data);
  return Object.create(schema, { safeParse: { value: safeParse } }) as T;
}

const chat = relayContract.chat.createChatCompletion;

/**
 * The contract as the server validates requests against it: the same routes and schemas, but
 * the common chat request — text messages, simple parameters — is vouched for by a hand check
 * (plain-chat-request.ts) instead of a zod walk that copies every message; the answer and any
 * error are the same. The published contract and its OpenAPI document are untouched. Claude's
 * cloud APIs (for Claude Code's Bedrock and Vertex modes) are served but not published: no
 * client of the relay's own calls them.
 */
export const serverContract: RelayContract & { cloudMessages: CloudMessagesContract } = {
  ...relayContract,
  cloudMessages: cloudMessagesContract,
  chat: { ...relayContract.chat, createChatCompletion: { ...chat, body: prechecked(chat.body, isPlainChatRequest) } },
};
