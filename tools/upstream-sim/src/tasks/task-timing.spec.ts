import { taskProgress } from './task-clock';
import { readTaskDirectives } from './task-directives';

describe('taskProgress', () => {
  const timing = { submittedAtMs: 10_000, durationMs: 1000 };

  it('is submitted for a tenth, queued until a fifth, running 1–99 %, then ended at 100 %', () => {
    expect(taskProgress(timing, 10_000)).toEqual({ phase: 'submitted', percent: 0, startedAtMs: undefined, endedAtMs: undefined });
    expect(taskProgress(timing, 10_150).phase).toBe('queued');
    expect(taskProgress(timing, 10_200)).toEqual({ phase: 'running', percent: 20, startedAtMs: 10_200, endedAtMs: undefined });
    expect(taskProgress(timing, 10_999).percent).toBe(99);
    expect(taskProgress(timing, 11_000)).toEqual({ phase: 'ended', percent: 100, startedAtMs: 10_200, endedAtMs: 11_000 });
  });

  it('ends at once when the duration is 0', () => {
    expect(taskProgress({ submittedAtMs: 5, durationMs: 0 }, 5).phase).toBe('ended');
  });
});

describe('readTaskDirectives', () => {
  it('reads markers, lets x_sim win, and defaults to succeed', () => {
    expect(readTaskDirectives(undefined, 'a song', 'prompt')).toEqual({ kind: 'directives', directives: { durationMs: undefined, outcome: 'succeed' } });
    expect(readTaskDirectives(undefined, 'x [sim:task_ms=300] [sim:task=FAIL]', 'prompt')).toEqual({
      kind: 'directives',
      directives: { durationMs: 300, outcome: 'fail' },
    });
    expect(readTaskDirectives({ task_ms: '50', task: 'refuse' }, 'x [sim:task_ms=300] [sim:task=fail]', 'prompt')).toEqual({
      kind: 'directives',
      directives: { durationMs: 50, outcome: 'refuse' },
    });
  });

  it('names the field of an invalid directive', () => {
    expect(readTaskDirectives(undefined, '[sim:task=explode]', 'gpt_description_prompt')).toMatchObject({ kind: 'invalid', param: 'gpt_description_prompt' });
    expect(readTaskDirectives(undefined, '[sim:task_ms=soon]', 'prompt')).toMatchObject({ kind: 'invalid', param: 'prompt' });
    expect(readTaskDirectives({ task_ms: 3_600_001 }, '', 'prompt')).toMatchObject({ kind: 'invalid', param: 'x_sim.task_ms' });
    expect(readTaskDirectives({ task: 1 }, '', 'prompt')).toMatchObject({ kind: 'invalid', param: 'x_sim.task' });
  });
});
