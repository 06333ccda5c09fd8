// Bounded waiting for work that may outlast the caller's patience: the work itself goes on, the caller does not wait.

/** `work`'s result, or `fallback` when it has not settled within `ms`; the timer is cleared either way. */
export function withinBudget<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([work, budget]).finally(() => clearTimeout(timer));
}
