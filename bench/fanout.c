/*
 * fanout: the fan-out benchmark client. C subscriber connections hold K subscriptions each to one
 * query (queryd) or one channel (Redis); a publisher connection then writes one change R times, and
 * for each we time how long until the last of the C x K notifications has been read.
 *
 *   --mode queryd      K `query.subscribe` of key ["fan"] per connection; publish = `query.set`;
 *                      a delivery is a `query.changed` line whose data carries this round's number
 *   --mode redis-psub  K `PSUBSCRIBE [fNN]an` per connection (K distinct patterns that all match the
 *                      channel "fan", so each connection receives K messages per PUBLISH, as a queryd
 *                      connection with K subscriptions receives K notifications); publish = `PUBLISH fan`
 *   --mode redis-sub   `SUBSCRIBE fan` on each connection (K must be 1; Redis delivers a channel once per
 *                      connection however often it is subscribed)
 *
 * The payload is the same JSON text in both: {"pad":"xx..","round":N}, --payload-bytes long.
 * Prints one JSON line per publish and a summary line:
 *   {"round":r,"deliveries":n,"last_ms":..,"first_ms":..,"ack_ms":..,"extra":e}
 *   {"summary":true,"mode":..,"connections":C,"per_connection":K,"median_last_ms":..,"setup_s":..,"client_cpu_s":..}
 *
 * Build: cc -O2 -o bench/out/fanout bench/fanout.c
 */
#define _GNU_SOURCE
#include <sys/epoll.h>

#include "benchio.h"

enum mode { MODE_QUERYD, MODE_REDIS_PSUB, MODE_REDIS_SUB };

struct sub_conn {
    int fd;
    struct bio_buf buf;
};

static enum mode mode = MODE_QUERYD;
static int nconns = 100, per_conn = 100, rounds = 5, payload_bytes = 100, timeout_s = 120;
static const char *sock;
static const char *instr_on, *instr_off; /* shell commands run around the publishes (profiling) */
static char marker[64];
static size_t marker_len;

static void usage(void) {
    fprintf(stderr, "usage: fanout --socket PATH [--mode queryd|redis-psub|redis-sub] [--connections C]\n"
                    "              [--per-connection K] [--rounds R] [--payload-bytes B] [--timeout-s S]\n"
                    "              [--instr-on CMD] [--instr-off CMD]   (shell commands run before/after the publishes)\n");
    exit(2);
}

/* The payload of round r, exactly payload_bytes long (at least 24). */
static size_t make_payload(int r, char *out) {
    char tail[32];
    int tl = snprintf(tail, sizeof tail, "\",\"round\":%d}", r);
    size_t head = 8; /* {"pad":" */
    size_t pad = (size_t)payload_bytes > head + (size_t)tl ? (size_t)payload_bytes - head - (size_t)tl : 1;
    memcpy(out, "{\"pad\":\"", head);
    memset(out + head, 'x', pad);
    memcpy(out + head + pad, tail, (size_t)tl);
    out[head + pad + (size_t)tl] = 0;
    return head + pad + (size_t)tl;
}

/* RESP command from argv-style words. */
static size_t resp_command(char *out, size_t cap, int n, const char **words, const size_t *lens) {
    size_t len = (size_t)snprintf(out, cap, "*%d\r\n", n);
    for (int i = 0; i < n; i++) {
        len += (size_t)snprintf(out + len, cap - len, "$%zu\r\n", lens[i]);
        memcpy(out + len, words[i], lens[i]);
        len += lens[i];
        memcpy(out + len, "\r\n", 2);
        len += 2;
    }
    return len;
}

/*
 * Skip one complete RESP value at p; returns the byte after it, or NULL when incomplete. For a push
 * array, *is_message is set when its first element is "message" or "pmessage" and *last_bulk points at
 * its last bulk string (the payload).
 */
