/*
 * benchio.h: small helpers shared by the bench programs (herd, fanout, invalidate, fill): the clock,
 * Unix-socket connections, blocking writes, a line/RESP reader, one-shot JSON-RPC calls, and a
 * pipelined bulk writer that keeps a window of requests in flight on one connection.
 *
 * Header-only (static functions) so each program stays one `cc -O2 prog.c` away from a binary.
 */
#ifndef BENCHIO_H
#define BENCHIO_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Every helper is static; a program uses only some of them. */
#define BIO_FN static __attribute__((unused))

/* ---------- errors and time ---------- */

static const char *bio_prog = "bench";

BIO_FN void bio_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", bio_prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

BIO_FN inline uint64_t bio_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* This process's user+system CPU seconds so far. */
BIO_FN double bio_cpu_seconds(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

/* Raise the open-file limit to its hard maximum (programs with thousands of connections). */
BIO_FN void bio_raise_nofile(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

BIO_FN int bio_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts them in place). */
BIO_FN double bio_median(double *v, int n) {
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, bio_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---------- connections ---------- */

BIO_FN int bio_connect(const char *path) {
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof sa.sun_path) bio_die("socket path too long: %s", path);
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) bio_die("socket: %s", strerror(errno));
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) bio_die("connect %s: %s", path, strerror(errno));
    int size = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    return fd;
}

BIO_FN void bio_set_nonblocking(int fd) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Write everything, waiting with poll() when a non-blocking socket is full. */
BIO_FN void bio_write_all(int fd, const char *buf, size_t len) {
    size_t off = 0;
    while (off < len) {
        ssize_t n = write(fd, buf + off, len - off);
        if (n > 0) { off += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            poll(&p, 1, 1000);
            continue;
        }
        bio_die("write: %s", n < 0 ? strerror(errno) : "returned 0");
    }
}

/* ---------- a growable read buffer ---------- */

struct bio_buf {
    char *data;
    size_t len, cap, off; /* bytes held, capacity, bytes already consumed */
};

BIO_FN void bio_buf_init(struct bio_buf *b, size_t cap) {
    b->data = malloc(cap);
    if (!b->data) bio_die("out of memory");
    /* Touched now, so the page faults of a fresh buffer happen while a client sets up, not inside a
       measured window. */
    memset(b->data, 0, cap);
    b->len = b->off = 0;
    b->cap = cap;
}

