// Webhooks: the list with each one's last delivery, add (the secret shown once), test and delete.
import { useEffect, useState } from 'preact/hooks';
import { splitList } from './add-printer-form';
import { useSession } from './session';
import type { WebhookView as Webhook } from '../../src/schemas/webhook';
import { ErrorText, useAction } from './ui';
import { timeText } from './words';

/** The webhooks section of Settings. */
export function WebhooksPanel() {
  const { api } = useSession();
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const action = useAction();
  const reload = async () => setHooks(await api.get<Webhook[]>('/webhooks'));
  useEffect(() => void action.run(reload), [api]);
  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const created = await api.send<Webhook>('POST', '/webhooks', { url: url.trim(), ...(types.trim() ? { types: splitList(types) } : {}) });
      setSecret(created.secret);
      setUrl('');
      setTypes('');
      await reload();
    });
  };
  const test = (hook: Webhook) => action.run(async () => {
    await api.send('POST', `/webhooks/${encodeURIComponent(hook.id)}/test`);
    setNotice(`Test event sent to ${hook.url}.`);
    await reload();
  });
  const remove = (hook: Webhook) => action.run(async () => {
    await api.send('DELETE', `/webhooks/${encodeURIComponent(hook.id)}`);
    setNotice(`Webhook ${hook.url} deleted.`);
    await reload();
  });
  return (
    <section class="card" aria-labelledby="wh-h">
      <h2 id="wh-h">Webhooks</h2>
      <div class="table-wrap">
        <table>
          <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Last delivery</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {!hooks && <tr><td colSpan={4}>Loading…</td></tr>}
            {hooks?.length === 0 && <tr><td colSpan={4}>No webhooks.</td></tr>}
            {hooks?.map((hook) => (
              <tr key={hook.id}>
                <td class="wrap" data-label="URL">{hook.url}</td>
                <td data-label="Events">{hook.types?.join(', ') ?? 'All'}</td>
                <td data-label="Last delivery">{deliveryText(hook)}</td>
                <td class="actions" data-label="Actions">
                  <button type="button" class="small" onClick={() => void test(hook)} aria-label={`Test webhook ${hook.url}`}>Test</button>
                  <button type="button" class="small danger" onClick={() => void remove(hook)} aria-label={`Delete webhook ${hook.url}`}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <span role="status">{notice}</span>
      {secret && (
        <p class="notice">Signing secret of the new webhook (shown once): <code>{secret}</code></p>
      )}
      <form class="form" onSubmit={add} aria-label="Add webhook">
        <label for="wh-url">Webhook URL</label>
        <input id="wh-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://example.com/hooks/printers" />
        <label for="wh-types">Event types</label>
        <input id="wh-types" value={types} onInput={(e) => setTypes(e.currentTarget.value)} placeholder="All, or e.g. job.*, printer.status" />
        <div class="actions"><button type="submit" disabled={action.busy}>Add webhook</button></div>
      </form>
      <ErrorText error={action.error} />
    </section>
  );
}

function deliveryText(hook: Webhook): string {
  const last = hook.lastDelivery;
  const queue = [hook.pending ? `${hook.pending} pending` : '', hook.dropped ? `${hook.dropped} dropped` : ''].filter(Boolean).join(', ');
  if (!last) return queue || 'None yet';
  const outcome = last.error ? `failed: ${last.error}` : `delivered (${last.status})`;
  return `${timeText(last.time)}, ${last.eventType} ${outcome}${queue ? `; ${queue}` : ''}`;
}
