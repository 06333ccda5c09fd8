// GET /system (device-image.md "Layout"): the booted slot and each root-filesystem slot as RAUC reports them.
import { SystemStatusSchema, type SystemStatus } from '../../schemas/system';
import type { Route } from '../route';

/** GET /system; `read` asks RAUC (see system/rauc-status.ts). */
export function systemRoutes(read: () => Promise<SystemStatus>): Route[] {
  return [
    {
      method: 'get', path: '/system', tag: 'device', summary: 'The A/B slots: which one booted, each one\'s version, install time and boot state',
      description:
        '`good` is the boot loader\'s state of the slot as RAUC reads it (boot_status), never the daemon\'s own belief. ' +
        'Without RAUC (no rauc command: a laptop) the answer is 200 with bootSlot null and no slots; a rauc that fails answers 503.',
      response: SystemStatusSchema,
      responses: { 503: 'System status unavailable' },
      handler: async () => ({ message: 'System status retrieved.', content: await read() }),
    },
  ];
}
