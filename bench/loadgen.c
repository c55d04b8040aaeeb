/*
 * loadgen: single-threaded epoll load generator for queryd (newline-delimited JSON-RPC) and Redis (RESP)
 * over Unix sockets. Each connection keeps P requests in flight: it writes P requests in one write(),
 * waits for all P replies, then writes the next batch (the semantics of redis-benchmark -P). A request's
 * latency runs from the write of its batch to the read() that delivered its own reply. After warm-up and
 * the measured duration it prints one JSON line:
 *   {"requests":n,"seconds":s,"rps":x,"p50_us":..,"p99_us":..,"errors":e,...}
 * With --once it sends a single JSON-RPC request, prints the reply line and exits (a setup helper).
 *
 * Build: cc -O2 -o bench/out/loadgen bench/loadgen.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* ---------- latency histogram: 1 µs buckets below 16,384 µs, then 128 buckets per power of two ---------- */

#define HIST_LINEAR 16384u /* exact 1 µs buckets for 0..16383 µs */
#define HIST_SUB 128u      /* buckets per octave above that (<1 % relative error) */
#define HIST_OCTAVES 24u   /* up to 16384 * 2^24 µs (~76 hours) */
#define HIST_SIZE (HIST_LINEAR + HIST_SUB * HIST_OCTAVES)

static uint64_t hist[HIST_SIZE];
static uint64_t hist_count, hist_max_ns;
static double hist_sum_ns;

static unsigned hist_index(uint64_t us) {
    if (us < HIST_LINEAR) return (unsigned)us;
    unsigned msb = 63u - (unsigned)__builtin_clzll(us); /* >= 14 */
    unsigned octave = msb - 14u;
    if (octave >= HIST_OCTAVES) return HIST_SIZE - 1;
    unsigned sub = (unsigned)((us >> (msb - 7u)) & (HIST_SUB - 1u));
    return HIST_LINEAR + octave * HIST_SUB + sub;
}

/* Representative value (µs) of a bucket: exact below HIST_LINEAR, the bucket's midpoint above. */
static double hist_value(unsigned idx) {
    if (idx < HIST_LINEAR) return (double)idx;
    unsigned octave = (idx - HIST_LINEAR) / HIST_SUB, sub = (idx - HIST_LINEAR) % HIST_SUB;
    double width = (double)(1ull << (octave + 7u));
    return (double)(1ull << (octave + 14u)) + (sub + 0.5) * width;
}

static inline void hist_record(uint64_t ns) {
    hist[hist_index(ns / 1000u)]++;
    hist_count++;
    hist_sum_ns += (double)ns;
    if (ns > hist_max_ns) hist_max_ns = ns;
}

static double hist_percentile(double q) {
    if (hist_count == 0) return 0;
    uint64_t rank = (uint64_t)(q * (double)hist_count);
    if (rank >= hist_count) rank = hist_count - 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < HIST_SIZE; i++) {
        seen += hist[i];
        if (seen > rank) return hist_value(i);
    }
    return hist_value(HIST_SIZE - 1);
}

/* ---------- options ---------- */

enum protocol { PROTO_JSONRPC, PROTO_RESP };

static const char *opt_socket;
static enum protocol opt_proto = PROTO_JSONRPC;
static int opt_conns = 1, opt_pipeline = 1, opt_once;
static double opt_seconds = 3.0, opt_warmup = 0.5;
static const char *opt_request, *opt_resp_key;
static int opt_resp_ping; /* --resp-ping 1: send RESP PING (its +PONG counts as a success) */

static void usage(FILE *f) {
    fprintf(f,
            "usage: loadgen --socket PATH [--protocol jsonrpc|resp] [--connections N] [--pipeline P]\n"
            "               [--seconds S] [--warmup S] (--request FILE_OR_STRING | --resp-get KEY) [--once]\n"
            "  --request   jsonrpc request line template; %%ID%% is replaced by a per-connection counter\n"
            "              (1, 2, 3, ...). If the argument names a readable file, its first line is used.\n"
            "  --resp-get  send RESP 'GET KEY' (implies --protocol resp); bulk replies count as successes\n"
            "  --resp-ping 1  send RESP 'PING' (implies --protocol resp)\n"
            "  --once      send one jsonrpc request (id 1), print the reply line, exit 0 (1 on error reply)\n");
}

static void die(const char *msg) {
    fprintf(stderr, "loadgen: %s\n", msg);
    exit(2);
}

