import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider, type AccountClaims } from 'oidc-provider';

/*
 * A real OpenID provider (oidc-provider) on 127.0.0.1 for social sign-in tests: one confidential client
 * (client_secret_post, PKCE required), accounts the test edits, and an interaction that signs in `nextSubject`
 * without a form (or refuses, like a person pressing Cancel), so plain HTTP requests can walk the whole redirect
 * chain.
 */

/** What the provider says about a person. */
export interface TestPerson {
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

export interface TestOpenIdProvider {
  /** The issuer: http://127.0.0.1:PORT */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people by subject; edit them between sign-ins (a changed email claim, say). */
  people: Map<string, TestPerson>;
  /** Who the next authorization signs in as. */
  nextSubject: string;
  /** When true, the next authorization ends with error=access_denied (and this resets). */
  denyNext: boolean;
  close(): Promise<void>;
}

/** Starts the provider; `redirectUris` are the app's callbacks registered for the client. */
export async function startOpenIdProvider(redirectUris: string[]): Promise<TestOpenIdProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = `dbui-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const people = new Map<string, TestPerson>();
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_context, id) {
      const person = people.get(id);
      if (!person) return undefined;
      return { accountId: id, claims: (): AccountClaims => ({ sub: id, ...person }) };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Like Google: the email claims ride in the ID token itself.
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [signingKey] },
    pkce: { required: () => true },
    // Seconds; set so the provider does not warn about its defaults.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: false } },
  });
  const handle = provider.callback();

  const op: TestOpenIdProvider = {
    issuer,
    clientId,
    clientSecret,
    people,
    nextSubject: '',
    denyNext: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function interact(request: http.IncomingMessage, response: http.ServerResponse) {
    const details = await provider.interactionDetails(request, response);
    if (op.denyNext) {
      op.denyNext = false;
      const result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
      return provider.interactionFinished(request, response, result, { mergeWithLastSubmission: false });
    }
    if (details.prompt.name === 'login') {
      const result = { login: { accountId: op.nextSubject } };
      return provider.interactionFinished(request, response, result, { mergeWithLastSubmission: false });
    }
    const grant = new provider.Grant({
      accountId: details.session?.accountId ?? op.nextSubject,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    const result = { consent: { grantId: await grant.save() } };
    return provider.interactionFinished(request, response, result, { mergeWithLastSubmission: true });
  }

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (!request.url?.startsWith('/interaction/')) return handle(request, response);
    interact(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  return op;
}
