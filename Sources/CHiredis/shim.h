// The C side of the hiredis binding: hiredis's async API, its libuv adapter, and wrappers Swift can call.
#ifndef QUERYD_CHIREDIS_SHIM_H
#define QUERYD_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libuv.h>

/// Attaches `context` to the libuv loop `loop` (a `uv_loop_t *`, passed untyped so that Swift sees no second copy
/// of libuv's types) with hiredis's libuv adapter. Returns REDIS_OK or REDIS_ERR.
/// The adapter installs its hooks before its allocation and `uv_poll_init` can fail; on failure they are removed
/// again, or freeing the context would call them with the NULL `ev.data` they were never given.
static inline int queryd_redis_attach(redisAsyncContext *context, void *loop) {
    if (redisLibuvAttach(context, (uv_loop_t *)loop) == REDIS_OK) {
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
