// Starts the real daemon inside the test process, with hardware the test provides (a fake USB bus).
import { parseCommandLine } from '../../src/cli';
import { startDaemon, type DaemonHardware, type RunningDaemon } from '../../src/daemon';
import { silentLogger } from '../../src/log';
import { callApi, type ApiInit, type ApiResult } from './daemon-process';
import { tempDir } from './temp-dir';

/** A daemon running in this process. */
export interface InProcessDaemon {
  baseUrl: string;
  httpPort: number;
  /** The HTTPS port when started with `https`, else null. */
  httpsPort: number | null;
  /** The IPP port of shared printers. */
  ippPort: number | null;
  api: (method: string, path: string, init?: ApiInit) => Promise<ApiResult>;
  /** The daemon's event bus. */
  events: RunningDaemon['events'];
  stop: () => Promise<void>;
}

/** Starts the daemon on 127.0.0.1 port 0 (and HTTPS on port 0 with `https`) with `hardware`; short transport timeouts keep failure tests fast; `env` adds or overrides variables. */
export async function startInProcess(hardware: DaemonHardware, dataDir = tempDir('printproxyd-inproc'), mdns = false, https = false, env: Record<string, string> = {}): Promise<InProcessDaemon> {
  const key = 'inproc-key-0123456789abcdef';
  const command = parseCommandLine(['--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', '--ipp-port', '0', ...(https ? ['--https-port', '0'] : ['--no-https']), ...(mdns ? [] : ['--no-mdns'])], {
    PRINTPROXY_API_KEY: key,
    PRINTPROXY_TCP_IDLE_TIMEOUT_MS: '1500',
    PRINTPROXY_TCP_QUERY_TIMEOUT_MS: '300',
    ...env,
  });
  if (command.kind !== 'serve') throw new Error('expected serve options');
  const daemon = await startDaemon(command.options, silentLogger, () => undefined, hardware);
  const baseUrl = `http://127.0.0.1:${daemon.httpPort}`;
  return { baseUrl, httpPort: daemon.httpPort, httpsPort: daemon.httpsPort, ippPort: daemon.ippPort, api: (method, path, init) => callApi(baseUrl, key, method, path, init), events: daemon.events, stop: () => daemon.stop() };
}
