// One guest connection forwarded by qemu's guestfwd (`cmd:`, a process per connection) to a TCP port on 127.0.0.1:
// its stdin and stdout are the guest's side. A `tcp:` guestfwd would be one character device, opened once for all.
// usage: node guest-relay.mjs PORT
import net from 'node:net';

const socket = net.connect(Number(process.argv[2]), '127.0.0.1');
process.stdin.pipe(socket);
socket.pipe(process.stdout);
socket.on('error', () => process.exit(1));
socket.on('close', () => process.exit(0));
