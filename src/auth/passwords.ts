import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { AuthConfig } from '../config/auth.js';

/**
 * argon2id password hashing (the library's default algorithm). Costs come from configuration:
 * production keeps the strong defaults; tests may lower them.
 */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly params: AuthConfig['argon2']) {}

  hash(password: string): Promise<string> {
    return hash(password, { memoryCost: this.params.memoryKib, timeCost: this.params.timeCost, parallelism: 1 });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false; // a malformed stored hash never authenticates
    }
  }

  /**
   * For an unknown login: spend the same work as a real check so the answer time does not
   * reveal whether the login exists. Always false.
   */
  async verifyDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(32).toString('base64url'));
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
