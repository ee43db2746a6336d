import { randomUUID } from 'node:crypto';
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, type CryptoKey } from 'jose';
import type { AppContext } from '../context.js';
import { seal, unseal } from '../kernel/crypto/seal.js';
import type { Executor } from '../db/database.js';
import { findUsableKey, insertKey, listUsableKeys, retireKeysExcept, type StoredKey } from './token-repository.js';

/**
 * Signing keys live in the database so every server process signs and verifies with the same
 * set. Private keys are sealed (kernel/crypto/seal.ts) under KEY_ENCRYPTION_SECRET; the kid is bound as
 * associated data.
 */
const SIGNING_KEY_INFO = 'partner-api signing key';

export function sealPrivateKey(secret: string, kid: string, pem: string): string {
  return seal(secret, { info: SIGNING_KEY_INFO, bound: kid }, pem);
}

export function openPrivateKey(secret: string, kid: string, sealed: string): string {
  if (!sealed.startsWith('v1.') || sealed.split('.').length !== 5)
    throw new Error(`Signing key ${kid}: unknown sealed format.`);
  const pem = unseal(secret, { info: SIGNING_KEY_INFO, bound: kid }, sealed);
  if (pem === undefined)
    throw new Error(`Signing key ${kid} cannot be decrypted: KEY_ENCRYPTION_SECRET is not the one it was sealed with.`);
  return pem;
}

async function createKey(context: AppContext, db: Executor): Promise<string> {
  const { config } = context;
  const algorithm = config.auth.jwtAlgorithm;
  const { publicKey, privateKey } = await generateKeyPair(algorithm, { extractable: true });
  const kid = randomUUID();
  const privatePem = await exportPKCS8(privateKey);
  await insertKey(
    db,
    {
      kid,
      algorithm,
      publicKeyPem: await exportSPKI(publicKey),
      privateKeySealed: sealPrivateKey(config.auth.keyEncryptionSecret, kid, privatePem),
    },
    context.clock().toISOString(),
  );
  return kid;
}

/** At start: make sure a signing key of the configured algorithm exists (creates the first). */
export async function ensureSigningKey(context: AppContext): Promise<void> {
  const keys = await listUsableKeys(context.db, context.config.auth.jwtAlgorithm, context.clock().toISOString());
  if (!keys.some((k) => !k.retired)) await createKey(context, context.db);
}

/**
 * Adds a new active key and retires the others. A retired key keeps verifying until every token
 * it may have signed has expired: a token lifetime plus the cache period other processes may
 * still sign with it, plus a minute of clock skew.
 */
export async function rotateSigningKey(context: AppContext): Promise<{ kid: string; retired: number }> {
  const { auth } = context.config;
  return context.db.transaction().execute(async (tx) => {
    const kid = await createKey(context, tx);
    const now = context.clock();
    const graceMs = (auth.accessTokenTtlSeconds + auth.signingKeyCacheSeconds + 60) * 1000;
    const retired = await retireKeysExcept(tx, kid, now.toISOString(), new Date(now.getTime() + graceMs).toISOString());
    return { kid, retired };
  });
}

interface LoadedKey {
  stored: StoredKey;
  publicKey: CryptoKey;
}

/** In-memory view of the key table, refreshed every SIGNING_KEY_CACHE_SECONDS; an unknown kid is looked up at once. */
export class KeyStore {
  private keys: LoadedKey[] = [];
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;
  private signer: { kid: string; key: CryptoKey } | undefined;

  constructor(private readonly context: AppContext) {}

  private get algorithm(): string {
    return this.context.config.auth.jwtAlgorithm;
  }

  private async reload(): Promise<void> {
    this.loading ??= (async () => {
      const stored = await listUsableKeys(this.context.db, this.algorithm, this.context.clock().toISOString());
      const previous = new Map(this.keys.map((k) => [k.stored.kid, k.publicKey]));
      this.keys = await Promise.all(
        stored.map(async (s) => ({
          stored: s,
          publicKey: previous.get(s.kid) ?? (await importSPKI(s.publicKeyPem, this.algorithm)),
        })),
      );
      this.loadedAt = this.context.clock().getTime();
    })().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }

  private async fresh(): Promise<void> {
    if (this.context.clock().getTime() - this.loadedAt >= this.context.config.auth.signingKeyCacheSeconds * 1000)
      await this.reload();
  }

  /** The newest active key of the configured algorithm; created if there is none yet. */
  async signingKey(): Promise<{ kid: string; key: CryptoKey }> {
    await this.fresh();
    let active = this.keys.find((k) => !k.stored.retired);
    if (!active) {
      await ensureSigningKey(this.context);
      await this.reload();
      active = this.keys.find((k) => !k.stored.retired);
      if (!active) throw new Error('No active signing key after creating one.');
    }
    if (this.signer?.kid !== active.stored.kid) {
      const pem = openPrivateKey(
        this.context.config.auth.keyEncryptionSecret,
        active.stored.kid,
        active.stored.privateKeySealed,
      );
      this.signer = { kid: active.stored.kid, key: await importPKCS8(pem, this.algorithm) };
    }
    return this.signer;
  }

  /** The key's public half while it is inside its verification window at `now`. */
  private stillVerifying(key: LoadedKey | undefined, now: Date): CryptoKey | undefined {
    if (!key) return undefined;
    const until = key.stored.verifyUntil;
    return until !== null && until <= now.toISOString() ? undefined : key.publicKey;
  }

  /**
   * `verificationKey` from memory alone, for callers that cannot wait: the key when the loaded
   * set is fresh and holds `kid` in its verification window, else undefined (ask the async one).
   */
  loadedVerificationKey(kid: string): CryptoKey | undefined {
    const now = this.context.clock();
    if (now.getTime() - this.loadedAt >= this.context.config.auth.signingKeyCacheSeconds * 1000) return undefined;
    return this.stillVerifying(
      this.keys.find((k) => k.stored.kid === kid),
      now,
    );
  }

  /** The public key for `kid`, if it may still verify now. */
  async verificationKey(kid: string): Promise<CryptoKey | undefined> {
    await this.fresh();
    let found = this.keys.find((k) => k.stored.kid === kid);
    if (!found) {
      // Perhaps another process rotated since the last load: one indexed lookup of this kid.
      const stored = await findUsableKey(this.context.db, kid, this.algorithm, this.context.clock().toISOString());
      if (stored) {
        found = { stored, publicKey: await importSPKI(stored.publicKeyPem, this.algorithm) };
        this.keys = [found, ...this.keys.filter((k) => k.stored.kid !== kid)];
      }
    }
    return this.stillVerifying(found, this.context.clock());
  }
}
