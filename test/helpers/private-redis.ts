import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './service-process.ts';

/** A memory-only redis-server of the test's own on a free port, which the test may stop, restart empty or pause. */
export class PrivateRedis {
  private process?: ChildProcess;
  private constructor(readonly port: number) {}

  static async create(): Promise<PrivateRedis> {
    return new PrivateRedis(await freePort());
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.process && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Starts an empty, memory-only instance (unless this one runs) and waits until it answers. */
  async start(): Promise<void> {
    if (this.running) return;
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        if ((await this.command('ping')) === 'PONG') return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`redis-server on port ${this.port} did not start`);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    const exited = once(this.process!, 'exit');
    this.process!.kill('SIGKILL');
    await exited;
  }

  /** Runs one command on a connection of its own (e.g. `client pause 30000`). */
  async command(name: string, ...args: (string | number)[]): Promise<unknown> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined); // refused while the server starts: the caller retries
    try {
      await client.connect();
      return await client.call(name, ...args);
    } finally {
      client.disconnect();
    }
  }
}
