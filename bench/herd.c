/*
 * herd: the thundering-herd benchmark client. One connection registers as the fetcher for a key prefix
 * and answers each `fetch` request after a fixed delay (default 50 ms); C other connections send N
 * `query.fetch` requests of one cold key at once. Prints one JSON line:
 *   {"callers":N,"connections":C,"fetcher_calls":k,"last_reply_ms":..,"first_reply_ms":..,
 *    "fetch_request_ms":..,"after_answer_ms":..,"send_ms":..,"errors":e,"client_cpu_s":..}
 * last_reply_ms runs from just before the first request is written to the read that delivered the
 * last reply. fetcher_calls counts every `fetch` request the fetcher saw, including any that arrive
 * within --linger-ms after the last reply.
 *
 * Build: cc -O2 -o bench/out/herd bench/herd.c
 */
#define _GNU_SOURCE
#include <sys/epoll.h>

#include "benchio.h"

struct caller_conn {
    int fd;
    struct bio_buf buf;
    int expected; /* replies still awaited */
};

static void usage(void) {
    fprintf(stderr,
            "usage: herd --socket PATH --key JSON_ARRAY [--fetcher-prefix JSON_ARRAY] [--callers N]\n"
            "            [--connections C] [--delay-ms 50] [--linger-ms 100] [--timeout-s 60]\n");
    exit(2);
}

