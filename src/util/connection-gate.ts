// Counts the connections (or requests) a keyless door holds, in all and per source address, and refuses the one too many.

/** Limits of one gate: connections held at once in all, and from one source address. */
export interface GateLimits {
  total: number;
  perAddress: number;
}

/** Gives back the place taken by `enter`; calling it again does nothing. */
export type GateExit = () => void;

/** A door's connection count; a gate with a `parent` also takes a place there (one limit over several doors). */
export class ConnectionGate {
  private held = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(
    private readonly limits: GateLimits,
    private readonly parent: ConnectionGate | null = null,
  ) {}

  /** Takes a place for a connection from `address`; null (nothing taken) when this gate or its parent is full. */
  enter(address: string): GateExit | null {
    const mine = this.byAddress.get(address) ?? 0;
    if (this.held >= this.limits.total || mine >= this.limits.perAddress) return null;
    const up = this.parent ? this.parent.enter(address) : null;
    if (this.parent && !up) return null;
    this.held += 1;
    this.byAddress.set(address, mine + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      up?.();
      this.leave(address);
    };
  }

  /** Which limit would refuse a connection from `address` now: its address's count, this gate's total, the parent's, or null. */
  blocking(address: string): 'address' | 'total' | 'parent' | null {
    if ((this.byAddress.get(address) ?? 0) >= this.limits.perAddress) return 'address';
    if (this.held >= this.limits.total) return 'total';
    return this.parent?.blocking(address) ? 'parent' : null;
  }

  /** Connections held now. */
  size(): number {
    return this.held;
  }

  private leave(address: string): void {
    this.held -= 1;
    const left = (this.byAddress.get(address) ?? 1) - 1;
    if (left > 0) this.byAddress.set(address, left);
    else this.byAddress.delete(address);
  }
}
