// The console: sign-in, or the signed-in layout (skip link, navigation, live indicator) around the page the path names.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Api } from './api';
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
  if (!key) return <SignIn notice={notice} onSignedIn={(k) => (setNotice(null), setKey(k))} />;
  const signOut = (reason?: string) => {
    clearKey();
    setNotice(reason ?? null);
    setKey(null);
  };
  return <SignedIn key={key} apiKey={key} signOut={signOut} />;
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
