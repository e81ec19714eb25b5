import type { ListedItem, ResponseBody } from './responses-wire';

/** One stored response: what `GET`, `input_items` and `previous_response_id` read. */
export interface StoredResponse {
  response: ResponseBody;
  /** The request's own input items, with ids (`input_items`). */
  inputItems: ListedItem[];
  /** The whole conversation up to and including this response's output: what a follow-up continues. */
  conversation: ListedItem[];
  /** Set while a background response is queued: the timer that completes it. */
  pending?: { timer: NodeJS.Timeout };
}

/** Enough for any test; the oldest response is forgotten past it so a long benchmark stays bounded. */
const maxStoredResponses = 10_000;

/** The simulator's memory of `store: true` responses (OpenAI keeps them for 30 days; this, until reset). */
export class ResponseStore {
  private readonly responses = new Map<string, StoredResponse>();

  get(id: string): StoredResponse | undefined {
    return this.responses.get(id);
  }

  save(stored: StoredResponse): void {
    this.responses.set(stored.response.id, stored);
    if (this.responses.size <= maxStoredResponses) return;
    const oldest = this.responses.keys().next().value;
    if (oldest !== undefined) this.delete(oldest);
  }

  delete(id: string): boolean {
    const stored = this.responses.get(id);
    if (stored?.pending) clearTimeout(stored.pending.timer);
    return this.responses.delete(id);
  }

  /** An item of any stored conversation (`item_reference`). */
  findItem(id: string): ListedItem | undefined {
    for (const stored of this.responses.values()) {
      const found = stored.conversation.find((item) => item.id === id);
      if (found) return found;
    }
    return undefined;
  }

  /** Forgets everything and stops the timers of queued background responses. */
  clear(): void {
    for (const stored of this.responses.values()) if (stored.pending) clearTimeout(stored.pending.timer);
    this.responses.clear();
  }
}
