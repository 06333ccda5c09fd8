// Small shared pieces: an error line that screen readers announce, and a hook for one API call's busy/error state.
import { useState } from 'preact/hooks';

/** An API error in words, announced (role=alert); renders nothing without one. */
export function ErrorText({ error }: { error: string | null }) {
  return error ? <p class="error" role="alert">{error}</p> : null;
}

/** Runs one action at a time: `busy` while it runs, its failure as `error` (in words). */
export function useAction(): { busy: boolean; error: string | null; run: (action: () => Promise<void>) => Promise<void>; setError: (e: string | null) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}
