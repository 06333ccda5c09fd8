// What a route declares: the one table that drives uWS registration, validation and openapi.json.
import type { TSchema } from '@sinclair/typebox';

/** HTTP methods the API uses. */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A parsed, authenticated request as handlers see it (uWS request data is copied out before any await). */
export interface ApiRequest {
  /** Path parameters by name, percent-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Lower-cased request headers the API reads. */
  headers: Record<string, string>;
  /** Validated JSON body, or the raw bytes for `application/octet-stream`, or a Readable of them (`streamBody` routes), or undefined. */
  body: unknown;
  bodyKind: 'json' | 'raw' | 'stream' | 'none';
  /** The raw bytes of the route's `largeField` when it was taken out of a large JSON body (no escapes in them), else null. */
  largeField: Buffer | null;
  /** The API path called, without `/api/v1` and query (`result.module`). */
  module: string;
  remoteAddress: string;
  /** Aborted when the client goes away before the answer. */
  signal: AbortSignal;
}

/** What a handler answers: status (default 200), `result.message`, and the content, as a value or already serialized. */
export type ApiReply = { status?: number; message: string } & (
  | { content: unknown; contentJson?: undefined; bytes?: undefined }
  /** `content` serialized once for an answer many requests share unchanged; the envelope is built around it. */
  | { contentJson: string; content?: undefined; bytes?: undefined }
  /** A body that is not JSON (a PNG), sent as it is with its type and extra headers; `message` is unused. */
  | { bytes: Uint8Array; contentType: string; headers?: Record<string, string>; content?: undefined; contentJson?: undefined }
);

/** A request the device makes later, on its own, because of an operation (a webhook delivery), for the docs. */
export interface RouteCallback {
  /** The callback's name in openapi.json. */
  name: string;
  /** OpenAPI runtime expression of the URL called, e.g. `{$request.body#/url}`. */
  url: string;
  summary: string;
  /** The JSON body the device POSTs. */
  body: TSchema;
  /** Headers the device sends. */
  headers: Array<{ name: string; description: string }>;
  /** Answers the device tells apart (`2XX`, `default`), with what each means. */
  responses: Record<string, string>;
}

/**
 * How the fleet's MQTT reaches a route: `refused` (403) with the reason; `refusedIf` a reason for this request's JSON body
 * (403), or null to let it through; `deduplicated`, it creates jobs: spooled, de-duplicated by its idempotency key,
 * answered once (fleet.md "Exactly once").
 */
export type FleetAccess = { refused: string } | { refusedIf: (body: unknown) => string | null } | { deduplicated: true };

/** A route's flag for the fleet's routes that write credentials: a broker must not take the device over. */
export const CREDENTIALS: FleetAccess = { refused: 'it writes credentials' };
/** A route's flag for the fleet's routes reached over HTTP with the key only. */
export const HTTP_ONLY: FleetAccess = { refused: 'it is reached over HTTP with the key only' };
/** A route's flag for the routes that create jobs. */
export const DEDUPLICATED: FleetAccess = { deduplicated: true };

/** One API operation. */
export interface Route {
  method: Method;
  /** OpenAPI-style path below `/api/v1`, e.g. `/printers/{path}`. */
  path: string;
  summary: string;
  /** Longer text for the docs (openapi.json `description`): a choice the summary cannot hold. */
  description?: string;
  tag: string;
  /** JSON body schema; its validator runs before the handler. */
  body?: TSchema;
  /**
   * A top-level string member of the JSON body that may be large (`content`): above 1 MiB of body it is taken out as
   * bytes (`ApiRequest.largeField`) before parsing, and the parsed body holds only its first 256 characters.
   */
  largeField?: string;
  /** Accepts `application/octet-stream` bodies as raw bytes too. */
  rawBody?: boolean;
  /**
   * Accepts `application/octet-stream` bodies as a stream (`body` is a Readable, `bodyKind` 'stream'): never read into
   * memory, exempt from maxBodyBytes and the memory budget; the handler stores it. HTTP only (the fleet sends JSON).
   */
  streamBody?: boolean;
  /** How the fleet's MQTT reaches this route; absent, as any request (fleet.md). */
  fleet?: FleetAccess;
  /**
   * Over the fleet's MQTT, a request without an Idempotency-Key header gets `fleet-id:<its request id>` as one, so that
   * the broker delivering it again is the same request (POST /system/update never installs twice).
   */
  fleetKey?: boolean;
  /** Query parameters the operation reads, for the docs. */
  query?: Array<{ name: string; description: string }>;
  /** Schema of `result.content` on success, for the docs. */
  response?: TSchema;
  /** Status codes besides 200 the operation can answer, with a description, for the docs. */
  responses?: Record<number, string>;
  /** Requests the device makes later because of this operation (webhook deliveries), for the docs. */
  callbacks?: RouteCallback[];
  /** The success answer is not JSON: its media type and description, for the docs (the handler answers `bytes`). */
  binaryResponse?: { contentType: string; description: string; headers?: Array<{ name: string; description: string }> };
  /** Sends `content` as the whole JSON body, without the envelope (openapi.json). */
  bare?: boolean;
  /** Defaults to true; only openapi.json and GET/POST /setup are public. */
  auth?: boolean;
  handler: (req: ApiRequest) => Promise<ApiReply> | ApiReply;
}