/* Drop consumed bytes, make room, and read once. Returns bytes read, 0 on EOF, -1 on EAGAIN. */
BIO_FN ssize_t bio_buf_fill(struct bio_buf *b, int fd) {
    if (b->off > 0) {
        memmove(b->data, b->data + b->off, b->len - b->off);
        b->len -= b->off;
        b->off = 0;
    }
    /* Grown only when little room is left: growing whenever less than a whole 64 KB read fitted made
       every buffer double (a fresh mapping, page faults and a copy) on its second read, inside the
       measured window of a herd over 1,000 connections (32,000 page faults, most of its 57 ms). */
    if (b->cap - b->len < 4096) {
        b->cap *= 2;
        b->data = realloc(b->data, b->cap);
        if (!b->data) bio_die("out of memory");
    }
    for (;;) {
        ssize_t n = read(fd, b->data + b->len, b->cap - b->len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return -1;
        if (n < 0) bio_die("read: %s", strerror(errno));
        b->len += (size_t)n;
        return n;
    }
}

/* The next complete line (without its '\n'), or NULL. Skips blank lines. */
BIO_FN char *bio_next_line(struct bio_buf *b, size_t *line_len) {
    while (b->off < b->len) {
        char *start = b->data + b->off;
        char *nl = memchr(start, '\n', b->len - b->off);
        if (!nl) return NULL;
        b->off = (size_t)(nl - b->data) + 1;
        if (nl == start) continue;
        *line_len = (size_t)(nl - start);
        return start;
    }
    return NULL;
}

/* ---------- tiny JSON probes (enough for the replies the bench programs read) ---------- */

/* The integer after `"name":` in a line, or `fallback` when absent. */
BIO_FN long long bio_json_int(const char *line, size_t len, const char *name, long long fallback) {
    char pat[64];
    int plen = snprintf(pat, sizeof pat, "\"%s\":", name);
    const char *p = memmem(line, len, pat, (size_t)plen);
    if (!p) return fallback;
    p += plen;
    const char *end = line + len;
    int neg = 0;
    if (p < end && *p == '-') { neg = 1; p++; }
    if (p >= end || *p < '0' || *p > '9') return fallback;
    long long v = 0;
    while (p < end && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
    return neg ? -v : v;
}

/* The top-level "id" of a reply line: `{"jsonrpc":"2.0","id":N,...}` as the daemon writes it. */
BIO_FN long long bio_reply_id(const char *line, size_t len) {
    static const char pat[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    if (len < sizeof pat - 1 || memcmp(line, pat, sizeof pat - 1) != 0) return -1;
    long long v = 0;
    const char *p = line + sizeof pat - 1, *end = line + len;
    if (p >= end || *p < '0' || *p > '9') return -1;
    while (p < end && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
    return v;
}

/* 1 when a reply line carries "result" right after its id, 0 for an error reply. */
BIO_FN int bio_reply_ok(const char *line, size_t len) {
    const char *p = memmem(line, len < 48 ? len : 48, ",\"result\":", 10);
    return p != NULL;
}

/* Send one JSON-RPC line (no trailing newline needed) on a blocking fd and read until the reply with
 * `id` arrives (other lines are skipped). Copies the reply into out (truncated) and returns 1 for a
 * result, 0 for an error. */
BIO_FN int bio_call(int fd, struct bio_buf *b, const char *request, long long id, char *out, size_t out_cap) {
    size_t rlen = strlen(request);
    bio_write_all(fd, request, rlen);
    if (rlen == 0 || request[rlen - 1] != '\n') bio_write_all(fd, "\n", 1);
    for (;;) {
        size_t len;
        char *line;
        while ((line = bio_next_line(b, &len)) != NULL) {
            if (bio_reply_id(line, len) != id) continue;
            if (out && out_cap) {
                size_t n = len < out_cap - 1 ? len : out_cap - 1;
                memcpy(out, line, n);
                out[n] = 0;
            }
            return bio_reply_ok(line, len);
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 60000) <= 0) bio_die("no reply to id %lld within 60 s", id);
        ssize_t n = bio_buf_fill(b, fd);
        if (n == 0) bio_die("server closed the connection (waiting for id %lld)", id);
    }
}

/* ---------- pipelined bulk writes ---------- */

/* Writes request i (0-based) into out (at most cap bytes, newline included); returns its length. */
typedef size_t (*bio_gen_fn)(void *ctx, uint64_t i, char *out, size_t cap);

/* How a reply ends: JSON-RPC lines, or one RESP simple/integer/bulk reply. */
enum bio_proto { BIO_JSONRPC, BIO_RESP };

/* Count complete replies in b (consuming them); *errors counts error replies. Returns the count. */
BIO_FN uint64_t bio_count_replies(struct bio_buf *b, enum bio_proto proto, uint64_t *errors) {
    uint64_t n = 0;
    if (proto == BIO_JSONRPC) {
        size_t len;
        char *line;
        while ((line = bio_next_line(b, &len)) != NULL) {
            if (!bio_reply_ok(line, len)) (*errors)++;
            n++;
        }
        return n;
    }
    while (b->off < b->len) {
        char *p = b->data + b->off, *end = b->data + b->len;
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        char *next = nl + 1;
        if (*p == '$') {
            long blen = strtol(p + 1, NULL, 10);
            if (blen >= 0) {
                if ((size_t)(end - next) < (size_t)blen + 2) break;
                next += blen + 2;
            }
        } else if (*p == '-') (*errors)++;
        b->off = (size_t)(next - b->data);
        n++;
    }
    return n;
}

/*
 * Send requests from..to-1 made by gen on fd, keeping at most `window` unanswered, and wait for all
 * replies. Returns the number of error replies. The fd is made non-blocking.
 */
BIO_FN uint64_t bio_pipeline(int fd, enum bio_proto proto, uint64_t from, uint64_t to, uint64_t window,
                             bio_gen_fn gen, void *ctx) {
    bio_set_nonblocking(fd);
    size_t wcap = 1 << 20, wlen = 0, woff = 0;
    char *wbuf = malloc(wcap);
    struct bio_buf rb;
    bio_buf_init(&rb, 1 << 20);
    if (!wbuf) bio_die("out of memory");
    uint64_t next = from, answered = 0, total = to - from, errors = 0;
    while (answered < total) {
        /* refill the write buffer while the window allows */
        if (woff == wlen) { woff = wlen = 0; }
        while (next < to && next - from - answered < window && wcap - wlen > 65536) {
            wlen += gen(ctx, next, wbuf + wlen, wcap - wlen);
            next++;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN | (woff < wlen ? POLLOUT : 0)};
        if (poll(&p, 1, 60000) <= 0) bio_die("bulk: no progress for 60 s (%llu of %llu answered)",
                                              (unsigned long long)answered, (unsigned long long)total);
        if (p.revents & POLLOUT) {
            ssize_t n = write(fd, wbuf + woff, wlen - woff);
            if (n > 0) woff += (size_t)n;
            else if (n < 0 && errno != EAGAIN && errno != EINTR) bio_die("bulk write: %s", strerror(errno));
            if (woff == wlen) woff = wlen = 0;
            else if (woff > wcap / 2) {
                memmove(wbuf, wbuf + woff, wlen - woff);
                wlen -= woff;
                woff = 0;
            }
        }
        if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n;
            while ((n = bio_buf_fill(&rb, fd)) > 0) answered += bio_count_replies(&rb, proto, &errors);
            if (n == 0) bio_die("bulk: server closed the connection");
        }
    }
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    free(wbuf);
    free(rb.data);
    return errors;
}

#endif
