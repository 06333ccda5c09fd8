// Share routes: list (passwords masked), add, replace, delete (seed 4.8, decisions.md).
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors';
import { ShareBodySchema, ShareSchema, type Share, type ShareBody } from '../../schemas/settings';
import type { SettingsStore } from '../../settings/settings-store';
import { checkSharePath, type SharePathPolicy } from '../../spooler/share-path';
import { isMask, maskShare } from '../../settings/masking';
import { CREDENTIALS, type Route } from '../route';

/** GET/POST /shares, PUT/DELETE /shares/{uuid}; a `sharePath` outside the share root (or on the data dir) is a 400. */
export function shareRoutes(settings: SettingsStore, paths: SharePathPolicy): Route[] {
  const find = (uuid: string): Share => {
    const share = settings.value.shares.find((s) => s.uuid === uuid);
    if (!share) throw new AppError('SHARE_NOT_FOUND', `No share with uuid: ${uuid}`);
    return share;
  };
  return [
    {
      method: 'get', path: '/shares', tag: 'settings', summary: 'Network shares (passwords masked)',
      response: Type.Array(ShareSchema),
      handler: () => ({ message: 'Shares retrieved.', content: settings.value.shares.map(maskShare) }),
    },
    {
      method: 'post', path: '/shares', tag: 'settings', fleet: CREDENTIALS, summary: 'Add a share; uuid assigned when absent',
      body: ShareBodySchema, response: ShareSchema, responses: { 201: 'Share added', 507: 'Device cannot store the change' },
      handler: async (req) => {
        checkSharePath((req.body as ShareBody).sharePath, paths);
        const share = toShare(req.body as ShareBody, undefined);
        // checked on the state the change applies to: two requests for one uuid cannot both pass
        await settings.update((s) => {
          if (s.shares.some((old) => old.uuid === share.uuid)) throw new AppError('INVALID_REQUEST', `uuid ${share.uuid} is already used by another share`);
          s.shares.push(share);
        });
        return { status: 201, message: 'Share added.', content: maskShare(share) };
      },
    },
    {
      method: 'put', path: '/shares/{uuid}', tag: 'settings', fleet: CREDENTIALS, summary: 'Replace a share (a masked password keeps the stored one)',
      body: ShareBodySchema, response: ShareSchema, responses: { 404: 'Share not found', 507: 'Device cannot store the change' },
      handler: async (req) => {
        const existing = find(req.params.uuid);
        checkSharePath((req.body as ShareBody).sharePath, paths);
        const share = toShare({ ...(req.body as ShareBody), uuid: existing.uuid }, existing);
        await settings.update((s) => {
          s.shares = s.shares.map((old) => (old.uuid === share.uuid ? share : old));
        });
        return { message: 'Share updated.', content: maskShare(share) };
      },
    },
    {
      method: 'delete', path: '/shares/{uuid}', tag: 'settings', fleet: CREDENTIALS, summary: 'Remove a share',
      response: ShareSchema, responses: { 404: 'Share not found', 507: 'Device cannot store the change' },
      handler: async (req) => {
        const existing = find(req.params.uuid);
        await settings.update((s) => {
          s.shares = s.shares.filter((old) => old.uuid !== existing.uuid);
        });
        return { message: 'Share removed.', content: maskShare(existing) };
      },
    },
  ];
}

function toShare(body: ShareBody, existing: Share | undefined): Share {
  return {
    sharePath: body.sharePath,
    alias: body.alias ?? '',
    username: body.username ?? '',
    password: isMask(body.password) ? (existing?.password ?? '') : (body.password ?? ''),
    server: body.server ?? '',
    browsable: body.browsable ?? false,
    uuid: body.uuid ?? randomUUID(),
  };
}
