import { formatCount } from '../../api/format';
import { prettyArguments, type AssembledAnswer, type AssembledToolCall } from './accumulate-chunks';
import type { ChatTurn } from './chat-request';

function ToolCallView(props: { call: AssembledToolCall }) {
  return (
    <figure className="tool-call" data-testid="tool-call">
      <figcaption>
        Tool call <code>{props.call.name || '…'}</code> {props.call.id && <small className="muted">{props.call.id}</small>}
      </figcaption>
      <pre>{prettyArguments(props.call.arguments)}</pre>
    </figure>
  );
}

function AnswerFooter(props: { answer: AssembledAnswer; stopped: boolean; streaming: boolean }) {
  const { answer } = props;
  const parts = [
    answer.model,
    props.stopped ? 'stopped' : props.streaming ? 'streaming…' : answer.finishReason && `finish: ${answer.finishReason}`,
    answer.usage &&
      `Tokens: ${formatCount(answer.usage.prompt_tokens)} prompt · ${formatCount(answer.usage.completion_tokens)} completion · ${formatCount(answer.usage.total_tokens)} total`,
  ].filter(Boolean);
  return <small className="muted">{parts.join(' · ')}</small>;
}

/** The conversation; the last answer grows in place while it streams (a polite live region). */
export function ChatLog(props: { turns: readonly ChatTurn[]; running: boolean }) {
  if (props.turns.length === 0) return null;
  const lastId = props.turns.at(-1)?.id;
  return (
    <ol className="chat-log" aria-label="Conversation">
      {props.turns.map((turn) => {
        if (turn.role === 'user') {
          return (
            <li key={turn.id} className="chat-message" data-role="user">
              {turn.content}
            </li>
          );
        }
        const streaming = props.running && turn.id === lastId;
        return (
          <li key={turn.id} className="chat-message" data-role="assistant" aria-busy={streaming}>
            <div data-testid="assistant-message" aria-live="polite">
              {turn.answer.content}
            </div>
            {turn.answer.refusal && <p className="outcome-bad">Refused: {turn.answer.refusal}</p>}
            {turn.answer.toolCalls.map((call) => (
              <ToolCallView key={call.index} call={call} />
            ))}
            <AnswerFooter answer={turn.answer} stopped={turn.stopped} streaming={streaming} />
          </li>
        );
      })}
    </ol>
  );
}
