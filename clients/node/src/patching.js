// Protocol 2 push modes on the client side: rebuilding full states from `patch` pushes.
//
// With `push: 'patch'` the daemon sends a full state first, then pushes that carry either the full
// data, a JSON Merge Patch (RFC 7396) from the data last sent (`{baseVersion, version, patch}`), or
// nothing when the data is unchanged. A PatchTracker keeps `(dataVersion, data)` for one
// subscription and turns each push back into a state with `data`; when its base does not match it
// says so, and the subscription re-reads the data with `query.state`.

const NO_DATA = Symbol('no data');

/** RFC 7396: `patch` applied to `target` (a new value; `target` is not changed). */
export function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const result = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = mergePatch(result[name], value);
  }
  return result;
}

/** The data last delivered to one subscription and the `dataVersion` it belongs to. */
export class PatchTracker {
  dataVersion = undefined;
  data = NO_DATA;

  /** Forgets the base (a `resync`): the next state must be full. */
  reset() {
    this.dataVersion = undefined;
    this.data = NO_DATA;
  }

  /** A state that carries its own data (or says there is none): it becomes the new base. */
  acceptFull(state) {
    if ('data' in state) {
      this.dataVersion = state.dataVersion;
      this.data = state.data;
    } else if (!('dataVersion' in state)) {
      this.reset();
    }
    return state;
  }

  /**
   * The full state for one `query.changed` params object, or `{reread: version}` when the data must
   * be read again (the base is not the one the daemon patched or refers to).
   */
  rebuild(params) {
    const { state } = params;
    if (params.resync === true) this.reset();
    if ('data' in state) return { state: this.acceptFull(state) };
    const { patch } = params;
    if (patch !== null && typeof patch === 'object') {
      if (this.data === NO_DATA || patch.baseVersion !== this.dataVersion) return { reread: patch.version };
      this.data = mergePatch(this.data, patch.patch);
      this.dataVersion = patch.version;
      return { state: { ...state, data: this.data } };
    }
    if (state.dataVersion === undefined) {
      this.reset();
      return { state };
    }
    if (state.dataVersion !== this.dataVersion || this.data === NO_DATA) return { reread: state.dataVersion };
    return { state: { ...state, data: this.data } };
  }

  /** Completes `state` with the data of a `query.state` re-read (`read`, null when uncached). */
  reread(state, read, version) {
    if (read === null || read === undefined || !('data' in read)) {
      this.reset();
      return state;
    }
    this.data = read.data;
    this.dataVersion = read.dataVersion ?? version;
    return { ...state, data: this.data };
  }
}
