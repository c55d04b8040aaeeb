// A subscriber: prints every state of ['todos'] as it changes, until interrupted.
//   node clients/node/examples/subscriber.js [SOCKET]

import { Client } from '../src/index.js';

const client = await Client.connect(process.argv[2]);
process.once('SIGINT', () => client.close());
try {
  for await (const state of client.subscribe(['todos'], { staleTime: 30_000 })) {
    console.log(state.status.padEnd(8), state.fetchStatus.padEnd(9), JSON.stringify(state.data));
  }
} catch (error) {
  if (error.name !== 'ClientClosed') throw error;
}
