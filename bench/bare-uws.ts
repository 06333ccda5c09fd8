// A bare uWS server answering fixed bytes per URL: the ceiling the daemon is compared against.
import { readFileSync } from 'node:fs';
import { loadUws } from '../src/http/uws';

const answers = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, string>;
const uws = loadUws({});
const app = uws.App();
for (const [url, body] of Object.entries(answers)) {
  app.get(url, (res) => {
    res.cork(() => {
      res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(body);
    });
  });
}
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) process.exit(1);
  process.stdout.write(`listening on http://127.0.0.1:${uws.us_socket_local_port(socket)}\n`);
});
