import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { FromEmbedded, ToEmbedded, EmbeddedWorkerData } from './embedded.ts';

/**
 * The embedded database's thread: PGlite and the socket server that speaks the PostgreSQL protocol for it. PostgreSQL
 * compiled to WebAssembly runs synchronously; here it keeps its own core instead of the API's event loop.
 */
const port = parentPort!;
const { directory, socketPath, maxConnections, sharedBuffers } = workerData as EmbeddedWorkerData;
const send = (message: FromEmbedded) => port.postMessage(message);

async function serve(): Promise<void> {
  const startParams = sharedBuffers ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] : undefined;
  const db = await PGlite.create({ dataDir: directory, startParams });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections });
  await server.start();
  port.on('message', (message: ToEmbedded) => {
    if (message.kind !== 'stop') return;
    void (async () => {
      await server.stop();
      await db.close();
      send({ kind: 'stopped' });
      port.close();
    })();
  });
  send({ kind: 'ready' });
}

serve().catch((error: unknown) => send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
