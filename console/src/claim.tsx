// The one-time "Set the API key" page of a device without a key: POST /setup, then signed in with the key chosen.
import { useState } from 'preact/hooks';
import { ApiError, claimDevice } from './api';
import { saveKey } from './key-store';
import { ErrorText, useAction } from './ui';

/** What the device accepts as a key: 16 to 256 visible ASCII characters (it travels in a header). */
const KEY_RULE = /^[!-~]{16,256}$/;

/** The claim form; `onClaimed` gets the key once the device stored it, `onAlreadySetUp` runs when another client was first. */
export function Claim({ onClaimed, onAlreadySetUp }: { onClaimed: (key: string) => void; onAlreadySetUp: () => void }) {
  const [key, setKey] = useState('');
  const [again, setAgain] = useState('');
  const [remember, setRemember] = useState(false);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      if (!KEY_RULE.test(key)) throw new Error('The key needs at least 16 characters: letters, digits and punctuation, without spaces.');
      if (key !== again) throw new Error('The two keys differ: type the same key twice.');
      try {
        await claimDevice(key);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) return onAlreadySetUp();
        throw err;
      }
      saveKey(key, remember);
      onClaimed(key);
    });
  };
  return (
    <main id="main" class="sign-in">
      <h1>Set the API key</h1>
      <form onSubmit={submit} class="card">
        <p>This device has no API key yet. Choose one: this console and every app that prints through the device will use it. Keep it somewhere safe.</p>
        <label for="new-api-key">New API key (at least 16 characters)</label>
        <input id="new-api-key" type="password" autocomplete="new-password" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
        <label for="repeat-api-key">Repeat the key</label>
        <input id="repeat-api-key" type="password" autocomplete="new-password" value={again} onInput={(e) => setAgain(e.currentTarget.value)} required />
        <label class="check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} /> Remember on this browser
        </label>
        <button type="submit" disabled={action.busy}>Set the key</button>
        <ErrorText error={action.error} />
      </form>
    </main>
  );
}
