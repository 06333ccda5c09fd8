// The object a delivery carries: a bus event (events.md "Event object"), or the `ping` of POST /webhooks/{id}/test.

/** What a delivery's JSON body holds; `id` is the bus's event number (0 for a ping). */
export interface WebhookEvent {
  id: number;
  type: string;
  /** ISO 8601 time of emission. */
  time: string;
  data: unknown;
}

/** The ping event sent to one webhook by its test route. */
export function pingEvent(webhookId: string, now: number): WebhookEvent {
  return { id: 0, type: 'ping', time: new Date(now).toISOString(), data: { webhookId } };
}
