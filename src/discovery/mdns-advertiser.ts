// Answers mDNS queries for a host name and its DNS-SD services (the device's printproxy-<id>.local, _http._tcp, _https._tcp).
import multicastDns from 'multicast-dns';

type MulticastDns = ReturnType<typeof multicastDns>;
import type { Logger } from '../log';

/** One advertised service. */
export interface AdvertisedService {
  /** Service type without `.local`, e.g. `_http._tcp`. */
  type: string;
  /** Instance name, e.g. `printproxy-ab12`. */
  instance: string;
  port: number;
  txt: Record<string, string>;
  /** DNS-SD subtypes (`_universal`, `_print`): each also answers `<subtype>._sub.<type>.local`. */
  subtypes?: string[];
}

/** What to advertise and where. */
export interface MdnsAdvertiserOptions {
  /** Host name without `.local`. */
  hostName: string;
  /** IPv4 address the host name resolves to. */
  address: string;
  services: AdvertisedService[];
  interfaceAddress?: string;
  logger: Logger;
}

/** An mDNS responder for one host and its services. */
export class MdnsAdvertiser {
  private mdns: MulticastDns | null = null;
  /** The services advertised now. */
  services: readonly AdvertisedService[];

  constructor(private readonly options: MdnsAdvertiserOptions) {
    this.services = options.services;
  }

  /** Replaces the advertised services; new ones are announced at once, removed ones are said goodbye to (TTL 0). */
  update(services: readonly AdvertisedService[]): void {
    const key = (s: AdvertisedService) => JSON.stringify(s);
    const before = new Set(this.services.map(key));
    const after = new Set(services.map(key));
    const gone = this.services.filter((s) => !after.has(key(s)));
    const added = services.filter((s) => !before.has(key(s)));
    this.services = services;
    if (!this.mdns) return;
    if (gone.length > 0) this.mdns.respond({ answers: gone.flatMap((s) => this.records(s)).map((r) => ({ ...r, ttl: 0 })) });
    if (added.length > 0) this.mdns.respond({ answers: [...added.flatMap((s) => this.records(s)), this.aRecord()] });
  }

  /** Starts answering and announces the records once. */
  start(): void {
    const mdns = multicastDns({ interface: this.options.interfaceAddress, loopback: true });
    this.mdns = mdns;
    mdns.on('error', (err) => this.options.logger.warn('mdns advertiser error', { error: err.message }));
    mdns.on('query', (query) => {
      const asked = new Set(query.questions.map((q) => q.name.toLowerCase()));
      const services = this.services.filter((s) => this.names(s).some((name) => asked.has(name.toLowerCase())));
      const hostAsked = asked.has(this.host().toLowerCase());
      if (services.length === 0 && !hostAsked) return;
      mdns.respond({ answers: [...services.flatMap((s) => this.records(s)), ...(hostAsked || services.length ? [this.aRecord()] : [])] });
    });
    mdns.on('ready', () => mdns.respond({ answers: [...this.services.flatMap((s) => this.records(s)), this.aRecord()] }));
  }

  /** Stops answering. */
  async stop(): Promise<void> {
    const mdns = this.mdns;
    this.mdns = null;
    if (mdns) await new Promise<void>((r) => mdns.destroy(() => r()));
  }

  private host(): string {
    return `${this.options.hostName}.local`;
  }

  private fullName(s: AdvertisedService): string {
    return `${s.instance}.${s.type}.local`;
  }

  private aRecord() {
    return { name: this.host(), type: 'A', ttl: 120, data: this.options.address };
  }

  /** The names a query may ask to find `s`: its type, its subtypes, its instance. */
  private names(s: AdvertisedService): string[] {
    return [`${s.type}.local`, ...(s.subtypes ?? []).map((sub) => `${sub}._sub.${s.type}.local`), this.fullName(s)];
  }

  private records(s: AdvertisedService) {
    return [
      { name: `${s.type}.local`, type: 'PTR', ttl: 4500, data: this.fullName(s) },
      ...(s.subtypes ?? []).map((sub) => ({ name: `${sub}._sub.${s.type}.local`, type: 'PTR', ttl: 4500, data: this.fullName(s) })),
      { name: this.fullName(s), type: 'SRV', ttl: 120, data: { port: s.port, target: this.host(), priority: 0, weight: 0 } },
      { name: this.fullName(s), type: 'TXT', ttl: 4500, data: Object.entries(s.txt).map(([k, v]) => `${k}=${v}`) },
    ];
  }
}
