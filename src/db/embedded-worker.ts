import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { FromEmbedded, ToEmbedded, EmbeddedWorkerData } from './embedded.ts';
import { EmbeddedWireServer } from './embedded-wire.ts';

/**
 * The embedded database's thread: PGlite and the server that speaks the PostgreSQL protocol for it. PostgreSQL
 * compiled to WebAssembly runs synchronously; here it keeps its own core instead of the API's event loop.
 */
const port = parentPort!;
const { directory, socketPath, maxConnections, sharedBuffers } = workerData as EmbeddedWorkerData;
const send = (message: FromEmbedded) => port.postMessage(message);

async function serve(): Promise<void> {
  const startParams = sharedBuffers ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] : undefined;
  const db = await PGlite.create({ dataDir: directory, startParams });
  const server = new EmbeddedWireServer(db, maxConnections);
  await server.listen(socketPath);
  port.on('message', (message: ToEmbedded) => {
    if (message.kind !== 'stop') return;
    void (async () => {
      await server.close();
      await db.close();
      send({ kind: 'stopped' });
      port.close();
    })();
  });
  send({ kind: 'ready' });
}

serve().catch((error: unknown) => send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