static const char *resp_skip(const char *p, const char *end, int *is_message, const char **last_bulk,
                             size_t *last_len) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) return NULL;
    char type = *p;
    long n = strtol(p + 1, NULL, 10);
    const char *q = nl + 1;
    if (type == '$') {
        if (n < 0) return q;
        if ((size_t)(end - q) < (size_t)n + 2) return NULL;
        if (last_bulk) { *last_bulk = q; *last_len = (size_t)n; }
        return q + n + 2;
    }
    if (type == '*') {
        for (long i = 0; i < n; i++) {
            const char *elem = q;
            q = resp_skip(q, end, NULL, last_bulk, last_len);
            if (!q) return NULL;
            if (i == 0 && is_message) {
                *is_message = (!memcmp(elem, "$7\r\nmessage\r\n", 13)) || (!memcmp(elem, "$8\r\npmessage\r\n", 14));
            }
        }
        return q;
    }
    return q; /* + - : */
}

/* Count this round's deliveries in a subscriber's buffer; *extra counts other notifications. */
static int consume(struct sub_conn *c, int *extra) {
    int got = 0;
    if (mode == MODE_QUERYD) {
        size_t len;
        char *line;
        while ((line = bio_next_line(&c->buf, &len)) != NULL) {
            if (len < 48 || memcmp(line + 17, "\"method\":\"query.changed\"", 24) != 0) continue;
            size_t scan = len < 400 ? len : 400;
            if (memmem(line, scan, marker, marker_len)) got++;
            else (*extra)++;
        }
        return got;
    }
    while (c->buf.off < c->buf.len) {
        const char *p = c->buf.data + c->buf.off, *end = c->buf.data + c->buf.len, *payload = NULL;
        size_t plen = 0;
        int is_message = 0;
        const char *next = resp_skip(p, end, &is_message, &payload, &plen);
        if (!next) break;
        c->buf.off = (size_t)(next - c->buf.data);
        if (!is_message) continue;
        if (payload && memmem(payload, plen, marker, marker_len)) got++;
        else (*extra)++;
    }
    return got;
}

