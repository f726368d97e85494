"""Stagecraft sandbox worker for Python code steps.

Owns: one long-lived python3 process that imports user modules once (keyed by
file path), calls `function(value)` per request and answers with JSON.
Protocol: one JSON request per line on fd 3, one JSON reply per line on fd 4;
the user's stdout/stderr stay on fd 1/2 and can never corrupt a reply.
Invariant: the memory limit (RLIMIT_AS) is in place before any user code is
imported, and a reply's `value` is strict JSON (no NaN, no sets, str keys).

Does not: enforce timeouts (the parent kills the whole process group) or
sandbox the file system or network.

Usage: python3 python_worker.py MEMORY_LIMIT_MB [--bound=DEV:INO:PATH ...]
"""
import importlib.util
import copy
import json
import math
import os
import resource
import sys
import threading
import time
import traceback

REQUEST_FD = 3
REPLY_FD = 4
PARENT_POLL_S = 0.5


def _drop_own_dir_from_path():
    # python puts the script's directory first on sys.path; user imports must not see it
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or ".") == here:
        sys.path.pop(0)


def _exit_when_parent_dies():
    # A busy user function never reads fd 3, so EOF alone cannot stop an orphaned worker.
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(PARENT_POLL_S)
            if os.getppid() != parent:
                os._exit(137)

    threading.stack_size(256 * 1024)  # the thread's stack counts against RLIMIT_AS
    threading.Thread(target=watch, name="stagecraft-parent-watch", daemon=True).start()


def _limit_memory(limit_mb):
    if limit_mb <= 0:
        return
    limit = limit_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    # the hard limit too, so user code cannot raise it back
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


class NotJson(Exception):
    def __init__(self, where, what):
        super().__init__(f"{what} at {where}")
        self.where = where
        self.what = what


