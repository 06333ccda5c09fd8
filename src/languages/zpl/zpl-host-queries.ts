// ZPL host status queries a raw-port client sends inside its stream (`~HS`, `~HQES`, `~HI`): how they are found and answered.
import type { HostQuery, HostQuerySyntax } from '../printer-language';
import { isHostQueryComplete, isHostStatusComplete } from './zpl-status';

const QUERIES: Record<string, HostQuery> = {
  S: { command: Buffer.from('~HS\r\n', 'latin1'), complete: isHostStatusComplete },
  QES: { command: Buffer.from('~HQES\r\n', 'latin1'), complete: isHostQueryComplete },
  I: { command: Buffer.from('~HI\r\n', 'latin1'), complete: (reply) => reply.includes(0x03) },
};

/** The ZPL host queries of a raw port's stream; `~HQ` at the very end may still become `~HQES` (matched only once whole). */
export const ZPL_HOST_QUERIES: HostQuerySyntax = {
  find: /~H(?:QES|S|I)/gi,
  queryOf: (matched) => QUERIES[matched.slice(2).toUpperCase()],
  strip: /~H(?:QES|S|I)[ \t]*\r?\n?/gi,
  prefix: '~H',
  tail: 4,
};
