import type { TaskStore } from './task-types';

/** Placeholder until the task stores land (issue 17); every call fails. */
const pending = (): never => {
  throw new Error('task store not implemented yet');
};
export const pendingTaskStore: TaskStore = {
  create: pending,
  get: pending,
  getMany: pending,
  list: pending,
  claimDue: pending,
  countUnsettled: pending,
  update: pending,
  settle: pending,
  markDeleted: pending,
};
