// Which periodically browsed printers have gone: missing from `misses` scans in a row (one lost answer is not enough).

/** Tracks the paths each scan saw; a path missing from `misses` consecutive scans is reported gone once. */
export class Presence {
  private readonly missed = new Map<string, number>();

  constructor(private readonly misses: number) {}

  /** Records one scan's paths; returns the paths that have now been missing from `misses` scans in a row. */
  update(found: Iterable<string>): string[] {
    const seen = new Set(found);
    const gone: string[] = [];
    for (const path of seen) this.missed.set(path, 0);
    for (const [path, count] of this.missed) {
      if (seen.has(path)) continue;
      if (count + 1 >= this.misses) {
        this.missed.delete(path);
        gone.push(path);
      } else this.missed.set(path, count + 1);
    }
    return gone;
  }
}
