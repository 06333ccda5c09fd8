// The console door: GET and HEAD outside the API routes served from the static mounts (the web console), without the key.
import type { Exchanges } from './exchanges';
import { StaticSite, type StaticAnswer, type StaticMount } from './static-site';
import type { Exchange } from './exchange';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws';

const EMPTY = Buffer.alloc(0);

/** Serves the static mounts on GET and HEAD `/*`; a path below /api/ or outside every mount goes to `notFound`. */
export class ConsoleDoor {
  private readonly site: StaticSite;

  constructor(
    statics: readonly StaticMount[],
    private readonly exchanges: Exchanges,
    private readonly notFound: (res: HttpResponse, req: HttpRequest) => void,
  ) {
    this.site = new StaticSite(statics);
  }

  /** Registers the GET and HEAD catch-alls on `app` (after the API routes). */
  mount(app: TemplatedApp): void {
    app.get('/*', (res, req) => this.serve(res, req));
    app.head('/*', (res, req) => this.serve(res, req));
  }

  private serve(res: HttpResponse, req: HttpRequest): void {
    const url = req.getUrl();
    if (url.startsWith('/api/') || !this.site.covers(url)) {
      this.notFound(res, req);
      return;
    }
    const request = { path: url, query: req.getQuery() ?? '', acceptEncoding: req.getHeader('accept-encoding'), ifNoneMatch: req.getHeader('if-none-match'), accept: req.getHeader('accept') };
    this.exchanges.serve(res, req, (exchange) => {
      this.site.answer(request).then(
        (answer) => this.send(exchange, answer),
        (err: unknown) => this.exchanges.fail(exchange, err),
      );
    });
  }

  private send(exchange: Exchange, answer: StaticAnswer): void {
    this.exchanges.sendRaw(exchange, answer.status, answer.headers, answer.body ?? EMPTY);
  }
}