static void die_errno(const char *what) {
    fprintf(stderr, "loadgen: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void parse_args(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (!strcmp(a, "--once")) { opt_once = 1; continue; }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); exit(0); }
        if (!v) { usage(stderr); die("missing option value"); }
        i++;
        if (!strcmp(a, "--socket")) opt_socket = v;
        else if (!strcmp(a, "--protocol")) {
            if (!strcmp(v, "jsonrpc")) opt_proto = PROTO_JSONRPC;
            else if (!strcmp(v, "resp")) opt_proto = PROTO_RESP;
            else die("--protocol must be jsonrpc or resp");
        } else if (!strcmp(a, "--connections")) opt_conns = atoi(v);
        else if (!strcmp(a, "--pipeline")) opt_pipeline = atoi(v);
        else if (!strcmp(a, "--seconds")) opt_seconds = atof(v);
        else if (!strcmp(a, "--warmup")) opt_warmup = atof(v);
        else if (!strcmp(a, "--request")) opt_request = v;
        else if (!strcmp(a, "--resp-get")) { opt_resp_key = v; opt_proto = PROTO_RESP; }
        else if (!strcmp(a, "--resp-ping")) { opt_resp_ping = atoi(v); opt_proto = PROTO_RESP; }
        else { usage(stderr); fprintf(stderr, "loadgen: unknown option %s\n", a); exit(2); }
    }
    if (!opt_socket) die("--socket is required");
    if (opt_conns < 1 || opt_conns > 100000) die("--connections must be 1..100000");
    if (opt_pipeline < 1 || opt_pipeline > 100000) die("--pipeline must be 1..100000");
    if (opt_seconds <= 0 || opt_warmup < 0) die("--seconds must be > 0 and --warmup >= 0");
    if (opt_proto == PROTO_JSONRPC && !opt_request) die("--request is required for jsonrpc");
    if (opt_proto == PROTO_RESP && !opt_resp_key && !opt_resp_ping) die("--resp-get KEY or --resp-ping 1 is required for resp");
    if (opt_once && opt_proto != PROTO_JSONRPC) die("--once is for jsonrpc");
}

/* The template: a file's first line if the argument names a regular file, else the argument itself. */
static char *load_template(const char *arg) {
    struct stat st;
    char *text;
    if (arg[0] != '{' && arg[0] != '[' && stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
        FILE *f = fopen(arg, "rb");
        if (!f) die_errno(arg);
        text = malloc((size_t)st.st_size + 1);
        if (!text) die("out of memory");
        size_t n = fread(text, 1, (size_t)st.st_size, f);
        fclose(f);
        text[n] = 0;
    } else {
        text = strdup(arg);
        if (!text) die("out of memory");
    }
    char *nl = strpbrk(text, "\r\n");
    if (nl) *nl = 0;
    if (!text[0]) die("empty request template");
    return text;
}

/* ---------- time ---------- */

static inline uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---------- connections ---------- */

struct conn {
    int fd;
    int alive;
    char *wbuf;          /* the batch being written */
    size_t wlen, woff;   /* batch length and bytes already written */
    char *rbuf;          /* received bytes not yet consumed */
    size_t rcap, rlen;   /* capacity and bytes held */
    uint64_t next_id;    /* id of the next request to send (jsonrpc) */
    uint64_t expect_id;  /* id the next reply must carry (jsonrpc) */
    int outstanding;     /* replies still awaited for the current batch */
    uint64_t batch_ns;   /* when the current batch was written */
};

static struct conn *conns;
static int epfd;
static const char *tmpl_prefix, *tmpl_suffix; /* request template split at %ID% */
static size_t prefix_len, suffix_len;
static int tmpl_has_id;
static char resp_cmd[512];
static size_t resp_cmd_len;

static int connect_unix(const char *path) {
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof sa.sun_path) die("socket path too long");
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) die_errno("socket");
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) die_errno(path);
    int bufsize = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof bufsize);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof bufsize);
    return fd;
}

