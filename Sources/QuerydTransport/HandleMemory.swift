// The raw-pointer boundary with libuv: allocating handles, casting between handle types, finding their owners.
import CLibUV

/// An object that owns one libuv handle and can be asked to close it when its `EventLoop` closes.
protocol LoopHandleOwner: AnyObject {
    /// Starts closing the handle (idempotent). The owner unregisters itself from the loop in its close callback.
    func closeFromLoop()
}

/// Allocates zero-initialised memory for a libuv handle or request of type `T`.
func allocateZeroed<T>(_: T.Type) -> UnsafeMutablePointer<T> {
    // Safety: libuv keeps the address of every handle and request until their close or completion callback, so they
    // must live in manually allocated memory (never a Swift stored property passed with `&`). The owner deallocates
    // the memory only after libuv's final callback for it has run.
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    UnsafeMutableRawPointer(pointer).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
    return pointer
}

/// Views any libuv handle as the generic `uv_handle_t`.
@inline(__always)
func asHandle<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<uv_handle_t> {
    // Safety: every libuv handle type starts with the `uv_handle_t` fields (UV_HANDLE_FIELDS), so the cast is the
    // C idiom libuv itself uses; the memory stays bound to the concrete handle type.
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_handle_t.self)
}

/// Views a pipe handle as the `uv_stream_t` it extends.
@inline(__always)
func asStream(_ pointer: UnsafeMutablePointer<uv_pipe_t>) -> UnsafeMutablePointer<uv_stream_t> {
    // Safety: `uv_pipe_t` starts with UV_HANDLE_FIELDS and UV_STREAM_FIELDS, exactly the layout of `uv_stream_t`.
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_stream_t.self)
}

/// Stores a +1 reference to `owner` in the handle's `data` field.
func retainOwner<T: AnyObject>(_ owner: T, in handle: UnsafeMutablePointer<uv_handle_t>) {
    // Safety: the reference is balanced exactly once, by `releaseOwner` in the handle's close callback; until then
    // the owner (and therefore the handle memory it frees in `deinit`) stays alive.
    handle.pointee.data = Unmanaged.passRetained(owner).toOpaque()
}

/// Recovers the owner stored by `retainOwner` without changing its reference count.
@inline(__always)
func owner<T: AnyObject>(of handle: UnsafeMutablePointer<uv_handle_t>?, as _: T.Type) -> T {
    // Safety: only called from libuv callbacks of a handle whose `data` was set by `retainOwner` to an object of type
    // `T`, and before that handle's close callback has released it.
    Unmanaged<T>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
}

/// Recovers the owner in a handle's close callback and balances the +1 reference taken by `retainOwner`.
func releaseOwner<T: AnyObject>(of handle: UnsafeMutablePointer<uv_handle_t>?, as _: T.Type) -> T {
    // Safety: called exactly once per handle, from its `uv_close` callback; `data` is cleared so a stray second use
    // traps instead of over-releasing.
    let owner = Unmanaged<T>.fromOpaque(handle!.pointee.data).takeRetainedValue()
    handle!.pointee.data = nil
    return owner
}
