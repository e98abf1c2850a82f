import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { isPageRoute } from '#common/page-routes.ts';
import { siteLinkMetaNames, type SiteLinks } from '#common/content/site.ts';
import type { Config } from './config.ts';
import type { DatabaseRegistry } from './engines/database-registry.ts';
import type { AppStore } from './store/app-store.ts';
import { claimCaptcha } from './store/captcha-claims.ts';
import { sharedSecret } from './store/settings.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createSmsSender, type SmsSender } from './sms/sms-sender.ts';
import { answerCompression } from './plugins/compression.ts';
import { answerFrameworkError, errorEnvelope, failure } from './plugins/error-envelope.ts';
import { jsonBodies } from './plugins/json-bodies.ts';
import { requestLogging } from './plugins/request-logging.ts';
import { responseSerializerCompiler } from './plugins/response-serializer.ts';
import { lazySchemaCompilers } from './plugins/schema-compilers.ts';
import { securityHeaders, setSecurityHeaders, styleNonceOf } from './plugins/security-headers.ts';
import { serverTimeouts } from './plugins/server-timeouts.ts';
import { sessionHooks } from './plugins/session.ts';
import { xsrfProtection } from './plugins/csrf.ts';
import { defaultRateLimits, rateLimiting, type RateLimits } from './plugins/rate-limits.ts';
import { healthRoutes } from './features/health/routes.ts';
import { metricsRoutes } from './features/metrics/routes.ts';
import { instanceMetrics } from './features/metrics/service.ts';
import { setupRoutes } from './features/setup/routes.ts';
import { accountRoutes } from './features/account/routes.ts';
import { socialRoutes } from './features/account/social-routes.ts';
import { passkeyRoutes } from './features/account/passkey-routes.ts';
import { createCaptcha, type Captcha } from './features/captcha/captcha.ts';
import { captchaRoutes } from './features/captcha/routes.ts';
import { sqlRoutes } from './features/sql/routes.ts';
import { viewsRoutes } from './features/views/routes.ts';
import { exportRoutes } from './features/exports/routes.ts';
import { bulkRoutes, openBulkQueue } from './features/bulk/routes.ts';
import type { BulkJobDeps } from './features/bulk/bulk-job.ts';
import { importRoutes, openImportQueue } from './features/imports/routes.ts';
import { importsFolder } from './features/imports/import-files.ts';
import type { ImportCheckDeps } from './features/imports/import-check.ts';
import { adminRoutes } from './features/admin/routes.ts';
import { contactRoutes } from './features/contact/routes.ts';
import { openSecretBox } from './features/account/sealed-secrets.ts';
import { loadSecretKey } from './crypto/secret-box.ts';
import { auditRetention } from './features/audit/audit-retention.ts';
import { auditIntentResolver } from './features/audit/audit-intents.ts';
import { analyticsRoutes } from './features/analytics/routes.ts';
import { chatRoutes, defaultChatLimits, type ChatLimits } from './features/chat/routes.ts';
import { createAnswerer, type Answerer } from './features/chat/answerer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, as method and URL pattern. */
    routeTable: { method: string; url: string }[];
  }
}

/** What the app is built from: the parsed configuration and the opened connections (main.ts or a test owns them). */
export interface AppContext {
  config: Config;
  store: AppStore;
  databases: DatabaseRegistry;
  /** The built web app (dist/web); when absent only the API is served. */
  webRoot?: string | null;
  /** Mail delivery; by default built from SMTP_URL (or the outbox) and closed with the app. */
  mailer?: Mailer;
  /** Text messages; by default built from SMS_URL (or the outbox). */
  sms?: SmsSender;
  /** The human check; by default ALTCHA with CAPTCHA_COST, its key and used solutions in the app store. */
  captcha?: Captcha;
  /** The time; tests move it to check expiry without waiting. */
  clock?: () => Date;
  /** Calls a minute from one address per account route; tests raise or lower them. */
  rateLimits?: Partial<RateLimits>;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** Titan: its answerer (by default built from LLM_*) and calls a minute from one address. */
  chat?: { answerer?: Answerer; limits?: Partial<ChatLimits> };
  /** Bulk changes' batch size, and a hook before each batch (tests hold a job at a known point). */
  bulk?: Pick<BulkJobDeps, 'batchSize' | 'beforeBatch' | 'pipeline'>;
  /** Imports' check batch size and a hook before each batch (tests: a few rows, a run held at a known batch). */
  imports?: Pick<ImportCheckDeps, 'batchSize' | 'beforeBatch'>;
}

