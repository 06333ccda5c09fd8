// Print: a document (file field or drop), a printer or tag, copies and paper size; Preview of the exact dots; Print with live job state.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { documentBody, type DocumentBody } from './document-file';
import { useLive, useSession } from './session';
import type { JobRecord as Job } from '../../src/schemas/job';
import type { Printer } from '../../src/schemas/printer';
import { ErrorText, useAction } from './ui';
import { printerName } from './words';

const PAPER_SIZES = ['4x6', '4x4', '4x3', '4x2', '3x2', '2x1', '100x150mm', '62x29mm', 'na_letter_8.5x11in', 'iso_a4_210x297mm'];

/** The Print page. */
export function PrintPage() {
  const { api, live: data } = useSession();
  const live = useLive();
  const [file, setFile] = useState<File | null>(null);
  const [target, setTarget] = useState('');
  const [copies, setCopies] = useState('1');
  const [paperSize, setPaperSize] = useState('');
  const [dragging, setDragging] = useState(false);
  const [preview, setPreview] = useState<{ url: string; page: number; pages: number } | null>(null);
  const [jobIds, setJobIds] = useState<string[]>([]);
  const previewing = useAction();
  const printing = useAction();
  const targets = useMemo(() => targetsOf(live.printers ?? []), [live.printers]);
  useEffect(() => {
    if (!target && targets.length > 0) setTarget(targets[0].value);
  }, [targets]);
  useEffect(() => () => preview && URL.revokeObjectURL(preview.url), [preview]);
  useEffect(() => setPreview(null), [file, target, paperSize]);

  const body = async (): Promise<DocumentBody & Record<string, unknown>> => {
    if (!file) throw new Error('Choose a document first: a PDF, PNG, JPEG, ZPL or raw file.');
    if (!target) throw new Error('Choose a printer first.');
    const options: Record<string, unknown> = {};
    if (Number(copies) > 1) options.copies = Number(copies);
    if (paperSize.trim()) options.paperSize = paperSize.trim();
    return { ...(await documentBody(file)), title: file.name, source: 'web console', options };
  };
  const showPage = (page: number) => previewing.run(async () => {
    const got = await api.preview(target, await body(), page);
    setPreview({ url: URL.createObjectURL(got.blob), page, pages: got.pages });
  });
  const print = (event: Event) => {
    event.preventDefault();
    void printing.run(async () => {
      const job = await api.send<Job & { jobs?: Job[] }>('POST', `/print/${encodeURIComponent(target)}`, { ...(await body()), wait: false });
      const jobs = job.jobs ?? [job];
      // the lists as they are now: events that came while the answer was on its way are newer than it (`live` is this render's)
      for (const j of jobs) if (!data.state.jobs?.some((k) => k.jobId === j.jobId)) data.upsertJob({ ...j, completedAt: j.completedAt ?? null });
      setJobIds(jobs.map((j) => j.jobId));
    });
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer?.files[0];
    if (dropped) setFile(dropped);
  };
  return (
    <section>
      <h1>Print</h1>
      <form class="card form" onSubmit={print} aria-label="Print a document">
        <div class={`drop ${dragging ? 'over' : ''}`} onDragOver={(e) => (e.preventDefault(), setDragging(true))} onDragLeave={() => setDragging(false)} onDrop={drop}>
          <label for="pr-doc">Document</label>
          <input id="pr-doc" type="file" accept=".pdf,.png,.jpg,.jpeg,.zpl,.txt,.prn,.bin,application/pdf,image/png,image/jpeg" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} aria-describedby="pr-doc-help" />
          <p id="pr-doc-help" class="sub">PDF, PNG, JPEG, ZPL or raw printer data; or drop a file here.{file ? ` Chosen: ${file.name}` : ''}</p>
        </div>
        <label for="pr-printer">Printer</label>
        <select id="pr-printer" value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
          {targets.length === 0 && <option value="">No printers</option>}
          {targets.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
        </select>
        <label for="pr-copies">Copies</label>
        <input id="pr-copies" type="number" min={1} max={9999} value={copies} onInput={(e) => setCopies(e.currentTarget.value)} />
        <label for="pr-paper">Paper size</label>
        <input id="pr-paper" list="pr-paper-list" value={paperSize} onInput={(e) => setPaperSize(e.currentTarget.value)} placeholder="From the document" />
        <datalist id="pr-paper-list">{PAPER_SIZES.map((s) => <option key={s} value={s} />)}</datalist>
        <div class="actions">
          <button type="button" class="secondary" onClick={() => void showPage(1)} disabled={previewing.busy}>Preview</button>
          <button type="submit" disabled={printing.busy}>Print</button>
        </div>
        <ErrorText error={previewing.error ?? printing.error} />
      </form>
      <JobProgress jobs={(live.jobs ?? []).filter((j) => jobIds.includes(j.jobId))} />
      {preview && (
        <section class="card preview" aria-labelledby="preview-h">
          <h2 id="preview-h">Preview, page {preview.page} of {preview.pages}</h2>
          <p class="sub">One pixel per printer dot: what the printer will print.</p>
          {preview.pages > 1 && (
            <div class="actions">
              <button type="button" class="secondary" disabled={preview.page <= 1 || previewing.busy} onClick={() => void showPage(preview.page - 1)}>Previous page</button>
              <button type="button" class="secondary" disabled={preview.page >= preview.pages || previewing.busy} onClick={() => void showPage(preview.page + 1)}>Next page</button>
            </div>
          )}
          <img src={preview.url} alt={`Preview of page ${preview.page} of ${preview.pages} as the printer will print it`} />
        </section>
      )}
    </section>
  );
}

function JobProgress({ jobs }: { jobs: Job[] }) {
  return (
    <div class="progress" aria-live="polite">
      {jobs.map((job) => (
        <p key={job.jobId} class={`job-state ${job.state}`}>
          Job {job.jobId}: <strong>{job.state}</strong>
          {job.state === 'failed' && job.error ? ` — ${job.error}` : ''}
          {job.state === 'queued' || job.state === 'printing' ? '…' : ''}
        </p>
      ))}
    </div>
  );
}

/** Each printer by path, then each tag as a `tag_` target. */
function targetsOf(printers: Printer[]): Array<{ value: string; label: string }> {
  const tags = [...new Set(printers.flatMap((p) => p.tags))].sort();
  return [
    ...printers.map((p) => ({ value: p.path, label: p.model ? `${printerName(p)} (${p.path})` : p.path })),
    ...tags.map((t) => ({ value: `tag_${t}`, label: `tag: ${t}` })),
  ];
}
