// One allowance for every byte held in memory on behalf of clients, whichever door they came in by (HTTP bodies, IPP
// documents, raw-port buffers), so concurrent clients cannot together exhaust a small device's memory.

/** Bytes above which an HTTP body counts against the budget; smaller ones (most API calls, labels) always pass. */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** Bytes above which a body sent through a keyless door (IPP) counts: its senders need no key, so little goes uncounted. */
export const KEYLESS_BODY_BYTES = 64 * 1024;

/** A shared allowance of bytes; one holder always fits when none is held (so the largest single request still goes). */
export class MemoryBudget {
  private heldBytes = 0;

  /** `capacity()`: bytes that may be held at once by every door together (read live). */
  constructor(private readonly capacity: () => number) {}

  /** Takes `bytes`; false (nothing taken) when others already hold so much that `bytes` more would pass the capacity. */
  take(bytes: number): boolean {
    if (this.heldBytes > 0 && this.heldBytes + bytes > this.capacity()) return false;
    this.heldBytes += bytes;
    return true;
  }

  /** Gives back bytes taken before. */
  give(bytes: number): void {
    this.heldBytes = Math.max(0, this.heldBytes - bytes);
  }

  /** Bytes held now. */
  held(): number {
    return this.heldBytes;
  }
}
