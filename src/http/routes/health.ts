// GET /health: the local readiness check of the device's health gate (buildroot-overlay/usr/libexec/printproxyd/
// health-gate), public: the daemon answers it once it serves, with the version it runs, claimed or not.
import { Type } from '@sinclair/typebox';
import type { Route } from '../route';

/** The health route's content: always ready (it is served only once the daemon is), and the running version. */
export const HealthSchema = Type.Object({
  ready: Type.Boolean({ description: 'true: the daemon serves' }),
  version: Type.String({ description: 'the software version the daemon runs (the booted slot\'s release on a device)' }),
});

/** The health route, answering `version`; needs no key. */
export function healthRoutes(version: string): Route[] {
  return [
    {
      method: 'get', path: '/health', tag: 'device', auth: false, response: HealthSchema,
      summary: 'Readiness and the running version (no key needed): what the device\'s health gate asks before it marks a slot good',
      handler: () => ({ message: 'Ready.', content: { ready: true, version } }),
    },
  ];
}
