// The interface every discovery source (USB, mDNS, IPP probe) implements for the printer registry.
import type { DiscoveredPrinter } from '../schemas/printer';

/** A change a source reports between scans (USB hotplug, an mDNS service that came or went). */
export type DiscoveryEvent = { kind: 'attached'; printer: DiscoveredPrinter } | { kind: 'detached'; path: string };

/** A source of auto-discovered printers. */
export interface DiscoverySource {
  /** Short name shown in logs and in `GET /status` warnings, e.g. `usb`, `mdns`. */
  readonly name: string;
  /** A quick local scan (a USB bus) that start-up waits for before it recovers the spool: its printers' jobs find them. */
  readonly awaitedAtStart?: boolean;
  /** One full scan: every printer this source sees now. Rejects only when the source itself is broken. */
  scan(): Promise<DiscoveredPrinter[]>;
  /** Starts background watching (hotplug, periodic browse); events go to `onEvent`. Optional. */
  start?(onEvent: (event: DiscoveryEvent) => void): Promise<void>;
  /** Stops background work and releases handles. */
  stop?(): Promise<void>;
}
