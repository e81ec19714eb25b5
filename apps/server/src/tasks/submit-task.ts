import { redactUpstreamError, type EndpointAdapter, type TaskKind } from '@chat-relay/wire';
import type { Request, Response } from 'express';
import { channelKeyDigest, type LiveChannel } from '../channels/channel-registry';
import { runEndpoint, type UsageBound } from '../pipeline/run-endpoint';
import { callerAccountId, traceOf, type PipelineDeps } from '../pipeline/run-pipeline';
import type { TaskRecord, TaskStore } from '../storage/types';
import type { TaskEngine } from './task-engine';
import { newTaskId, taskProviderFor } from './task-kinds';

export interface TaskDeps extends PipelineDeps {
  tasks: TaskStore;
  engine: TaskEngine;
}

/** A task as its route hands it to the pipeline. */
export interface TaskSubmission<Req> {
  kind: TaskKind;
  /** For messages: `/v1/videos`, `/suno/submit/music`. */
  route: string;
  model: string;
  request: Req;
  rawBody?: Buffer;
  /** What is reserved: the units asked for (seconds of video at its size, one song). */
  bound: UsageBound;
  lower: string;
  /** What the task's views show of the request (prompt, size, seconds; the action). */
  params: Record<string, unknown>;
}

/**
 * Submits a task through the one pipeline (policy, gizmo names, the quota reserved for its bound,
 * routing with retries before the upstream accepts it) and stores it with the channel and key that
 * accepted it. The request's usage row becomes the task's: written when the task ends, charged
 * or released then; a submit the upstream refuses is an ordinary failed request with its own row.
 */
export async function submitTask<Req>(deps: TaskDeps, req: Request, res: Response, submission: TaskSubmission<Req>): Promise<TaskRecord> {
  const { kind, bound } = submission;
  let served: { channel: LiveChannel; key: string } | undefined;
  const result = await runEndpoint<Req>(deps, req, res, {
    endpoint: kind === 'video' ? 'videos' : 'music',
    route: submission.route,
    model: submission.model,
    request: submission.request,
    rawBody: submission.rawBody,
    stream: false,
    adapterFor: (type) => taskProviderFor(kind, type)?.submit as EndpointAdapter<Req> | undefined,
    bound: () => bound,
    lower: submission.lower,
    onServed: (answered) => (served = answered),
  });
  const provider = served && taskProviderFor(kind, served.channel.record.type);
  if (!served || !provider || result.kind !== 'json') throw new Error('a task submit was answered without its channel');
  const submitted = provider.readSubmitted(result.body);
  if (!submitted.ok) throw redactUpstreamError(submitted.error, served.channel.record.keys);
  const trace = traceOf(res);
  const caller = res.locals.caller;
  const now = Date.now();
  const task = await deps.tasks.create({
    id: newTaskId(kind),
    kind,
    accountId: callerAccountId(caller),
    tokenId: caller?.kind === 'token' ? caller.token.id : null,
    requestId: trace.requestId,
    channelId: served.channel.id,
    keyDigest: channelKeyDigest(served.key),
    upstreamId: submitted.upstreamId,
    model: submission.model,
    pricedModel: trace.pricedModel ?? submission.model,
    upstreamModel: trace.upstreamModel ?? submission.model,
    status: submitted.snapshot.state,
    progress: submitted.snapshot.progress,
    result: submitted.snapshot.result,
    params: submission.params,
    quotaReserved: trace.quotaReserved,
    units: bound.units,
    unitVariant: bound.unitVariant ?? null,
    clientIp: trace.clientIp,
    createdAt: new Date(now).toISOString(),
    nextPollAt: deps.engine.firstPollAt(now),
  });
  // From here the task owns the reservation and writes the row when it ends.
  trace.deferredToTask = true;
  return task;
}