int main(int argc, char **argv) {
    bio_prog = "herd";
    const char *sock = NULL, *key = NULL, *prefix = NULL;
    int callers = 1000, nconns = 0, delay_ms = 50, linger_ms = 100, timeout_s = 60;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--socket")) sock = v;
        else if (!strcmp(a, "--key")) key = v;
        else if (!strcmp(a, "--fetcher-prefix")) prefix = v;
        else if (!strcmp(a, "--callers")) callers = atoi(v);
        else if (!strcmp(a, "--connections")) nconns = atoi(v);
        else if (!strcmp(a, "--delay-ms")) delay_ms = atoi(v);
        else if (!strcmp(a, "--linger-ms")) linger_ms = atoi(v);
        else if (!strcmp(a, "--timeout-s")) timeout_s = atoi(v);
        else usage();
    }
    if (!sock || !key || callers < 1) usage();
    if (nconns <= 0 || nconns > callers) nconns = callers;
    if (!prefix) prefix = key;
    signal(SIGPIPE, SIG_IGN);
    bio_raise_nofile();

    /* the fetcher */
    int ffd = bio_connect(sock);
    struct bio_buf fbuf;
    bio_buf_init(&fbuf, 1 << 16);
    char req[4096], reply[4096];
    snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"fetcher.register\",\"params\":{\"key\":%s}}",
             prefix);
    if (!bio_call(ffd, &fbuf, req, 1, reply, sizeof reply)) bio_die("fetcher.register failed: %s", reply);
    bio_set_nonblocking(ffd);

    /* the callers: connect everyone first, then prepare each connection's requests */
    struct caller_conn *cc = calloc((size_t)nconns, sizeof *cc);
    char **batch = calloc((size_t)nconns, sizeof *batch);
    size_t *batch_len = calloc((size_t)nconns, sizeof *batch_len);
    if (!cc || !batch || !batch_len) bio_die("out of memory");
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    for (int c = 0; c < nconns; c++) {
        cc[c].fd = bio_connect(sock);
        bio_set_nonblocking(cc[c].fd);
        bio_buf_init(&cc[c].buf, 1 << 16);
        cc[c].expected = callers / nconns + (c < callers % nconns ? 1 : 0);
        size_t cap = (size_t)cc[c].expected * (strlen(key) + 128);
        batch[c] = malloc(cap);
        if (!batch[c]) bio_die("out of memory");
        size_t len = 0;
        for (int r = 0; r < cc[c].expected; r++)
            len += (size_t)snprintf(batch[c] + len, cap - len,
                                    "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"query.fetch\",\"params\":{\"key\":%s}}\n",
                                    r + 1, key);
        batch_len[c] = len;
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)c};
        epoll_ctl(epfd, EPOLL_CTL_ADD, cc[c].fd, &ev);
    }
    struct epoll_event fev = {.events = EPOLLIN, .data.u32 = (uint32_t)nconns};
    epoll_ctl(epfd, EPOLL_CTL_ADD, ffd, &fev);

    /* fire */
    uint64_t t0 = bio_now_ns();
    for (int c = 0; c < nconns; c++) bio_write_all(cc[c].fd, batch[c], batch_len[c]);
    uint64_t t_sent = bio_now_ns();

    int fetcher_calls = 0, replies = 0, errors = 0;
    long long pending_ids[64];
    uint64_t pending_due[64];
    int npending = 0;
    uint64_t t_fetch_req = 0, t_answer = 0, t_first = 0, t_last = 0;
    uint64_t deadline = t0 + (uint64_t)timeout_s * 1000000000ull;
    struct epoll_event events[512];
    for (;;) {
        uint64_t now = bio_now_ns();
        /* answer the fetch requests whose delay is over */
        for (int i = 0; i < npending;) {
            if (pending_due[i] <= now) {
                int n = snprintf(req, sizeof req,
                                 "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":{\"data\":{\"herd\":true,\"n\":%d}}}\n",
                                 pending_ids[i], fetcher_calls);
                bio_write_all(ffd, req, (size_t)n);
                if (!t_answer) t_answer = bio_now_ns();
                pending_ids[i] = pending_ids[npending - 1];
                pending_due[i] = pending_due[npending - 1];
                npending--;
            } else i++;
        }
        if (replies == callers && now >= t_last + (uint64_t)linger_ms * 1000000ull && npending == 0) break;
        if (now >= deadline) bio_die("timed out: %d of %d replies, %d fetcher calls", replies, callers, fetcher_calls);
        uint64_t wake = deadline;
        for (int i = 0; i < npending; i++)
            if (pending_due[i] < wake) wake = pending_due[i];
        if (replies == callers && t_last + (uint64_t)linger_ms * 1000000ull < wake)
            wake = t_last + (uint64_t)linger_ms * 1000000ull;
        int timeout = wake > now ? (int)((wake - now + 999999) / 1000000) : 0;
        int n = epoll_wait(epfd, events, 512, timeout);
        if (n < 0 && errno == EINTR) continue;
        uint64_t at = bio_now_ns();
        for (int e = 0; e < n; e++) {
            uint32_t idx = events[e].data.u32;
            if (idx == (uint32_t)nconns) {
                ssize_t r;
                while ((r = bio_buf_fill(&fbuf, ffd)) > 0) {}
                if (r == 0) bio_die("server closed the fetcher connection");
                size_t len;
                char *line;
                while ((line = bio_next_line(&fbuf, &len)) != NULL) {
                    if (!memmem(line, len, "\"method\":\"fetch\"", 16)) continue;
                    long long id = bio_json_int(line, len, "id", -1);
                    fetcher_calls++;
                    if (!t_fetch_req) t_fetch_req = at;
                    if (npending < 64) {
                        pending_ids[npending] = id;
                        pending_due[npending++] = at + (uint64_t)delay_ms * 1000000ull;
                    }
                }
                continue;
            }
            struct caller_conn *c = &cc[idx];
            ssize_t r;
            while ((r = bio_buf_fill(&c->buf, c->fd)) > 0) {}
            if (r == 0) bio_die("server closed caller connection %u", idx);
            size_t len;
            char *line;
            while ((line = bio_next_line(&c->buf, &len)) != NULL) {
                if (bio_reply_id(line, len) < 0) continue;
                if (!bio_reply_ok(line, len)) {
                    errors++;
                    if (errors <= 3) fprintf(stderr, "herd: error reply: %.*s\n", (int)(len < 300 ? len : 300), line);
                }
                replies++;
                c->expected--;
                if (!t_first) t_first = at;
                t_last = at;
            }
        }
    }
    printf("{\"callers\":%d,\"connections\":%d,\"fetcher_calls\":%d,\"last_reply_ms\":%.3f,\"first_reply_ms\":%.3f,"
           "\"fetch_request_ms\":%.3f,\"after_answer_ms\":%.3f,\"send_ms\":%.3f,\"delay_ms\":%d,\"errors\":%d,"
           "\"client_cpu_s\":%.3f}\n",
           callers, nconns, fetcher_calls, (double)(t_last - t0) / 1e6, (double)(t_first - t0) / 1e6,
           (double)(t_fetch_req - t0) / 1e6, t_answer ? (double)(t_last - t_answer) / 1e6 : -1.0,
           (double)(t_sent - t0) / 1e6, delay_ms, errors, bio_cpu_seconds());
    return errors == 0 && fetcher_calls == 1 ? 0 : 1;
}
