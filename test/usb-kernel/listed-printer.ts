// Guest test helper: a printer's record from the daemon's API, or null while it is not listed.
import type { InProcessDaemon } from '../helpers/in-process-daemon';

/** GET /printers/{path}: the record on a 200, null otherwise (not listed yet, or gone). */
export async function listedPrinter(d: InProcessDaemon, path: string): Promise<any> {
  const res = await d.api('GET', `/printers/${path}`);
  return res.status === 200 ? res.body.result.content : null;
}
