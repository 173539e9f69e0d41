import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually } from './events.ts';

/** One part of a received message, decoded. */
export interface MimePart {
  headers: Map<string, string>;
  body: string;
}

/** A message as the server received it: the envelope, the raw MIME text and what a reader sees of it. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
  headers: Map<string, string>;
  subject: string;
  /** The text/plain and text/html parts, decoded (empty when absent). */
  text: string;
  html: string;
  /** The user the session authenticated as, if it did. */
  user: string | null;
}

export interface Credentials {
  username: string;
  password: string;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  /** SMTP_URL of this server (plain SMTP: it offers no TLS). */
  url: string;
  received: ReceivedMail[];
  /** Every AUTH attempt, as the client sent it. */
  logins: Credentials[];
  /** Messages refused so far (see `reject`). */
  refused: number;
  /** Refuses the next `times` messages at DATA with this SMTP status and text (all of them by default). */
  reject(code: number, message: string, times?: number): void;
  /** Accepts messages again. */
  accept(): void;
  /** Stops listening (connections are refused) until `start`. */
  stop(): Promise<void>;
  /** Listens again, on the same port. */
  start(): Promise<void>;
  /** The messages received for `address`. */
  to(address: string): ReceivedMail[];
  /** Waits until `count` messages have arrived for `address`, and returns them. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** RFC 2047 encoded words (=?utf-8?Q?…?= and =?utf-8?B?…?=) as nodemailer writes non-ASCII headers. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let at = 0; at < soft.length; at++) {
    const hex = soft.slice(at + 1, at + 3);
    if (soft[at] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      at += 2;
    } else bytes.push(...Buffer.from(soft[at], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Header block → lower-case names to unfolded, decoded values. */
function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

function splitEntity(raw: string): MimePart {
  const end = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(end < 0 ? raw : raw.slice(0, end));
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const decoded =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { headers, body: decoded };
}

/** Enough MIME for the tests: a single part, or one level of multipart (nodemailer's text + HTML alternative). */
export function parseMime(raw: string): { headers: Map<string, string>; parts: MimePart[] } {
  const message = splitEntity(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(message.headers.get('content-type') ?? '')?.[1];
  if (!boundary) return { headers: message.headers, parts: [message] };
  const end = raw.search(/\r?\n\r?\n/);
  const sections = raw.slice(end).split(`--${boundary}`).slice(1, -1);
  return { headers: message.headers, parts: sections.map((section) => splitEntity(section.replace(/^\r?\n/, ''))) };
}

function received(raw: string, envelope: { from: string; to: string[]; user: string | null }): ReceivedMail {
  const { headers, parts } = parseMime(raw);
  const part = (type: string) =>
    parts
      .find((candidate) => (candidate.headers.get('content-type') ?? 'text/plain').startsWith(type))
      ?.body.replace(/\r\n/g, '\n')
      .trimEnd() ?? '';
  return {
    envelopeFrom: envelope.from,
    envelopeTo: envelope.to,
    raw,
    headers,
    subject: headers.get('subject') ?? '',
    text: part('text/plain'),
    html: part('text/html'),
    user: envelope.user,
  };
}

/**
 * A real SMTP server on 127.0.0.1 and a random port, in this process: it accepts any sender, recipient and (optional)
 * login, keeps every message, and can be told to refuse messages or be stopped and started again on its port.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  let rejection: { code: number; message: string; left: number } | null = null;
  let port = 0;
  const state: Pick<TestSmtpServer, 'received' | 'logins' | 'refused'> = { received: [], logins: [], refused: 0 };

  const create = () =>
    new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      closeTimeout: 100,
      onAuth(auth, _session, callback) {
        state.logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
        callback(null, { user: auth.username });
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (rejection && rejection.left > 0) {
            rejection.left--;
            state.refused++;
            const error = Object.assign(new Error(rejection.message), { responseCode: rejection.code });
            callback(error);
            return;
          }
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((address) => address.address),
            user: typeof session.user === 'string' ? session.user : null,
          };
          state.received.push(received(Buffer.concat(chunks).toString('utf8'), envelope));
          callback();
        });
      },
    });

  const serve = () => {
    const created = create();
    // A client killed in the middle of a session resets its connection: that is the client's fate, not a failure
    // of this server (without a listener, the server's 'error' event would end the test process).
    created.on('error', () => undefined);
    return created;
  };
  let server = serve();
  const listen = async () => {
    server.listen(port, '127.0.0.1');
    await once(server.server, 'listening');
    port = (server.server.address() as AddressInfo).port;
  };
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await listen();

  const smtp: TestSmtpServer = {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}?security=none`;
    },
    get received() {
      return state.received;
    },
    get logins() {
      return state.logins;
    },
    get refused() {
      return state.refused;
    },
    reject(code, message, times = Number.POSITIVE_INFINITY) {
      rejection = { code, message, left: times };
    },
    accept() {
      rejection = null;
    },
    stop,
    async start() {
      server = serve();
      await listen();
    },
    to: (address) => state.received.filter((mail) => mail.envelopeTo.includes(address)),
    waitFor: (address, count = 1, timeoutMs = 15_000) =>
      eventually(async () => {
        const mails = smtp.to(address);
        if (mails.length < count) throw new Error(`${mails.length} of ${count} e-mails to ${address} arrived`);
        return mails;
      }, timeoutMs),
    close: stop,
  };
  return smtp;
}
