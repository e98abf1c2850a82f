// Runs before each test file of the server project. The files share a worker and the libraries' modules (the project
// runs with isolate: false, docs/decisions/0052-the-fast-test-loop.md); what one file could leave behind is put back
// here, so each starts as it would in a process of its own.
import { afterAll, vi } from 'vitest';

// The app's own modules (server/, common/, scripts/) evaluate again for this file: their module state (caches,
// counters, registered metrics) and the module mocks of the file are this file's alone. Libraries in node_modules
// stay loaded: that is the time saved.
vi.resetModules();

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
