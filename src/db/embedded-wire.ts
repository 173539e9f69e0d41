import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Serves one PGlite database over the PostgreSQL wire protocol on a Unix socket, to several connections.
 *
 * PGlite is one PostgreSQL session. Connections take turns on it: a turn runs every complete message a connection
 * has sent, in one call into the database, and its answer goes out in one socket write. A connection keeps the
 * session for as long as the answers say it must: until a ReadyForQuery reports an idle session, i.e. to the end
 * of its transaction block, of an extended-query sequence not yet closed by Sync, or of a COPY. Meanwhile the other
 * connections' messages wait here, never interleaved with its own. With several connections the client's next
 * statement is already waiting when a turn ends, so the database does not idle while the client's event loop
 * reads the answer.
 *
 * The data directory is PGlite's NodeFS, whose writes go straight to its files (its `syncToFs` does nothing).
 */
export class EmbeddedWireServer {
  private readonly server: Server;
  private readonly connections = new Set<Connection>();
  /** Holds the session between turns (an open transaction, an unfinished sequence); undefined when it is idle. */
  private holder: Connection | undefined;
  /** Connections with complete messages waiting for their turn, oldest first. */
  private readonly waiting: Connection[] = [];
  private running = false;

  constructor(
    private readonly db: PGlite,
    private readonly maxConnections: number,
  ) {
    this.server = createServer((socket) => this.accept(socket));
    this.server.on('error', () => undefined); // a failed accept concerns that socket only
  }

  /** Listens once the database is ready: turns call into it synchronously. */
  async listen(path: string): Promise<void> {
    await this.db.waitReady;
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(path, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /** Stops accepting and ends every connection, rolling back what one left open, while the database is still open. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of this.connections) this.drop(connection);
    await closed;
  }

  private accept(socket: Socket): void {
    socket.on('error', () => socket.destroy()); // a client gone mid-write must not take the database's thread down
    if (this.connections.size >= this.maxConnections) {
      socket.end(errorResponse('53300', 'too many connections to the embedded database'), () => socket.destroy());
      return;
    }
    const connection = new Connection(socket);
    this.connections.add(connection);
    socket.setNoDelay(true);
    socket.on('data', (data) => {
      if (!connection.receive(data)) return this.drop(connection);
      if (connection.hasMessages()) this.offer(connection);
    });
    socket.on('close', () => this.drop(connection)); // after an error too: the listener above destroys the socket
  }

  private offer(connection: Connection): void {
    if (connection !== this.holder && !this.waiting.includes(connection)) this.waiting.push(connection);
    this.run();
  }

  /** Gives turns until the session's holder has nothing more to say or nobody waits. Synchronous, like PGlite. */
  private run(): void {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const next = this.holder ?? this.waiting.shift();
        if (!next || (next === this.holder && !next.hasMessages())) break;
        if (next.hasMessages()) this.turn(next);
      }
    } finally {
      this.running = false;
    }
  }

  private turn(connection: Connection): void {
    const wasStarted = connection.started;
    const { messages, terminate } = connection.takeMessages();
    const answer = messages.length ? this.execute(messages, connection) : EMPTY;
    if (answer.length && connection.socket.writable) connection.socket.write(answer);
    const idle = endsIdle(answer);
    if (answer.length) this.holder = idle ? undefined : connection;
    // A startup packet is answered with a ReadyForQuery, or it failed. What followed it is read now that the
    // connection speaks the typed protocol.
    const failedStartup = !wasStarted && !idle;
    if (terminate || failedStartup || (!wasStarted && !connection.receive(EMPTY))) this.drop(connection);
    else if (connection !== this.holder && connection.hasMessages()) this.waiting.push(connection);
  }

  private execute(messages: Buffer, connection?: Connection): Buffer {
    const answer: Buffer[] = [];
    // Runs synchronously: without syncToFs nothing is awaited. A failure inside the database rejects afterwards; the
    // connection whose messages failed is closed, since its answer is cut short.
    this.db
      .execProtocolRawStream(messages, { syncToFs: false, onRawData: (data) => answer.push(Buffer.from(data)) })
      .catch(() => connection && this.drop(connection));
    return answer.length === 1 ? answer[0] : Buffer.concat(answer);
  }

