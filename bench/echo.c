/*
 * echo: the transport floor. A minimal libuv server on a Unix socket that answers every newline-ended
 * line it reads with one fixed JSON-RPC reply line of --reply-bytes bytes (newline included), without
 * parsing the line. It reads as queryd's transport does (one 16 KB buffer shared by the loop, reads
 * started once) and writes the replies to all the lines of one read in one uv_try_write (the rest
 * queued with uv_write), so what it costs per request is the loop, the system calls and the copies:
 * the floor under any server on this transport. loadgen drives it with a request line without %ID%
 * (the reply's id is a fixed 1).
 *
 * Build: cc -O2 -o bench/out/echo bench/echo.c -luv
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#define SLAB 16384

static char slab[SLAB];
static char *reply;      /* the reply line, repeated: up to SLAB/2 replies (one per line of a read) */
static size_t reply_len; /* one reply, newline included */
static size_t reply_cap; /* replies the `reply` buffer holds */

static void die(const char *what, int status) {
    fprintf(stderr, "echo: %s: %s\n", what, uv_strerror(status));
    exit(2);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)h;
    (void)suggested;
    *buf = uv_buf_init(slab, SLAB);
}

static void on_close(uv_handle_t *h) { free(h); }

static void on_written(uv_write_t *req, int status) {
    (void)status;
    free(req);
}

/* Writes `count` replies: what the socket takes now, a copy of the rest queued. */
static void answer(uv_stream_t *s, size_t count) {
    while (count > 0) {
        size_t n = count < reply_cap ? count : reply_cap;
        count -= n;
        size_t len = n * reply_len;
        uv_buf_t b = uv_buf_init(reply, (unsigned)len);
        int done = uv_stream_get_write_queue_size(s) ? 0 : uv_try_write(s, &b, 1);
        if (done < 0) done = 0;
        if ((size_t)done == len) continue;
        uv_write_t *req = malloc(sizeof *req + len - (size_t)done);
        if (!req) die("malloc", UV_ENOMEM);
        char *copy = (char *)(req + 1);
        memcpy(copy, reply + done, len - (size_t)done);
        uv_buf_t rest = uv_buf_init(copy, (unsigned)(len - (size_t)done));
        int status = uv_write(req, s, &rest, 1, on_written);
        if (status < 0) {
            free(req);
            uv_close((uv_handle_t *)s, on_close);
            return;
        }
    }
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
    if (n < 0) {
        if (n != UV_ENOBUFS) uv_close((uv_handle_t *)s, on_close);
        return;
    }
    size_t lines = 0;
    for (const char *p = buf->base, *end = buf->base + n; (p = memchr(p, '\n', (size_t)(end - p))); p++) lines++;
    if (lines) answer(s, lines);
}

static void on_connection(uv_stream_t *server, int status) {
    if (status < 0) return;
    uv_pipe_t *client = malloc(sizeof *client);
    if (!client) die("malloc", UV_ENOMEM);
    uv_pipe_init(server->loop, client, 0);
    if (uv_accept(server, (uv_stream_t *)client) == 0) uv_read_start((uv_stream_t *)client, on_alloc, on_read);
    else uv_close((uv_handle_t *)client, on_close);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    long bytes = 1033;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--socket")) path = argv[i + 1];
        else if (!strcmp(argv[i], "--reply-bytes")) bytes = atol(argv[i + 1]);
    }
    const char *head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"", *tail = "\"}\n";
    long pad = bytes - (long)strlen(head) - (long)strlen(tail);
    if (!path || pad < 0 || bytes > SLAB) {
        fprintf(stderr, "usage: echo --socket PATH [--reply-bytes N (%zu..%d, default 1033)]\n",
                strlen(head) + strlen(tail), SLAB);
        return 2;
    }
    reply_len = (size_t)bytes;
    reply_cap = SLAB / 2;
    reply = malloc(reply_len * reply_cap);
    if (!reply) die("malloc", UV_ENOMEM);
    for (size_t r = 0; r < reply_cap; r++) {
        char *p = reply + r * reply_len;
        memcpy(p, head, strlen(head));
        memset(p + strlen(head), 'x', (size_t)pad);
        memcpy(p + strlen(head) + pad, tail, strlen(tail));
    }
    signal(SIGPIPE, SIG_IGN);
    uv_loop_t *loop = uv_default_loop();
    uv_pipe_t server;
    uv_pipe_init(loop, &server, 0);
    unlink(path);
    int status = uv_pipe_bind(&server, path);
    if (status < 0) die("bind", status);
    if ((status = uv_listen((uv_stream_t *)&server, 1024, on_connection)) < 0) die("listen", status);
    return uv_run(loop, UV_RUN_DEFAULT);
}
