import { z } from 'zod';
import { sunoProvider as sunoTasks } from '../tasks/suno-provider';
import { type ChannelProvider } from './channel-provider';
import { sunoAuthHeaders } from './provider-auth';

export { sunoAuthHeaders };

/** new-api's TaskResponse: `code` "success" is how its Suno adaptor tells a good answer. */
const SunoAnswerSchema = z.object({ code: z.literal('success') });

/** A Suno-style music API (new-api's `/suno` routes): music as tasks, submitted and fetched. */
export const sunoProvider: ChannelProvider = {
  tasks: { music: sunoTasks },
  // No ids: nothing is fetched or charged, but the key is checked.
  probe: {
    name: 'POST /suno/fetch',
    method: 'POST',
    url: (baseUrl) => `${baseUrl}/suno/fetch`,
    headers: (key) => ({ ...sunoAuthHeaders(key), accept: 'application/json', 'content-type': 'application/json' }),
    body: { ids: [] },
    isAnswer: (answer) => SunoAnswerSchema.safeParse(answer).success,
  },
};
