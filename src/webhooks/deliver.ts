// One delivery attempt: the event as the JSON body, the three X-Printproxy headers, the answer judged (2xx is delivered).
import type { LastDelivery } from '../schemas/webhook';
import type { HttpPost } from './http-post';
import { signatureHeader } from './signature';
import type { WebhookEvent } from './webhook-event';

/** Where and with which key a webhook's deliveries go. */
export interface DeliveryTarget {
  url: string;
  secret: string;
}

/** Sends one event to a target; resolves with the outcome (error null when delivered), never rejects. */
export type Deliver = (target: DeliveryTarget, deliveryId: string, event: WebhookEvent, signal: AbortSignal) => Promise<LastDelivery>;

/** The Deliver of the daemon over `post`, each attempt limited to `timeoutMs` and signed at the time it is sent. */
export function deliverer(post: HttpPost, timeoutMs: number, now: () => number): Deliver {
  return async (target, deliveryId, event, signal) => {
    const body = JSON.stringify(event);
    const headers = {
      'user-agent': 'printproxyd',
      'x-printproxy-event': event.type,
      'x-printproxy-delivery': deliveryId,
      'x-printproxy-signature': signatureHeader(target.secret, body, Math.floor(now() / 1000)),
    };
    const answer = await post(target.url, headers, body, { timeoutMs, signal }).catch((err: unknown) => ({ status: null, error: (err as Error).message }));
    const delivered = answer.status !== null && answer.status >= 200 && answer.status < 300;
    return {
      time: new Date(now()).toISOString(),
      deliveryId,
      eventType: event.type,
      status: answer.status,
      error: delivered ? null : (answer.error ?? `HTTP ${answer.status}`),
    };
  };
}