def to_json(value, where="$"):
    """The value as strict JSON data; raises NotJson naming the first offending spot."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJson(where, f"{value!r} (JSON has no NaN or Infinity)")
        return value
    if isinstance(value, (list, tuple)):
        return [to_json(item, f"{where}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJson(where, f"a dict key {key!r} of type {type(key).__name__} (JSON keys must be strings)")
            out[key] = to_json(item, f"{where}.{key}")
        return out
    raise NotJson(where, f"a value of type {type(value).__name__}")


_modules = {}


def _load(module_path):
    mod = _modules.get(module_path)
    if mod is not None:
        return mod
    module_dir = os.path.dirname(module_path)
    if module_dir not in sys.path:
        sys.path.insert(0, module_dir)  # so the bundle's sibling modules import
    stem = os.path.splitext(os.path.basename(module_path))[0]
    name = f"_stagecraft_{len(_modules)}_{stem}"
    spec = importlib.util.spec_from_file_location(name, module_path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {module_path} as a python module")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses and pickle look modules up by name
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    _modules[module_path] = mod
    return mod


def _functions_of(mod):
    return sorted(
        name
        for name, value in vars(mod).items()
        if not name.startswith("_") and callable(value) and getattr(value, "__module__", None) == mod.__name__
    )


def _failure(kind, exc, module_path):
    te = traceback.TracebackException(type(exc), exc, exc.__traceback__)
    # the worker's own frames and importlib's machinery are noise to the skill author
    te.stack = traceback.StackSummary.from_list(
        [f for f in te.stack if f.filename != __file__ and not f.filename.startswith("<frozen importlib")]
    )
    where = None
    if isinstance(exc, SyntaxError) and exc.filename:
        where = f"{exc.filename}:{exc.lineno}"
    else:
        in_module = [f for f in te.stack if f.filename == module_path]
        user = in_module or list(te.stack)
        if user:
            where = f"{user[-1].filename}:{user[-1].lineno}"
    return {
        "ok": False,
        "kind": "memory" if isinstance(exc, MemoryError) else kind,
        "errorType": type(exc).__name__,
        "message": str(exc),
        "traceback": "".join(te.format()),
        "where": where,
    }


def handle(request):
    module_path = request["modulePath"]
    export_name = request["exportName"]
    if module_path not in _modules and not os.path.isfile(module_path):
        return {"ok": False, "kind": "module_missing", "message": f"no such file: {module_path}"}
    # the current folder stays the one the worker was started in: the run's workspace
    try:
        mod = _load(module_path)
    except BaseException as exc:  # noqa: BLE001 - user code may raise anything, SystemExit included
        return _failure("import_failed", exc, module_path)
    fn = getattr(mod, export_name, None)
    if not callable(fn):
        return {"ok": False, "kind": "export_missing", "available": _functions_of(mod)}
    try:
        result = fn(request.get("input"))
    except BaseException as exc:  # noqa: BLE001
        return _failure("raised", exc, module_path)
    try:
        return {"ok": True, "value": to_json(result)}
    except NotJson as exc:
        return {"ok": False, "kind": "not_json", "message": exc.what, "where": exc.where}
    except RecursionError:
        what = "a structure nested too deeply (or containing itself)"
        return {"ok": False, "kind": "not_json", "message": what, "where": "$"}


def handle_chain(request):
    """Consecutive pure steps in one request: each step's input is the previous
    value with its result merged in (into: key, else a shallow merge of a dict),
    exactly as the kernel merges. Stops at the first step that fails or returns
    something that cannot be merged; the kernel re-runs that one on its own, so
    the error is reported and handled as for any step. One difference stays: a
    merged dict keeps Python's insertion order, while the kernel's JS objects
    list integer-like keys ("2") first, so a step that depends on key order may
    see another order fused than alone (values and memo keys are the same)."""
    value = request.get("input")
    outputs = []
    for step in request["steps"]:
        # each step gets its own copy, as a single call would (a step that mutates its input must not change the next one's)
        reply = handle({"modulePath": step["modulePath"], "exportName": step["exportName"], "input": copy.deepcopy(value)})
        if not reply.get("ok"):
            break
        out = reply["value"]
        into = step.get("into")
        if into is not None:
            value = {**value, into: out}
        elif isinstance(out, dict):
            value = {**value, **out}
        else:
            break
        outputs.append(out)
    return {"ok": True, "value": {"outputs": outputs}}


def _check_bound(args):
    """Each `--bound=DEV:INO:PATH` (an entry of the workspace the host checked, bound read-only over
    itself): what is at PATH must be that entry, and read-only, or the worker exits before any code runs
    (the path may have been swapped between the host's check and bubblewrap's bind: workspace-guard.ts)."""
    for arg in args:
        if not arg.startswith("--bound="):
            continue
        dev, ino, where = arg[len("--bound="):].split(":", 2)
        try:
            st = os.lstat(where)
            # read-only: the bind itself (a folder swapped back in place of one bound elsewhere is in the writable workspace)
            is_it = (st.st_dev, st.st_ino) == (int(dev), int(ino)) and bool(os.statvfs(where).f_flag & os.ST_RDONLY)
        except OSError:
            is_it = False
        if not is_it:
            sys.stderr.write(f"{where} was replaced between the host's check and the sandbox's read-only bind of it: the worker does not start with it\n")
            sys.stderr.flush()
            os._exit(97)


def _close_inherited():
    """Closes every descriptor past the protocol's (0-4) that this process inherited rather than opened.

    Whoever started the server may have left one open without close-on-exec (a shell's `exec 100<>file`,
    a supervisor's socket): it passes into every child, through bubblewrap too, and in here it would be a
    host file or socket user code reaches by its number. Python opens its own close-on-exec (PEP 446), so
    an inheritable one past fd 4 is not this worker's.
    """
    for listing in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(listing)
        except OSError:
            continue
        for name in names:
            fd = int(name)
            if fd <= REPLY_FD:
                continue
            try:
                if os.get_inheritable(fd):
                    os.close(fd)
            except OSError:
                pass  # the listing's own descriptor, gone already
        return


def main():
    _close_inherited()
    _drop_own_dir_from_path()
    _exit_when_parent_dies()
    _limit_memory(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    _check_bound(sys.argv[2:])
    for fd in (REQUEST_FD, REPLY_FD):
        os.set_inheritable(fd, False)  # subprocesses of user code must not hold the protocol pipes
        os.set_blocking(fd, True)
    requests = os.fdopen(REQUEST_FD, "rb")
    replies = os.fdopen(REPLY_FD, "wb")

    def send(message):
        replies.write(json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n")
        replies.flush()

    send({"type": "ready", "pid": os.getpid()})
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply = handle_chain(request) if "steps" in request else handle(request)
        except MemoryError as exc:
            reply = _failure("memory", exc, request.get("modulePath", ""))
        # flush user output before the reply so the parent attributes it to this call
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - user code may have replaced or closed the stream
                pass
        reply["id"] = request["id"]
        try:
            send(reply)
        except MemoryError:
            os._exit(137)
        if reply.get("kind") == "memory":
            os._exit(137)  # after a MemoryError the interpreter's state is not trustworthy
    # fd 3 closed: the parent is gone or closed the sandbox


if __name__ == "__main__":
    main()
