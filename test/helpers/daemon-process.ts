// Starts the real daemon as a child process on port 0 and talks HTTP to it.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { tempDir } from './temp-dir';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** A running daemon under test. */
export interface DaemonHandle {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** The key given by PRINTPROXY_API_KEY, or '' when started without one (an unclaimed device). */
  apiKey: string;
  proc: ChildProcess;
  /** Everything the process printed to stdout so far. */
  stdout: () => string;
  /** The IPP port it announced (`listening on ipp://…`), or null. */
  ippPort: () => number | null;
  /** Calls the API with the test key (or `key`); JSON bodies are serialised. */
  api: (method: string, path: string, init?: ApiInit) => Promise<ApiResult>;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Options of one API call. */
export interface ApiInit {
  body?: unknown;
  raw?: Uint8Array | string;
  headers?: Record<string, string>;
  /** null sends no key at all. */
  key?: string | null;
  /** Source address of the connection (any 127.x.y.z), to appear as another client. */
  localAddress?: string;
}

/** Status, lower-cased headers and parsed JSON body of an answer. */
export interface ApiResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** Options for starting the daemon. */
export interface StartOptions {
  dataDir?: string;
  apiKey?: string | null;
  env?: Record<string, string>;
  args?: string[];
  /** Script to run instead of src/main.ts (e.g. the bundle dist/printproxyd.cjs, run without tsx). */
  entry?: string;
  /** Program and its leading arguments to run instead of node (a single executable, maybe under qemu); flags follow. */
  command?: string[];
  /** Working directory of the process (the repository root by default). */
  cwd?: string;
  /** How long to wait for `listening on` (20 s by default). */
  startTimeoutMs?: number;
}

/** A fresh temporary data dir. */
export function tempDataDir(): string {
  return tempDir('printproxyd-test');
}

/** Starts `src/main.ts` with tsx (or `command`) on 127.0.0.1 port 0, no HTTPS, no mDNS; resolves once it listens. */
export async function startDaemon(options: StartOptions = {}): Promise<DaemonHandle> {
  const dataDir = options.dataDir ?? tempDataDir();
  const apiKey = options.apiKey === undefined ? 'test-key-0123456789abcdef' : options.apiKey;
  const env: Record<string, string> = { ...process.env, ...options.env } as Record<string, string>;
  if (apiKey) env.PRINTPROXY_API_KEY = apiKey;
  else delete env.PRINTPROXY_API_KEY;
  const entry = options.entry ? ['--', resolve(ROOT, options.entry)] : ['--import', 'tsx', join(ROOT, 'src', 'main.ts')];
  const extra = options.args ?? [];
  const https = extra.includes('--https-port') ? [] : ['--no-https'];
  const ipp = extra.includes('--ipp-port') || extra.includes('--no-ipp') ? [] : ['--ipp-port', '0'];
  const args = [...entry, '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', ...https, ...ipp, '--no-mdns', '--log-level', 'warn', ...extra];
  const [program, ...leading] = options.command ? [...options.command, ...args.slice(entry.length)] : [process.execPath, ...args];
  const proc = spawn(program, leading, { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const port = await new Promise<number>((ok, fail) => {
    const limit = options.startTimeoutMs ?? 20_000;
    const timer = setTimeout(() => fail(new Error(`daemon did not start in ${limit} ms\nstdout: ${out}\nstderr: ${err}`)), limit);
    const onData = () => {
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`daemon exited with ${code ?? signal}\nstdout: ${out}\nstderr: ${err}`));
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  // no key: the device starts unclaimed (POST /setup sets one; the caller passes it as `key`)
  const key = apiKey ?? '';
  return {
    baseUrl,
    port,
    dataDir,
    apiKey: key,
    proc,
    stdout: () => out,
    ippPort: () => {
      const m = /listening on ipp:\/\/[^:]+:(\d+)/.exec(out);
      return m ? Number(m[1]) : null;
    },
    api: (method, path, init = {}) => callApi(baseUrl, key, method, path, init),
    stop: (signal = 'SIGTERM') => stopProcess(proc, signal),
  };
}

/** One HTTP call to `/api/v1` + path, over node:http so the source address can be chosen. */
export function callApi(baseUrl: string, defaultKey: string, method: string, path: string, init: ApiInit = {}): Promise<ApiResult> {
  const headers: Record<string, string> = { ...init.headers };
  const key = init.key === undefined ? defaultKey : init.key;
  if (key !== null) headers['X-API-Key'] = key;
  let body: string | Uint8Array | undefined;
  if (init.raw !== undefined) {
    body = init.raw;
    headers['Content-Type'] ??= 'application/octet-stream';
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['Content-Type'] ??= 'application/json';
  }
  if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
  const url = new URL(`${baseUrl}/api/v1${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: init.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function stopProcess(proc: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((ok) => {
    proc.once('exit', (code) => ok(code));
    proc.kill(signal);
  });
}
