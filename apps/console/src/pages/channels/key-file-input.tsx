import { useState } from 'react';
import { TextField } from '../../components/field';
import { keyFromFile } from './channel-key-text';

/**
 * Adds a key from a `.json` key file (a Vertex service account's, an Azure Entra service
 * principal's) to the Keys field, on a line of its own, compacted to one line. Says which file it
 * read, never what is in it.
 */
export function KeyFileInput(props: { onRead: (key: string) => void }) {
  const [status, setStatus] = useState('');
  const read = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    try {
      props.onRead(keyFromFile(await file.text()));
      setStatus(`Added the key in ${file.name}.`);
    } catch {
      setStatus(`Could not read ${file.name}.`);
    }
    // The same file chosen again (after clearing the keys) is read again.
    input.value = '';
  };
  return (
    <div>
      <TextField label="Add a key file (.json)" type="file" accept="application/json,.json" onChange={(event) => void read(event.target)} />
      <p role="status" className="muted">
        {status}
      </p>
    </div>
  );
}
