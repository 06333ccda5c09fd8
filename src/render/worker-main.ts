// Body of a PDF worker: one pdfium instance started once, then one render per request, answers on the port.
import type { MessagePort } from 'node:worker_threads';
import { DeviceError, toDeviceError } from '../errors';
import { PdfRenderer } from './pdf-renderer';
import { initPdfium } from './pdfium-init';
import type { PdfWorkerData, RenderRequest, WorkerMessage } from './worker-protocol';

/** Starts pdfium from `data.wasm`, reports ready (or init-failed), then serves render requests in order on `port`. */
export function runPdfWorker(port: MessagePort, data: PdfWorkerData): void {
  const post = (msg: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
  const renderer = initPdfium(data.wasm).then((pdfium) => new PdfRenderer(pdfium));
  renderer.then(
    () => post({ type: 'ready' }),
    (err: unknown) => post({ type: 'init-failed', message: toDeviceError(err, 'RENDER_FAILED').message }),
  );
  port.on('message', (req: RenderRequest) => {
    void renderer.then((r) => {
      try {
        const result = r.render(req.pdf, req.opts);
        post({ type: 'done', id: req.id, result }, [result.zpl.buffer as ArrayBuffer]);
      } catch (err) {
        const e = toDeviceError(err, 'RENDER_FAILED');
        const fatal = !(err instanceof DeviceError);
        post({ type: 'failed', id: req.id, code: e.code, message: fatal ? `renderer failed: ${e.message}` : e.message, fatal });
      }
    });
  });
}
