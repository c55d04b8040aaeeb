// A fetcher process: serves every key under ['todos'] until interrupted.
//   node clients/node/examples/fetcher.js [SOCKET]

import { Client, HandlerError } from '../src/index.js';

const todos = new Map([[1, 'buy milk'], [2, 'walk the dog']]);

const client = await Client.connect(process.argv[2]);
await client.registerFetcher(['todos'], async ({ key }) => {
  // ['todos'] is the whole list; ['todos', id] is one item.
  if (key.length === 1) return [...todos].map(([id, title]) => ({ id, title }));
  if (!todos.has(key[1])) throw new HandlerError('Not found', { code: 404, data: { id: key[1] } });
  return { id: key[1], title: todos.get(key[1]) };
});
console.error("serving ['todos']; Ctrl-C to stop");
process.once('SIGINT', () => client.close());
await client.serveForever();
