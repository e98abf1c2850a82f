import { ConfigError, type Config } from '#server/config.ts';
import { isSealed, loadSecretKey, secretBox, type SecretBox } from '#server/crypto/secret-box.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { sharedSecret } from '#server/store/settings.ts';

/**
 * The secret box of this app store (crypto/secret-box.ts), checked and put to work at start: the app store
 * remembers the first key's fingerprint, so a different key (another SECRET_KEY, a lost key file) stops the start
 * with a message instead of failing every authenticator sign-in; authenticator keys stored before sealing existed
 * are sealed now.
 */
export async function openSecretBox(
  store: AppStore,
  config: Pick<Config, 'secretKey' | 'dataDir'>,
): Promise<SecretBox> {
  const box = secretBox(loadSecretKey(config));
  const expected = await sharedSecret(store.db, 'secret-key-fingerprint', () => box.fingerprint);
  if (expected !== box.fingerprint) {
    throw new ConfigError(
      'SECRET_KEY',
      config.secretKey
        ? 'is not the key the stored authenticator keys were sealed with: set the SECRET_KEY used before.'
        : `unset, and ${config.dataDir}/secret.key is not the key the stored authenticator keys were sealed with: restore that file, or set SECRET_KEY to the key used before.`,
    );
  }
  await sealPlainSecrets(store, box);
  return box;
}

async function sealPlainSecrets(store: AppStore, box: SecretBox): Promise<void> {
  const users = await store.db
    .selectFrom('users')
    .select(['id', 'totp_secret', 'totp_pending_secret'])
    .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)]))
    .execute();
  // The value sealed when it is stored in the clear, else as it is (null or sealed already).
  const sealed = (value: string | null) => (value !== null && !isSealed(value) ? box.seal(value) : value);
  for (const user of users) {
    const update = {
      totp_secret: sealed(user.totp_secret),
      totp_pending_secret: sealed(user.totp_pending_secret),
    };
    if (update.totp_secret === user.totp_secret && update.totp_pending_secret === user.totp_pending_secret)
      continue;
    await store.db.updateTable('users').set(update).where('id', '=', user.id).execute();
  }
}
