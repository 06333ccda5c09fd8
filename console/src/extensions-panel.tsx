// Extension settings: enable each extension and edit its instances; client secrets are write-only (left masked, the device keeps them).
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useSession } from './session';
import type { ExtensionSettings } from '../../src/schemas/settings';
import { ErrorText, useAction } from './ui';

const MASK = '********';
type Instance = ExtensionSettings['instances'][number];
const TEXT_FIELDS: Array<[keyof Instance, string]> = [['target', 'Target'], ['tag', 'Tag'], ['logicalPrinterId', 'Logical printer'], ['oidcPath', 'OIDC path'], ['clientId', 'Client ID']];

/** The extensions section of Settings. */
export function ExtensionsPanel() {
  const { api } = useSession();
  const [extensions, setExtensions] = useState<ExtensionSettings[] | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => void action.run(async () => setExtensions(await api.get<ExtensionSettings[]>('/extensions/settings'))), [api]);
  const change = (e: number, update: (x: ExtensionSettings) => ExtensionSettings) => {
    setSaved(false);
    setExtensions((extensions ?? []).map((x, i) => (i === e ? update(x) : x)));
  };
  const setInstance = (e: number, i: number, name: keyof Instance, value: string | boolean) =>
    change(e, (x) => ({ ...x, instances: x.instances.map((inst, j) => (j === i ? { ...inst, [name]: value } : inst)) }));
  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      setExtensions(await api.send<ExtensionSettings[]>('PUT', '/extensions/settings', extensions));
      setSaved(true);
    });
  };
  return (
    <form class="card form" onSubmit={save} aria-labelledby="ext-h">
      <h2 id="ext-h">Extensions</h2>
      {extensions?.length === 0 && <p>No extensions are configured on this device.</p>}
      {extensions?.map((x, e) => (
        <fieldset key={x.name}>
          <legend>{x.name}</legend>
          <label class="check"><input type="checkbox" checked={x.enabled} onChange={(ev) => change(e, (y) => ({ ...y, enabled: ev.currentTarget.checked }))} /> Enable {x.name}</label>
          {x.instances.map((inst, i) => (
            <fieldset key={inst.id}>
              <legend>Instance {inst.id}</legend>
              {TEXT_FIELDS.map(([name, label]) => (
                <Fragment key={name}>
                  <label for={`ext-${e}-${i}-${name}`}>{label}</label>
                  <input id={`ext-${e}-${i}-${name}`} value={String(inst[name])} onInput={(ev) => setInstance(e, i, name, ev.currentTarget.value)} />
                </Fragment>
              ))}
              <label for={`ext-${e}-${i}-secret`}>Client secret</label>
              <input id={`ext-${e}-${i}-secret`} type="password" autocomplete="new-password" placeholder={inst.clientSecret === MASK ? 'Unchanged' : ''}
                value={inst.clientSecret === MASK ? '' : inst.clientSecret} onInput={(ev) => setInstance(e, i, 'clientSecret', ev.currentTarget.value || MASK)} />
              <label class="check"><input type="checkbox" checked={inst.startOnBoot} onChange={(ev) => setInstance(e, i, 'startOnBoot', ev.currentTarget.checked)} /> Start on boot</label>
            </fieldset>
          ))}
        </fieldset>
      ))}
      {extensions && extensions.length > 0 && (
        <div class="actions">
          <button type="submit" disabled={action.busy}>Save extensions</button>
          <span role="status">{saved ? 'Saved.' : ''}</span>
        </div>
      )}
      <ErrorText error={action.error} />
    </form>
  );
}
