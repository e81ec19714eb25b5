import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonResponses, meta } from './common-responses';
import {
  AssistantCreateSchema,
  AssistantIdSchema,
  AssistantPageSchema,
  AssistantSchema,
  AssistantUpdateSchema,
  AssistantWithUsageSchema,
} from './schemas/assistant.schema';
import { PageQuerySchema } from './schemas/common.schema';

const c = initContract();
// The admin key reaches every assistant and alone publishes; an account's access key only its own, private.
const admin = meta({ auth: 'management' });
const AssistantIdParamSchema = z.object({ id: AssistantIdSchema });
/** Private ids are per account: the admin names the owner when several accounts hold the id. */
const AssistantOwnerQuerySchema = z.object({ account_id: z.coerce.number().int().min(1).optional() });

/** Custom assistants (SPEC §5), chatted with as `<family>-gizmo-<id>`. */
export const assistantsContract = c.router(
  {
    listAssistants: {
      method: 'GET',
      path: '/api/assistants',
      query: PageQuerySchema,
      responses: { 200: AssistantPageSchema },
      metadata: admin,
    },
    createAssistant: {
      method: 'POST',
      path: '/api/assistants',
      body: AssistantCreateSchema,
      responses: { 201: AssistantSchema },
      metadata: admin,
    },
    getAssistant: {
      method: 'GET',
      path: '/api/assistants/:id',
      pathParams: AssistantIdParamSchema,
      query: AssistantOwnerQuerySchema,
      responses: { 200: AssistantWithUsageSchema },
      metadata: admin,
    },
    updateAssistant: {
      method: 'PATCH',
      path: '/api/assistants/:id',
      pathParams: AssistantIdParamSchema,
      query: AssistantOwnerQuerySchema,
      body: AssistantUpdateSchema,
      responses: { 200: AssistantSchema },
      metadata: admin,
    },
    deleteAssistant: {
      method: 'DELETE',
      path: '/api/assistants/:id',
      pathParams: AssistantIdParamSchema,
      query: AssistantOwnerQuerySchema,
      responses: { 204: c.noBody() },
      metadata: admin,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
