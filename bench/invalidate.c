/*
 * invalidate: the prefix-invalidation benchmark client. It fills queryd with query.set over one
 * pipelined connection, then times single `queries.invalidate {filter:{key:PREFIX}, refetchType:"none"}`
 * calls whose prefix matches 10, 100, 1,000 or 10,000 queries, at each cache size in --sizes.
 *
 * Query i has the key ["c", i/10000, i/1000%10, i/100%10, i/10%10, i], so the prefix
 *   ["c",a]          matches 10,000 queries,   ["c",a,b]       matches 1,000,
 *   ["c",a,b,c]      matches 100,              ["c",a,b,c,d]   matches 10.
 * Every timed call uses a prefix nobody invalidated before (an invalidated query is skipped by later
 * calls, which would make them cheaper), and follows an untimed server.ping. Before filling, a fetcher registers for ["c"] with
 * defaults {gcTime:null}, so no query is garbage-collected however long the run takes.
 *
 * Output: one JSON line per (size, matches) and one for the ping round trip at each size:
 *   {"cached":N,"matches":M,"calls":k,"median_us":..,"min_us":..,"max_us":..}
 *   {"cached":N,"ping_median_us":..,"fill_s":..,"fill_rate":..}
 *
 * Build: cc -O2 -o bench/out/invalidate bench/invalidate.c
 */
#define _GNU_SOURCE
#include "benchio.h"

#define MAX_SIZES 8
#define LEVELS 4

static int value_bytes = 100;

/* query.set of query i with a value_bytes-long JSON object that names i */
static size_t gen_set(void *ctx, uint64_t i, char *out, size_t cap) {
    (void)ctx;
    char head[256];
    int hl = snprintf(head, sizeof head,
                      "{\"jsonrpc\":\"2.0\",\"id\":%llu,\"method\":\"query.set\",\"params\":{\"key\":[\"c\",%llu,%llu,"
                      "%llu,%llu,%llu],\"data\":{\"i\":%llu,\"pad\":\"",
                      (unsigned long long)i + 1, (unsigned long long)(i / 10000), (unsigned long long)(i / 1000 % 10),
                      (unsigned long long)(i / 100 % 10), (unsigned long long)(i / 10 % 10), (unsigned long long)i,
                      (unsigned long long)i);
    int vhead = snprintf(NULL, 0, "{\"i\":%llu,\"pad\":\"", (unsigned long long)i);
    int pad = value_bytes - vhead - 2;
    if (pad < 0) pad = 0;
    if ((size_t)(hl + pad + 8) > cap) bio_die("write buffer too small");
    memcpy(out, head, (size_t)hl);
    memset(out + hl, 'x', (size_t)pad);
    memcpy(out + hl + pad, "\"}}}\n", 5);
    return (size_t)hl + (size_t)pad + 5;
}

/* Sub-blocks handed out so far inside the current 10,000-block of each level. */
struct allocator {
    uint64_t next_block; /* next unused 10,000-block */
    uint64_t limit;      /* blocks available (cached / 10000) */
    long long cur[LEVELS];   /* block in use per level (-1: none) */
    int used[LEVELS];        /* sub-prefixes taken from it */
};

static const int level_matches[LEVELS] = {10, 100, 1000, 10000};

/* A fresh prefix for `level`, written as JSON into out; returns 0 when no block is left. */
static int fresh_prefix(struct allocator *al, int level, char *out, size_t cap) {
    if (level == 3) {
        if (al->next_block >= al->limit) return 0;
        snprintf(out, cap, "[\"c\",%llu]", (unsigned long long)al->next_block++);
        return 1;
    }
    int per_block = 10000 / level_matches[level]; /* 10, 100 or 1000 sub-prefixes */
    if (al->cur[level] < 0 || al->used[level] >= per_block) {
        if (al->next_block >= al->limit) return 0;
        al->cur[level] = (long long)al->next_block++;
        al->used[level] = 0;
    }
    unsigned long long a = (unsigned long long)al->cur[level], s = (unsigned long long)al->used[level]++;
    if (level == 2) snprintf(out, cap, "[\"c\",%llu,%llu]", a, s);
    else if (level == 1) snprintf(out, cap, "[\"c\",%llu,%llu,%llu]", a, s / 10, s % 10);
    else snprintf(out, cap, "[\"c\",%llu,%llu,%llu,%llu]", a, s / 100, s / 10 % 10, s % 10);
    return 1;
}

static void usage(void) {
    fprintf(stderr, "usage: invalidate --socket PATH [--sizes 100000,1000000] [--calls 5] [--window 1024]\n"
                    "                  [--value-bytes 100] [--instr-on CMD] [--instr-off CMD]\n");
    exit(2);
}