/** TRUST_PROXY as Fastify takes it: a number of proxies as the hop test proxy-addr applies to one. */
function trustedProxies(setting: Config['trustProxy']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/** Builds the Fastify instance: API routes with zod schemas, OpenAPI at /api/docs, and the web app. */
export async function buildApp(context: AppContext): Promise<FastifyInstance> {
  // First: a wrong key stops the start before anything is set up.
  const secrets = await openSecretBox(context.store, context.config);
  const https = context.config.publicUrl.startsWith('https:');
  const app = Fastify({
    ...requestLogging(context.config, context.logStream),
    // Slow clients are disconnected; answers still flowing are not cut (issue 10 finding 4).
    ...serverTimeouts(context.config.httpTimeouts),
    // An address Fastify cannot decode is answered with the envelope and the headers of every other answer (no hook
    // runs for it).
    frameworkErrors: (error, request, reply) => {
      setSecurityHeaders(request, reply, { https });
      reply.header('x-request-id', request.id);
      answerFrameworkError(error, request, reply);
    },
    // Answer 503 to new requests while closing; requests in flight finish (graceful shutdown).
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Behind a reverse proxy request.ip (rate limits, lockout, audit) is the client's only when told which proxy to
    // believe; otherwise every client would share the proxy's address.
    trustProxy: trustedProxies(context.config.trustProxy),
    // Ajv and fast-json-stringify load only if a route ever needs them: ours use the compilers set below.
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
  app.setValidatorCompiler(validatorCompiler);
  // The data routes' answers are not validated again: compiled from their schema (decision 0034).
  app.setSerializerCompiler(responseSerializerCompiler);
  // First: every plugin and route registered below inherits these hooks and the JSON parser.
  securityHeaders(app, { https });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  errorEnvelope(app);
  jsonBodies(app);
  // Brotli or gzip for the page shell and the API's data and admin answers, never for a secret's (decision 0055).
  answerCompression(app);
  // Every route as registered: the route matrix (test/security/route-matrix.test.ts) is generated from this table.
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routeTable.push({ method, url: route.url });
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'DBUI API',
        version: '0.1.0',
        description:
          'Every answer is the envelope {isSuccess, data, message}; failures carry a message a person can act on.',
      },
    },
    transform: jsonSchemaTransform,
    // The named schemas (the filter document's recursion) as components the routes' schemas refer to.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // Without the top bar: its logo is an SVG with an inline <style>, which the Content-Security-Policy blocks (the
    // page itself has no inline script or style and runs under the same policy as every answer).
    uiConfig: { layout: 'BaseLayout' },
  });

  const { config, store } = context;
  const now = context.clock ?? (() => new Date());
  const newSecret = () => randomBytes(32).toString('base64url');
  const mailer =
    context.mailer ??
    createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, mailFrom: config.mailFrom }, app.log);
  const sms =
    context.sms ??
    createSmsSender({ smsUrl: config.smsUrl, smsFrom: config.smsFrom, dataDir: config.dataDir }, app.log);
  const captcha =
    context.captcha ??
    createCaptcha(
      { hmacKey: await sharedSecret(store.db, 'captcha-hmac-key', newSecret), cost: config.captchaCost },
      {
        // Solutions expire by real time (the challenge's own clock), so their claims do too.
        claim: (id, expiresAt) =>
          claimCaptcha(store.db, id, expiresAt.toISOString(), new Date().toISOString()),
      },
    );

  // Order matters: the session is known before the XSRF check, which runs before any route.
  sessionHooks(app, store, {
    idleMinutes: config.sessionIdleMinutes,
    maxHours: config.sessionMaxHours,
    passwordMaxAgeDays: config.passwordMaxAgeDays,
    now,
  });
  await xsrfProtection(app, {
    key: await sharedSecret(store.db, 'xsrf-hmac-key', newSecret),
    secureCookie: https,
  });
  await rateLimiting(app, { redisUrl: config.redisUrl });
  // Before the routes, so the timing hook covers every one; only with METRICS_TOKEN (issue 18).
  const scrape = config.metricsToken
    ? await instanceMetrics(app, { store, databases: context.databases })
    : null;

  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    // Codes still being sent in the background go out before the mailer closes.
    await Promise.allSettled([...pending]);
    if (!context.mailer) await mailer.close();
  });

  await app.register(healthRoutes(store, context.databases, { redisUrl: config.redisUrl }));
  await app.register(metricsRoutes({ token: config.metricsToken, scrape }));
  await app.register(setupRoutes(store));
  await app.register(captchaRoutes(captcha));
  const accountDeps = {
    store,
    config,
    mailer,
    sms,
    captcha,
    rateLimits: { ...defaultRateLimits, ...context.rateLimits },
    now,
    log: app.log,
    secrets,
    pending,
  };
  await app.register(accountRoutes(accountDeps));
  await app.register(socialRoutes(accountDeps));
  await app.register(passkeyRoutes(accountDeps));
  await app.register(exportRoutes(context));
  // Page cursors are signed with a key derived from the secret key: instances sharing SECRET_KEY accept each other's.
  // With REDIS_URL an administrator's catalog refresh reaches every instance (features/sql/catalog-refresh.ts).
  // Bulk changes' queue first: both undo calls (the audit trail's and a row history's) start a bulk entry's undo on it.
  const bulk = await openBulkQueue(
    { store, databases: context.databases, redisUrl: config.redisUrl, log: app.log },
    context.bulk,
  );
  app.addHook('onClose', () => bulk.close());
  await app.register(
    sqlRoutes(store, context.databases, {
      secretKey: loadSecretKey(context.config),
      redisUrl: config.redisUrl,
      bulkUndo: bulk.undo,
    }),
  );
  await app.register(bulkRoutes({ store, databases: context.databases, queue: bulk }));
  const imports = await openImportQueue(
    { store, databases: context.databases, folder: importsFolder(config.dataDir), log: app.log },
    context.imports,
  );
  app.addHook('onClose', () => imports.close());
  await app.register(
    importRoutes({ store, databases: context.databases, queue: imports, maxBytes: config.importMaxBytes }),
  );
  await app.register(viewsRoutes({ store, databases: context.databases, now }));
  await app.register(adminRoutes({ store, databases: context.databases, now, bulkUndo: bulk.undo }));
  await app.register(analyticsRoutes({ store, now, log: app.log, secrets }));
  await app.register(contactRoutes({ store, mailer, config, now, log: app.log }));
  await app.register(
    chatRoutes(
      {
        store,
        answerer:
          context.chat?.answerer ??
          createAnswerer({ llm: config.llm, links: config.siteLinks, log: app.log }),
        supportEmail: config.siteLinks.supportEmail,
        now,
        log: app.log,
        secureCookie: https,
      },
      { ...defaultChatLimits, ...context.chat?.limits },
    ),
  );

  // Audit entries past AUDIT_RETENTION_DAYS go when the app is ready and then daily, until it closes.
  const retention = auditRetention({ store, days: config.auditRetentionDays, now, log: app.log });
  app.addHook('onReady', () => retention.start());
  app.addHook('onClose', () => retention.stop());
  // Audit intents a crash left open are resolved in the background once the app is ready (the start does not wait
  // for the databases), then retried every minute, until it closes.
  const intents = auditIntentResolver({ store, databases: context.databases, log: app.log });
  app.addHook('onReady', async () => intents.start());
  app.addHook('onClose', () => intents.stop());

  serveWebApp(app, context.webRoot ?? null, siteLinksMeta(config.siteLinks));
  return app;
}

