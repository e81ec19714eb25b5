import type { RelayClient } from '@chat-relay/client';
import type { ChatCompletionRequest } from '@chat-relay/contract';
import { useCallback, useRef, useState } from 'react';
import { accumulateChunk, emptyAnswer } from './accumulate-chunks';
import type { ChatTurn } from './chat-request';

export type StreamingClient = Pick<RelayClient, 'streamChatCompletion'>;

/**
 * The conversation and the answer streaming into it: `send` appends the user's turn and an
 * assistant turn that grows chunk by chunk; `stop` aborts the request and keeps what came.
 */
export function useChatStream() {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();
  const controller = useRef<AbortController | null>(null);
  const nextId = useRef(1);

  const send = useCallback(async (client: StreamingClient, request: ChatCompletionRequest, userText: string) => {
    const current = new AbortController();
    controller.current = current;
    const userId = nextId.current++;
    const answerId = nextId.current++;
    let answer = emptyAnswer();
    const showAnswer = (stopped: boolean) =>
      setTurns((previous) => previous.map((turn) => (turn.id === answerId ? { id: answerId, role: 'assistant', answer, stopped } : turn)));
    setTurns((previous) => [...previous, { id: userId, role: 'user', content: userText }, { id: answerId, role: 'assistant', answer, stopped: false }]);
    setRunning(true);
    setError(undefined);
    try {
      for await (const chunk of client.streamChatCompletion(request, { signal: current.signal })) {
        answer = accumulateChunk(answer, chunk);
        showAnswer(false);
      }
    } catch (failure) {
      if (current.signal.aborted) showAnswer(true);
      else setError(failure);
    } finally {
      // An answer that never started (refused before any chunk) leaves no empty bubble behind.
      if (answer.content === '' && answer.refusal === '' && answer.toolCalls.length === 0 && !current.signal.aborted) {
        setTurns((previous) => previous.filter((turn) => turn.id !== answerId));
      }
      if (controller.current === current) {
        controller.current = null;
        setRunning(false);
      }
    }
  }, []);

  const stop = useCallback(() => controller.current?.abort(), []);
  const clear = useCallback(() => {
    controller.current?.abort();
    setTurns([]);
    setError(undefined);
  }, []);

  return { turns, running, error, send, stop, clear };
}
