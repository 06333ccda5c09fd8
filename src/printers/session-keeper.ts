// The connection a printer runtime keeps open to its printer while jobs follow back to back (issue 35): opened when a
// job takes its turn, kept while the next job waits for its own, closed as soon as none does.
import type { DeviceSession, PrinterDriver } from '../kinds/printer-driver';

/** At most one open DeviceSession, of the runtime's current driver. */
export class SessionKeeper {
  private current: { driver: PrinterDriver; session: DeviceSession } | null = null;

  /** Opens `driver`'s session unless it has one open already (one of a replaced driver is closed first, its errors dropped); a no-op for drivers without sessions. */
  async enter(driver: PrinterDriver): Promise<void> {
    if (this.current?.driver === driver) return;
    await this.close().catch(() => undefined);
    const session = driver.deviceSession?.();
    if (session) this.current = { driver, session };
  }

  /** The open session's confirmation of the deliveries made on it so far (see DeviceSession.confirmation); null when none is open. */
  confirmation(): Promise<void> | null {
    return this.current ? this.current.session.confirmation() : null;
  }

  /** Closes the open session, if any: resolves once the printer let go; rejects with the DeviceError of a failed close. */
  close(): Promise<void> {
    const current = this.current;
    this.current = null;
    return current ? current.session.close() : Promise.resolve();
  }
}
