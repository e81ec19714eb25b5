import { sunoContract, sunoModelOf, type SunoTask } from '@chat-relay/contract';
import { notFound, sunoEnvelope, sunoTaskView, type SunoTaskRequest } from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import { mapBounded } from '../core/map-bounded';
import { callerAccountId } from '../pipeline/run-pipeline';
import type { TaskRecord } from '../storage/types';
import { submitTask, type TaskDeps } from '../tasks/submit-task';

/** Tasks asked of the upstream at once when a caller fetches several. */
const REFRESH_CONCURRENCY = 4;

/**
 * The Suno-style task routes exactly as new-api exposes them (`/suno/submit/:action`,
 * `/suno/fetch`, `/suno/fetch/:id`), over the task engine, to `suno` channels; priced per song
 * task, charged when it completes. Errors are new-api's `{code, message, data}`.
 */
export function sunoRouter(deps: TaskDeps) {
  const view = (task: TaskRecord): SunoTask => sunoTaskView(task) as SunoTask;

  return initServer().router(sunoContract, {
    submitSuno: async ({ params, body, req, res }) => {
      const task = await submitTask<SunoTaskRequest>(deps, req, res, {
        kind: 'music',
        route: `/suno/submit/${params.action}`,
        model: sunoModelOf(params.action),
        request: { action: params.action, body },
        bound: { promptTokens: 0, completionTokens: 0, units: 1 },
        lower: 'nothing to lower: one song task is the least there is',
        params: { action: params.action },
      });
      return { status: 200, body: sunoEnvelope(task.id) };
    },

    fetchSunoTask: async ({ params, res }) => {
      const task = await deps.tasks.get(callerAccountId(res.locals.caller), params.id);
      // new-api's own word for it; another account's task is as unknown as a missing one.
      if (!task || task.kind !== 'music') throw notFound('task_not_exist', `Task '${params.id}' does not exist.`);
      return { status: 200, body: sunoEnvelope(view(await deps.engine.refresh(task))) };
    },

    fetchSunoTasks: async ({ body, res }) => {
      const found = await deps.tasks.getMany(callerAccountId(res.locals.caller), body.ids);
      // Reads of running tasks ask the upstream, a few at a time.
      const byId = new Map((await mapBounded(found.filter((task) => task.kind === 'music'), REFRESH_CONCURRENCY, (task) => deps.engine.refresh(task))).map((task) => [task.id, task]));
      // In the order asked, each once; unknown (or others') ids are left out, as new-api does.
      const tasks = [...new Set(body.ids)].flatMap((id) => {
        const task = byId.get(id);
        return task ? [view(task)] : [];
      });
      return { status: 200, body: sunoEnvelope(tasks) };
    },
  });
}
