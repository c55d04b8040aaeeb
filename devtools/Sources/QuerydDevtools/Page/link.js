// The page's WebSocket to the devtools server: snapshots and updates in, actions out (each answered by a reply
// with its id). Reconnects after a second when the socket closes.

export class Link {
  constructor(token, onMessage, onStatus) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${encodeURIComponent(token)}`;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.nextID = 1;
    this.waiting = new Map();
    this.open();
  }

  open() {
    this.socket = new WebSocket(this.url);
    this.socket.onopen = () => this.onStatus("connected");
    this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.socket.onclose = () => {
      this.onStatus("reconnecting…");
      for (const { reject } of this.waiting.values()) reject(new Error("the devtools server went away"));
      this.waiting.clear();
      setTimeout(() => this.open(), 1000);
    };
  }

  receive(message) {
    if (message.type !== "reply") return this.onMessage(message);
    const waiter = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    if (!waiter) return;
    if ("error" in message) waiter.reject(new Error(message.error));
    else waiter.resolve(message.result);
  }

  /** Runs `action` (refetch, invalidate, reset, remove, set) on `key`; resolves with the daemon's result. */
  act(action, key, data) {
    const id = this.nextID++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(data === undefined ? { id, action, key } : { id, action, key, data }));
    });
  }
}
