import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  PasskeyAuthenticationResponse,
  PasskeyRegistrationResponse,
} from '#common/contract/passkeys.ts';

/*
 * A software WebAuthn authenticator for API tests: an ES256 key pair, "none" attestation, a signature counter,
 * and the exact bytes a browser sends (clientDataJSON, authenticatorData, CBOR attestation object). Each answer can
 * be bent (another origin, RP ID or challenge, no user verification, an old counter) to test the refusals.
 */

/** What a test may change in one answer. */
export interface Bend {
  origin?: string;
  rpId?: string;
  challenge?: string;
  userVerified?: boolean;
  /** The signature counter to report instead of the next one. */
  counter?: number;
  userHandle?: string | null;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const base64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** The last counter reported. */
  counter = 0;
  /** The user handle given at registration (base64url), answered at sign-in like a discoverable credential. */
  userHandle: string | null = null;

  constructor(
    readonly origin: string,
    readonly rpId: string,
  ) {}

  get id(): string {
    return base64url(this.credentialId);
  }

  /** Answers registration options (navigator.credentials.create). */
  register(options: { challenge: string; user?: unknown }, bend: Bend = {}): PasskeyRegistrationResponse {
    const user = options.user as { id?: unknown } | undefined;
    if (typeof user?.id === 'string') this.userHandle = user.id;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, bend);
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authDataHead(FLAG_AT, bend),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      cosePublicKey,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientDataJSON),
        attestationObject: base64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** Answers authentication options (navigator.credentials.get), signing with the credential's key. */
  authenticate(options: { challenge: string }, bend: Bend = {}): PasskeyAuthenticationResponse {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, bend);
    const authData = this.authDataHead(0, bend);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    const userHandle = bend.userHandle === undefined ? this.userHandle : bend.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  private clientData(type: string, challenge: string, bend: Bend): Buffer {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: bend.challenge ?? challenge,
        origin: bend.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** RP ID hash, flags and the signature counter (the next one unless bent). */
  private authDataHead(extraFlags: number, bend: Bend): Buffer {
    const flags = FLAG_UP | (bend.userVerified === false ? 0 : FLAG_UV) | extraFlags;
    this.counter = bend.counter ?? this.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(bend.rpId ?? this.rpId), Buffer.from([flags]), counter]);
  }
}
