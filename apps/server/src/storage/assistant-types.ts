import type { AssistantVisibility, ResponseFormat, Tool } from '@chat-relay/contract';
import type { Page, PageRequest } from './common-types';

export interface AssistantRecord {
  id: string;
  accountId: number;
  name: string;
  description: string;
  instructions: string;
  tools: Tool[];
  temperature: number | null;
  topP: number | null;
  maxTokens: number | null;
  responseFormat: ResponseFormat | null;
  models: string[] | null;
  visibility: AssistantVisibility;
  createdAt: string;
  updatedAt: string;
}
export type NewAssistant = Omit<AssistantRecord, 'createdAt' | 'updatedAt'>;
export type AssistantPatch = Partial<Omit<NewAssistant, 'id' | 'accountId'>>;
/**
 * `takePublicId` (the admin publishing, issue 26): when the written assistant is public and a
 * public one of another account holds the id, that one is made private to its owner first, in
 * the same transaction — so a squatted id is taken back in one step.
 */
export interface AssistantWriteOptions {
  takePublicId?: boolean;
}
export interface AssistantUsageTotals {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
/**
 * Assistants are keyed by owner and id (SPEC §5): a private id is its owner's alone, so another
 * account may hold the same one and learns nothing of it. A public id is unique among public
 * ones; `<family>-gizmo-<id>` means the caller's own assistant first, then the public one.
 */
export interface AssistantStore {
  /**
   * Fails with `AlreadyExistsError` when the owner has the id already, or a public assistant
   * has it (public ones are visible to all, so saying so reveals nothing).
   */
  create(input: NewAssistant, options?: AssistantWriteOptions): Promise<AssistantRecord>;
  /** The account's own assistant with this id. */
  getOwned(accountId: number, id: string): Promise<AssistantRecord | undefined>;
  /** Every assistant with this id, one per owner (the admin's view). */
  findById(id: string): Promise<AssistantRecord[]>;
  /** What the id means for this account: its own assistant, else the public one. */
  resolveFor(accountId: number, id: string): Promise<AssistantRecord | undefined>;
  /** Only this account's assistants when `accountId` is given (account keys see their own only). */
  list(request: PageRequest & { accountId?: number }): Promise<Page<AssistantRecord>>;
  /** Every assistant an account may use: its own, and the public ones its own do not shadow. */
  listUsableBy(accountId: number): Promise<AssistantRecord[]>;
  /** Fails with `AlreadyExistsError` when made public while another public one has the id (unless `takePublicId`). */
  update(accountId: number, id: string, patch: AssistantPatch, options?: AssistantWriteOptions): Promise<AssistantRecord | undefined>;
  delete(accountId: number, id: string): Promise<boolean>;
  /** Requests made with this assistant: its owner's, and others' while it resolved to this one. */
  usageSince(assistant: AssistantRecord, sinceIso: string): Promise<AssistantUsageTotals>;
}
