import { startApi } from './server.ts';

/** `npm run dev` (tsx): the API from its sources. The build bundles src/server.ts and runs it the same way. */
await startApi();
