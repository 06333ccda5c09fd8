// How to undo what started, newest first: the daemon's stop, and the undoing of a start that failed halfway.
import type { Logger } from '../log';

/** Undo steps pushed as things start, run in reverse order of start. */
export class StopStack {
  private readonly steps: Array<{ name: string; undo: () => unknown }> = [];

  constructor(private readonly logger: Logger) {}

  /** Registers how to undo `name`, which has just started. */
  push(name: string, undo: () => unknown): void {
    this.steps.push({ name, undo });
  }

  /** Runs every undo step once, newest first; one that fails is logged and the others still run. */
  async unwind(): Promise<void> {
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      try {
        await step.undo();
      } catch (err) {
        this.logger.warn('stopping failed', { step: step.name, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
}