static inline char *put_u64(char *p, uint64_t v) {
    char tmp[24];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

/* Fill the connection's write buffer with its next P requests. */
static void build_batch(struct conn *c) {
    char *p = c->wbuf;
    for (int i = 0; i < opt_pipeline; i++) {
        if (opt_proto == PROTO_RESP) {
            memcpy(p, resp_cmd, resp_cmd_len);
            p += resp_cmd_len;
            continue;
        }
        memcpy(p, tmpl_prefix, prefix_len);
        p += prefix_len;
        if (tmpl_has_id) {
            p = put_u64(p, c->next_id++);
            memcpy(p, tmpl_suffix, suffix_len);
            p += suffix_len;
        }
        *p++ = '\n';
    }
    c->wlen = (size_t)(p - c->wbuf);
    c->woff = 0;
}

static void set_events(struct conn *c, uint32_t events) {
    struct epoll_event ev = {.events = events, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) die_errno("epoll_ctl");
}

static uint64_t errors; /* counted during the measured window only */
static int measuring;
static uint64_t all_replies; /* every reply, warm-up included (to divide the server's CPU time by) */

static void conn_fail(struct conn *c, const char *why) {
    if (!c->alive) return;
    fprintf(stderr, "loadgen: connection %d: %s\n", (int)(c - conns), why);
    if (measuring) errors += (uint64_t)c->outstanding;
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->alive = 0;
}

/* Write what remains of the batch; wait for EPOLLOUT if the socket is full. */
static void flush_batch(struct conn *c) {
    while (c->woff < c->wlen) {
        ssize_t n = write(c->fd, c->wbuf + c->woff, c->wlen - c->woff);
        if (n > 0) { c->woff += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { set_events(c, EPOLLIN | EPOLLOUT); return; }
        conn_fail(c, n < 0 ? strerror(errno) : "write returned 0");
        return;
    }
}

static void send_batch(struct conn *c) {
    build_batch(c);
    c->outstanding = opt_pipeline;
    c->batch_ns = now_ns();
    flush_batch(c);
}

/* ---------- reply parsing ---------- */

/* Skip one JSON value starting at p (whitespace allowed before it); returns the byte after it or NULL. */
static const char *skip_value(const char *p, const char *end) {
    int depth = 0;
    while (p < end) {
        char ch = *p;
        if (ch == '"') {
            p++;
            while (p < end && *p != '"') p += (*p == '\\') ? 2 : 1;
            if (p >= end) return NULL;
            p++;
            if (depth == 0) return p;
            continue;
        }
        if (ch == '{' || ch == '[') depth++;
        else if (ch == '}' || ch == ']') {
            if (depth == 0) return p; /* end of the enclosing container: value was empty/bad */
            if (--depth == 0) return p + 1;
        } else if (depth == 0 && (ch == ',')) return p;
        p++;
    }
    return depth == 0 ? p : NULL;
}

static inline const char *skip_ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

/*
 * Inspect the top level of a JSON-RPC reply object. Sets *id (or -1 for null/absent/non-integer) and
 * returns 1 for "result", 0 for "error" or anything malformed. Stops as soon as it has the id and
 * the result/error member, so with the usual member order ({"jsonrpc","id","result"}) it reads only
 * the first few dozen bytes of the line.
 */
static int inspect_reply(const char *p, const char *end, int64_t *id) {
    int have_id = 0, outcome = -1;
    *id = -1;
    p = skip_ws(p, end);
    if (p >= end || *p != '{') return 0;
    p++;
    while (p < end) {
        p = skip_ws(p, end);
        if (p >= end || *p != '"') return 0;
        const char *key = ++p;
        while (p < end && *p != '"') p += (*p == '\\') ? 2 : 1;
        if (p >= end) return 0;
        size_t klen = (size_t)(p - key);
        p = skip_ws(p + 1, end);
        if (p >= end || *p != ':') return 0;
        p = skip_ws(p + 1, end);
        if (klen == 2 && key[0] == 'i' && key[1] == 'd') {
            have_id = 1;
            if (p < end && *p >= '0' && *p <= '9') {
                int64_t v = 0;
                while (p < end && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
                *id = v;
            } else {
                p = skip_value(p, end);
                if (!p) return 0;
            }
        } else {
            if (klen == 6 && !memcmp(key, "result", 6)) outcome = 1;
            else if (klen == 5 && !memcmp(key, "error", 5)) outcome = 0;
            if (outcome >= 0 && have_id) return outcome;
            p = skip_value(p, end);
            if (!p) return 0;
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',') { p++; continue; }
        break;
    }
    return outcome == 1;
}

/* Account for one reply that arrived at `at`. */
static inline void reply_done(struct conn *c, int ok, uint64_t at) {
    all_replies++;
    if (measuring) {
        if (ok) hist_record(at - c->batch_ns);
        else errors++;
    }
    c->outstanding--;
}

/* Consume complete jsonrpc lines from the read buffer; returns bytes consumed, or -1 on a protocol error. */
static long consume_jsonrpc(struct conn *c, uint64_t at) {
    const char *start = c->rbuf, *end = c->rbuf + c->rlen, *p = start;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        if (nl == p || (nl == p + 1 && *p == '\r')) { p = nl + 1; continue; } /* blank line */
        if (c->outstanding == 0) return -1; /* a line nobody asked for */
        int64_t id;
        int ok = inspect_reply(p, nl, &id);
        if (tmpl_has_id) {
            if (id != (int64_t)c->expect_id) ok = 0;
            c->expect_id++;
        }
        reply_done(c, ok, at);
        p = nl + 1;
    }
    return (long)(p - start);
}

/* Consume complete RESP replies; bulk strings, simple strings and integers succeed, errors and nil fail. */
static long consume_resp(struct conn *c, uint64_t at) {
    const char *start = c->rbuf, *end = c->rbuf + c->rlen, *p = start;
    while (p < end) {
        const char *crlf = memchr(p, '\n', (size_t)(end - p));
        if (!crlf) break;
        const char *next = crlf + 1;
        int ok;
        if (*p == '$') {
            long len = strtol(p + 1, NULL, 10);
            if (len >= 0) {
                if ((size_t)(end - next) < (size_t)len + 2) break; /* body not complete yet */
                next += len + 2;
                ok = 1;
            } else ok = 0; /* nil */
        } else if (*p == '+' || *p == ':') ok = 1;
        else if (*p == '-') ok = 0;
        else return -1; /* arrays and unknown types are not expected for GET */
        if (c->outstanding == 0) return -1;
        reply_done(c, ok, at);
        p = next;
    }
    return (long)(p - start);
}

static void on_readable(struct conn *c, int *done_batch) {
    for (;;) {
        if (c->rcap - c->rlen < 4096) { /* a reply larger than the buffer: grow (rare, not per request) */
            c->rcap *= 2;
            c->rbuf = realloc(c->rbuf, c->rcap);
            if (!c->rbuf) die("out of memory");
        }
        size_t room = c->rcap - c->rlen;
        ssize_t n = read(c->fd, c->rbuf + c->rlen, room);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n <= 0) { conn_fail(c, n == 0 ? "server closed the connection" : strerror(errno)); return; }
        c->rlen += (size_t)n;
        uint64_t at = now_ns(); /* arrival time of every reply completed by this read */
        long used = opt_proto == PROTO_JSONRPC ? consume_jsonrpc(c, at) : consume_resp(c, at);
        if (used < 0) { conn_fail(c, "unexpected reply"); return; }
        if ((size_t)used < c->rlen) memmove(c->rbuf, c->rbuf + used, c->rlen - (size_t)used);
        c->rlen -= (size_t)used;
        if ((size_t)n < room) break; /* drained the socket */
    }
    if (c->outstanding == 0) *done_batch = 1;
}

/* ---------- one-shot mode ---------- */

static int run_once(void) {
    int fd = connect_unix(opt_socket);
    char *line = malloc(prefix_len + suffix_len + 32);
    if (!line) die("out of memory");
    char *p = line;
    memcpy(p, tmpl_prefix, prefix_len);
    p += prefix_len;
    if (tmpl_has_id) {
        *p++ = '1';
        memcpy(p, tmpl_suffix, suffix_len);
        p += suffix_len;
    }
    *p++ = '\n';
    for (size_t off = 0, len = (size_t)(p - line); off < len;) {
        ssize_t n = write(fd, line + off, len - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) die_errno("write");
        off += (size_t)n;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) die("out of memory");
    for (;;) {
        char *nl = len ? memchr(buf, '\n', len) : NULL;
        if (nl && nl != buf) {
            int64_t id;
            int ok = inspect_reply(buf, nl, &id);
            fwrite(buf, 1, (size_t)(nl - buf) + 1, stdout);
            return ok ? 0 : 1;
        }
        if (nl) { memmove(buf, nl + 1, len - 1); len--; continue; } /* leading blank line */
        if (cap - len < 4096) { cap *= 2; buf = realloc(buf, cap); if (!buf) die("out of memory"); }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) die(n == 0 ? "server closed the connection before replying" : strerror(errno));
        len += (size_t)n;
    }
}

