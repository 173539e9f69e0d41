import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWireServer } from './embedded-wire.ts';

let db: PGlite;
let server: EmbeddedWireServer;
let directory: string;
let socketPath: string;
const clients: pg.Client[] = [];

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
  directory = mkdtempSync(join(tmpdir(), 'violet-wire-'));
  socketPath = join(directory, '.s.PGSQL.5432');
  server = new EmbeddedWireServer(db, 16);
  await server.listen(socketPath);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
  await db.exec('TRUNCATE notes');
});

afterAll(async () => {
  await server?.close();
  await db?.close();
  rmSync(directory, { recursive: true, force: true });
});

async function client(): Promise<pg.Client> {
  const opened = new pg.Client({ host: directory, user: 'postgres', database: 'postgres' });
  opened.on('error', () => {});
  clients.push(opened);
  await opened.connect();
  return opened;
}

const count = async (reader: pg.Client) => Number((await reader.query('SELECT count(*) AS n FROM notes')).rows[0].n);

/** A raw socket, for what the pg driver never sends: split messages, unfinished sequences, broken framing. */
function rawSocket(): Promise<{ socket: Socket; received: () => Buffer; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const chunks: Buffer[] = [];
    socket.on('data', (data) => chunks.push(data));
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('error', reject);
    socket.once('connect', () => resolve({ socket, received: () => Buffer.concat(chunks), closed }));
  });
}

function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

function startupPacket(): Buffer {
  const body = Buffer.from('user\0postgres\0database\0postgres\0\0');
  const packet = Buffer.alloc(8 + body.length);
  packet.writeInt32BE(packet.length, 0);
  packet.writeInt32BE(196608, 4);
  body.copy(packet, 8);
  return packet;
}

const simpleQuery = (sql: string) => message('Q', Buffer.from(`${sql}\0`));

