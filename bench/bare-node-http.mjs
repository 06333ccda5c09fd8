// The floor for bench/firmware.ts: a bare Node HTTP server, no framework, started the way the executables are (same
// --host and --port flags, other flags ignored), answering every request 200 with a small JSON body. Plain JavaScript,
// so the target's own Node runs it as it is (in the Debian 13 root, or under qemu-user), with nothing loaded before it.
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const body = JSON.stringify({ result: { code: 200, message: 'OK', content: { ok: true } } });

createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(flag('--port', '8631')), flag('--host', '0.0.0.0'));
