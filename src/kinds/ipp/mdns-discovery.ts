// Network printers over mDNS/DNS-SD: browses _ipp._tcp, _ipps._tcp and _pdl-datastream._tcp for a bounded time.
import multicastDns from 'multicast-dns';
import type { Logger } from '../../log';
import type { ContentKind, DiscoveredPrinter } from '../../schemas/printer';
import { rawSocketPath } from '../printer-path';
import { ippPath } from './ipp-uri';
import type { DiscoveryEvent, DiscoverySource } from '../../discovery/source';
import { Presence } from '../../discovery/presence';

/** Service types browsed. */
export const BROWSED = ['_ipp._tcp.local', '_ipps._tcp.local', '_pdl-datastream._tcp.local'] as const;

/** Settings: interface address to use (undefined: the default), how long one scan listens (ms), how often to rescan. */
export interface MdnsDiscoveryOptions {
  interfaceAddress?: string;
  scanMs: number;
  rescanMs: number;
  /** Decides the content of a raw-socket (`_pdl-datastream`) printer no one knows yet: asks the languages' probes (`~HS`…). */
  probeRaw: (host: string, port: number) => Promise<ContentKind>;
  /** The record of the printer at `path` when one exists (manual or discovered): its runtime owns the device, so it is not probed. */
  printerAt: (path: string) => { content: ContentKind } | null;
  logger: Logger;
}

interface Service {
  instance: string;
  type: (typeof BROWSED)[number];
  target?: string;
  port?: number;
  txt: Record<string, string>;
}

/** A DiscoverySource over multicast DNS. */
export class MdnsDiscovery implements DiscoverySource {
  readonly name = 'mdns';
  private timer: NodeJS.Timeout | null = null;
  /** Printers seen in one of the last two scans: one lost multicast answer does not drop a printer. */
  private readonly known = new Map<string, DiscoveredPrinter>();
  private readonly presence = new Presence(2);
  /** Probes under way, by path: two scans at once (start-up's and GET /discover's) share one. */
  private readonly probing = new Map<string, Promise<ContentKind>>();

  constructor(private readonly options: MdnsDiscoveryOptions) {}

  /** Browses once; returns every printer seen in this scan or the one before (a printer missing from two in a row is gone). */
  async scan(): Promise<DiscoveredPrinter[]> {
    const found = await this.browse();
    for (const printer of found) this.known.set(printer.path, printer);
    for (const path of this.presence.update(found.map((p) => p.path))) this.known.delete(path);
    return [...this.known.values()];
  }

  /** Listens for `scanMs`, asking three times, and returns every printer service that resolved to an address. */
  private async browse(): Promise<DiscoveredPrinter[]> {
    const mdns = multicastDns({ interface: this.options.interfaceAddress, loopback: true });
    const services = new Map<string, Service>();
    const addresses = new Map<string, string>();
    mdns.on('error', (err) => this.options.logger.warn('mdns error', { error: err.message }));
    mdns.on('response', (packet) => collect([...packet.answers, ...packet.additionals], services, addresses));
    const ask = () => mdns.query({ questions: BROWSED.map((name) => ({ name, type: 'PTR' })) });
    const asks = [0, Math.round(this.options.scanMs / 4), Math.round(this.options.scanMs / 2)].map((at) => setTimeout(ask, at));
    await new Promise((r) => setTimeout(r, this.options.scanMs));
    asks.forEach(clearTimeout);
    await new Promise<void>((r) => mdns.destroy(() => r()));
    const printers = await Promise.all([...services.values()].map((s) => this.toPrinter(s, addresses)));
    return printers.filter((p): p is DiscoveredPrinter => p !== null);
  }

  /** Rescans every `rescanMs`: what scan() returns is attached; what it no longer returns is detached. */
  async start(onEvent: (event: DiscoveryEvent) => void): Promise<void> {
    this.timer = setInterval(() => {
      const before = new Set(this.known.keys());
      this.scan().then(
        (printers) => {
          printers.forEach((printer) => onEvent({ kind: 'attached', printer }));
          for (const path of before) if (!this.known.has(path)) onEvent({ kind: 'detached', path });
        },
        (err: unknown) => this.options.logger.warn('mdns rescan failed', { error: String(err) }),
      );
    }, this.options.rescanMs);
    this.timer.unref();
  }

  /** Stops rescanning. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async toPrinter(service: Service, addresses: Map<string, string>): Promise<DiscoveredPrinter | null> {
    if (!service.target || !service.port) return null;
    const host = addresses.get(service.target) ?? service.target.replace(/\.local$/, '.local');
    const name = service.instance.split('._')[0];
    if (service.type === '_pdl-datastream._tcp.local') {
      const connection = { type: 'network', host, port: service.port, protocol: 'tcp' } as const;
      const path = rawSocketPath(host, service.port);
      // only a printer no one knows is probed: one with a record has its runtime, the one owner of its device, whose
      // content comes from that record (the memory of seen printers is empty at each start, the records are not)
      const content = this.known.get(path)?.content ?? this.options.printerAt(path)?.content ?? (await this.probeOnce(path, host, service.port));
      return { path, connection, model: service.txt.ty || name, content, localAddress: host };
    }
    const protocol = service.type === '_ipps._tcp.local' ? 'ipps' : 'ipp';
    const resourcePath = `/${(service.txt.rp ?? 'ipp/print').replace(/^\//, '')}`;
    const connection = { type: 'network', host, port: service.port, protocol, resourcePath } as const;
    // the same path a manual printer at this address gets, so its URI form finds it (decisions.md, Printers)
    return {
      path: ippPath(connection),
      connection,
      model: service.txt.ty || name,
      content: 'pdf',
      localAddress: host,
      ...(service.txt.pdl ? { supportedFormats: service.txt.pdl.split(',') } : {}),
    };
  }

  /** Probes the printer at `path` once however many scans ask at the same time. */
  private probeOnce(path: string, host: string, port: number): Promise<ContentKind> {
    let probe = this.probing.get(path);
    if (!probe) {
      probe = this.options.probeRaw(host, port).finally(() => this.probing.delete(path));
      this.probing.set(path, probe);
    }
    return probe;
  }
}

function collect(records: Array<{ name: string; type: string; data?: unknown }>, services: Map<string, Service>, addresses: Map<string, string>): void {
  for (const r of records) {
    const type = BROWSED.find((t) => r.name === t || r.name.endsWith(`.${t}`));
    if (r.type === 'PTR' && type && typeof r.data === 'string') {
      if (!services.has(r.data)) services.set(r.data, { instance: r.data, type, txt: {} });
    } else if (r.type === 'SRV' && type) {
      const s = services.get(r.name) ?? { instance: r.name, type, txt: {} };
      const data = r.data as { port: number; target: string };
      services.set(r.name, { ...s, port: data.port, target: data.target });
    } else if (r.type === 'TXT' && type) {
      const s = services.get(r.name) ?? { instance: r.name, type, txt: {} };
      services.set(r.name, { ...s, txt: { ...s.txt, ...parseTxt(r.data) } });
    } else if (r.type === 'A' && typeof r.data === 'string') {
      addresses.set(r.name, r.data);
    }
  }
}

function parseTxt(data: unknown): Record<string, string> {
  const entries = Array.isArray(data) ? data : [data];
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const text = Buffer.isBuffer(entry) ? entry.toString('utf8') : String(entry ?? '');
    const eq = text.indexOf('=');
    if (eq > 0) out[text.slice(0, eq).toLowerCase()] = text.slice(eq + 1);
  }
  return out;
}
