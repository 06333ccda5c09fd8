// Matches answers on `P/res` to the requests waiting for them, by correlation data or, failing that, by request id.
import { parseJsonObject } from './json-payload';

/** The answer of a device to one request, as fleet.md "Requests and answers" defines it. */
export interface FleetAnswer {
  id: string | null;
  /** The HTTP status the same request would have had. */
  status: number;
  /** The HTTP response envelope. */
  body: unknown;
}

type Settle = (answer: FleetAnswer) => void;

/** Requests awaiting their answer, keyed by device and request id (the id doubles as correlation data). */
export class PendingAnswers {
  private readonly waiting = new Map<string, Settle>();

  /** Registers a waiter for request `id` to `deviceId`; returns the function that withdraws it. */
  expect(deviceId: string, id: string, settle: Settle): () => void {
    const key = keyOf(deviceId, id);
    this.waiting.set(key, settle);
    return () => {
      if (this.waiting.get(key) === settle) this.waiting.delete(key);
    };
  }

  /** Hands an answer payload from `deviceId` to its waiter; false when it is nobody's (unknown, late, or not an answer). */
  deliver(deviceId: string, payload: Uint8Array, correlationData: Uint8Array | undefined): boolean {
    const answer = parseAnswer(payload);
    if (!answer) return false;
    const id = correlationData && correlationData.length > 0 ? Buffer.from(correlationData).toString('utf8') : answer.id;
    if (id === null) return false;
    const key = keyOf(deviceId, id);
    const settle = this.waiting.get(key);
    if (!settle) return false;
    this.waiting.delete(key);
    settle(answer);
    return true;
  }

  /** How many requests are waiting. */
  get size(): number {
    return this.waiting.size;
  }
}

function keyOf(deviceId: string, id: string): string {
  return `${deviceId}\u0000${id}`;
}

function parseAnswer(payload: Uint8Array): FleetAnswer | null {
  const v = parseJsonObject(payload);
  if (v === null) return null;
  if (typeof v.status !== 'number') return null;
  return { id: typeof v.id === 'string' ? v.id : null, status: v.status, body: v.body };
}
