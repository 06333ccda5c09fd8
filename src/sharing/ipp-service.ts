// The IPP endpoint of shared printers: checks each request (RFC 8011 4.1), finds the printer, runs the operation, encodes the answer.
import { IppDecodeError, IppFault } from '../errors';
import { decodeRequest, encodeResponse, GROUP, TAG, type IppAttribute, type IppRequest } from '../ipp/ipp-wire';
import type { Logger } from '../log';
import type { PrinterRecord } from '../schemas/printer';
import { IPP_STATUS } from '../ipp/ipp-constants';
import type { IppAnswer, IppOperations } from './ipp-operations';
import { charset, language, text } from './ipp-values';

/** Where a request came in: the Host header it was sent to and whether the listener is TLS. */
export interface IppOrigin {
  host: string;
  secure: boolean;
  /** Keeps the request's bytes counted in the memory budget after the answer; their release, or null when they do not fit. */
  hold: () => (() => void) | null;
}

/** What the endpoint needs besides the operations. */
export interface IppServiceDeps {
  operations: IppOperations;
  /** The printer with this 8-character id when it is shared over IPP, else null. */
  findShared: (printerId: string) => PrinterRecord | null;
  /** The device's web address (http://HOST:PORT) for a request that reached `hostName`. */
  webUrl: (hostName: string) => string;
  logger: Logger;
}

/** Answers IPP requests to `/ipp/print/<id>`; never throws: every failure is an IPP status. */
export class IppService {
  constructor(private readonly deps: IppServiceDeps) {}

  /** The encoded IPP response to `body` (a request, then its document) sent to printer `printerId`. */
  async handle(printerId: string, body: Buffer, origin: IppOrigin): Promise<Buffer> {
    const head = { version: [2, 0] as [number, number], requestId: body.length >= 8 ? body.readUInt32BE(4) : 0 };
    try {
      const request = decodeRequest(body);
      head.version = supportedVersion(request.version) ?? [1, 1];
      check(request);
      const printer = this.deps.findShared(printerId);
      if (!printer) throw new IppFault(IPP_STATUS.notFound, `no shared printer ${printerId}`);
      const host = origin.host || '127.0.0.1';
      const answer = await this.deps.operations.run({
        request,
        printer,
        printerUri: `${origin.secure ? 'ipps' : 'ipp'}://${host}/ipp/print/${printer.id}`,
        secure: origin.secure,
        webUrl: this.deps.webUrl(hostName(host)),
        data: body.subarray(request.dataOffset),
        hold: origin.hold,
      });
      return respond(head.version, head.requestId, answer);
    } catch (err) {
      const fault = faultOf(err);
      if (fault.status === IPP_STATUS.internalError) this.deps.logger.error('IPP request failed', { printerId, error: err instanceof Error ? err.stack : String(err) });
      return respond(head.version, head.requestId, { status: fault.status, message: fault.status === IPP_STATUS.internalError ? INTERNAL_MESSAGE : fault.message, groups: [] });
    }
  }
}

/** The status-message of server-error-internal-error: what failed is in the device log, never in the answer. */
const INTERNAL_MESSAGE = 'Internal error; see the device log.';

/** The IPP answer of anything thrown: a fault as it is, bytes that do not decode as client-error-bad-request, the rest an internal error. */
function faultOf(err: unknown): IppFault {
  if (err instanceof IppFault) return err;
  if (err instanceof IppDecodeError) return new IppFault(IPP_STATUS.badRequest, err.message);
  return new IppFault(IPP_STATUS.internalError, INTERNAL_MESSAGE);
}

/** The encoded server-error-busy answer, with `message`, to a request of which only `head` (its first 8 bytes) was read. */
export function busyAnswer(head: Buffer, message: string): Buffer {
  const version = head.length >= 2 ? (supportedVersion([head[0], head[1]]) ?? [1, 1]) : ([2, 0] as [number, number]);
  const requestId = head.length >= 8 ? head.readUInt32BE(4) : 0;
  return respond(version, requestId, { status: IPP_STATUS.busy, message, groups: [] });
}

/** The version to answer in: the request's when it is 1.x or 2.x, else null (server-error-version-not-supported). */
function supportedVersion(version: [number, number]): [number, number] | null {
  return version[0] === 1 || version[0] === 2 ? version : null;
}

/** RFC 8011 4.1: version, request id, attributes-charset then attributes-natural-language first, a target URI. */
function check(request: IppRequest): void {
  if (!supportedVersion(request.version)) throw new IppFault(IPP_STATUS.versionNotSupported, `IPP version ${request.version.join('.')} is not supported`);
  if (request.requestId === 0) throw new IppFault(IPP_STATUS.badRequest, 'request-id must not be 0');
  const first = request.groups[0];
  if (!first || first.tag !== GROUP.operation) throw new IppFault(IPP_STATUS.badRequest, 'the request has no operation attributes');
  const [cs, lang] = first.attributes;
  if (cs?.name !== 'attributes-charset' || cs.tag !== TAG.charset || lang?.name !== 'attributes-natural-language' || lang.tag !== TAG.naturalLanguage) {
    throw new IppFault(IPP_STATUS.badRequest, 'attributes-charset and attributes-natural-language must come first');
  }
  const value = String(cs.values[0]).toLowerCase();
  if (value !== 'utf-8' && value !== 'us-ascii') throw new IppFault(IPP_STATUS.charsetNotSupported, `charset ${value} is not supported`);
  if (!first.attributes.some((a) => a.name === 'printer-uri' || a.name === 'job-uri')) throw new IppFault(IPP_STATUS.badRequest, 'printer-uri is required');
}

function respond(version: [number, number], requestId: number, answer: IppAnswer): Buffer {
  const operation: IppAttribute[] = [charset('attributes-charset', 'utf-8'), language('attributes-natural-language', 'en')];
  if (answer.message) operation.push(text('status-message', answer.message.slice(0, 255)));
  return encodeResponse(version, answer.status ?? IPP_STATUS.ok, requestId, [{ tag: GROUP.operation, attributes: operation }, ...answer.groups]);
}

/** The host name of a Host header value (`[::1]:631` → `[::1]`, `10.0.0.2:631` → `10.0.0.2`). */
function hostName(host: string): string {
  const m = /^(\[[^\]]*\]|[^:]*)/.exec(host);
  return m?.[1] || host;
}
