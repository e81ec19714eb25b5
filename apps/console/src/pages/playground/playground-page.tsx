import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { consoleClient } from '../../api/relay-client';
import { unwrap } from '@chat-relay/client';
import { ErrorNotice } from '../../components/error-notice';
import { TextArea, TextField } from '../../components/field';
import { FormErrors } from '../../components/form-errors';
import { Page } from '../../components/page';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { modelSuggestions } from '../assistants/gizmo-names';
import { ChatLog } from './chat-log';
import { buildChatRequest } from './chat-request';
import { useChatStream, type StreamingClient } from './use-chat-stream';

/** The caller's models and its assistants' gizmo names; the field stays free text when this fails. */
function useModelSuggestions(): string[] {
  const { client } = useSession();
  const loaded = useLoad(async () => {
    const [models, assistants] = await Promise.allSettled([
      client.api.accounts.listCallerModels().then((response) => unwrap(response, 200)),
      client.api.assistants.listAssistants({ query: { page: 1, per_page: 100 } }).then((response) => unwrap(response, 200)),
    ]);
    const modelIds = models.status === 'fulfilled' ? models.value.data.map((model) => model.id) : [];
    return modelSuggestions(modelIds, assistants.status === 'fulfilled' ? assistants.value.data : []);
  }, 'suggestions');
  return loaded.data ?? [];
}

/**
 * Chat with any model or gizmo the caller may use, streamed. It needs an API token (`sk-…`):
 * the management key cannot call `/v1`. The token lives in this component's state only.
 */
export function PlaygroundPage(props: { clientForToken?: (token: string) => StreamingClient }) {
  const clientForToken = props.clientForToken ?? consoleClient;
  const suggestions = useModelSuggestions();
  const listId = useId();
  const chat = useChatStream();
  const [token, setToken] = useState('');
  const [model, setModel] = useState('');
  const [systemPrompt, setSystemPrompt] = useState('');
  const [message, setMessage] = useState('');
  const [toolsJson, setToolsJson] = useState('');
  const [errors, setErrors] = useState<string[]>([]);

  const send = () => {
    if (chat.running) return;
    const built = buildChatRequest({ model, systemPrompt, message, toolsJson }, chat.turns);
    const missing = [...(token.trim() === '' ? ['API token: paste an API token (sk-…); the management key cannot chat'] : []), ...('errors' in built ? built.errors : [])];
    setErrors(missing);
    if (missing.length > 0 || !('request' in built)) return;
    setMessage('');
    void chat.send(clientForToken(token.trim()), built.request, message);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onMessageKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  };

  return (
    <Page title="Playground">
      <form className="panel" aria-label="Chat" onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <TextField
            label="API token"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            hint="An API token (sk-…); kept on this page only, forgotten when you leave it."
          />
          <TextField label="Model" list={listId} autoComplete="off" value={model} onChange={(event) => setModel(event.target.value)} hint="A model or a gizmo name (<family>-gizmo-g-…)." />
          <datalist id={listId}>
            {suggestions.map((suggestion) => (
              <option key={suggestion} value={suggestion} />
            ))}
          </datalist>
        </div>
        <TextArea label="System prompt" value={systemPrompt} onChange={(event) => setSystemPrompt(event.target.value)} />
        <details>
          <summary>Tools</summary>
          <TextArea
            label="Tools (JSON)"
            className="secret-input"
            spellCheck={false}
            value={toolsJson}
            onChange={(event) => setToolsJson(event.target.value)}
            hint='An array of tools, e.g. [{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}]. Calls are shown, not run.'
          />
        </details>
        <TextArea label="Message" value={message} onChange={(event) => setMessage(event.target.value)} onKeyDown={onMessageKey} hint="Ctrl+Enter (⌘+Enter) sends." />
        <FormErrors errors={errors} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={chat.running}>
            Send
          </button>
          <button type="button" disabled={!chat.running} onClick={chat.stop}>
            Stop
          </button>
          <button type="button" disabled={chat.turns.length === 0} onClick={chat.clear}>
            Clear conversation
          </button>
        </div>
      </form>
      <ChatLog turns={chat.turns} running={chat.running} />
      <ErrorNotice error={chat.error} title="The relay refused the message" />
    </Page>
  );
}
