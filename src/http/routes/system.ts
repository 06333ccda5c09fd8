// The device's system (device-image.md "Layout", "Updates"): GET /system, the update routes, reboot and rollback.
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors';
import { RebootPolicySchema, SystemStatusSchema, UPDATE_UPLOAD_QUERY, UpdateRecordSchema, UpdateRequestSchema, type RebootPolicy, type SystemStatus, type UpdateRequest } from '../../schemas/system';
import type { UpdateAnswer, UpdateManager, UploadOptions } from '../../system/update-manager';
import { isSemver } from '../../system/semver';
import { HTTP_ONLY, type ApiReply, type ApiRequest, type Route } from '../route';

/** Collaborators of the system routes. */
export interface SystemRouteDeps {
  /** The slots as RAUC reports them (system/rauc-status.ts); its `update` is replaced by the manager's. */
  read: () => Promise<SystemStatus>;
  updates: UpdateManager;
  /** The setting updates.fromFleet: whether the fleet may POST /system/update. */
  fromFleet: () => boolean;
}

const REBOOT_POLICIES: readonly RebootPolicy[] = RebootPolicySchema.anyOf.map((literal) => literal.const as RebootPolicy);

/** GET /system, GET/POST /system/update, POST /system/reboot and POST /system/rollback. */
export function systemRoutes(deps: SystemRouteDeps): Route[] {
  return [
    {
      method: 'get', path: '/system', tag: 'device', summary: 'The A/B slots: which one booted, each one\'s version, install time and boot state; the last update',
      description:
        '`good` is the boot loader\'s state of the slot as RAUC reads it (boot_status), never the daemon\'s own belief. ' +
        'Without RAUC (no rauc command: a laptop) the answer is 200 with bootSlot null and no slots; a rauc that fails answers 503.',
      response: SystemStatusSchema,
      responses: { 503: 'System status unavailable' },
      handler: async () => ({ message: 'System status retrieved.', content: { ...(await deps.read()), update: deps.updates.current } }),
    },
    {
      method: 'get', path: '/system/update', tag: 'device', summary: 'The last update (null before the first)',
      response: Type.Union([UpdateRecordSchema, Type.Null()]),
      handler: () => ({ message: 'Update retrieved.', content: deps.updates.current }),
    },
    {
      method: 'post', path: '/system/update', tag: 'device', summary: 'Install a signed RAUC bundle from a URL, or (HTTP only) uploaded as the body; then reboot as asked',
      description:
        'Checks before anything is written to a slot: free space (507), size, sha256, the signature against the system keyring, `compatible`, ' +
        'the manifest version against `version`, and no downgrade (409 unless allowDowngrade over HTTP). A refusal before the 202 names its check ' +
        '(`content.check`); one after it ends the update `failed` with the reason in `error`. An uploaded body (application/octet-stream) is ' +
        'streamed to the data partition, exempt from maxBodyBytes, and checked before the 202. One update at a time (409). An Idempotency-Key ' +
        'seen before answers 200 with that update and installs nothing (over MQTT a request without one is keyed by its id). ' +
        'Over MQTT only the URL form, only with updates.fromFleet, never allowDowngrade.',
      body: UpdateRequestSchema, streamBody: true, fleetKey: true, query: UPDATE_UPLOAD_QUERY, response: UpdateRecordSchema,
      responses: {
        202: 'Update started; content is the update', 400: 'Invalid request', 403: 'Refused over MQTT (updates.fromFleet off, or allowDowngrade)',
        409: 'An update is running, or the version is not newer', 422: 'Bundle refused (content.check names the check)', 503: 'RAUC unavailable', 507: 'Not enough room on the data partition',
      },
      fleet: {
        refusedIf: (body) => {
          if (!deps.fromFleet()) return 'updates.fromFleet is off (set it over HTTP: PUT /settings/updates)';
          if ((body as { allowDowngrade?: unknown } | undefined)?.allowDowngrade === true) return 'a downgrade is never allowed over MQTT';
          return null;
        },
      },
      handler: async (req) => {
        const key = req.headers['idempotency-key'] || null;
        if (req.bodyKind === 'stream') return answer(await deps.updates.upload(req.body as Readable, declaredLength(req), uploadOptions(req.query), key));
        return answer(await deps.updates.requestUrl(req.body as UpdateRequest, key));
      },
    },
    {
      method: 'post', path: '/system/reboot', tag: 'device', summary: 'Reboot the device (an installed update into its new slot)', fleet: HTTP_ONLY,
      responses: { 202: 'Reboot requested', 403: 'Refused over MQTT', 503: 'The root helper cannot be asked' },
      handler: async () => {
        await deps.updates.reboot();
        return { status: 202, message: 'Reboot requested.', content: null };
      },
    },
    {
      method: 'post', path: '/system/rollback', tag: 'device', summary: 'Make the other slot primary when RAUC has it good, then reboot into it', fleet: HTTP_ONLY,
      responses: { 202: 'Rollback requested', 403: 'Refused over MQTT', 409: 'An update runs, or the other slot is not good', 503: 'RAUC or the root helper unavailable' },
      handler: async () => {
        await deps.updates.rollback();
        return { status: 202, message: 'Rollback requested: rebooting into the other slot.', content: null };
      },
    },
  ];
}

function answer(result: UpdateAnswer): ApiReply {
  if (result.replay) return { status: 200, message: 'Existing update returned.', content: result.update };
  return { status: 202, message: 'Update started.', content: result.update };
}

function declaredLength(req: ApiRequest): number | null {
  const text = req.headers['content-length'];
  return text ? Number(text) : null;
}

/** The options of an uploaded bundle from the query; a bad value is a 400 naming the parameter. */
function uploadOptions(query: URLSearchParams): UploadOptions {
  const version = query.get('version');
  if (version !== null && !isSemver(version)) throw new AppError('INVALID_REQUEST', 'version must be a semantic version such as 1.4.0');
  const sha256 = query.get('sha256');
  if (sha256 !== null && !/^[0-9a-fA-F]{64}$/.test(sha256)) throw new AppError('INVALID_REQUEST', 'sha256 must be 64 hex digits');
  const reboot = query.get('reboot') ?? 'idle';
  if (!REBOOT_POLICIES.includes(reboot as RebootPolicy)) throw new AppError('INVALID_REQUEST', 'reboot must be idle, now or manual');
  const allow = query.get('allowDowngrade');
  if (allow !== null && allow !== 'true' && allow !== 'false') throw new AppError('INVALID_REQUEST', 'allowDowngrade must be true or false');
  return { version, sha256, reboot: reboot as RebootPolicy, allowDowngrade: allow === 'true' };
}