int main(int argc, char **argv) {
    bio_prog = "invalidate";
    const char *sock = NULL, *sizes_arg = "100000,1000000";
    int calls = 5, window = 1024;
    const char *instr_on = NULL, *instr_off = NULL; /* shell commands run around the timed calls (profiling) */
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--socket")) sock = v;
        else if (!strcmp(a, "--sizes")) sizes_arg = v;
        else if (!strcmp(a, "--calls")) calls = atoi(v);
        else if (!strcmp(a, "--window")) window = atoi(v);
        else if (!strcmp(a, "--value-bytes")) value_bytes = atoi(v);
        else if (!strcmp(a, "--instr-on")) instr_on = v;
        else if (!strcmp(a, "--instr-off")) instr_off = v;
        else usage();
    }
    if (!sock || calls < 1 || window < 1 || value_bytes < 24) usage();
    uint64_t sizes[MAX_SIZES];
    int nsizes = 0;
    for (const char *p = sizes_arg; *p && nsizes < MAX_SIZES;) {
        sizes[nsizes++] = strtoull(p, (char **)&p, 10);
        if (*p == ',') p++;
    }
    for (int s = 0; s < nsizes; s++)
        if (sizes[s] < 10000 || sizes[s] % 10000 || (s && sizes[s] <= sizes[s - 1]))
            bio_die("--sizes must be increasing multiples of 10000");
    signal(SIGPIPE, SIG_IGN);

    int ffd = bio_connect(sock), qfd = bio_connect(sock), bfd = bio_connect(sock);
    struct bio_buf fb, qb;
    bio_buf_init(&fb, 1 << 16);
    bio_buf_init(&qb, 1 << 16);
    char reply[4096], req[1024];
    if (!bio_call(ffd, &fb, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"fetcher.register\",\"params\":{\"key\":[\"c\"],"
                            "\"defaults\":{\"gcTime\":null}}}",
                  1, reply, sizeof reply))
        bio_die("fetcher.register failed: %s", reply);

    uint64_t filled = 0;
    long long id = 1;
    /* queries cached before the fill (the check below counts only ours) */
    snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"server.stats\"}", ++id);
    if (!bio_call(qfd, &qb, req, id, reply, sizeof reply)) bio_die("server.stats failed: %s", reply);
    long long base = bio_json_int(reply, strlen(reply), "queries", -1);
    /* Each size's prefixes come from the 10,000-blocks added since the previous size, so that no block
     * measured at one size is touched at another and every call finds only fresh queries. */
    for (int s = 0; s < nsizes; s++) {
        uint64_t t0 = bio_now_ns();
        uint64_t errors = bio_pipeline(bfd, BIO_JSONRPC, filled, sizes[s], (uint64_t)window, gen_set, NULL);
        double fill_s = (double)(bio_now_ns() - t0) / 1e9;
        if (errors) bio_die("%llu query.set calls failed", (unsigned long long)errors);
        struct allocator al = {.next_block = filled / 10000, .limit = sizes[s] / 10000};
        for (int l = 0; l < LEVELS; l++) al.cur[l] = -1;
        uint64_t fill_count = sizes[s] - filled;
        filled = sizes[s];

        /* check the count */
        snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"server.stats\"}", ++id);
        if (!bio_call(qfd, &qb, req, id, reply, sizeof reply)) bio_die("server.stats failed: %s", reply);
        long long queries = bio_json_int(reply, strlen(reply), "queries", -1);
        if (queries != base + (long long)filled)
            bio_die("server.stats reports %lld queries, expected %lld", queries, base + (long long)filled);

        /* the round-trip anchor: server.ping */
        double pings[21];
        for (int k = 0; k < 21; k++) {
            snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"server.ping\"}", ++id);
            uint64_t a = bio_now_ns();
            bio_call(qfd, &qb, req, id, NULL, 0);
            pings[k] = (double)(bio_now_ns() - a) / 1e3;
        }
        printf("{\"cached\":%llu,\"ping_median_us\":%.1f,\"fill_s\":%.3f,\"fill_rate\":%.0f}\n",
               (unsigned long long)filled, bio_median(pings, 21), fill_s, (double)fill_count / fill_s);

        /* interleave the levels so that noise spreads over all of them */
        double times[LEVELS][64];
        int done[LEVELS] = {0};
        if (instr_on && system(instr_on) != 0) bio_die("--instr-on command failed");
        for (int k = 0; k < calls && k < 64; k++) {
            for (int l = 0; l < LEVELS; l++) {
                char prefix[128];
                if (!fresh_prefix(&al, l, prefix, sizeof prefix)) continue;
                /* an untimed ping first: work the previous (larger) call left behind is not charged here */
                snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"server.ping\"}", ++id);
                bio_call(qfd, &qb, req, id, NULL, 0);
                snprintf(req, sizeof req,
                         "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"queries.invalidate\",\"params\":{\"filter\":"
                         "{\"key\":%s},\"refetchType\":\"none\"}}",
                         ++id, prefix);
                uint64_t a = bio_now_ns();
                if (!bio_call(qfd, &qb, req, id, reply, sizeof reply)) bio_die("invalidate failed: %s", reply);
                double us = (double)(bio_now_ns() - a) / 1e3;
                long long matched = bio_json_int(reply, strlen(reply), "matched", -1);
                if (matched != level_matches[l])
                    bio_die("prefix %s matched %lld, expected %d", prefix, matched, level_matches[l]);
                times[l][done[l]++] = us;
            }
        }
        if (instr_off && system(instr_off) != 0) bio_die("--instr-off command failed");
        for (int l = 0; l < LEVELS; l++) {
            if (!done[l]) continue;
            double mn = times[l][0], mx = times[l][0];
            for (int k = 0; k < done[l]; k++) {
                if (times[l][k] < mn) mn = times[l][k];
                if (times[l][k] > mx) mx = times[l][k];
            }
            printf("{\"cached\":%llu,\"matches\":%d,\"calls\":%d,\"median_us\":%.1f,\"min_us\":%.1f,\"max_us\":%.1f}\n",
                   (unsigned long long)filled, level_matches[l], done[l], bio_median(times[l], done[l]), mn, mx);
        }
        fflush(stdout);
    }
    return 0;
}
