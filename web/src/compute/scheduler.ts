/**
 * Latest-wins scheduling of sweeps over one worker. Each caller (a chart, a hook) has a channel;
 * a channel has at most one request running and one waiting. A newer request replaces the waiting
 * one, and a result that was superseded while running is reported as stale, so dragging a slider
 * never builds a queue of outdated sweeps and only the latest result reaches the page.
 */
import type { SweepRequest, SweepResponse } from './protocol';

export interface Transport {
  post(request: SweepRequest): void;
  /** Install the single response handler. */
  listen(handler: (response: SweepResponse) => void): void;
}

export type Outcome<R> = { status: 'done'; result: R; ms: number } | { status: 'stale' };

interface Job {
  name: string;
  args: unknown;
  resolve: (o: Outcome<unknown>) => void;
  reject: (e: Error) => void;
}

interface Channel {
  running: (Job & { id: number }) | null;
  waiting: Job | null;
}

export class SweepScheduler {
  private nextId = 1;
  private channels = new Map<string, Channel>();
  private byId = new Map<number, string>();

  constructor(private transport: Transport) {
    transport.listen((r) => this.onResponse(r));
  }

  run(channel: string, name: string, args: unknown): Promise<Outcome<unknown>> {
    return new Promise((resolve, reject) => {
      const ch = this.channels.get(channel) ?? { running: null, waiting: null };
      this.channels.set(channel, ch);
      const job = { name, args, resolve, reject };
      if (!ch.running) {
        this.start(channel, ch, job);
      } else {
        ch.waiting?.resolve({ status: 'stale' });
        ch.waiting = job;
      }
    });
  }

  /** Drop a channel's waiting job (its owner unmounted); a running one finishes as stale. */
  cancel(channel: string): void {
    const ch = this.channels.get(channel);
    if (!ch) return;
    ch.waiting?.resolve({ status: 'stale' });
    ch.waiting = null;
    if (ch.running) ch.running.resolve({ status: 'stale' });
  }

  /** The worker died: fail everything in flight so no caller waits forever. */
  failAll(error: Error): void {
    for (const ch of this.channels.values()) {
      ch.running?.reject(error);
      ch.waiting?.reject(error);
    }
    this.channels.clear();
    this.byId.clear();
  }

  /** Requests sent and not yet answered (for tests and a global busy indicator). */
  get inFlight(): number {
    return this.byId.size;
  }

  private start(channelName: string, ch: Channel, job: Job): void {
    const id = this.nextId++;
    ch.running = { ...job, id };
    this.byId.set(id, channelName);
    this.transport.post({ id, name: job.name, args: job.args });
  }

  private onResponse(r: SweepResponse): void {
    const channelName = this.byId.get(r.id);
    this.byId.delete(r.id);
    if (channelName === undefined) return;
    const ch = this.channels.get(channelName);
    if (!ch || !ch.running || ch.running.id !== r.id) return;
    const done = ch.running;
    ch.running = null;
    if (ch.waiting) {
      done.resolve({ status: 'stale' });
      const next = ch.waiting;
      ch.waiting = null;
      this.start(channelName, ch, next);
    } else if (r.ok) {
      done.resolve({ status: 'done', result: r.result, ms: r.ms });
    } else {
      done.reject(new Error(r.error));
    }
  }
}
