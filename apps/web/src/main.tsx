// First of all: storage may be refused inside another site's frame (the embeddable pages), and the
// modules below read it as they load (see vite.config.ts for why this stays first when built).
import './lib/storage-fallback.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { initI18n } from './lib/i18n.ts';
import { consumeUrlSession } from './lib/url-session.ts';
import { useUserStore } from './stores/user-store.ts';
import './styles.css';

// Before anything renders: a token / spaceId in the URL (links from other apps) is stored and hidden.
consumeUrlSession(window.location.href, window.localStorage, (url) =>
  window.history.replaceState(window.history.state, '', url),
);
useUserStore.getState().hydrate();

await initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={createRouter()} />
    </AppProviders>
  </StrictMode>,
);