  /** A connection that goes away gives the session back in a clean state: its sequence closed, its transaction rolled back. */
  private drop(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    connection.socket.destroy();
    const at = this.waiting.indexOf(connection);
    if (at >= 0) this.waiting.splice(at, 1);
    if (this.holder === connection) {
      this.holder = undefined;
      this.execute(ABANDON);
      if (this.db.isInTransaction()) this.execute(ROLLBACK);
    }
    this.run();
  }
}

const EMPTY = Buffer.alloc(0);
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** PostgreSQL's own bound on a startup packet. */
const MAX_STARTUP_PACKET = 10_000;
/**
 * What brings a session a connection left behind back to idle, as PostgreSQL does for a client that disconnects:
 * an Execute of a portal that does not exist fails its unfinished sequence, so the Sync after it rolls back the
 * sequence's implicit transaction instead of committing it; a ROLLBACK ends a transaction block.
 */
const ABANDON = Buffer.concat([message(0x45, Buffer.from('violet abandoned portal\0\0\0\0\0')), message(0x53)]);
const ROLLBACK = message(0x51, Buffer.from('ROLLBACK\0'));

/** One client's socket: the bytes it sent that do not yet make a whole message, and its messages not yet run. */
class Connection {
  started = false;
  private pending: Buffer = EMPTY;
  /** Bytes at the start of `pending` that make whole messages. */
  private complete = 0;
  private terminated = false;

  constructor(readonly socket: Socket) {}

  /** Takes bytes from the client; false when they break the protocol (the connection is then dropped). */
  receive(data: Buffer): boolean {
    if (data.length) this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    return this.started ? this.scanMessages() : this.scanStartup();
  }

  hasMessages(): boolean {
    return this.complete > 0 || this.terminated;
  }

  /** Every complete message, which run in one turn (the startup packet alone), and whether the client said goodbye. */
  takeMessages(): { messages: Buffer; terminate: boolean } {
    const messages = this.pending.subarray(0, this.complete);
    this.pending = this.pending.subarray(this.complete);
    this.complete = 0;
    if (messages.length) this.started = true;
    return { messages, terminate: this.terminated };
  }

  /** Before the startup packet: answers SSL and GSS requests with "no", refuses cancel requests (each statement runs to its end). */
  private scanStartup(): boolean {
    while (this.complete === 0 && this.pending.length >= 8) {
      const length = this.pending.readInt32BE(0);
      if (length < 8 || length > MAX_STARTUP_PACKET) return false;
      if (this.pending.length < length) return true;
      const code = this.pending.readInt32BE(4);
      if (code === CANCEL_REQUEST) return false;
      if (code === SSL_REQUEST || code === GSS_REQUEST) {
        this.socket.write('N');
        this.pending = this.pending.subarray(length);
      } else this.complete = length;
    }
    return true;
  }

  /** Typed messages (a type byte and a length); a Terminate ends the connection after what came before it. */
  private scanMessages(): boolean {
    while (!this.terminated && this.pending.length - this.complete >= 5) {
      const length = this.pending.readInt32BE(this.complete + 1);
      if (length < 4) return false;
      if (this.pending.length - this.complete < length + 1) return true;
      if (this.pending[this.complete] === TERMINATE) {
        this.terminated = true;
        this.pending = this.pending.subarray(0, this.complete);
      } else this.complete += length + 1;
    }
    return true;
  }
}

const TERMINATE = 0x58;
const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;

/**
 * Whether an answer leaves the session idle: its last message is a ReadyForQuery saying so. Anything else (a
 * transaction block, an extended-query sequence Sync has not closed, a COPY) keeps the session with its connection.
 */
function endsIdle(answer: Buffer): boolean {
  let last = 0;
  for (let at = 0; at + 5 <= answer.length; ) {
    last = at;
    const length = answer.readInt32BE(at + 1);
    if (length < 4) return false;
    at += 1 + length;
  }
  return answer[last] === READY_FOR_QUERY && last + 6 === answer.length && answer[last + 5] === IDLE;
}

function message(type: number, body: Buffer = EMPTY): Buffer {
  const framed = Buffer.alloc(5 + body.length);
  framed[0] = type;
  framed.writeInt32BE(4 + body.length, 1);
  body.copy(framed, 5);
  return framed;
}

function errorResponse(code: string, text: string): Buffer {
  return message(0x45, Buffer.from(`SFATAL\0C${code}\0M${text}\0\0`));
}
