// One HttpServer for bench/http-front.ts: GET /status and PUT /upload on 127.0.0.1, with the Http1Front before uWS when
// FRONT=1; prints its port.
import { ApiAuth } from '../src/http/auth';
import { Http1Front } from '../src/http/http1-front';
import { FailureLimiter } from '../src/http/rate-limiter';
import type { Route } from '../src/http/route';
import { HttpServer } from '../src/http/server';
import { loadUws } from '../src/http/uws';
import { silentLogger } from '../src/log';

const routes: Route[] = [
  { method: 'get', path: '/status', summary: 'status', tag: 'b', handler: () => ({ message: 'Status', content: { up: true, printers: 10 } }) },
  { method: 'put', path: '/upload', summary: 'raw bytes', tag: 'b', rawBody: true, handler: (req) => ({ message: 'Stored', content: { bytes: (req.body as Buffer).length } }) },
];
const server = new HttpServer({
  uws: loadUws({}),
  routes,
  auth: new ApiAuth(() => 'bench-key-0123456789', new FailureLimiter({ maxFailures: 20, windowMs: 60_000 })),
  policy: { maxBodyBytes: () => 64 * 1024 * 1024, allowedOrigins: () => [] },
  logger: silentLogger,
  front: process.env.FRONT === '1' ? new Http1Front({ logger: silentLogger }) : undefined,
});
void server.listen('127.0.0.1', 0).then((port) => console.log(`listening on :${port}`));
