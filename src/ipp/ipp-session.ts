// An IPP client over HTTP(S): Get-Printer-Attributes, Print-Job, Get-Job-Attributes, Cancel-Job, with busy retries.
import http from 'node:http';
import https from 'node:https';
import { DeviceError } from '../errors';
import { IPP_STATUS, IPP_STATUS_NAMES } from './ipp-constants';
import { decodeMessage, encodeRequest, GROUP, TAG, type IppAttribute, type IppMessage, type IppValue } from './ipp-wire';
import { sleep } from '../util/sleep';

/** Connection settings: the printer URI (ipp, ipps, http, https), request time limit, busy retry policy (ms). */
export interface IppSessionOptions {
  uri: string;
  timeoutMs: number;
  /** Time from the first attempt after which server-error-busy is no longer retried (default 5000; 0: never retried). */
  busyWaitMs?: number;
  /** Pause before sending again to a printer that answered server-error-busy (default 250). */
  busyDelayMs?: number;
}

/** A decoded answer: status code, and the first group of each kind flattened. */
export interface IppAnswer {
  status: number;
  operation: Map<string, IppValue[]>;
  job: Map<string, IppValue[]>;
  printer: Map<string, IppValue[]>;
  unsupported: Map<string, IppValue[]>;
}

/** Sends IPP operations to one printer URI. Every failure is a DeviceError naming the printer and the IPP status. */
export class IppSession {
  private requestId = 1;
  private readonly url: URL;

  constructor(private readonly options: IppSessionOptions) {
    this.url = new URL(options.uri.replace(/^ipp:/i, 'http:').replace(/^ipps:/i, 'https:'));
    if (!this.url.port) this.url.port = /^ipps?:/i.test(options.uri) ? '631' : this.url.port;
  }

  /** The printer URI as given. */
  get uri(): string {
    return this.options.uri;
  }

  /**
   * Sends one operation with the standard operation attributes plus `attributes`; retries server-error-busy.
   * An abort of `signal` stops the retries with a CANCELED DeviceError (a request already sent is let finish).
   */
  async call(operation: number, attributes: IppAttribute[], jobAttributes: IppAttribute[] = [], data?: Uint8Array, signal?: AbortSignal): Promise<IppAnswer> {
    const delay = this.options.busyDelayMs ?? 250;
    // a deadline rather than a count: each attempt may upload a whole document and take up to timeoutMs
    const deadline = Date.now() + (this.options.busyWaitMs ?? 5000);
    for (;;) {
      if (signal?.aborted) throw new DeviceError('CANCELED', 'Canceled');
      const answer = await this.once(operation, attributes, jobAttributes, data);
      if (answer.status === IPP_STATUS.busy && Date.now() + delay < deadline) {
        await sleep(delay, signal);
        continue;
      }
      if (answer.status >= IPP_STATUS.badRequest) throw new DeviceError('PROTOCOL', `ipp ${this.options.uri}: the printer answered ${statusName(answer.status)}`);
      return answer;
    }
  }

  private async once(operation: number, attributes: IppAttribute[], jobAttributes: IppAttribute[], data?: Uint8Array): Promise<IppAnswer> {
    const groups: Array<{ tag: number; attributes: IppAttribute[] }> = [{ tag: GROUP.operation, attributes: [...standardAttributes(this.options.uri), ...attributes] }];
    if (jobAttributes.length > 0) groups.push({ tag: GROUP.job, attributes: jobAttributes });
    const body = encodeRequest(operation, this.requestId++, groups, data);
    const reply = await this.post(body);
    let message: IppMessage;
    try {
      message = decodeMessage(reply);
    } catch (err) {
      throw new DeviceError('PROTOCOL', `ipp ${this.options.uri}: unreadable answer (${(err as Error).message})`);
    }
    const group = (tag: number) => message.groups.find((g) => g.tag === tag)?.attributes ?? new Map<string, IppValue[]>();
    return { status: message.code, operation: group(GROUP.operation), job: group(GROUP.job), printer: group(GROUP.printer), unsupported: group(GROUP.unsupported) };
  }

  private post(body: Buffer): Promise<Buffer> {
    const secure = this.url.protocol === 'https:';
    const client = secure ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(
        {
          host: this.url.hostname.replace(/^\[|\]$/g, ''),
          port: this.url.port || (secure ? 443 : 80),
          path: this.url.pathname + this.url.search,
          method: 'POST',
          headers: { 'Content-Type': 'application/ipp', 'Content-Length': body.length },
          // printers ship self-signed certificates; IPPS here is for privacy on the LAN, not identity
          ...(secure ? { rejectUnauthorized: false } : {}),
          timeout: this.options.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new DeviceError('PROTOCOL', `ipp ${this.options.uri}: HTTP ${res.statusCode}`));
            else resolve(Buffer.concat(chunks));
          });
          res.on('error', (err) => reject(this.error(err as NodeJS.ErrnoException)));
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.on('error', (err) => reject(this.error(err as NodeJS.ErrnoException)));
      req.end(body);
    });
  }

  private error(err: NodeJS.ErrnoException): DeviceError {
    if (err.code === 'ECONNREFUSED') return new DeviceError('CONNECT_REFUSED', `ipp ${this.options.uri}: connection refused`);
    if (err.code === 'ETIMEDOUT') return new DeviceError('CONNECT_TIMEOUT', `ipp ${this.options.uri}: no answer within ${this.options.timeoutMs} ms`);
    if (err.code === 'ECONNRESET') return new DeviceError('CONNECTION_RESET', `ipp ${this.options.uri}: connection reset`);
    return new DeviceError('IO', `ipp ${this.options.uri}: ${err.code ?? err.message}`);
  }
}

/** attributes-charset, attributes-natural-language and printer-uri, which every request starts with. */
function standardAttributes(uri: string): IppAttribute[] {
  return [
    { tag: TAG.charset, name: 'attributes-charset', values: ['utf-8'] },
    { tag: TAG.naturalLanguage, name: 'attributes-natural-language', values: ['en'] },
    { tag: TAG.uri, name: 'printer-uri', values: [uri] },
  ];
}

/** The RFC 8011 name of a status code, with its hex value. */
export function statusName(status: number): string {
  return `${IPP_STATUS_NAMES[status] ?? 'status'} (0x${status.toString(16).padStart(4, '0')})`;
}
