// CORS for browsers calling the device directly, including the Private Network Access preflight.

/** Headers the API lets browsers send. */
const ALLOWED_HEADERS = 'X-API-Key, Content-Type, Idempotency-Key';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** CORS headers for an answer to `origin` given the allowed origins setting; empty when not allowed or no origin. */
export function corsHeaders(origin: string, allowedOrigins: readonly string[]): Record<string, string> {
  if (!origin) return {};
  if (allowedOrigins.includes('*')) return { 'Access-Control-Allow-Origin': '*' };
  if (!allowedOrigins.includes(origin)) return {};
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

/** Headers answering a preflight; adds Access-Control-Allow-Private-Network when the browser asked for it. */
export function preflightHeaders(origin: string, allowedOrigins: readonly string[], requestsPrivateNetwork: boolean): Record<string, string> {
  const base = corsHeaders(origin, allowedOrigins);
  if (!base['Access-Control-Allow-Origin']) return {};
  const headers: Record<string, string> = {
    ...base,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
  };
  if (requestsPrivateNetwork) headers['Access-Control-Allow-Private-Network'] = 'true';
  return headers;
}
