import { argumentsFromSchema, argumentsJsonFromSchema, commandLineOf } from './args-from-schema';

describe('argumentsFromSchema', () => {
  it('fills every property, required or not, from its type', () => {
    const args = argumentsFromSchema({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 3 },
        ratio: { type: 'number' },
        detailed: { type: 'boolean' },
      },
      required: ['city'],
    });
    expect(args).toEqual({ city: 'city value', unit: 'celsius', days: 3, ratio: 1, detailed: true });
  });

  it('recurses into nested objects and arrays', () => {
    const args = argumentsFromSchema({
      type: 'object',
      properties: {
        filter: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'string' } }, level: { enum: [2, 5] } },
        },
        points: { type: 'array', items: { type: 'object', properties: { x: { type: 'number', minimum: -4 } } } },
      },
    });
    expect(args).toEqual({ filter: { tags: ['tags value'], level: 2 }, points: [{ x: -4 }] });
  });

  it('uses the first non-null type of a type list and the first anyOf option', () => {
    const args = argumentsFromSchema({
      type: 'object',
      properties: { note: { type: ['null', 'string'] }, limit: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
    });
    expect(args).toEqual({ note: 'note value', limit: 1 });
  });

  it('gives "{}" for no parameters and for an object without properties, never ""', () => {
    expect(argumentsJsonFromSchema(undefined)).toBe('{}');
    expect(argumentsJsonFromSchema({ type: 'object', properties: {} })).toBe('{}');
  });

  it('is deterministic', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } } };
    expect(argumentsJsonFromSchema(schema)).toBe(argumentsJsonFromSchema(structuredClone(schema)));
    expect(JSON.parse(argumentsJsonFromSchema(schema))).toEqual({ q: 'q value', n: 1 });
  });
});

describe('a shell tool runs the command line the user asked for (the agents suite, issue 29)', () => {
  it('reads the first backticked text of the message', () => {
    expect(commandLineOf('Use the shell tool to run `echo relay-ok` please')).toBe('echo relay-ok');
    expect(commandLineOf('no command here')).toBeUndefined();
  });

  it('gives it to `command` / `cmd` as a string, or as bash -lc for an argv array; without a command, every property as before', () => {
    // Only what the tool requires besides the command: Claude Code's Bash would run it in the background otherwise.
    const bash = { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' }, run_in_background: { type: 'boolean' } }, required: ['command'] };
    expect(argumentsFromSchema(bash, 'echo hi')).toEqual({ command: 'echo hi' });
    const codex = { type: 'object', properties: { cmd: { type: 'string' }, workdir: { type: 'string' } }, required: ['cmd', 'workdir'] };
    expect(argumentsFromSchema(codex, 'echo hi')).toEqual({ cmd: 'echo hi', workdir: 'workdir value' });
    const argv = { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } };
    expect(argumentsFromSchema(argv, 'echo hi')).toEqual({ command: ['bash', '-lc', 'echo hi'] });
    expect(argumentsFromSchema(bash)).toEqual({ command: 'command value', description: 'description value', run_in_background: true });
  });
});
