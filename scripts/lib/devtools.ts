/** A Chrome DevTools Protocol session over a `wrangler dev` inspector's WebSocket (the Worker's isolate). */
export interface DevtoolsSession {
  send<T>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
}

export async function devtools(port: number): Promise<DevtoolsSession> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    webSocketDebuggerUrl: string;
    title?: string;
  }[];
  const target = targets.find((t) => /edgecrawl/.test(t.title ?? '')) ?? targets[0];
  if (!target) throw new Error('no inspector target');
  // Node's WebSocket takes headers (undici); the inspector proxy wants an Origin.
  const ws = new WebSocket(target.webSocketDebuggerUrl, {
    headers: { origin: 'http://localhost' },
  } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 1;
  const pending = new Map<number, (result: unknown) => void>();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  };
  return {
    send: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve) => {
        const id = next++;
        pending.set(id, resolve as (result: unknown) => void);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}
