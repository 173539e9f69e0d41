import { Agent, request } from 'node:http';
import { readFile } from 'node:fs/promises';

/** One HTTP request of a load phase. */
export interface Call {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

export interface Answer {
  status: number;
  body: string;
}

/** A server under test: its address, process and a keep-alive connection pool of its own. */
export interface Target {
  name: string;
  base: URL;
  pid: number;
  agent: Agent;
  token: string;
}

/**
 * A keep-alive pool that closes a connection idle for 4 s itself. The servers close theirs after 5 s (Node's
 * default), and a request sent on a connection the server is closing at that moment fails with ECONNRESET: the
 * pools sit idle while the other targets are measured.
 */
export const targetAgent = (concurrency: number) => new Agent({ keepAlive: true, maxSockets: concurrency, timeout: 4_000 });

/** Sends a call with the bearer token; rejects after `timeoutMs`. */
export function send(target: Target, call: Call, timeoutMs = 30_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${target.token}` };
    if (call.body !== undefined) {
      headers['content-type'] = call.contentType ?? 'application/json';
      headers['content-length'] = Buffer.byteLength(call.body);
    }
    const req = request(
      { host: target.base.hostname, port: target.base.port, path: call.path, method: call.method, headers, agent: target.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${call.method} ${call.path} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(call.body);
  });
}

/** utime + stime of a process, in milliseconds (clock ticks of 10 ms). */
export async function cpuTime(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** VmRSS (now) and VmHWM (peak since start) of a process, in bytes. */
export async function residentMemory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kB('VmRSS'), peak: kB('VmHWM') };
}

export interface PhaseResult {
  requests: number;
  failures: number;
  firstFailure?: string;
  seconds: number;
  /** CPU time of the server process over the phase, per request. */
  cpuMsPerRequest: number;
  /** Latency of each request in ms, in completion order. */
  latencies: number[];
}

/**
 * `concurrency` clients send `next()`'s calls back to back for `seconds` (or until `maxRequests`), against one target.
 * An answer counts as a failure unless `ok` accepts it.
 */
export async function runPhase(
  target: Target,
  next: (n: number) => Call,
  ok: (answer: Answer) => boolean,
  options: { seconds: number; concurrency: number; maxRequests?: number },
): Promise<PhaseResult> {
  const latencies: number[] = [];
  let issued = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const cpuBefore = await cpuTime(target.pid);
  const began = performance.now();
  const deadline = began + options.seconds * 1000;
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const client = async () => {
    while (performance.now() < deadline && issued < maxRequests) {
      const call = next(issued++);
      const sent = performance.now();
      try {
        const answer = await send(target, call);
        if (!ok(answer)) {
          failures++;
          firstFailure ??= `${call.method} ${call.path} answered ${answer.status}: ${answer.body.slice(0, 300)}`;
        }
      } catch (error) {
        failures++;
        firstFailure ??= `${call.method} ${call.path}: ${(error as Error).message}`;
      }
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  const seconds = (performance.now() - began) / 1000;
  const cpuMs = (await cpuTime(target.pid)) - cpuBefore;
  return { requests: latencies.length, failures, firstFailure, seconds, cpuMsPerRequest: cpuMs / Math.max(1, latencies.length), latencies };
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

export const median = (values: number[]) => percentile(values, 50);
