// GET /openapi.json: the machine-readable API description, public (decisions.md).
import type { Route } from '../route';

/** The openapi.json route; `doc` is computed once from the full route table. */
export function openApiRoute(doc: () => Record<string, unknown>): Route {
  return {
    method: 'get', path: '/openapi.json', tag: 'meta', summary: 'This API description (OpenAPI 3.1)', auth: false, bare: true,
    handler: () => ({ message: 'OpenAPI description.', content: doc() }),
  };
}
