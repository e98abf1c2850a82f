import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '#web/app.tsx';
import { shareStyleNonce } from '#web/style-nonce.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

shareStyleNonce();
// Rendering replaces the start-up loader that index.html shows inside #root.
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
