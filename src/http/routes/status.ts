// GET /status: device status (seed 4.1).
import { DeviceStatusSchema, type DeviceStatus } from '../../schemas/device';
import type { Route } from '../route';

/** The status route; `read` builds the content. */
export function statusRoutes(read: () => Promise<DeviceStatus>): Route[] {
  return [
    {
      method: 'get',
      path: '/status',
      tag: 'device',
      summary: 'Device status: uptime, memory, addresses, build, extensions',
      response: DeviceStatusSchema,
      handler: async () => ({ message: 'Successfully obtained device status.', content: await read() }),
    },
  ];
}
