import { initContract } from '@ts-rest/core';
import { accountsContract } from './accounts.contract';
import { assistantsContract } from './assistants.contract';
import { catalogueContract } from './catalogue.contract';
import { channelsContract } from './channels.contract';
import { chatContract } from './chat.contract';
import { endpointsContract } from './endpoints.contract';
import { fallbacksContract } from './fallbacks.contract';
import { geminiContract } from './gemini.contract';
import { messagesContract } from './messages.contract';
import { responsesContract } from './responses.contract';
import { systemContract } from './system.contract';
import { sunoContract, videosContract } from './tasks.contract';
import { tokensContract } from './tokens.contract';
import { webhooksContract } from './webhooks.contract';

const c = initContract();

/** The whole HTTP surface of chat-relay: the server implements it, the client is made from it. */
export const relayContract = c.router({
  chat: chatContract,
  messages: messagesContract,
  responses: responsesContract,
  gemini: geminiContract,
  endpoints: endpointsContract,
  videos: videosContract,
  suno: sunoContract,
  channels: channelsContract,
  tokens: tokensContract,
  assistants: assistantsContract,
  accounts: accountsContract,
  catalogue: catalogueContract,
  system: systemContract,
  fallbacks: fallbacksContract,
  webhooks: webhooksContract,
});
export type RelayContract = typeof relayContract;
