/*
 * fill: load N keys with --value-bytes long values over one pipelined connection, into queryd
 * (`query.set {key:["m",i], data:VALUE}`) or Redis (`SET ["m",i] VALUE`: the same key text and the same
 * value bytes). VALUE is the JSON object {"i":i,"pad":"xx.."} padded to exactly --value-bytes bytes, so
 * every value differs. With --deep the keys are ["m",i,"v"] (a million children of the node ["m"]
 * instead of a million leaves). Prints {"keys":n,"seconds":s,"rate":r,"errors":e}.
 *
 * Build: cc -O2 -o bench/out/fill bench/fill.c
 */
#define _GNU_SOURCE
#include "benchio.h"

static int value_bytes = 100;
static const char *key_tail = ""; /* ",\"v\"" with --deep */

/* The value of key i into out; returns its length (exactly value_bytes unless i's digits exceed it). */
static size_t value_of(uint64_t i, char *out) {
    int head = sprintf(out, "{\"i\":%llu,\"pad\":\"", (unsigned long long)i);
    int pad = value_bytes - head - 2;
    if (pad < 0) pad = 0;
    memset(out + head, 'x', (size_t)pad);
    memcpy(out + head + pad, "\"}", 2);
    return (size_t)(head + pad + 2);
}

static size_t gen_queryd(void *ctx, uint64_t i, char *out, size_t cap) {
    (void)ctx;
    if (cap < (size_t)value_bytes + 256) bio_die("write buffer too small");
    size_t n = (size_t)sprintf(out, "{\"jsonrpc\":\"2.0\",\"id\":%llu,\"method\":\"query.set\",\"params\":{\"key\":"
                                    "[\"m\",%llu%s],\"data\":",
                               (unsigned long long)i + 1, (unsigned long long)i, key_tail);
    n += value_of(i, out + n);
    memcpy(out + n, "}}\n", 3);
    return n + 3;
}

static size_t gen_redis(void *ctx, uint64_t i, char *out, size_t cap) {
    (void)ctx;
    if (cap < (size_t)value_bytes + 256) bio_die("write buffer too small");
    char key[48], value[4096];
    int klen = sprintf(key, "[\"m\",%llu%s]", (unsigned long long)i, key_tail);
    size_t vlen = value_of(i, value);
    size_t n = (size_t)sprintf(out, "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%zu\r\n", klen, key, vlen);
    memcpy(out + n, value, vlen);
    memcpy(out + n + vlen, "\r\n", 2);
    return n + vlen + 2;
}

int main(int argc, char **argv) {
    bio_prog = "fill";
    const char *sock = NULL, *proto = "queryd";
    uint64_t count = 0, from = 0;
    int window = 1024;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--socket")) sock = v;
        else if (!strcmp(a, "--protocol")) proto = v;
        else if (!strcmp(a, "--count")) count = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--from")) from = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--window")) window = atoi(v);
        else if (!strcmp(a, "--value-bytes")) value_bytes = atoi(v);
        else if (!strcmp(a, "--deep")) key_tail = atoi(v) ? ",\"v\"" : "";
        else {
            fprintf(stderr, "usage: fill --socket PATH --count N [--from I] [--protocol queryd|redis] [--window W]"
                            " [--value-bytes B] [--deep 0|1]\n");
            return 2;
        }
    }
    if (!sock || !count || window < 1 || value_bytes < 24 || value_bytes > 4000) bio_die("bad arguments (see --help)");
    int redis = !strcmp(proto, "redis");
    if (!redis && strcmp(proto, "queryd")) bio_die("--protocol must be queryd or redis");
    signal(SIGPIPE, SIG_IGN);
    int fd = bio_connect(sock);
    uint64_t t0 = bio_now_ns();
    uint64_t errors = bio_pipeline(fd, redis ? BIO_RESP : BIO_JSONRPC, from, from + count, (uint64_t)window,
                                   redis ? gen_redis : gen_queryd, NULL);
    double s = (double)(bio_now_ns() - t0) / 1e9;
    printf("{\"keys\":%llu,\"seconds\":%.3f,\"rate\":%.0f,\"errors\":%llu}\n", (unsigned long long)count, s,
           (double)count / s, (unsigned long long)errors);
    return errors ? 1 : 0;
}
