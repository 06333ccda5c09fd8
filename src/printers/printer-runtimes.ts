// The printer runtimes by path: made on first use, so every job, pre-flight and status probe of a printer meets the same one.
import { PrinterRuntime, type JobWork, type RuntimeDeps } from './printer-runtime';

/** One PrinterRuntime per printer path. */
export class PrinterRuntimes {
  private readonly byPath = new Map<string, PrinterRuntime>();

  constructor(private readonly deps: RuntimeDeps) {}

  /** The runtime of the printer at `path` (made now when it has none). */
  of(path: string): PrinterRuntime {
    let runtime = this.byPath.get(path);
    if (!runtime) {
      runtime = new PrinterRuntime(path, this.deps);
      this.byPath.set(path, runtime);
    }
    return runtime;
  }

  /** Every runtime made so far. */
  all(): PrinterRuntime[] {
    return [...this.byPath.values()];
  }

  /** Closes every runtime (see PrinterRuntime.close), in parallel. */
  async close(graceMs: number, keepQueued: (work: JobWork) => boolean): Promise<void> {
    await Promise.all(this.all().map((runtime) => runtime.close(graceMs, keepQueued)));
  }
}