/* ---------- main loop ---------- */

int main(int argc, char **argv) {
    parse_args(argc, argv);
    signal(SIGPIPE, SIG_IGN); /* a server that goes away is reported, not fatal */
    size_t req_max;
    if (opt_proto == PROTO_JSONRPC) {
        char *tmpl = load_template(opt_request);
        char *mark = strstr(tmpl, "%ID%");
        tmpl_has_id = mark != NULL;
        if (mark) { *mark = 0; tmpl_suffix = mark + 4; } else tmpl_suffix = "";
        tmpl_prefix = tmpl;
        prefix_len = strlen(tmpl_prefix);
        suffix_len = strlen(tmpl_suffix);
        req_max = prefix_len + suffix_len + 22;
    } else if (opt_resp_ping) {
        resp_cmd_len = (size_t)snprintf(resp_cmd, sizeof resp_cmd, "*1\r\n$4\r\nPING\r\n");
        req_max = resp_cmd_len;
    } else {
        size_t klen = strlen(opt_resp_key);
        if (klen > 400) die("--resp-get key too long");
        resp_cmd_len = (size_t)snprintf(resp_cmd, sizeof resp_cmd, "*2\r\n$3\r\nGET\r\n$%zu\r\n%s\r\n", klen,
                                        opt_resp_key);
        req_max = resp_cmd_len;
    }
    if (opt_once) return run_once();

    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) die_errno("epoll_create1");
    conns = calloc((size_t)opt_conns, sizeof *conns);
    if (!conns) die("out of memory");
    for (int i = 0; i < opt_conns; i++) {
        struct conn *c = &conns[i];
        c->fd = connect_unix(opt_socket);
        fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
        c->alive = 1;
        c->wbuf = malloc(req_max * (size_t)opt_pipeline);
        c->rcap = 256 * 1024;
        c->rbuf = malloc(c->rcap);
        if (!c->wbuf || !c->rbuf) die("out of memory");
        c->next_id = c->expect_id = 1;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die_errno("epoll_ctl");
    }

    uint64_t t_start = now_ns();
    uint64_t t_measure = t_start + (uint64_t)(opt_warmup * 1e9);
    uint64_t t_end = t_measure + (uint64_t)(opt_seconds * 1e9);
    measuring = opt_warmup <= 0;
    for (int i = 0; i < opt_conns; i++) send_batch(&conns[i]);

    enum { MAX_EVENTS = 1024 };
    struct epoll_event events[MAX_EVENTS];
    int alive = opt_conns;
    uint64_t now = t_start;
    while (alive > 0) {
        now = now_ns();
        if (now >= t_end) break;
        if (!measuring && now >= t_measure) measuring = 1;
        uint64_t until = (measuring ? t_end : t_measure) - now;
        int timeout_ms = (int)(until / 1000000u) + 1;
        int n = epoll_wait(epfd, events, MAX_EVENTS, timeout_ms);
        if (n < 0) {
            if (errno == EINTR) continue;
            die_errno("epoll_wait");
        }
        uint64_t at = n > 0 ? now_ns() : now;
        if (!measuring && at >= t_measure) measuring = 1;
        if (at >= t_end) { now = at; break; } /* replies after the deadline do not count */
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            if (!c->alive) continue;
            if (events[i].events & EPOLLOUT) {
                flush_batch(c);
                if (c->alive && c->woff == c->wlen) set_events(c, EPOLLIN);
            }
            if (!c->alive) { alive--; continue; }
            if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                int done_batch = 0;
                on_readable(c, &done_batch);
                if (!c->alive) { alive--; continue; }
                if (done_batch) send_batch(c);
                if (!c->alive) alive--;
            }
        }
    }
    if (now < t_measure) now = t_measure;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double client_cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                        ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
    double seconds = (double)(now - t_measure) / 1e9;
    uint64_t ok = hist_count;
    double rps = seconds > 0 ? (double)ok / seconds : 0;
    printf("{\"requests\":%llu,\"seconds\":%.3f,\"rps\":%.0f,\"p50_us\":%.0f,\"p99_us\":%.0f,\"errors\":%llu,"
           "\"p90_us\":%.0f,\"p999_us\":%.0f,\"max_us\":%.0f,\"mean_us\":%.1f,\"connections\":%d,\"pipeline\":%d,"
           "\"all_requests\":%llu,\"client_cpu_s\":%.3f}\n",
           (unsigned long long)ok, seconds, rps, hist_percentile(0.50), hist_percentile(0.99),
           (unsigned long long)errors, hist_percentile(0.90), hist_percentile(0.999), (double)hist_max_ns / 1000.0,
           ok ? hist_sum_ns / (double)ok / 1000.0 : 0.0, opt_conns, opt_pipeline,
           (unsigned long long)all_replies, client_cpu);
    fflush(stdout);
    return alive == opt_conns ? 0 : 1;
}
