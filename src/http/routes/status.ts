// GET /status: device status (seed 4.1).
import { DeviceStatusSchema, type DeviceStatus } from '../../schemas/device';
import type { Route } from '../route';

/** The status route; `read` builds the content. */
export function statusRoutes(read: () => DeviceStatus | Promise<DeviceStatus>): Route[] {
  return [
    {
      method: 'get',
      path: '/status',
      tag: 'device',
      summary: 'Device status: uptime, memory, addresses, build, extensions',
      response: DeviceStatusSchema,
      handler: () => {
        const content = read();
        const message = 'Successfully obtained device status.';
        return content instanceof Promise ? content.then((c) => ({ message, content: c })) : { message, content };
      },
    },
  ];
}
