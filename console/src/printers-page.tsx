// Printers: the live table, Scan for printers, and Add printer.
import { useState } from 'preact/hooks';
import { AddPrinterForm } from './add-printer-form';
import { linkClick } from './router';
import { useLive, useSession } from './session';
import { ErrorText, useAction } from './ui';
import { useLanguages } from './languages';
import { kindText, printerName, reasonText, statusText } from './words';

/** The Printers page. */
export function PrintersPage() {
  const { api, live: data } = useSession();
  const languages = useLanguages();
  const live = useLive();
  const [adding, setAdding] = useState(false);
  const scan = useAction();
  const [scanned, setScanned] = useState(false);
  const rescan = () =>
    scan.run(async () => {
      setScanned(false);
      await api.get('/discover');
      await data.reload();
      setScanned(true);
    });
  return (
    <section>
      <h1>Printers</h1>
      <div class="actions">
        <button type="button" onClick={() => setAdding(!adding)} aria-expanded={adding}>Add printer</button>
        <button type="button" onClick={() => void rescan()} disabled={scan.busy}>{scan.busy ? 'Scanning…' : 'Scan for printers'}</button>
        <span role="status">{scanned ? 'Scan finished.' : ''}</span>
      </div>
      <ErrorText error={scan.error ?? live.error} />
      {adding && <AddPrinterForm onDone={() => setAdding(false)} />}
      <div class="table-wrap">
        <table class="printers">
          <caption class="sr-only">Printers, updated live</caption>
          <thead>
            <tr><th scope="col">Printer</th><th scope="col">Status</th><th scope="col">Kind</th><th scope="col">Tags</th></tr>
          </thead>
          <tbody>
            {(!live.printers || !languages) && <tr><td colSpan={4}>Loading…</td></tr>}
            {languages && live.printers?.length === 0 && <tr><td colSpan={4}>No printers yet: add one, or scan for printers.</td></tr>}
            {languages && live.printers?.map((p) => (
              <tr key={p.path} data-path={p.path}>
                <td data-label="Printer"><a href={`/printers/${encodeURIComponent(p.path)}`} onClick={linkClick}>{printerName(p)}</a><div class="sub line">{p.path}</div></td>
                <td data-label="Status"><span class={`status status-${p.status}`}>{statusText(p.status)}</span><div class="sub line" title={p.statusReasons.map(reasonText).join('; ')}>{p.statusReasons.map(reasonText).join('; ')}</div></td>
                <td data-label="Kind">{kindText(p, languages)}</td>
                <td data-label="Tags">{p.tags.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
