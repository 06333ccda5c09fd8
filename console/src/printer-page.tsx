// One printer: capabilities, status reasons in words, edit of tags, dpi, dither and paper width, test page, delete.
import { useEffect, useState } from 'preact/hooks';
import { splitList } from './add-printer-form';
import { navigate } from './router';
import { useLive, useSession } from './session';
import type { Printer } from '../../src/schemas/printer';
import { ErrorText, useAction } from './ui';
import { useLanguages } from './languages';
import type { LanguageInfo } from '../../src/schemas/language';
import { kindText, printerName, reasonText, statusText } from './words';

/** The page of the printer at `path`. */
export function PrinterPage({ path }: { path: string }) {
  const live = useLive();
  const languages = useLanguages();
  const printer = live.printers?.find((p) => p.path === path);
  // the kind and the settings a printer offers follow its language: nothing is drawn before the languages arrived
  if (!live.printers || !languages) return <p>Loading…</p>;
  if (!printer) return (
    <section>
      <h1>Printer not found</h1>
      <p>No printer has the path {path}. It may have been deleted or unplugged.</p>
    </section>
  );
  return <PrinterDetails printer={printer} languages={languages} />;
}

function PrinterDetails({ printer, languages }: { printer: Printer; languages: LanguageInfo[] }) {
  const caps = printer.capabilities;
  // a printer whose language the device draws pages in
  const drawn = languages.find((l) => l.content === printer.content && l.kind !== 'document');
  return (
    <section>
      <h1>{printerName(printer)}</h1>
      <div class="grid">
        <section class="card" aria-labelledby="state-h">
          <h2 id="state-h">State</h2>
          <dl class="facts">
            <dt>Status</dt><dd><span class={`status status-${printer.status}`}>{statusText(printer.status)}</span></dd>
            <dt>Reasons</dt><dd>{printer.statusReasons.length ? <ul>{printer.statusReasons.map((r) => <li key={r}>{reasonText(r)}</li>)}</ul> : 'None: ready'}</dd>
            <dt>Path</dt><dd>{printer.path}</dd>
            <dt>Kind</dt><dd>{kindText(printer, languages)}</dd>
            <dt>Address</dt><dd>{printer.connection.host ? `${printer.connection.host}${printer.connection.port ? `:${printer.connection.port}` : ''}${printer.connection.resourcePath ?? ''}` : printer.connection.serialNumber ?? 'USB'}</dd>
            <dt>Found by</dt><dd>{printer.discovered ? 'Discovery' : 'Added by hand'}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="caps-h">
          <h2 id="caps-h">Capabilities</h2>
          {caps ? (
            <dl class="facts">
              {caps.makeAndModel && <><dt>Make and model</dt><dd>{caps.makeAndModel}</dd></>}
              {caps.colorSupported !== undefined && <><dt>Colour</dt><dd>{caps.colorSupported ? 'Yes' : 'No'}</dd></>}
              {caps.documentFormatsSupported && <><dt>Formats</dt><dd>{caps.documentFormatsSupported.join(', ')}</dd></>}
              {caps.mediaSupported && <><dt>Media</dt><dd>{caps.mediaSupported.join(', ')}</dd></>}
              {caps.sidesSupported && <><dt>Sides</dt><dd>{caps.sidesSupported.join(', ')}</dd></>}
              {caps.copiesSupported && <><dt>Copies</dt><dd>{caps.copiesSupported.join(' to ')}</dd></>}
            </dl>
          ) : (
            <p>{drawn ? `A ${drawn.displayName} ${drawn.kind} printer: PDFs and images are rendered to ${drawn.kind}s at its resolution.` : 'The printer reported no capabilities.'}</p>
          )}
        </section>
      </div>
      <EditForm printer={printer} />
      <PrinterActions printer={printer} />
    </section>
  );
}

