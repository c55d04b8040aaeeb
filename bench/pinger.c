/*
 * pinger: how long a server keeps a bystander waiting. Sends one ping every --interval-us (default
 * 1,000 µs) on its own connection, one at a time, and times each from its write to its reply:
 * queryd `server.ping` (JSON-RPC line) or Redis `PING` (RESP). A ping that comes back late delays the
 * next one (no catch-up burst). Runs until SIGINT or SIGTERM, then prints
 * {"pings":n,"max_ms":..,"p999_ms":..,"p99_ms":..,"p50_ms":..,"over_10ms":k,"max_busy_ms":..,
 *  "stalls":[[t_s,ms,busy_ms],..]}
 * where stalls lists (seconds since start, wait in ms, server CPU ms during it) of the 12 longest waits
 * over 5 ms, by time. With --server-pid, busy_ms is the CPU time the server's threads ran during each
 * wait (/proc/PID/task/STAR/schedstat): on a machine shared with other work a long wait with little
 * CPU is the scheduler's, not the server's; max_busy_ms is the largest over all pings (-1 without it).
 *
 * Build: cc -O2 -o bench/out/pinger bench/pinger.c
 */
#define _GNU_SOURCE
#include "benchio.h"
#include <dirent.h>

static volatile sig_atomic_t stop;
static void on_signal(int sig) {
    (void)sig;
    stop = 1;
}

struct stall {
    double at_s, ms, busy_ms;
};

/* Nanoseconds the threads of process pid have run on a CPU so far, or 0 without a pid. */
static uint64_t run_ns(int pid) {
    if (pid <= 0) return 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *dir = opendir(path);
    if (!dir) return 0;
    uint64_t total = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char file[320];
        snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", pid, e->d_name);
        FILE *f = fopen(file, "r");
        if (!f) continue;
        unsigned long long ns = 0;
        if (fscanf(f, "%llu", &ns) == 1) total += ns;
        fclose(f);
    }
    closedir(dir);
    return total;
}

static int by_time(const void *a, const void *b) {
    double x = ((const struct stall *)a)->at_s, y = ((const struct stall *)b)->at_s;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    bio_prog = "pinger";
    const char *sock = NULL, *proto = "queryd";
    long interval_us = 1000;
    int server_pid = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--socket")) sock = v;
        else if (!strcmp(a, "--protocol")) proto = v;
        else if (!strcmp(a, "--interval-us")) interval_us = atol(v);
        else if (!strcmp(a, "--server-pid")) server_pid = atoi(v);
        else {
            fprintf(stderr, "usage: pinger --socket PATH [--protocol queryd|redis] [--interval-us N] [--server-pid PID]\n");
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
    double max_busy = server_pid > 0 ? 0 : -1;
    for (long long id = 1; !stop; id++) {
        int len = redis ? snprintf(req, sizeof req, "*1\r\n$4\r\nPING\r\n")
                        : snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"server.ping\"}\n", id);
        uint64_t ran = run_ns(server_pid);
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
        double busy = server_pid > 0 ? (double)(run_ns(server_pid) - ran) / 1e6 : -1;
        if (busy > max_busy) max_busy = busy;
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
            if (slot >= 0) top[slot] = (struct stall){(double)(sent - t0) / 1e9, ms, busy};
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
    printf("{\"pings\":%zu,\"max_ms\":%.2f,\"p999_ms\":%.2f,\"p99_ms\":%.2f,\"p50_ms\":%.3f,\"over_10ms\":%lld,"
           "\"max_busy_ms\":%.1f,\"stalls\":[",
           n, waits[n - 1], PCT(0.999), PCT(0.99), PCT(0.5), over, max_busy);
    qsort(top, (size_t)ntop, sizeof *top, by_time);
    for (int k = 0; k < ntop; k++) printf("%s[%.2f,%.1f,%.1f]", k ? "," : "", top[k].at_s, top[k].ms, top[k].busy_ms);
    printf("]}\n");
    return 0;
}