int main(int argc, char **argv) {
    bio_prog = "fanout";
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--socket")) sock = v;
        else if (!strcmp(a, "--mode")) {
            if (!strcmp(v, "queryd")) mode = MODE_QUERYD;
            else if (!strcmp(v, "redis-psub")) mode = MODE_REDIS_PSUB;
            else if (!strcmp(v, "redis-sub")) mode = MODE_REDIS_SUB;
            else usage();
        } else if (!strcmp(a, "--connections")) nconns = atoi(v);
        else if (!strcmp(a, "--per-connection")) per_conn = atoi(v);
        else if (!strcmp(a, "--rounds")) rounds = atoi(v);
        else if (!strcmp(a, "--payload-bytes")) payload_bytes = atoi(v);
        else if (!strcmp(a, "--timeout-s")) timeout_s = atoi(v);
        else if (!strcmp(a, "--instr-on")) instr_on = v;
        else if (!strcmp(a, "--instr-off")) instr_off = v;
        else usage();
    }
    if (!sock || nconns < 1 || per_conn < 1 || rounds < 1 || payload_bytes < 24) usage();
    if (mode == MODE_REDIS_SUB && per_conn != 1) bio_die("redis-sub needs --per-connection 1");
    if (mode == MODE_REDIS_PSUB && per_conn > 100) bio_die("redis-psub supports up to 100 patterns per connection");
    signal(SIGPIPE, SIG_IGN);
    bio_raise_nofile();
    uint64_t total = (uint64_t)nconns * (uint64_t)per_conn;
    char *payload = malloc((size_t)payload_bytes + 64);
    char *cmd = malloc((size_t)payload_bytes + 4096);
    if (!payload || !cmd) bio_die("out of memory");

    /* publisher, and for queryd the query itself (subscriptions then find data and do not fetch) */
    int pfd = bio_connect(sock);
    struct bio_buf pbuf;
    bio_buf_init(&pbuf, 1 << 16);
    char reply[8192];
    if (mode == MODE_QUERYD) {
        make_payload(0, payload);
        snprintf(cmd, (size_t)payload_bytes + 4096,
                 "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"query.set\",\"params\":{\"key\":[\"fan\"],\"data\":%s}}",
                 payload);
        if (!bio_call(pfd, &pbuf, cmd, 1, reply, sizeof reply)) bio_die("query.set failed: %s", reply);
    }

    /* subscribers */
    uint64_t t_setup = bio_now_ns();
    struct sub_conn *subs = calloc((size_t)nconns, sizeof *subs);
    if (!subs) bio_die("out of memory");
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    size_t scap = (size_t)per_conn * 256 + 256;
    char *sbuf = malloc(scap);
    for (int c = 0; c < nconns; c++) {
        subs[c].fd = bio_connect(sock);
        bio_buf_init(&subs[c].buf, 1 << 18);
        size_t len = 0;
        for (int k = 0; k < per_conn; k++) {
            if (mode == MODE_QUERYD) {
                len += (size_t)snprintf(sbuf + len, scap - len,
                                        "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"query.subscribe\",\"params\":"
                                        "{\"key\":[\"fan\"],\"options\":{\"refetchOnSubscribe\":\"never\","
                                        "\"staleTime\":\"Infinity\"}}}\n",
                                        k + 1);
            } else {
                char pattern[16];
                const char *words[2];
                size_t lens[2];
                if (mode == MODE_REDIS_SUB) {
                    words[0] = "SUBSCRIBE";
                    words[1] = "fan";
                } else {
                    snprintf(pattern, sizeof pattern, "[f%02d]an", k);
                    words[0] = "PSUBSCRIBE";
                    words[1] = pattern;
                }
                lens[0] = strlen(words[0]);
                lens[1] = strlen(words[1]);
                len += resp_command(sbuf + len, scap - len, 2, words, lens);
            }
        }
        bio_write_all(subs[c].fd, sbuf, len);
    }
    /* wait for every subscription to be confirmed */
    for (int c = 0; c < nconns; c++) {
        int confirmed = 0;
        while (confirmed < per_conn) {
            ssize_t n = bio_buf_fill(&subs[c].buf, subs[c].fd);
            if (n == 0) bio_die("subscriber %d: server closed the connection", c);
            if (mode == MODE_QUERYD) {
                size_t len;
                char *line;
                while ((line = bio_next_line(&subs[c].buf, &len)) != NULL) {
                    if (bio_reply_id(line, len) < 0) continue;
                    if (!bio_reply_ok(line, len)) bio_die("subscribe failed: %.*s", (int)(len < 300 ? len : 300), line);
                    confirmed++;
                }
            } else {
                while (subs[c].buf.off < subs[c].buf.len) {
                    const char *p = subs[c].buf.data + subs[c].buf.off;
                    const char *next = resp_skip(p, subs[c].buf.data + subs[c].buf.len, NULL, NULL, NULL);
                    if (!next) break;
                    if (*p == '-') bio_die("subscribe failed: %.200s", p);
                    subs[c].buf.off = (size_t)(next - subs[c].buf.data);
                    confirmed++;
                }
            }
        }
        bio_set_nonblocking(subs[c].fd);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)c};
        epoll_ctl(epfd, EPOLL_CTL_ADD, subs[c].fd, &ev);
    }
    double setup_s = (double)(bio_now_ns() - t_setup) / 1e9;
    if (instr_on && system(instr_on) != 0) bio_die("--instr-on command failed");
    double cpu_before = bio_cpu_seconds();

    double *lasts = calloc((size_t)rounds, sizeof *lasts);
    struct epoll_event events[1024];
    int failed = 0;
    for (int r = 1; r <= rounds; r++) {
        size_t plen = make_payload(r, payload);
        marker_len = (size_t)snprintf(marker, sizeof marker, "\"round\":%d}", r);
        size_t clen;
        if (mode == MODE_QUERYD) {
            clen = (size_t)snprintf(cmd, (size_t)payload_bytes + 4096,
                                    "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"query.set\",\"params\":{\"key\":"
                                    "[\"fan\"],\"data\":%s}}\n",
                                    r + 1, payload);
        } else {
            const char *words[3] = {"PUBLISH", "fan", payload};
            size_t lens[3] = {7, 3, plen};
            clen = resp_command(cmd, (size_t)payload_bytes + 4096, 3, words, lens);
        }
        uint64_t got = 0, t_first = 0, t_last = 0, t_ack = 0;
        int extra = 0;
        long long receivers = -1;
        uint64_t t0 = bio_now_ns(), deadline = t0 + (uint64_t)timeout_s * 1000000000ull;
        bio_write_all(pfd, cmd, clen);
        while (got < total || !t_ack) {
            if (!t_ack) { /* the publisher's reply (non-blocking peek) */
                struct pollfd p = {.fd = pfd, .events = POLLIN};
                if (poll(&p, 1, 0) == 1) {
                    bio_buf_fill(&pbuf, pfd);
                    if (mode == MODE_QUERYD) {
                        size_t len;
                        char *line;
                        while ((line = bio_next_line(&pbuf, &len)) != NULL)
                            if (bio_reply_id(line, len) == r + 1) t_ack = bio_now_ns();
                    } else {
                        char *nl = memchr(pbuf.data + pbuf.off, '\n', pbuf.len - pbuf.off);
                        if (nl) {
                            receivers = strtoll(pbuf.data + pbuf.off + 1, NULL, 10);
                            pbuf.off = (size_t)(nl - pbuf.data) + 1;
                            t_ack = bio_now_ns();
                        }
                    }
                }
            }
            if (got >= total) {
                if (!t_ack) {
                    struct pollfd p = {.fd = pfd, .events = POLLIN};
                    poll(&p, 1, 100);
                }
                if (bio_now_ns() > deadline) break;
                continue;
            }
            int n = epoll_wait(epfd, events, 1024, t_ack ? 100 : 1);
            uint64_t at = bio_now_ns();
            if (at > deadline) break;
            for (int e = 0; e < n; e++) {
                struct sub_conn *c = &subs[events[e].data.u32];
                ssize_t k;
                int g = 0;
                while ((k = bio_buf_fill(&c->buf, c->fd)) > 0) g += consume(c, &extra);
                if (k == 0) bio_die("server closed subscriber connection %u", events[e].data.u32);
                if (g) {
                    if (!t_first) t_first = at;
                    got += (uint64_t)g;
                    if (got >= total) t_last = at;
                }
            }
        }
        if (got < total) {
            fprintf(stderr, "fanout: round %d: only %llu of %llu deliveries within %d s\n", r,
                    (unsigned long long)got, (unsigned long long)total, timeout_s);
            failed = 1;
            break;
        }
        lasts[r - 1] = (double)(t_last - t0) / 1e6;
        printf("{\"round\":%d,\"deliveries\":%llu,\"last_ms\":%.3f,\"first_ms\":%.3f,\"ack_ms\":%.3f,\"extra\":%d,"
               "\"receivers\":%lld}\n",
               r, (unsigned long long)got, lasts[r - 1], (double)(t_first - t0) / 1e6,
               t_ack ? (double)(t_ack - t0) / 1e6 : -1.0, extra, receivers);
        fflush(stdout);
        /* let stragglers (duplicates, if any) arrive and be discarded before the next round */
        uint64_t quiet_until = bio_now_ns() + 50000000ull;
        while (bio_now_ns() < quiet_until) {
            int n = epoll_wait(epfd, events, 1024, 10);
            for (int e = 0; e < n; e++) {
                struct sub_conn *c = &subs[events[e].data.u32];
                int dummy = 0;
                while (bio_buf_fill(&c->buf, c->fd) > 0) consume(c, &dummy);
            }
        }
    }
    double cpu = bio_cpu_seconds() - cpu_before;
    if (instr_off && system(instr_off) != 0) bio_die("--instr-off command failed");
    if (failed) return 1;
    static const char *names[] = {"queryd", "redis-psub", "redis-sub"};
    printf("{\"summary\":true,\"mode\":\"%s\",\"connections\":%d,\"per_connection\":%d,\"median_last_ms\":%.3f,"
           "\"setup_s\":%.3f,\"client_cpu_s\":%.3f}\n",
           names[mode], nconns, per_conn, bio_median(lasts, rounds), setup_s, cpu);
    return 0;
}
