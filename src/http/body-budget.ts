// Bounds the bytes of large request bodies held at once, so concurrent uploads cannot exhaust a small device's memory.

/** Bytes above which a body counts against the budget; smaller ones (most API calls, labels) always pass. */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** A shared allowance of large-body bytes; one body always fits when none is held. */
export class BodyBudget {
  private held = 0;

  /** `capacity()`: bytes of large bodies that may be held at once (read live). */
  constructor(private readonly capacity: () => number) {}

  /** Takes `bytes` for one body; false (nothing taken) when other large bodies already hold too much. */
  take(bytes: number): boolean {
    if (this.held > 0 && this.held + bytes > this.capacity()) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back what a finished request took. */
  give(bytes: number): void {
    this.held -= bytes;
  }
}