/** index.html for one answer: its <style> elements carry this answer's style nonce, and a meta tag passes the nonce
 * to the web app (Mantine's and the ALTCHA widget's <style> elements). Scripts get none: they are files. `meta` is
 * more of the head (the site's outside addresses). */
function shellWithNonce(shell: string, nonce: string, meta: string): string {
  return shell
    .replace(/<head>/i, `<head>\n    <meta name="csp-nonce" content="${nonce}">${meta}`)
    .replace(/<style(?=[\s>])/gi, `<style nonce="${nonce}"`);
}

/**
 * The site's outside addresses that are set, as <meta> tags the web app reads (web/site-links.ts;
 * docs/decisions/0046-site-links-as-settings.md): in the page it already loads, so the footer and the home page
 * show their links at once, with no call and no script.
 */
export function siteLinksMeta(links: SiteLinks): string {
  return (Object.keys(siteLinkMetaNames) as (keyof SiteLinks)[])
    .flatMap((key) => {
      const value = links[key];
      return value ? [`\n    <meta name="${siteLinkMetaNames[key]}" content="${htmlAttribute(value)}">`] : [];
    })
    .join('');
}

function htmlAttribute(text: string): string {
  return text.replace(/[&"'<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Serves the built single-page app: hashed assets cached for good; the web app's pages (common/page-routes.ts) get
 * index.html with 200, any other page path index.html with 404 (the app then shows its 404 page). index.html is
 * rendered for each answer with its own style nonce, so it is never served as a static file. A file the build
 * compressed goes as its brotli or gzip copy to a browser that accepts it (decision 0055).
 */
function serveWebApp(app: FastifyInstance, webRoot: string | null, meta: string): void {
  const index = webRoot ? path.join(webRoot, 'index.html') : null;
  const shell = index !== null && fs.existsSync(index) ? fs.readFileSync(index, 'utf8') : null;
  if (shell !== null && webRoot) {
    void app.register(fastifyStatic, {
      root: webRoot,
      wildcard: true,
      index: false,
      // name.br or name.gz beside the file, by the browser's Accept-Encoding (brotli first), else the file itself;
      // every file it serves says Vary: Accept-Encoding, so a cache keeps the encodings apart.
      preCompressed: true,
      // Folders ('/', '/assets/') and index.html itself fall through to the handler below; so do the compressed
      // copies asked for by name (they are only sent in place of their file).
      allowedPath: (pathname) =>
        !pathname.endsWith('/') && pathname !== '/index.html' && !/\.(?:br|gz)$/.test(pathname),
      cacheControl: false,
      setHeaders: (reply, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const sendShell = (reply: FastifyReply, status: number) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      // The nonce is for this answer only: a stored copy would reuse it.
      .header('cache-control', 'no-store')
      .send(shellWithNonce(shell ?? '', styleNonceOf(reply), meta));
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const page = request.method === 'GET' || request.method === 'HEAD';
    if (pathname === '/api' || pathname.startsWith('/api/') || shell === null || !page) {
      return reply
        .code(404)
        .send(failure(`There is no ${request.method} ${pathname}. The API is described at /api/docs.`));
    }
    return sendShell(reply, isPageRoute(pathname) ? 200 : 404);
  });
}
