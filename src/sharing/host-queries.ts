// Host status queries inside a raw-port stream (a language's own, read from the language table: ZPL `~HS`, `~HQES`, `~HI`):
// found as bytes arrive, answered from the real printer, and taken out of the job's bytes.
import { RAW_PORT_HOST_QUERIES, type HostQuery, type HostQuerySyntax } from '../languages';

export type { HostQuery } from '../languages';

/** What a raw port does with host queries: answers them from the printer and takes them out, takes them out, or keeps them. */
export type HostQueryRule = 'answer' | 'remove' | 'keep';

/** Finds host queries in a stream fed chunk by chunk, each once, in order (a query split across chunks included). */
export class HostQueryScanner {
  private text = '';
  private from = 0;

  constructor(private readonly syntax: HostQuerySyntax | null = RAW_PORT_HOST_QUERIES) {}

  /** Feeds the next chunk; returns the queries it completed. */
  feed(chunk: Buffer): HostQuery[] {
    const syntax = this.syntax;
    if (!syntax) return [];
    this.text += chunk.toString('latin1');
    const find = new RegExp(syntax.find.source, syntax.find.flags);
    find.lastIndex = this.from;
    const found: HostQuery[] = [];
    let end = this.from;
    for (let m = find.exec(this.text); m; m = find.exec(this.text)) {
      found.push(syntax.queryOf(m[0]));
      end = m.index + m[0].length;
    }
    this.from = Math.max(end, this.text.length - syntax.tail);
    // keep only what a later match may still need
    if (this.from > 64 * 1024) {
      this.text = this.text.slice(this.from);
      this.from = 0;
    }
    return found;
  }
}

/** The job's bytes without the host queries (and the blanks and line end that follow each). */
export function withoutHostQueries(data: Buffer, syntax: HostQuerySyntax | null = RAW_PORT_HOST_QUERIES): Buffer {
  if (!syntax) return data;
  // most jobs hold no query: found without making a string of the whole job
  if (data.indexOf(syntax.prefix.toUpperCase()) < 0 && data.indexOf(syntax.prefix.toLowerCase()) < 0) return data;
  const text = data.toString('latin1');
  if (!new RegExp(syntax.find.source, syntax.find.flags.replace('g', '')).test(text)) return data;
  return Buffer.from(text.replace(new RegExp(syntax.strip.source, syntax.strip.flags), ''), 'latin1');
}
