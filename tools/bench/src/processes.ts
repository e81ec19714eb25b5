import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A child process the benchmark started, with the tail of what it printed (for diagnosis). */
export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  output(): string;
  exited(): boolean;
}

const children: Child[] = [];
const outputTailBytes = 4000;

/** A port the kernel just handed out on 127.0.0.1 (free now; the child binds it right after). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Starts `node <args>` with extra environment; its output is kept, not shown. */
export function startNode(name: string, args: readonly string[], env: Record<string, string>, cwd?: string): Child {
  const child = spawn(process.execPath, args, {
    cwd,
    // A shell's DATABASE_URL/REDIS_URL (CI sets them) must not move a benchmark onto shared stores: a mode asks for them.
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`${name}: could not start node ${args.join(' ')}`);
  let tail = '';
  let hasExited = false;
  const keep = (data: Buffer): void => {
    tail = (tail + data.toString('utf8')).slice(-outputTailBytes);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => (hasExited = true));
  const started: Child = { name, pid: child.pid, process: child, output: () => tail, exited: () => hasExited };
  children.push(started);
  return started;
}

/** Polls `url` until it answers at all (any status), the child dies, or `timeoutMs` passes. */
export async function waitUntilAnswering(child: Child, url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exited()) throw new Error(`${child.name} exited during start-up:\n${child.output()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms:\n${child.output()}`);
}

function waitForExit(child: Child, timeoutMs: number): Promise<boolean> {
  if (child.exited()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.process.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** SIGTERM to one child (graceful: the relay drains usage, --cpu-prof writes its profile), then SIGKILL. */
export async function stopChild(child: Child, graceMs = 5000): Promise<void> {
  if (child.exited()) return;
  child.process.kill('SIGTERM');
  if (!(await waitForExit(child, graceMs))) {
    child.process.kill('SIGKILL');
    await waitForExit(child, 1000);
  }
}

/** This process and its running children: the CPU the benchmark itself uses. */
export function benchmarkPids(): number[] {
  return [process.pid, ...children.filter((child) => !child.exited()).map((child) => child.pid)];
}

/** Stops every child this process started, each by its own pid. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all(children.splice(0).map((child) => stopChild(child)));
}

/** Last resort on an abrupt exit: no waiting possible, so SIGKILL whatever is still running. */
export function killAllChildrenNow(): void {
  for (const child of children) if (!child.exited()) child.process.kill('SIGKILL');
}
