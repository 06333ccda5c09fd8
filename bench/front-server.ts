// One HttpServer for bench/http-front.ts (the tests' fixture server): GET /status and PUT /upload on 127.0.0.1, with
// the Http1Front before uWS when FRONT=1; prints its port.
import { Http1Front } from '../src/http/http1-front';
import type { Route } from '../src/http/route';
import { silentLogger } from '../src/log';
import { startHttpServer } from '../test/http/http-server-fixture';

const routes: Route[] = [
  { method: 'get', path: '/status', summary: 'status', tag: 'b', handler: () => ({ message: 'Status', content: { up: true, printers: 10 } }) },
  { method: 'put', path: '/upload', summary: 'raw bytes', tag: 'b', rawBody: true, handler: (req) => ({ message: 'Stored', content: { bytes: (req.body as Buffer).length } }) },
];
void startHttpServer({
  routes,
  policy: { maxBodyBytes: () => 64 * 1024 * 1024, allowedOrigins: () => [] },
  front: process.env.FRONT === '1' ? new Http1Front({ logger: silentLogger }) : undefined,
}).then((server) => console.log(`listening on :${server.port}`));
