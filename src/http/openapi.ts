// Generates openapi.json (OpenAPI 3.1) from the route table and its schemas.
import type { TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../errors';
import { ERROR_STATUS } from './error-status';
import type { Route, RouteCallback } from './route';
import { API_PREFIX } from './exchange';

/** A WebSocket the document describes beside the operations (OpenAPI has no WebSocket object: an `x-websockets` extension). */
export interface WebSocketDoc {
  path: string;
  summary: string;
  description: string;
  /** Schema of the messages the device sends (besides its control messages). */
  message: TSchema;
}

/** The OpenAPI 3.1 document of `routes` (and `sockets` as `x-websockets`); `info.version` is the API description version 2.0.0. */
export function buildOpenApi(routes: Route[], appVersion: string, sockets: WebSocketDoc[] = []): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'printproxyd API', version: '2.0.0', description: `Print proxy device API (software ${appVersion})` },
    servers: [{ url: API_PREFIX }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { Envelope: envelopeSchema({}), ErrorEnvelope: envelopeSchema({ type: 'object', properties: { message: { type: 'string' } } }) },
    },
    paths,
    ...(sockets.length > 0 ? { 'x-websockets': Object.fromEntries(sockets.map((w) => [w.path, { summary: w.summary, description: w.description, message: plain(w.message) }])) } : {}),
  };
}

function operation(route: Route): Record<string, unknown> {
  const op: Record<string, unknown> = {
    operationId: `${route.method}${route.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    parameters: [
      ...[...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...(route.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: { type: 'string' } })),
    ],
    responses: responses(route),
  };
  if (route.auth === false) op.security = [];
  if (route.body || route.rawBody || route.streamBody) op.requestBody = requestBody(route);
  if (route.callbacks) op.callbacks = Object.fromEntries(route.callbacks.map((cb) => [cb.name, { [cb.url]: { post: callbackOperation(cb) } }]));
  return op;
}

/** The POST the device makes to a callback URL: its headers, JSON body and the answers it tells apart. */
function callbackOperation(cb: RouteCallback): Record<string, unknown> {
  return {
    summary: cb.summary,
    parameters: cb.headers.map((h) => ({ name: h.name, in: 'header', required: true, description: h.description, schema: { type: 'string' } })),
    requestBody: { required: true, content: { 'application/json': { schema: plain(cb.body) } } },
    responses: Object.fromEntries(Object.entries(cb.responses).map(([status, description]) => [status, { description }])),
  };
}

function requestBody(route: Route): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (route.body) content['application/json'] = { schema: plain(route.body) };
  if (route.rawBody || route.streamBody) content['application/octet-stream'] = { schema: { type: 'string', format: 'binary' } };
  return { required: Boolean(route.body), content };
}

function responses(route: Route): Record<string, unknown> {
  const out: Record<string, unknown> = { 200: route.binaryResponse ? binarySuccess(route.binaryResponse) : jsonSuccess(route) };
  for (const [status, description] of Object.entries(route.responses ?? {})) {
    out[status] = { description, content: { 'application/json': { schema: { $ref: Number(status) < 400 ? '#/components/schemas/Envelope' : '#/components/schemas/ErrorEnvelope' } } } };
  }
  if (route.auth !== false) out[401] = errorResponse('UNAUTHORIZED');
  if (route.body) out[400] = errorResponse('INVALID_REQUEST');
  return out;
}

function jsonSuccess(route: Route): Record<string, unknown> {
  return { description: 'Success', content: { 'application/json': { schema: envelopeSchema(route.response ? plain(route.response) : {}) } } };
}

function binarySuccess(binary: NonNullable<Route['binaryResponse']>): Record<string, unknown> {
  const headers = Object.fromEntries((binary.headers ?? []).map((h) => [h.name, { description: h.description, schema: { type: 'string' } }]));
  return { description: binary.description, headers, content: { [binary.contentType]: { schema: { type: 'string', format: 'binary' } } } };
}

function errorResponse(code: ErrorCode): Record<string, unknown> {
  return { description: ERROR_STATUS[code].message, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
}

function envelopeSchema(content: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    required: ['status', 'statusCode', 'result'],
    properties: {
      status: { type: 'string', enum: ['success', 'error'] },
      statusCode: { type: 'integer' },
      result: {
        type: 'object',
        required: ['module', 'message', 'content'],
        properties: { module: { type: 'string' }, message: { type: 'string' }, content: content },
      },
    },
  };
}

/** A TypeBox schema as plain JSON Schema (drops the symbol keys). */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
