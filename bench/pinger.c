/*
 * pinger: how long a server keeps a bystander waiting. Sends one ping every --interval-us (default
 * 1,000 µs) on its own connection, one at a time, and times each from its write to its reply:
 * queryd `server.ping` (JSON-RPC line) or Redis `PING` (RESP). A ping that comes back late delays the
 * next one (no catch-up burst). Runs until SIGINT or SIGTERM, then prints
 * {"pings":n,"max_ms":..,"p999_ms":..,"p99_ms":..,"p50_ms":..,"over_10ms":k,"stalls":[[t_s,ms],..]}
 * where stalls lists (seconds since start, wait in ms) of the 12 longest waits over 5 ms, by time.
 *
 * Build: cc -O2 -o bench/out/pinger bench/pinger.c
 */
#define _GNU_SOURCE
#include "benchio.h"

static volatile sig_atomic_t stop;
static void on_signal(int sig) {
    (void)sig;
    stop = 1;
}

struct stall {
    double at_s, ms;
};

static int by_time(const void *a, const void *b) {
    double x = ((const struct stall *)a)->at_s, y = ((const struct stall *)b)->at_s;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    bio_prog = "pinger";
    const char *sock = NULL, *proto = "queryd";
    long interval_us = 1000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--socket")) sock = v;
        else if (!strcmp(a, "--protocol")) proto = v;
        else if (!strcmp(a, "--interval-us")) interval_us = atol(v);
        else {
            fprintf(stderr, "usage: pinger --socket PATH [--protocol queryd|redis] [--interval-us N]\n");
            return 2;
        }
    }
    if (!sock || interval_us < 1) bio_die("bad arguments");
    int redis = !strcmp(proto, "redis");
    if (!redis && strcmp(proto, "queryd")) bio_die("--protocol must be queryd or redis");
    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: a signal ends a blocking poll */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    int fd = bio_connect(sock);
    struct bio_buf b;
    bio_buf_init(&b, 1 << 16);

    size_t cap = 1 << 20, n = 0;
    double *waits = malloc(cap * sizeof *waits);
    struct stall top[12];
    int ntop = 0;
    if (!waits) bio_die("out of memory");
    uint64_t t0 = bio_now_ns(), next = t0;
    char req[128];
    for (long long id = 1; !stop; id++) {
        int len = redis ? snprintf(req, sizeof req, "*1\r\n$4\r\nPING\r\n")
                        : snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"server.ping\"}\n", id);
        uint64_t sent = bio_now_ns();
        bio_write_all(fd, req, (size_t)len);
        int got = 0;
        while (!got && !stop) {
            size_t llen;
            char *line;
            while ((line = bio_next_line(&b, &llen)) != NULL) {
                if (redis || bio_reply_id(line, llen) == id) got = 1;
            }
            if (got) break;
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, 100) < 0 && errno != EINTR) bio_die("poll: %s", strerror(errno));
            if (p.revents & POLLIN && bio_buf_fill(&b, fd) == 0) bio_die("server closed the connection");
        }
        if (!got) break;
        uint64_t done = bio_now_ns();
        double ms = (double)(done - sent) / 1e6;
        if (n == cap) {
            cap *= 2;
            waits = realloc(waits, cap * sizeof *waits);
            if (!waits) bio_die("out of memory");
        }
        waits[n++] = ms;
        if (ms > 5) { /* keep the 12 longest */
            int slot = ntop < 12 ? ntop++ : -1;
            if (slot < 0) {
                slot = 0;
                for (int k = 1; k < 12; k++)
                    if (top[k].ms < top[slot].ms) slot = k;
                if (top[slot].ms >= ms) slot = -1;
            }
            if (slot >= 0) top[slot] = (struct stall){(double)(sent - t0) / 1e9, ms};
        }
        next += (uint64_t)interval_us * 1000;
        if (next < done) next = done; /* late: the next ping goes at once, the missed ticks are dropped */
        struct timespec ts = {.tv_sec = (time_t)(next / 1000000000ull), .tv_nsec = (long)(next % 1000000000ull)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
    if (n == 0) bio_die("no ping answered");
    long long over = 0;
    for (size_t k = 0; k < n; k++) over += waits[k] > 10;
    qsort(waits, n, sizeof *waits, bio_cmp_double);
#define PCT(p) waits[(size_t)((double)(n - 1) * (p))]
    printf("{\"pings\":%zu,\"max_ms\":%.2f,\"p999_ms\":%.2f,\"p99_ms\":%.2f,\"p50_ms\":%.3f,\"over_10ms\":%lld,\"stalls\":[",
           n, waits[n - 1], PCT(0.999), PCT(0.99), PCT(0.5), over);
    qsort(top, (size_t)ntop, sizeof *top, by_time);
    for (int k = 0; k < ntop; k++) printf("%s[%.2f,%.1f]", k ? "," : "", top[k].at_s, top[k].ms);
    printf("]}\n");
    return 0;
}
