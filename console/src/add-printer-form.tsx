// Add printer: a TCP (port 9100) or IPP printer by address; the device probes what it speaks unless told.
import { useState } from 'preact/hooks';
import { useLanguages } from './languages';
import { useSession } from './session';
import type { Printer } from '../../src/schemas/printer';
import { ErrorText, useAction } from './ui';

/** The Add printer form; `onDone` after the printer was added. */
export function AddPrinterForm({ onDone }: { onDone: () => void }) {
  const { api, live } = useSession();
  const [protocol, setProtocol] = useState('tcp');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('');
  const [resourcePath, setResourcePath] = useState('/ipp/print');
  const [content, setContent] = useState('');
  const [model, setModel] = useState('');
  const [tags, setTags] = useState('');
  const action = useAction();
  const languages = useLanguages() ?? [];
  const ipp = protocol !== 'tcp';
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const body = {
        connection: { type: 'network', host: host.trim(), protocol, ...(port ? { port: Number(port) } : {}), ...(ipp ? { resourcePath } : {}) },
        ...(content ? { content } : {}),
        ...(model.trim() ? { model: model.trim() } : {}),
        ...(tags.trim() ? { tags: splitList(tags) } : {}),
      };
      live.upsertPrinter(await api.send<Printer>('POST', '/printers', body));
      onDone();
    });
  };
  return (
    <form class="card form" onSubmit={submit} aria-label="Add printer">
      <h2>Add printer</h2>
      <label for="ap-protocol">Protocol</label>
      <select id="ap-protocol" value={protocol} onChange={(e) => setProtocol(e.currentTarget.value)}>
        <option value="tcp">TCP (raw, port 9100)</option>
        <option value="ipp">IPP</option>
        <option value="ipps">IPPS</option>
      </select>
      <label for="ap-host">Host</label>
      <input id="ap-host" value={host} onInput={(e) => setHost(e.currentTarget.value)} required placeholder="192.168.1.50" />
      <label for="ap-port">Port</label>
      <input id="ap-port" type="number" min={1} max={65535} value={port} onInput={(e) => setPort(e.currentTarget.value)} placeholder={ipp ? '631' : '9100'} />
      {ipp && (
        <>
          <label for="ap-resource">Resource path</label>
          <input id="ap-resource" value={resourcePath} onInput={(e) => setResourcePath(e.currentTarget.value)} />
        </>
      )}
      <label for="ap-content">Language</label>
      <select id="ap-content" value={content} onChange={(e) => setContent(e.currentTarget.value)}>
        <option value="">Detect</option>
        {languages.filter((l) => l.transports.includes(ipp ? 'ipp' : 'tcp')).map((l) => <option key={l.content} value={l.content}>{l.displayName} ({l.kind} printer)</option>)}
      </select>
      <label for="ap-model">Model</label>
      <input id="ap-model" value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      <label for="ap-tags">Tags</label>
      <input id="ap-tags" value={tags} onInput={(e) => setTags(e.currentTarget.value)} placeholder="shipping, dock-2" />
      <div class="actions">
        <button type="submit" disabled={action.busy}>{action.busy ? 'Adding…' : 'Add'}</button>
        <button type="button" class="secondary" onClick={onDone}>Cancel</button>
      </div>
      <ErrorText error={action.error} />
    </form>
  );
}

/** "a, b c" → ["a", "b", "c"]. */
export function splitList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}
