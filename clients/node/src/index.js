// queryd-client: talk to queryd (TanStack Query's cache as a daemon) from Node.js.
//
//   import { Client } from 'queryd-client';
//   const client = await Client.connect();
//   await client.registerFetcher(['todos'], async ({ key }) => ['buy milk']);
//   for await (const state of client.subscribe(['todos'])) console.log(state.status, state.data);
//
// Protocols: queryd protocol 2, and protocol 1 with an older daemon (protocol/README.md).

export { Client, PROTOCOLS, VERSION } from './client.js';
export { Connection, LINE_LIMIT, LINE_TOO_LONG } from './connection.js';
export * from './errors.js';
export { PageResult, Registration } from './handlers.js';
export { socketPath } from './keys.js';
export { CacheWatch, CountSubscription, MutationSubscription, Subscription } from './subscription.js';
export { mergePatch } from './patching.js';
