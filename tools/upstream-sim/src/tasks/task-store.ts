/** Enough for any test run or benchmark; the oldest tasks go first beyond it. */
const maxTasks = 10_000;

/** The tasks of one kind an instance knows, in the order they were submitted. */
export class TaskStore<Task extends { id: string }> {
  private readonly tasks = new Map<string, Task>();

  put(task: Task): void {
    this.tasks.set(task.id, task);
    if (this.tasks.size > maxTasks) {
      const oldest = this.tasks.keys().next().value;
      if (oldest !== undefined) this.tasks.delete(oldest);
    }
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  delete(id: string): boolean {
    return this.tasks.delete(id);
  }

  /** Oldest first. */
  all(): Task[] {
    return [...this.tasks.values()];
  }

  clear(): void {
    this.tasks.clear();
  }
}
