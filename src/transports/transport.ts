// The one interface every byte-stream printer connection implements (TCP 9100, USB bulk, test fakes).

/** Time limits of byte-stream transports, in ms. */
export interface TransportTimeouts {
  connectMs: number;
  /** No write progress for this long fails a job (a stalled printer). */
  idleMs: number;
  /** How long a status query (`~HS`, `~HQES`) waits for an answer. */
  queryMs: number;
}

/** What a finished send reports: bytes the connection accepted. */
export interface SendResult {
  bytes: number;
}

/** One connection kept open across a transport's calls (Transport.session). */
export interface TransportSession {
  /** Ends the connection gracefully: resolves once the printer let go (the last send confirmed); rejects with a DeviceError. */
  close(): Promise<void>;
  /** Resolves once the printer confirmed reading the sends made so far (a later query's reply, or a clean close); rejects with the DeviceError of a connection that failed first. */
  confirmation(): Promise<void>;
}

/** A byte-stream path to one printer. Each call opens what it needs and releases it before settling, unless a session is held. */
export interface Transport {
  /** Short label for logs and errors, e.g. `tcp 10.0.0.5:9100` or `usb 0a5f:0100 sn ABC`. */
  readonly describe: string;
  /**
   * Delivers a whole document. Resolves once every byte was accepted by the printer's connection;
   * rejects with a DeviceError (code, printer, what happened, bytes sent) within bounded time.
   * Aborting the signal rejects with code CANCELED. `repeat` sends `data` that many times in a row on the one
   * connection (ZPL copies), without holding the copies in memory.
   */
  send(data: Uint8Array, signal?: AbortSignal, repeat?: number): Promise<SendResult>;
  /**
   * Writes a status command and gathers the reply until `complete(reply)` is true.
   * Resolves null when the printer stays silent for `timeoutMs`; rejects with a DeviceError
   * when the connection itself fails (refused, reset, gone).
   */
  query(command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null>;
  /** Keeps one connection for the calls that follow until the session is closed (raw TCP); absent where every call shares one claim already (USB). */
  session?(): TransportSession;
}
