import { invalidRequest } from '@chat-relay/wire';

/** A page past the last one is a caller mistake worth saying, not an empty answer. */
export function assertPageInRange(page: number, perPage: number, total: number): void {
  if (page > 1 && (page - 1) * perPage >= total) {
    const last = Math.max(1, Math.ceil(total / perPage));
    throw invalidRequest(`Page ${page} is out of range: there ${last === 1 ? 'is 1 page' : `are ${last} pages`}.`, 'page', 'page_out_of_range');
  }
}
