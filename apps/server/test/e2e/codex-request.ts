import { RESPONSES_MODEL } from './responses-e2e';

/**
 * What the Codex CLI sends (codex-rs, `ResponsesApiRequest`): its long system prompt as
 * `instructions`, a developer message (permissions) and user messages (environment, the task),
 * function tools with `strict: false`, no parallel calls, reasoning with a summary, nothing
 * stored — the conversation is resent each turn, with encrypted reasoning asked back — and a
 * `prompt_cache_key` per session. Sent raw with fetch, Bearer key, as Codex does.
 */
export const instructions = [
  'You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user’s computer.',
  '',
  '## General',
  '',
  '- The arguments to `shell` will be passed to execvp(). Most terminal commands should be prefixed with ["bash", "-lc"].',
  '- Always set the `workdir` param when using the shell function. Do not use `cd` unless absolutely necessary.',
  '- When searching for text or files, prefer using `rg` or `rg --files` respectively — `rg` is much faster than alternatives like `grep`.',
  '',
  ...Array.from({ length: 40 }, (_, index) => `- Guideline ${index + 1}: keep edits small, explain “why” in one line, and never revert changes you did not make.`),
  '',
  '## Presenting your work and final message',
  '',
  'You can ask the user to run tests, but only after you’ve run them yourself; say what you could not verify.',
].join('\n');

export const shellTool = {
  type: 'function',
  name: 'shell',
  description: 'Runs a shell command and returns its output.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'array', items: { type: 'string' }, description: 'The command to execute' },
      workdir: { type: 'string', description: 'The working directory to execute the command in' },
      timeout_ms: { type: 'number', description: 'The timeout for the command in milliseconds' },
    },
    required: ['command'],
    additionalProperties: false,
  },
} as const;
export const planTool = {
  type: 'function',
  name: 'update_plan',
  description: 'Updates the task plan.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      explanation: { type: 'string' },
      plan: {
        type: 'array',
        items: { type: 'object', properties: { step: { type: 'string' }, status: { type: 'string', description: 'One of: pending, in_progress, completed' } }, required: ['step', 'status'], additionalProperties: false },
      },
    },
    required: ['plan'],
    additionalProperties: false,
  },
} as const;

export const developerText = '<permissions instructions>\nFilesystem sandboxing: workspace-write. Approvals: on-request.\n</permissions instructions>';
export const environmentText = '<environment_context>\n  <cwd>/home/dev/project</cwd>\n  <shell>bash</shell>\n</environment_context>';
/** The simulator calls every tool whose name's words all appear in the last user text: `shell`, not `update_plan`. */
export const task = 'Use the shell to list the files in this project.';

export const message = (role: 'developer' | 'user', text: string) => ({ type: 'message', role, content: [{ type: 'input_text', text }] });

export const codexRequest = {
  model: RESPONSES_MODEL,
  instructions,
  input: [message('developer', developerText), message('user', environmentText), message('user', task)] as Record<string, unknown>[],
  tools: [shellTool, planTool],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: '0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b',
};