function EditForm({ printer }: { printer: Printer }) {
  const { api, live } = useSession();
  const [tags, setTags] = useState(printer.tags.join(', '));
  const [dpi, setDpi] = useState(printer.dpi ? String(printer.dpi) : '');
  const [dither, setDither] = useState(printer.dither ?? false);
  const [paperWidth, setPaperWidth] = useState(printer.paperWidth ? String(printer.paperWidth) : '');
  const [shareIpp, setShareIpp] = useState(printer.share?.ipp ?? false);
  const [rawPort, setRawPort] = useState(printer.share?.rawPort ? String(printer.share.rawPort) : '');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => setSaved(false), [tags, dpi, dither, paperWidth, shareIpp, rawPort]);
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const share = { ipp: shareIpp, rawPort: rawPort.trim() ? Number(rawPort) : null };
      const body = { tags: splitList(tags), dpi: dpi ? Number(dpi) : null, dither, share, ...(paperWidth ? { paperWidth: Number(paperWidth) } : {}) };
      live.upsertPrinter(await api.send<Printer>('PATCH', `/printers/${encodeURIComponent(printer.path)}`, body));
      setSaved(true);
    });
  };
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="edit-h">
      <h2 id="edit-h">Settings of this printer</h2>
      <label for="pp-tags">Tags</label>
      <input id="pp-tags" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
      <label for="pp-dpi">Resolution (dpi)</label>
      <select id="pp-dpi" value={dpi} onChange={(e) => setDpi(e.currentTarget.value)}>
        <option value="">Default (as reported, else 203)</option>
        {[152, 203, 300, 600].map((d) => <option key={d} value={String(d)}>{d}</option>)}
      </select>
      <label class="check"><input type="checkbox" checked={dither} onChange={(e) => setDither(e.currentTarget.checked)} /> Dither photos and greys</label>
      <label for="pp-paper">Paper width</label>
      <select id="pp-paper" value={paperWidth} onChange={(e) => setPaperWidth(e.currentTarget.value)}>
        <option value="">Default (80 mm)</option>
        <option value="80">80 mm</option>
        <option value="58">58 mm</option>
      </select>
      <label class="check">
        <input type="checkbox" checked={shareIpp} onChange={(e) => setShareIpp(e.currentTarget.checked)} /> Share over IPP Everywhere (AirPrint, Mopria, Windows, CUPS)
      </label>
      {shareIpp ? <p class="sub">Printers on the network find it by mDNS; its address is <code>/ipp/print/{printer.id}</code> on this device.</p> : null}
      <label for="pp-raw">Raw port (the printer's own language sent as is, e.g. 9100; empty: none)</label>
      <input id="pp-raw" inputMode="numeric" value={rawPort} onInput={(e) => setRawPort(e.currentTarget.value)} />
      <div class="actions">
        <button type="submit" disabled={action.busy}>Save printer settings</button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
      <ErrorText error={action.error} />
    </form>
  );
}

function PrinterActions({ printer }: { printer: Printer }) {
  const { api, live } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState('');
  const action = useAction();
  const target = encodeURIComponent(printer.path);
  const testPage = () => action.run(async () => {
    setDone('');
    await api.send('POST', `/print/${target}/test`);
    setDone('Test page sent.');
  });
  const remove = () => action.run(async () => {
    await api.send('DELETE', `/printers/${target}`);
    await live.reload();
    navigate('/printers');
  });
  return (
    <section class="card" aria-labelledby="actions-h">
      <h2 id="actions-h">Actions</h2>
      <div class="actions">
        <button type="button" onClick={() => void testPage()} disabled={action.busy}>Print test page</button>
        {!confirming && <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete</button>}
        {confirming && (
          <>
            <button type="button" class="danger" onClick={() => void remove()} disabled={action.busy}>Delete {printerName(printer)} for good</button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>Keep it</button>
          </>
        )}
        <span role="status">{done}</span>
      </div>
      {printer.discovered && confirming && <p class="notice">A discovered printer comes back at the next scan while it is still connected.</p>}
      <ErrorText error={action.error} />
    </section>
  );
}
