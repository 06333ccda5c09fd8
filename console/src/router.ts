// The page's path as state: links change it with history.pushState, the back button with popstate.
import { useEffect, useState } from 'preact/hooks';

/** Goes to `path` without a reload. */
export function navigate(path: string): void {
  if (path === location.pathname) return;
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current path, re-rendering on every navigation. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return path;
}

/** A click handler for an in-page link: plain left clicks navigate in place, others (new tab) are left to the browser. */
export function linkClick(event: MouseEvent): void {
  const anchor = event.currentTarget as HTMLAnchorElement;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(anchor.pathname);
}
