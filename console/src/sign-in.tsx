// Sign in with the API key: checked against GET /status before it is kept; a wrong key says so.
import { useState } from 'preact/hooks';
import { Api } from './api';
import { saveKey } from './key-store';
import { ErrorText, useAction } from './ui';

/** The sign-in form; `onSignedIn` gets the accepted key. `notice` explains why the user is here (a refused key). */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (key: string) => void; notice: string | null }) {
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const trimmed = key.trim();
      if (!trimmed) throw new Error('Enter the API key that was set for this device.');
      await new Api(trimmed).get('/status');
      saveKey(trimmed, remember);
      onSignedIn(trimmed);
    });
  };
  return (
    <main id="main" class="sign-in">
      <h1>printproxyd</h1>
      <form onSubmit={submit} class="card">
        {notice && <p class="notice">{notice}</p>}
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autocomplete="current-password" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
        <label class="check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} /> Remember on this browser
        </label>
        <button type="submit" disabled={action.busy}>Sign in</button>
        <ErrorText error={action.error} />
      </form>
    </main>
  );
}
