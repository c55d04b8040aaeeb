#!/usr/bin/env python3
"""Persistence soak (run by `bench/soak.sh --persist`): writes, subscribers and fetchers coming and
going, and kill -9 / restart cycles of a `queryd serve --persist` daemon, for a bounded time.

- Writers set ["ack", seq % SLOTS] = seq, one request in flight each, and record when each reply
  (the acknowledgement) arrived.
- Subscribers connect, subscribe to random ["ack", i] and ["f", i] keys, read pushes for 0.5-2 s
  and leave; fetchers register for ["f"], answer fetches for 1-3 s and leave.
- Every CYCLE seconds the daemon is killed with SIGKILL and restarted on the same file. With the
  load paused, every slot is read back: its data must be at least the highest seq acknowledged more
  than the sync window before the kill (--persist-flush-ms plus 50 ms with `interval`; nothing with
  `always`). The RSS right after the restore is the cycle's baseline.
- At the end the load stops, connections close, and the daemon's RSS must come back to within
  RSS_SLACK_KB of its baseline.
Prints one line per cycle and a summary; exits 1 on a lost write or an RSS that did not come back.
"""
import json, os, random, signal, socket, subprocess, sys, threading, time

BIN, WORK, DURATION, CYCLE, SYNC, FLUSH_MS = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], int(sys.argv[6])
SLOTS, WRITERS, SUBSCRIBERS, FETCHERS = 1000, 2, 3, 2
RSS_SLACK_KB = int(os.environ.get("RSS_SLACK_KB", "8192"))
SOCK, DB, LOG = WORK + "/q.sock", WORK + "/soak.db", WORK + "/queryd.log"
WINDOW = 0.0 if SYNC == "always" else FLUSH_MS / 1000 + 0.05

running = threading.Event(); running.set()      # load threads live while set
resumed = threading.Event(); resumed.set()      # cleared while the killer restarts and checks
acks = []                                       # (monotonic time, slot, seq), appended by writers
acks_lock = threading.Lock()
daemon = None


def start_daemon():
    global daemon
    try: os.unlink(SOCK)
    except FileNotFoundError: pass
    daemon = subprocess.Popen([BIN, "serve", "--socket", SOCK, "--persist", DB, "--persist-sync", SYNC,
                               "--persist-flush-ms", str(FLUSH_MS), "--log-file", LOG, "--log-level", "notice"])
    for _ in range(600):
        try:
            probe = socket.socket(socket.AF_UNIX); probe.connect(SOCK); probe.close()
            return
        except OSError:
            time.sleep(0.01)
    sys.exit("queryd did not start")


def rss_kb():
    with open(f"/proc/{daemon.pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))


def settle_rss():
    last = rss_kb()
    for _ in range(10):
        time.sleep(0.3)
        now = rss_kb()
        if now == last: break
        last = now
    return last


class Conn:
    def __init__(self):
        self.s = socket.socket(socket.AF_UNIX); self.s.settimeout(5); self.s.connect(SOCK)
        self.buf = b""; self.next_id = 0

    def send(self, obj): self.s.sendall(json.dumps(obj).encode() + b"\n")

    def read(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk: raise ConnectionError("EOF")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, method, params):
        self.next_id += 1; rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == rid and "method" not in msg: return msg

    def close(self): self.s.close()


def connect():
    while running.is_set():
        resumed.wait()
        try: return Conn()
        except OSError: time.sleep(0.02)
    return None


def writer(index):
    seq = index
    while running.is_set():
        c = connect()
        if c is None: return
        try:
            while running.is_set() and resumed.is_set():
                seq += WRITERS
                reply = c.call("query.set", {"key": ["ack", seq % SLOTS], "data": seq})
                if "result" in reply:
                    with acks_lock: acks.append((time.monotonic(), seq % SLOTS, seq))
        except (OSError, ConnectionError, ValueError): pass
        c.close()


def subscriber():
    while running.is_set():
        c = connect()
        if c is None: return
        try:
            for i in random.sample(range(SLOTS), 20):
                c.send({"jsonrpc": "2.0", "id": i, "method": "query.subscribe", "params": {"key": ["ack", i]}})
            for i in random.sample(range(100), 5):
                c.send({"jsonrpc": "2.0", "id": 10000 + i, "method": "query.subscribe", "params": {"key": ["f", i]}})
            end = time.monotonic() + random.uniform(0.5, 2)
            while time.monotonic() < end and running.is_set(): c.read()
        except (OSError, ConnectionError, ValueError): pass
        c.close()


def fetcher():
    while running.is_set():
        c = connect()
        if c is None: return
        try:
            c.call("fetcher.register", {"key": ["f"]})
            end = time.monotonic() + random.uniform(1, 3)
            while time.monotonic() < end and running.is_set():
                msg = c.read()
                if msg.get("method") == "fetch":
                    c.send({"jsonrpc": "2.0", "id": msg["id"], "result": {"data": {"at": time.time()}}})
        except (OSError, ConnectionError, ValueError): pass
        c.close()


def check(kill_time):
    """The slots whose data is older than the highest seq acknowledged WINDOW before the kill."""
    expected = {}
    with acks_lock:
        for t, slot, seq in acks:
            if t <= kill_time - WINDOW and seq > expected.get(slot, -1): expected[slot] = seq
        acks.clear()
    c = Conn()
    lost = 0
    for slot, seq in expected.items():
        got = c.call("query.get", {"key": ["ack", slot]}).get("result")
        if got is None or got["data"] < seq: lost += 1
    c.close()
    return len(expected), lost


start_daemon()
threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
threads += [threading.Thread(target=subscriber) for _ in range(SUBSCRIBERS)]
threads += [threading.Thread(target=fetcher) for _ in range(FETCHERS)]
baseline = settle_rss()
for t in threads: t.start()
end = time.monotonic() + DURATION
total_lost, cycle = 0, 0
print(f"{'cycle':>5} {'acked':>8} {'checked':>7} {'lost':>4} {'rss_kb_before_kill':>18} {'rss_kb_restored':>15}")
while time.monotonic() + CYCLE < end:
    time.sleep(CYCLE)
    cycle += 1
    before = rss_kb()
    resumed.clear()
    kill_time = time.monotonic()
    acked = len(acks)
    daemon.send_signal(signal.SIGKILL); daemon.wait()
    start_daemon()
    checked, lost = check(kill_time)
    total_lost += lost
    baseline = settle_rss()
    print(f"{cycle:>5} {acked:>8} {checked:>7} {lost:>4} {before:>18} {baseline:>15}", flush=True)
    resumed.set()
time.sleep(max(0, end - time.monotonic()))
loaded = rss_kb()
running.clear(); resumed.set()
for t in threads: t.join(10)
final = settle_rss()
daemon.send_signal(signal.SIGTERM); daemon.wait()
ok = total_lost == 0 and final <= baseline + RSS_SLACK_KB
print(f"--persist-sync {SYNC}, --persist-flush-ms {FLUSH_MS}: {cycle} kill -9 cycles, {total_lost} acknowledged writes "
      f"lost (older than the {WINDOW * 1000:.0f} ms window); RSS restored {baseline} kB, under load {loaded} kB, "
      f"after the load left {final} kB (slack {RSS_SLACK_KB} kB): {'PASS' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
