// An asynchronous lock: one holder at a time, waiters served in arrival order.

/** Serialises critical sections; a failing section releases the lock like a finishing one. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  private holders = 0;

  /** Runs `section` once every earlier section has ended; resolves or rejects with its result. */
  run<T>(section: () => Promise<T>): Promise<T> {
    this.holders += 1;
    const result = this.tail.then(section, section);
    this.tail = result.then(
      () => this.release(),
      () => this.release(),
    );
    return result;
  }

  /** True while a section runs or waits. */
  get busy(): boolean {
    return this.holders > 0;
  }

  /** True while a section waits behind the one running. */
  get waiting(): boolean {
    return this.holders > 1;
  }

  private release(): void {
    this.holders -= 1;
  }
}
