#!/usr/bin/env node
// `dbui`, the operator's command line (package.json "bin"; decision 0057), built beside the server as
// dist/server/dbui.js by scripts/build-server.mjs.
import { processIo } from './cli-io.ts';
import { runDbui } from './run.ts';

process.exitCode = await runDbui(process.argv.slice(2), processIo());
