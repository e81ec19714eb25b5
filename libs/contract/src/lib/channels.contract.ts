import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import {
  ChannelCreateSchema,
  ChannelModelSyncSchema,
  ChannelPageSchema,
  ChannelSchema,
  ChannelTestRequestSchema,
  ChannelTestResultSchema,
  ChannelUpdateSchema,
} from './schemas/channel.schema';
import { IdParamSchema, PageQuerySchema } from './schemas/common.schema';

const c = initContract();
const admin = meta({ auth: 'admin' });

export const channelsContract = c.router(
  {
    listChannels: {
      method: 'GET',
      path: '/api/channels',
      query: PageQuerySchema,
      responses: { 200: ChannelPageSchema },
      metadata: admin,
    },
    createChannel: {
      method: 'POST',
      path: '/api/channels',
      body: ChannelCreateSchema,
      responses: { 201: ChannelSchema },
      metadata: admin,
    },
    getChannel: {
      method: 'GET',
      path: '/api/channels/:id',
      pathParams: IdParamSchema,
      responses: { 200: ChannelSchema },
      metadata: admin,
    },
    updateChannel: {
      method: 'PATCH',
      path: '/api/channels/:id',
      pathParams: IdParamSchema,
      body: ChannelUpdateSchema,
      responses: { 200: ChannelSchema },
      metadata: admin,
    },
    /** One real minimal chat request through the channel (SPEC §4). */
    testChannel: {
      method: 'POST',
      path: '/api/channels/:id/test',
      pathParams: IdParamSchema,
      body: ChannelTestRequestSchema,
      responses: { 200: ChannelTestResultSchema },
      metadata: admin,
    },
    /**
     * Fetches the upstream's model list now (SPEC §4): what the channel's globs take of it is
     * listed by `GET /v1/models`. A failure answers 502 with the upstream's reason, keys redacted,
     * and keeps the list synced before.
     */
    syncChannelModels: {
      method: 'POST',
      path: '/api/channels/:id/models/sync',
      pathParams: IdParamSchema,
      body: c.noBody(),
      responses: { 200: ChannelModelSyncSchema },
      metadata: admin,
    },
    deleteChannel: {
      method: 'DELETE',
      path: '/api/channels/:id',
      pathParams: IdParamSchema,
      responses: { 204: c.noBody() },
      metadata: admin,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
