// Runs tasks one at a time per key (one queue per printer), keys in parallel.

/** Serial execution per key; `run` resolves with the task's result in submission order for that key. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Queues `task` behind every earlier task of `key`; a failing task does not stop the ones after it. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
