// Messages a client may send on the events WebSocket after authenticating (events.md).
import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPE_NAMES, EventTypePatternSchema } from './webhook';

/** `{"type":"subscribe","types":[...],"printers":[...]}`: replaces the filter; a missing list means every one. */
export const SubscribeMessageSchema = Type.Object({
  type: Type.Literal('subscribe'),
  types: Type.Optional(Type.Array(EventTypePatternSchema, { maxItems: 32 })),
  printers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 256 })),
});
/** A subscribe message. */
export type SubscribeMessage = Static<typeof SubscribeMessageSchema>;

/** One event as the WebSocket and webhooks carry it (events.md "Event object"). */
export const DeviceEventSchema = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Increases by one for every event since the daemon started; `bootId` tells runs apart.' }),
  type: Type.Union(EVENT_TYPE_NAMES.map((t) => Type.Literal(t))),
  time: Type.String({ format: 'date-time' }),
  data: Type.Unknown({ description: 'job.state: the job record as GET /jobs/{jobId}; job.printed: {jobId, printerPath}; printer.status: {path, status, statusReasons}; printer.added/updated: the printer; printer.removed: {path}; device.settings: {changed: [names]}; system.update: the update as GET /system/update.' }),
});
