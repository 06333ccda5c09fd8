// What a printer's `connection.host` may be: a hostname (RFC 1123 labels) or an IP address literal.
import { Type } from '@sinclair/typebox';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = `${LABEL}(?:\\.${LABEL})*\\.?`;
const IPV6 = '\\[?[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?::?[0-9]{1,3}(?:\\.[0-9]{1,3}){3})?\\]?';

/** A hostname or an IP literal (IPv6 with or without brackets); `hostProblem` (src/printers/host-problem.ts) finishes what a pattern cannot check. */
export const HostSchema = Type.String({ minLength: 1, maxLength: 253, pattern: `^(?:${HOSTNAME}|${IPV6})$`, description: 'a hostname or an IP address' });