/** Parse, Bind and Execute of an INSERT with no Sync after them: a sequence (and its implicit transaction) left open. */
function insertWithoutSync(body: string): Buffer[] {
  const parse = message('P', Buffer.from(`\0INSERT INTO notes (body) VALUES ('${body}')\0\0\0`));
  const bind = message('B', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]));
  const execute = message('E', Buffer.from([0, 0, 0, 0, 0]));
  return [parse, bind, execute];
}
const endsWithReadyForQuery = (data: Buffer) => data.length >= 6 && data[data.length - 6] === 0x5a;

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the embedded database over the wire protocol', () => {
  it('answers concurrent connections, each with the results of its own parameters', async () => {
    const connections = await Promise.all(Array.from({ length: 5 }, () => client()));
    const answers = await Promise.all(
      connections.flatMap((connection, c) =>
        Array.from({ length: 20 }, async (_, q) => {
          const size = (c * 20 + q) * 1_000;
          const { rows } = await connection.query('SELECT $1::int AS n, length(repeat($2::text, $3::int)) AS size', [
            c * 100 + q,
            'x',
            size,
          ]);
          return rows[0].n === c * 100 + q && rows[0].size === size;
        }),
      ),
    );
    expect(answers.every(Boolean)).toBe(true);
  });

  it('keeps the session with a connection for its whole transaction: others wait and never see its uncommitted rows', async () => {
    const [writer, reader] = await Promise.all([client(), client()]);
    await writer.query('BEGIN');
    await writer.query(`INSERT INTO notes (body) VALUES ('draft')`);
    const order: string[] = [];
    const read = count(reader).then((n) => {
      order.push('read');
      return n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await count(writer)).toBe(1);
    await writer.query('COMMIT');
    order.push('commit');
    expect(await read).toBe(1);
    expect(order).toEqual(['commit', 'read']);
  });

  it('rolls back the transaction of a connection that goes away, and serves the others', async () => {
    const [leaver, reader] = await Promise.all([client(), client()]);
    await leaver.query('BEGIN');
    await leaver.query(`INSERT INTO notes (body) VALUES ('lost')`);
    const read = count(reader);
    (leaver as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
    expect(await read).toBe(0);
    expect(db.isInTransaction()).toBe(false);
  });

  it('keeps an error inside one transaction to that connection', async () => {
    const [failing, other] = await Promise.all([client(), client()]);
    await failing.query('BEGIN');
    await expect(failing.query('SELECT 1 / 0')).rejects.toThrow(/division by zero/);
    const read = count(other);
    await expect(failing.query('SELECT 1')).rejects.toThrow(/current transaction is aborted/);
    await failing.query('ROLLBACK');
    expect(await read).toBe(0);
    expect((await failing.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  it('reads messages split across writes, one byte at a time, after declining SSL', async () => {
    const { socket, received } = await rawSocket();
    const sslRequest = Buffer.alloc(8);
    sslRequest.writeInt32BE(8, 0);
    sslRequest.writeInt32BE(80877103, 4);
    socket.write(sslRequest);
    await until(() => received().length === 1);
    expect(received().toString()).toBe('N');
    for (const byte of Buffer.concat([startupPacket(), simpleQuery("SELECT 'split' AS word")])) {
      socket.write(Buffer.from([byte]));
      await new Promise((resolve) => setTimeout(resolve, 0)); // each byte its own read on the server's side
    }
    await until(() => received().includes('split') && endsWithReadyForQuery(received()));
    socket.end(message('X'));
  });

  it('keeps the session with an extended-query sequence until its Sync, which commits it', async () => {
    const other = await client(); // connected first: a startup packet, too, waits for the session
    const { socket, received } = await rawSocket();
    socket.write(startupPacket());
    await until(() => endsWithReadyForQuery(received()));
    socket.write(Buffer.concat([...insertWithoutSync('pending'), message('H')]));
    await until(() => received().includes('INSERT 0 1'));
    let answered = false;
    const read = count(other).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    socket.write(message('S'));
    expect(await read).toBe(1);
    socket.end(message('X'));
  });

  it('rolls back the unfinished sequence of a connection that goes away, as PostgreSQL does', async () => {
    const reader = await client();
    const { socket, received, closed } = await rawSocket();
    socket.write(startupPacket());
    await until(() => endsWithReadyForQuery(received()));
    socket.write(Buffer.concat([...insertWithoutSync('abandoned'), message('H')]));
    await until(() => received().includes('INSERT 0 1'));
    const read = count(reader);
    socket.destroy();
    await closed;
    expect(await read).toBe(0);
    expect(db.isInTransaction()).toBe(false);
  });

  it('ends a connection at its Terminate and ignores what follows', async () => {
    const { socket, received, closed } = await rawSocket();
    socket.write(startupPacket());
    await until(() => endsWithReadyForQuery(received()));
    const before = received().length;
    socket.write(
      Buffer.concat([
        simpleQuery(`INSERT INTO notes (body) VALUES ('last')`),
        message('X'),
        simpleQuery(`INSERT INTO notes (body) VALUES ('after')`),
      ]),
    );
    await closed;
    expect(received().subarray(before).includes('INSERT 0 1')).toBe(true);
    expect((await db.query('SELECT body FROM notes')).rows).toEqual([{ body: 'last' }]);
  });

  it('closes a connection that breaks the framing, and no other', async () => {
    const reader = await client();
    const { socket, closed } = await rawSocket();
    socket.write(startupPacket());
    socket.write(Buffer.from([0x51, 0, 0, 0, 1]));
    await closed;
    expect(await count(reader)).toBe(0);
  });

  it('rolls back what a connection left open when it closes, before it resolves', async () => {
    const ownDirectory = mkdtempSync(join(tmpdir(), 'violet-wire-'));
    const own = new EmbeddedWireServer(db, 2);
    await own.listen(join(ownDirectory, '.s.PGSQL.5432'));
    const holder = new pg.Client({ host: ownDirectory, user: 'postgres', database: 'postgres' });
    holder.on('error', () => {});
    try {
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO notes (body) VALUES ('closing')`);
      await own.close();
      expect(db.isInTransaction()).toBe(false);
      expect((await db.query('SELECT count(*)::int AS n FROM notes')).rows).toEqual([{ n: 0 }]);
    } finally {
      rmSync(ownDirectory, { recursive: true, force: true });
    }
  });

  it('turns away connections beyond its limit with an error', async () => {
    const smallDirectory = mkdtempSync(join(tmpdir(), 'violet-wire-'));
    const small = new EmbeddedWireServer(db, 2);
    await small.listen(join(smallDirectory, '.s.PGSQL.5432'));
    const open = () => new pg.Client({ host: smallDirectory, user: 'postgres', database: 'postgres' });
    const admitted = [open(), open()];
    try {
      await Promise.all(admitted.map((admittedClient) => admittedClient.connect()));
      await expect(open().connect()).rejects.toThrow(/too many connections/);
    } finally {
      await Promise.all(admitted.map((admittedClient) => admittedClient.end()));
      await small.close();
      rmSync(smallDirectory, { recursive: true, force: true });
    }
  });
});
