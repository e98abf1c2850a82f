import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/*
 * Secrets DBUI must be able to read back (authenticator-app keys) are stored sealed: AES-256-GCM under a key that is
 * not in the app store, so a copy of the app store (a backup, a dump, a leaked PostgreSQL) does not give away
 * anyone's second factor. The key is SECRET_KEY when set (every instance sharing an app store needs the same one),
 * else a random key kept in $DATA_DIR/secret.key (mode 0600), made on the first start.
 *
 * Sealed text is `v1.` + base64url(iv ‖ tag ‖ ciphertext); text without the prefix is a secret stored before
 * sealing, read as it is (and sealed at the next start: features/account/sealed-secrets.ts).
 */

const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  seal(plain: string): string;
  open(stored: string): string;
  /** What the app store remembers of the key, to tell a wrong key at start rather than at a failed sign-in. */
  fingerprint: string;
}

/** A box over a 32-byte key (SECRET_KEY is hashed to one: any long random text will do). */
export function secretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
    fingerprint: createHmac('sha256', key).update('dbui secret key check').digest('base64url'),
  };
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/** The key: SECRET_KEY hashed to 32 bytes, or the key file of the data folder (made when missing). */
export function loadSecretKey(settings: { secretKey: string | null; dataDir: string }): Buffer {
  if (settings.secretKey) return createHash('sha256').update(settings.secretKey).digest();
  const file = path.join(settings.dataDir, 'secret.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(settings.dataDir, { recursive: true });
    try {
      // 'wx': two instances starting together on one data folder keep the first one's key.
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32)
    throw new Error(`${file} does not hold a 32-byte key (base64); restore it or remove it.`);
  return key;
}
