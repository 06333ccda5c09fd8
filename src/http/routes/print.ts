// Print routes: POST /print/{target} (JSON or raw body, fan-out over tags) and POST /print/{target}/test (seed 4.5, 4.6).
import { Type } from '@sinclair/typebox';
import { AppError, DeviceError } from '../../errors';
import type { PrinterRegistry } from '../../printers/registry';
import type { PrinterRecord } from '../../schemas/printer';
import { jobSummary, JobSummarySchema } from '../../schemas/job';
import { parsePrintRequest, PrintBodySchema } from '../print-request';
import type { AllowedRoots, Submission } from '../../spooler/submission';
import type { Spooler, SubmitOutcome } from '../../spooler/spooler';
import { DEDUPLICATED, type ApiReply, type Route } from '../route';

/** Builds the test document for a printer (label, receipt or test page) as an inline submission. */
export type TestDocumentFactory = (printer: PrinterRecord) => Promise<Pick<Submission, 'document' | 'data' | 'title'>>;

/** Collaborators of the print routes. */
export interface PrintRouteDeps {
  registry: PrinterRegistry;
  spooler: Spooler;
  roots: AllowedRoots;
  testDocument: TestDocumentFactory;
}

const PRINT_QUERY = [
  { name: 'title', description: 'Job title (raw body only)' },
  { name: 'source', description: 'Submitting application or user (raw body only)' },
  { name: 'idempotencyKey', description: 'Key against duplicate submissions (raw body only)' },
  { name: 'wait', description: '`false` to answer 201 once the job is spooled (raw body only)' },
];

/** POST /print/{target} and POST /print/{target}/test. */
export function printRoutes(deps: PrintRouteDeps): Route[] {
  return [
    {
      method: 'post', path: '/print/{target}', tag: 'print', fleet: DEDUPLICATED, summary: 'Print a document on a printer path, URI or tag_ alias',
      body: PrintBodySchema, rawBody: true, largeField: 'content', query: PRINT_QUERY,
      response: Type.Composite([JobSummarySchema, Type.Object({ jobs: Type.Optional(Type.Array(JobSummarySchema)) })]),
      responses: { 201: 'Job accepted (wait: false)', 404: 'Printer not found', 502: 'Print failed', 503: 'Printer is not ready, or the device is busy (too many jobs waiting)', 507: 'The job could not be stored on the device' },
      handler: async (req) => {
        const printers = deps.registry.resolveTarget(req.params.target);
        const submission = parsePrintRequest(req, deps.roots);
        const outcome = await deps.spooler.submit(submission, printers, req.params.target);
        return printReply(outcome, submission.wait);
      },
    },
    {
      method: 'post', path: '/print/{target}/test', tag: 'print', fleet: DEDUPLICATED, summary: 'Print a test label, receipt or page',
      query: [{ name: 'wait', description: '`false` to answer 201 with the job once it is spooled (as the fleet bridge asks)' }],
      responses: { 201: 'Test job accepted (wait=false)', 404: 'Printer not found', 502: 'Print failed', 503: 'Printer is not ready' },
      handler: async (req) => {
        const printers = deps.registry.resolveTarget(req.params.target);
        const wait = waitQuery(req.query.get('wait'));
        const outcomes = await Promise.all(
          printers.map(async (printer) => deps.spooler.submit({ ...(await testDocument(deps, printer)), source: 'test', wait, options: {}, idempotencyKey: null }, [printer], req.params.target)),
        );
        const accepted = outcomes.every((o) => o.accepted) ? outcomes.flatMap((o) => o.accepted!) : undefined;
        const merged: SubmitOutcome = { jobs: outcomes.flatMap((o) => o.jobs), ...(accepted ? { accepted } : {}), replay: false, notReady: new Map(outcomes.flatMap((o) => [...o.notReady])) };
        const reply = printReply(merged, wait);
        return wait ? { status: reply.status, message: reply.message, content: null } : reply;
      },
    },
  ];
}

/** The `wait` query of a test print: absent or `true` waits, `false` answers once spooled; anything else is a 400. */
function waitQuery(value: string | null): boolean {
  if (value !== null && value !== 'true' && value !== 'false') throw new AppError('INVALID_REQUEST', 'wait must be true or false');
  return value !== 'false';
}

/** The printer's test document; a document that cannot be built (the JPEG render) is a failed print, not a bug. */
async function testDocument(deps: PrintRouteDeps, printer: PrinterRecord): ReturnType<TestDocumentFactory> {
  try {
    return await deps.testDocument(printer);
  } catch (err) {
    if (err instanceof DeviceError) throw new AppError('PRINT_FAILED', `the test page for ${printer.path} could not be made: ${err.message}`);
    throw err;
  }
}

/**
 * Maps an outcome to the answer: 200/201 with the summary (+ `jobs` on fan-out), 503 when every job failed pre-flight,
 * 502 when the one job of a `wait: true` request failed delivery (a fan-out answers 200: each job carries its error).
 */
export function printReply(outcome: SubmitOutcome, wait: boolean): ApiReply {
  const [first] = outcome.jobs;
  // a 201 shows the jobs as accepted (queued), though one may have begun sending since
  const summaries = (!wait && outcome.accepted ? outcome.accepted : outcome.jobs).map(jobSummary);
  const content = outcome.jobs.length > 1 ? { ...summaries[0], jobs: summaries } : summaries[0];
  if (outcome.replay) return { status: 200, message: 'Existing job returned.', content };
  if (outcome.notReady.size === outcome.jobs.length) {
    throw new AppError('NOT_READY', 'Printer is not ready', { content: outcome.notReady.get(first.jobId) });
  }
  if (!wait) return { status: 201, message: 'Job queued.', content };
  if (outcome.jobs.length === 1 && first.state === 'failed') throw new AppError('PRINT_FAILED', first.error ?? 'print failed', { content: { message: first.error, ...content } });
  // wait: true answers at most PRINTER_WAIT_MS after the printer accepted a job it still holds (IPP): say so
  const printing = outcome.jobs.some((job) => job.state === 'queued' || job.state === 'printing');
  return { status: 200, message: printing ? 'Sent; the printer is still printing it.' : 'Printed successfully.', content };
}
