// Minimal typing of the `multicast-dns` package as printproxyd uses it.
declare module 'multicast-dns' {
  interface Record {
    name: string;
    type: string;
    ttl?: number;
    class?: string;
    flush?: boolean;
    data?: unknown;
  }
  interface Packet {
    questions: Array<{ name: string; type: string }>;
    answers: Record[];
    additionals: Record[];
  }
  interface Options {
    interface?: string;
    bind?: string | false;
    port?: number;
    ip?: string;
    loopback?: boolean;
    reuseAddr?: boolean;
    multicast?: boolean;
    ttl?: number;
  }
  interface MulticastDns {
    on(event: 'query' | 'response', listener: (packet: Packet) => void): void;
    on(event: 'error' | 'warning', listener: (err: Error) => void): void;
    on(event: 'ready', listener: () => void): void;
    query(query: { questions: Array<{ name: string; type: string }> }): void;
    respond(response: { answers: Record[]; additionals?: Record[] }): void;
    destroy(cb?: () => void): void;
  }
  function multicastDns(options?: Options): MulticastDns;
  export = multicastDns;
}
