/**
 * One tab at a time per stored database, with the Web Locks API. OPFS sync access handles are
 * exclusive and IndexedDB journals assume a single writer, so a second tab must not open a
 * database another tab has open: it is told so (and may wait for it) instead of getting a
 * half-open engine. A lock is freed when its holder closes the database, and by the browser when
 * the holding tab or worker goes away (closed, reloaded, crashed).
 */

const PREFIX = 'lsm-navigator/db/';

export interface HeldLock {
  release(): void;
}

const NO_LOCKS: HeldLock = { release() {} };

function locks(): LockManager | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

/**
 * Take the lock of database `key` (`${backend}/${name}`). Without `wait`: the lock, or null at
 * once if another tab holds it. With `wait`: resolves when the other tab lets go; rejects with an
 * AbortError if `wait` is aborted first.
 */
export function acquireDatabaseLock(key: string, wait?: AbortSignal): Promise<HeldLock | null> {
  const manager = locks();
  if (!manager) return Promise.resolve(NO_LOCKS);
  return new Promise((resolve, reject) => {
    const options: LockOptions = wait ? { mode: 'exclusive', signal: wait } : { mode: 'exclusive', ifAvailable: true };
    manager
      .request(`${PREFIX}${key}`, options, (lock) => {
        if (!lock) {
          resolve(null);
          return undefined;
        }
        // Held until release() resolves the promise the callback returns.
        return new Promise<void>((release) => resolve({ release: () => release() }));
      })
      .catch(reject);
  });
}

/** Keys of the databases whose lock is held, by any tab (this one included). */
export async function databasesInUse(): Promise<Set<string>> {
  const manager = locks();
  if (!manager) return new Set();
  const snapshot = await manager.query();
  return new Set(
    (snapshot.held ?? [])
      .map((l) => l.name ?? '')
      .filter((n) => n.startsWith(PREFIX))
      .map((n) => n.slice(PREFIX.length)),
  );
}

/** The message a second tab gets; the lab offers to wait when it sees it. */
export function inUseMessage(name: string): string {
  return `"${name}" is open in another tab: close it there (or close that tab) to open it here, or wait for it. Two tabs writing one database would corrupt it.`;
}

export const IN_USE_MARK = 'is open in another tab';
