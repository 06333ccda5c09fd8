// Shares: the network folders documents may be printed from; passwords are write-only (the device answers ********).
import { useEffect, useState } from 'preact/hooks';
import { useSession } from './session';
import type { Share } from '../../src/schemas/settings';
import { ErrorText, useAction } from './ui';

/** The shares section of Settings. */
export function SharesPanel() {
  const { api } = useSession();
  const [shares, setShares] = useState<Share[] | null>(null);
  const [form, setForm] = useState({ sharePath: '', alias: '', server: '', username: '', password: '' });
  const action = useAction();
  const reload = async () => setShares(await api.get<Share[]>('/shares'));
  useEffect(() => void action.run(reload), [api]);
  const field = (name: keyof typeof form) => ({ value: form[name], onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }) });
  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await api.send('POST', '/shares', { ...form, browsable: true });
      setForm({ sharePath: '', alias: '', server: '', username: '', password: '' });
      await reload();
    });
  };
  const remove = (share: Share) => action.run(async () => {
    await api.send('DELETE', `/shares/${encodeURIComponent(share.uuid)}`);
    await reload();
  });
  return (
    <section class="card" aria-labelledby="sh-h">
      <h2 id="sh-h">Shares</h2>
      <div class="table-wrap">
        <table>
          <thead><tr><th scope="col">Folder</th><th scope="col">Server</th><th scope="col">User</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {!shares && <tr><td colSpan={4}>Loading…</td></tr>}
            {shares?.length === 0 && <tr><td colSpan={4}>No shares.</td></tr>}
            {shares?.map((s) => (
              <tr key={s.uuid}>
                <td class="wrap" data-label="Folder">{s.alias ? `${s.alias} (${s.sharePath})` : s.sharePath}</td>
                <td data-label="Server">{s.server}</td>
                <td data-label="User">{s.username}{s.password ? ' (password set)' : ''}</td>
                <td data-label="Actions"><button type="button" class="small danger" onClick={() => void remove(s)} aria-label={`Delete share ${s.sharePath}`}>Delete</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form class="form" onSubmit={add} aria-label="Add share">
        <label for="sh-path">Share path</label>
        <input id="sh-path" required {...field('sharePath')} placeholder="/mnt/shares/labels" />
        <label for="sh-alias">Share alias</label>
        <input id="sh-alias" {...field('alias')} />
        <label for="sh-server">Server</label>
        <input id="sh-server" {...field('server')} />
        <label for="sh-user">Username</label>
        <input id="sh-user" autocomplete="off" {...field('username')} />
        <label for="sh-pass">Password</label>
        <input id="sh-pass" type="password" autocomplete="new-password" {...field('password')} />
        <div class="actions"><button type="submit" disabled={action.busy}>Add share</button></div>
      </form>
      <ErrorText error={action.error} />
    </section>
  );
}
