// Who wants printer.status events right now: WebSocket clients hold a claim; other channels are asked live.
import { typeMatches } from './event-filter';

/** A count of claims plus live checks; `wanted()` is what the printer monitor reads each tick. */
export class StatusDemand {
  private claims = 0;

  /** `others`: channels asked live (webhooks whose types take printer.status). */
  constructor(private readonly others: Array<() => boolean> = []) {}

  /** Takes a claim; the returned function gives it back (once). */
  acquire(): () => void {
    this.claims += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.claims -= 1;
    };
  }

  /** True while any claim is held or any other channel wants printer.status. */
  wanted(): boolean {
    return this.claims > 0 || this.others.some((asks) => asks());
  }
}

/** True when a `types` filter (null: every type) lets printer.status through. */
export function takesPrinterStatus(types: readonly string[] | null): boolean {
  return types === null || types.some((pattern) => typeMatches(pattern, 'printer.status'));
}
