// What every page of a signed-in console shares: the API, the live lists, and sign-out.
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Api } from './api';
import type { LiveData, LiveState } from './live-data';

/** The signed-in session. */
export interface Session {
  api: Api;
  live: LiveData;
  signOut(reason?: string): void;
  /** After a key rotation: keep the new key and use it from now on. */
  useNewKey(key: string): void;
}

/** The session context; pages read it with useSession(). */
export const SessionContext = createContext<Session | null>(null);

/** The current session (only rendered inside a signed-in console). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('no session');
  return session;
}

/** The live state, re-rendering on every change. */
export function useLive(): LiveState {
  const { live } = useSession();
  const [state, setState] = useState(live.state);
  useEffect(() => live.subscribe(() => setState(live.state)), [live]);
  return state;
}
