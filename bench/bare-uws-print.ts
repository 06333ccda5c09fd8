// The floor of the HTTP print path: bare uWS reading a print's JSON body, then one connection to the printer at argv[2]
// carrying `~HS` (its answer read) and the label, answering 200 once the printer closed it. No job record, no queue, no
// validation: what any HTTP front to a ~HS pre-flight costs on this Node and this machine (bench/print.ts).
import net from 'node:net';
import { loadUws } from '../src/http/uws';
const port = Number(process.argv[2]);
const uws = loadUws({});
const app = uws.App();
app.post('/api/v1/print/:p', (res) => {
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const chunks: Buffer[] = [];
  res.onData((chunk, last) => {
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!last) return;
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { content: string };
    const s = net.connect({ host: '127.0.0.1', port, noDelay: true }, () => s.write('~HS\r\n'));
    let reply = '';
    s.on('data', (c) => {
      reply += c.toString('latin1');
      if ((reply.match(/\x03/g) ?? []).length < 3) return;
      reply = '';
      s.end(body.content);
    });
    s.on('close', () => {
      if (!aborted) res.cork(() => res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end('{"ok":true}'));
    });
  });
});
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) process.exit(1);
  process.stdout.write(`listening on http://127.0.0.1:${uws.us_socket_local_port(socket)}\n`);
});
