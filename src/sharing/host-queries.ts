// ZPL host status queries inside a raw-port stream (`~HS`, `~HQES`, `~HI`): found as bytes arrive, answered from the
// real printer, and taken out of the job's bytes.
import { isHostQueryComplete, isHostStatusComplete } from '../languages/zpl/zpl-status';

/** What a raw port does with host queries: answers them from the printer and takes them out, takes them out, or keeps them. */
export type HostQueryRule = 'answer' | 'remove' | 'keep';

/** A host query found in the stream: the command to forward and when the printer's reply is whole. */
export interface HostQuery {
  command: Buffer;
  complete: (reply: Buffer) => boolean;
}

const QUERY = /~H(QES|S|I)/gi;
/** A query split across two reads ends in at most this many bytes of the first. */
const TAIL = 4;

const QUERIES: Record<string, HostQuery> = {
  S: { command: Buffer.from('~HS\r\n', 'latin1'), complete: isHostStatusComplete },
  QES: { command: Buffer.from('~HQES\r\n', 'latin1'), complete: isHostQueryComplete },
  I: { command: Buffer.from('~HI\r\n', 'latin1'), complete: (reply) => reply.includes(0x03) },
};

/** Finds host queries in a stream fed chunk by chunk, each once, in order (a query split across chunks included). */
export class HostQueryScanner {
  private text = '';
  private from = 0;

  /** Feeds the next chunk; returns the queries it completed. */
  feed(chunk: Buffer): HostQuery[] {
    this.text += chunk.toString('latin1');
    QUERY.lastIndex = this.from;
    const found: HostQuery[] = [];
    let end = this.from;
    for (let m = QUERY.exec(this.text); m; m = QUERY.exec(this.text)) {
      // `~HS` may still become... nothing longer; `~HQ` at the very end may still become `~HQES` (matched only once whole)
      found.push(QUERIES[m[1].toUpperCase()]);
      end = m.index + m[0].length;
    }
    this.from = Math.max(end, this.text.length - TAIL);
    // keep only what a later match may still need
    if (this.from > 64 * 1024) {
      this.text = this.text.slice(this.from);
      this.from = 0;
    }
    return found;
  }
}

/** The job's bytes without the host queries (and the line end that follows each). */
export function withoutHostQueries(data: Buffer): Buffer {
  // most jobs hold no query: found without making a string of the whole job
  if (data.indexOf('~H') < 0 && data.indexOf('~h') < 0) return data;
  const text = data.toString('latin1');
  QUERY.lastIndex = 0;
  if (!QUERY.test(text)) return data;
  return Buffer.from(text.replace(/~H(?:QES|S|I)[ \t]*\r?\n?/gi, ''), 'latin1');
}
