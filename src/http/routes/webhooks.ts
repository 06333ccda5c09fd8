// Webhook routes (events.md "Webhooks"): register, list, read, delete, and send a test ping.
import { Type } from '@sinclair/typebox';
import { DELIVERY_HEADERS, PingResultSchema, WebhookBodySchema, WebhookEventSchema, WebhookSchema, type WebhookBody } from '../../schemas/webhook';
import type { Webhooks } from '../../webhooks/webhooks';
import type { Route, RouteCallback } from '../route';

const NOT_STORED = 'Device cannot store the change';

/** What the device POSTs to a webhook's url for each event. */
const DELIVERY: RouteCallback = {
  name: 'event',
  url: '{$request.body#/url}',
  summary: 'One event, signed; retried with backoff (1 s doubling to 1 h, with jitter) for 24 h until a 2xx arrives within 10 s',
  body: WebhookEventSchema,
  headers: DELIVERY_HEADERS,
  responses: { '2XX': 'Delivered', default: 'Not delivered: sent again later with the same X-Printproxy-Delivery' },
};

/** GET/POST /webhooks, GET/DELETE /webhooks/{id}, POST /webhooks/{id}/test. */
export function webhookRoutes(webhooks: Webhooks): Route[] {
  return [
    {
      method: 'get', path: '/webhooks', tag: 'webhooks', summary: 'Registered webhooks (secrets masked) with their delivery counts',
      response: Type.Array(WebhookSchema),
      handler: () => ({ message: 'Webhooks retrieved.', content: webhooks.list() }),
    },
    {
      method: 'post', path: '/webhooks', tag: 'webhooks', summary: 'Register a webhook; the answer is the only one that shows its secret',
      body: WebhookBodySchema, response: WebhookSchema, callbacks: [DELIVERY], responses: { 201: 'Webhook added', 507: NOT_STORED },
      handler: async (req) => ({ status: 201, message: 'Webhook added.', content: await webhooks.create(req.body as WebhookBody) }),
    },
    {
      method: 'get', path: '/webhooks/{id}', tag: 'webhooks', summary: 'One webhook: filters, pending and dropped counts, the last delivery attempt',
      response: WebhookSchema, responses: { 404: 'Webhook not found' },
      handler: (req) => ({ message: 'Webhook retrieved.', content: webhooks.get(req.params.id) }),
    },
    {
      method: 'delete', path: '/webhooks/{id}', tag: 'webhooks', summary: 'Remove a webhook and its pending deliveries',
      response: WebhookSchema, responses: { 404: 'Webhook not found', 507: NOT_STORED },
      handler: async (req) => ({ message: 'Webhook removed.', content: await webhooks.remove(req.params.id) }),
    },
    {
      method: 'post', path: '/webhooks/{id}/test', tag: 'webhooks', summary: 'Send a `ping` event now (outside the queue, not retried) and answer what the receiver said',
      response: PingResultSchema, responses: { 404: 'Webhook not found' },
      handler: async (req) => {
        const result = await webhooks.ping(req.params.id);
        return { message: result.delivered ? 'Ping delivered.' : 'Ping not delivered.', content: result };
      },
    },
  ];
}
