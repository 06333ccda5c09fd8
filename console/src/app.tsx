// The console: the one-time claim page of a device without a key, sign-in, or the signed-in layout (skip link, navigation, live indicator) around the page the path names.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Api, readSetup } from './api';
import { Claim } from './claim';
import { clearKey, loadKey, replaceKey } from './key-store';
import { LiveData } from './live-data';
import { LiveEvents } from './live-events';
import { JobsPage } from './jobs-page';
import { OverviewPage } from './overview-page';
import { PrintPage } from './print-page';
import { PrinterPage } from './printer-page';
import { PrintersPage } from './printers-page';
import { linkClick, usePath } from './router';
import { SessionContext, useLive, useSession, type Session } from './session';
import { SettingsPage } from './settings-page';
import { SignIn } from './sign-in';

const NAV = [
  ['/', 'Overview'],
  ['/printers', 'Printers'],
  ['/print', 'Print'],
  ['/jobs', 'Jobs'],
  ['/settings', 'Settings'],
] as const;

/** The whole console. */
export function App() {
  const [key, setKey] = useState(loadKey);
  const [notice, setNotice] = useState<string | null>(null);
  const [claimed, setClaimed] = useClaimed(key === null);
  if (!key) {
    const signedIn = (k: string) => (setNotice(null), setKey(k));
    if (claimed === null) return <main id="main" class="sign-in" aria-busy="true" />;
    if (!claimed) return <Claim onClaimed={(k) => (setClaimed(true), signedIn(k))} onAlreadySetUp={() => (setNotice('The device already has an API key: sign in with it.'), setClaimed(true))} />;
    return <SignIn notice={notice} onSignedIn={signedIn} />;
  }
  const signOut = (reason?: string) => {
    clearKey();
    setNotice(reason ?? null);
    setKey(null);
  };
  return <SignedIn key={key} apiKey={key} signOut={signOut} />;
}

/**
 * Whether the device has a key (GET /setup), asked while `signedOut`: null until it answers. A device that does not
 * answer gets the sign-in, whose own call then says what is wrong.
 */
function useClaimed(signedOut: boolean): [boolean | null, (claimed: boolean) => void] {
  const [claimed, setClaimed] = useState<boolean | null>(null);
  useEffect(() => {
    if (!signedOut) return;
    let current = true;
    readSetup().then(
      (state) => current && setClaimed(state.claimed),
      () => current && setClaimed(true),
    );
    return () => {
      current = false;
    };
  }, [signedOut]);
  return [claimed, setClaimed];
}

function SignedIn({ apiKey, signOut }: { apiKey: string; signOut: Session['signOut'] }) {
  const socket = useRef<LiveEvents | null>(null);
  const session = useMemo<Session>(() => {
    const api = new Api(apiKey);
    const useNewKey = (key: string) => {
      replaceKey(key);
      api.setKey(key);
      socket.current?.setKey(key);
    };
    const live = new LiveData(api);
    // read at once, not after the first paint: the lists are what the page waits for
    void live.reload();
    return { api, live, signOut, useNewKey };
  }, [apiKey]);
  useEffect(() => {
    const { live } = session;
    socket.current = new LiveEvents(apiKey, {
      event: (e) => live.apply(e),
      reset: () => void live.reload(),
      refused: () => signOut('The device refused the API key: it is wrong, or it was changed. Sign in again.'),
      connected: (up) => live.setConnected(up),
    });
    return () => socket.current?.close();
  }, [session]);
  return (
    <SessionContext.Provider value={session}>
      <Layout />
    </SessionContext.Provider>
  );
}

function Layout() {
  const path = usePath();
  const live = useLive();
  const { signOut } = useSession();
  const section = '/' + (path.split('/')[1] ?? '');
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <span class="brand">printproxyd</span>
        <nav aria-label="Main">
          {NAV.map(([href, label]) => (
            <a key={href} href={href} onClick={linkClick} aria-current={section === href ? 'page' : undefined}>{label}</a>
          ))}
        </nav>
        <span class={`live ${live.connected ? 'up' : 'down'}`} role="status">{live.connected ? 'Live' : 'Connecting…'}</span>
        <button type="button" class="link" onClick={() => signOut()}>Sign out</button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page path={path} />
      </main>
    </>
  );
}

function Page({ path }: { path: string }) {
  if (path === '/' || path === '') return <OverviewPage />;
  if (path === '/printers') return <PrintersPage />;
  if (path.startsWith('/printers/')) return <PrinterPage path={decodeURIComponent(path.slice('/printers/'.length))} />;
  if (path === '/print') return <PrintPage />;
  if (path === '/jobs') return <JobsPage />;
  if (path === '/settings') return <SettingsPage />;
  return (
    <section>
      <h1>Not found</h1>
      <p>There is no page at {path}.</p>
    </section>
  );
}
