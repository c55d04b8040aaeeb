// The C side of the hiredis binding: hiredis's async API, its libuv adapter (with a poll callback that does not
// ignore socket errors), and wrappers Swift can call.
#ifndef QUERYD_CHIREDIS_SHIM_H
#define QUERYD_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libuv.h>

/// The adapter's poll callback, except for poll errors. libuv reports POLLERR as status UV_EBADF and stops the
/// handle; the adapter ignores that status, so a refused TCP connect or a reset connection would leave the context
/// waiting forever. Here the error is handed to hiredis as readiness: hiredis then reads the socket's error (the
/// failed connect's SO_ERROR, or the failed read) and reports it through the connect or disconnect callback.
static void queryd_redis_poll(uv_poll_t *handle, int status, int events) {
    redisLibuvEvents *p = (redisLibuvEvents *)handle->data;
    if (status != 0) {
        events = UV_READABLE | UV_WRITABLE;
    }
    if (p->context != NULL && (events & UV_READABLE)) {
        redisAsyncHandleRead(p->context);
    }
    if (p->context != NULL && (events & UV_WRITABLE)) {
        redisAsyncHandleWrite(p->context);
    }
}

/// Polls for `events` with `queryd_redis_poll` (the adapter's add/del hooks, with that callback).
static void queryd_redis_poll_events(redisLibuvEvents *p, int events) {
    p->events = events;
    if (p->events) {
        uv_poll_start(&p->handle, p->events, queryd_redis_poll);
    } else {
        uv_poll_stop(&p->handle);
    }
}

static void queryd_redis_add_read(void *privdata) {
    redisLibuvEvents *p = (redisLibuvEvents *)privdata;
    queryd_redis_poll_events(p, p->events | UV_READABLE);
}

static void queryd_redis_del_read(void *privdata) {
    redisLibuvEvents *p = (redisLibuvEvents *)privdata;
    queryd_redis_poll_events(p, p->events & ~UV_READABLE);
}

static void queryd_redis_add_write(void *privdata) {
    redisLibuvEvents *p = (redisLibuvEvents *)privdata;
    queryd_redis_poll_events(p, p->events | UV_WRITABLE);
}

static void queryd_redis_del_write(void *privdata) {
    redisLibuvEvents *p = (redisLibuvEvents *)privdata;
    queryd_redis_poll_events(p, p->events & ~UV_WRITABLE);
}

/// Attaches `context` to the libuv loop `loop` (a `uv_loop_t *`, passed untyped so that Swift sees no second copy
/// of libuv's types) with hiredis's libuv adapter, its poll callback replaced by `queryd_redis_poll`. Returns
/// REDIS_OK or REDIS_ERR. The adapter installs its hooks before its allocation and `uv_poll_init` can fail; on
/// failure they are removed again, or freeing the context would call them with the NULL `ev.data` they never got.
static inline int queryd_redis_attach(redisAsyncContext *context, void *loop) {
    if (redisLibuvAttach(context, (uv_loop_t *)loop) == REDIS_OK) {
        context->ev.addRead = queryd_redis_add_read;
        context->ev.delRead = queryd_redis_del_read;
        context->ev.addWrite = queryd_redis_add_write;
        context->ev.delWrite = queryd_redis_del_write;
        return REDIS_OK;
    }
    if (context->ev.data == NULL) {
        context->ev.addRead = NULL;
        context->ev.delRead = NULL;
        context->ev.addWrite = NULL;
        context->ev.delWrite = NULL;
        context->ev.cleanup = NULL;
    }
    return REDIS_ERR;
}

/// Whether hiredis has marked `context` connected (REDIS_CONNECTED): only then will it call the disconnect callback.
static inline int queryd_redis_is_connected(const redisAsyncContext *context) {
    return (context->c.flags & REDIS_CONNECTED) != 0;
}

/// The error text hiredis keeps in the context (`c.errstr`); set before the connect callback reports a failure,
/// unlike `errstr`, which hiredis only copies in later.
static inline const char *queryd_redis_error(const redisAsyncContext *context) {
    return context->c.errstr;
}

#endif
