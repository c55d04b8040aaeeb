// Compiled with `tsc --noEmit` by test/types.test.js: the declarations describe the API the tests
// use, and wrong uses are refused (each @ts-expect-error must be an error).
import {
  Client, HandlerError, InvalidParams, LimitExceeded, PageResult, TooManyConnections, type QueryState,
} from 'queryd-client';

export async function usage(path: string): Promise<void> {
  const client = await Client.connect(path, { connectWaitMs: 1000, backoffMs: [50, 2000] });
  client.onConnectionState((state, reason) => console.log(state, reason));
  await client.registerFetcher(['todos'], async ({ key, signal, progress }) => {
    progress(['partial']);
    if (signal.aborted) throw new HandlerError('aborted', { code: 499 });
    return key.length > 1 ? new PageResult([1], { nextPageParam: 2 }) : ['buy milk'];
  }, { defaults: { staleTime: 'Infinity' }, cancellable: true });
  const state: QueryState = await client.query.fetch(['todos'], { staleTime: 1000, retry: 2 });
  await client.query.set(['todos'], { data: [state.dataUpdateCount] }, 1_700_000_000_000);
  await client.query.set(['todos'], { mergePatch: { done: true } }, { updatedAt: 1, signal: new AbortController().signal });
  const hello = await client.call('server.hello', { client: { name: 'x' } });
  console.log(hello.capabilities.length, client.protocol, client.epoch);
  for await (const page of client.queries.pages(['todos'], { limit: 10 })) console.log(page.length);
  for await (const pushed of client.subscribe(['todos'], { push: 'patch', echo: false, refetchOn: ['saved'] })) {
    console.log(pushed.dataVersion, pushed.data);
    break;
  }
  await client.mutation.run(['todos'], { title: 'x' }, { retry: 1, signal: new AbortController().signal });
  console.log(await client.emit('saved'), TooManyConnections === LimitExceeded, new InvalidParams(-32602, 'm').code);
  // @ts-expect-error staleTime is a query option, not a fetcher registration option
  await client.registerFetcher(['x'], async () => 1, { staleTime: 1 });
  // @ts-expect-error an unknown query option
  await client.query.fetch(['todos'], { staleTme: 1 });
  // @ts-expect-error query.set takes {data} or {mergePatch}
  await client.query.set(['todos'], 'bare value');
  await client.close();
}
