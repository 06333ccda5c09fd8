// The X-Printproxy-Signature header: HMAC-SHA256 over "<t>.<raw body>" with the webhook's secret (events.md).
import { createHmac } from 'node:crypto';

/** `t=<unixSeconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
