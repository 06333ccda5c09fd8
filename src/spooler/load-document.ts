// Loads a job's bytes at delivery time: inline data, a URL fetch within limits, or an allowed local file.
import { DeviceError } from '../errors';
import type { DocumentSpec } from './document';
import { fetchDocument, type FetchLimits } from './fetch-document';
import { allowedLocalPath, readLocalFile } from './local-files';
import type { AllowedRoots } from './submission';

/** Builds the loader the spooler uses; limits and allowed roots are read live. */
export function documentLoader(limits: () => FetchLimits, roots: AllowedRoots) {
  return async (spec: DocumentSpec, data: Buffer | null, signal: AbortSignal): Promise<Buffer> => {
    switch (spec.source.kind) {
      case 'inline':
        if (!data) throw new DeviceError('IO', 'the document bytes of this job were lost');
        return data;
      case 'url':
        return fetchDocument(spec.source.url, limits(), signal);
      case 'file':
        return readLocal(spec.source.path, roots, limits().maxBytes);
    }
  };
}

async function readLocal(path: string, roots: AllowedRoots, maxBytes: number): Promise<Buffer> {
  try {
    return await readLocalFile(allowedLocalPath(path, roots()), maxBytes);
  } catch (err) {
    if (err instanceof DeviceError) throw err;
    throw new DeviceError('IO', `reading ${path} failed: ${(err as Error).message}`);
  }
}
