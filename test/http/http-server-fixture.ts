// Starts an HttpServer directly (no daemon) on 127.0.0.1 port 0, and a plain HTTP client that leaves bodies as sent.
import http from 'node:http';
import { ApiAuth } from '../../src/http/auth';
import { FailureLimiter } from '../../src/http/rate-limiter';
import { HttpServer, type HttpServerDeps } from '../../src/http/server';
import { loadUws, type Uws } from '../../src/http/uws';
import { silentLogger } from '../../src/log';
import { MemoryBudget } from '../../src/util/memory-budget';

/** The API key every fixture server accepts. */
export const TEST_KEY = 'fixture-key-0123456789';

let uws: Uws | null = null;

/** A running server under test. */
export interface FixtureServer {
  port: number;
  server: HttpServer;
  stop: () => Promise<void>;
}

/** Starts a server with a silent logger, the test key, a 20-failure limiter and no routes, overridden by `deps`. */
export async function startHttpServer(deps: Partial<HttpServerDeps> = {}): Promise<FixtureServer> {
  uws ??= loadUws({});
  const policy = deps.policy ?? { maxBodyBytes: () => 1024 * 1024, allowedOrigins: () => ['*'] };
  const server = new HttpServer({
    uws,
    routes: [],
    auth: new ApiAuth(() => TEST_KEY, new FailureLimiter({ maxFailures: 20, windowMs: 60_000 })),
    policy,
    budget: new MemoryBudget(() => policy.maxBodyBytes()),
    logger: silentLogger,
    ...deps,
  });
  const port = await server.listen('127.0.0.1', 0);
  return { port, server, stop: () => server.close(1000) };
}

/** Status, lower-cased headers and the body bytes exactly as they came (no decompression). */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request on a fresh connection; rejects after `limitMs`. */
export function request(port: number, method: string, path: string, headers: Record<string, string> = {}, limitMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: limitMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${limitMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
