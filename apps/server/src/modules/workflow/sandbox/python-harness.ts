/**
 * Python run inside Pyodide once, after it loads: closes what reaches outside the interpreter at
 * the Python level (the JavaScript bridge modules, sockets, package installs), records the state
 * every run starts from, and defines the function each run calls. The JavaScript side of the lock
 * (python-lockdown.ts) is the boundary; this layer gives clear errors and keeps runs apart.
 */
export const PYTHON_SETUP = `
import builtins, importlib.abc, json, sys, traceback

_BLOCKED = frozenset({
    'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'micropip', 'pyodide_http',
    'socket', '_socket', 'ssl', '_ssl', 'select', 'selectors', 'ctypes', '_ctypes',
    'subprocess', '_posixsubprocess', 'multiprocessing', '_multiprocessing',
})

class _Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named '{name}' (not available in the sandbox)", name=name)
        return None

sys.meta_path.insert(0, _Refuse())

# Emscripten's system() starts a real shell through the child_process its loader captured: the
# process-starting functions go, so a run gets AttributeError. Beneath this the thread's
# child_process refuses (host-escapes.ts) and the process may not start any (docs/workflow-sandbox.md).
import os, posix
for _module in (os, posix):
    for _name in ('system', 'popen', 'fork', 'forkpty', 'execv', 'execve', 'spawnv', 'spawnve', 'posix_spawn', 'posix_spawnp'):
        if hasattr(_module, _name):
            delattr(_module, _name)
for _name in list(sys.modules):
    if _name.split('.')[0] in _BLOCKED:
        del sys.modules[_name]

_dumps, _loads, _format_exception = json.dumps, json.loads, traceback.format_exception
_modules = dict(sys.modules)
_module_dicts = {name: dict(module.__dict__) for name, module in _modules.items() if module is not None}
_lists = [(sys.meta_path, list(sys.meta_path)), (sys.path, list(sys.path)), (sys.path_hooks, list(sys.path_hooks))]
_recursion_limit = sys.getrecursionlimit()

def _changed(current, saved):
    # Identity only: comparing with == would call a run's own __eq__ during the restore.
    return len(current) != len(saved) or any(saved.get(key, _changed) is not value for key, value in current.items())

def _restore():
    # A run may have imported, replaced or patched modules; the next run (of the same space: a
    # thread serves one) starts from the state recorded after setup.
    for name, saved in _module_dicts.items():
        namespace = _modules[name].__dict__
        if _changed(namespace, saved):
            namespace.clear()
            namespace.update(saved)
    for name in [name for name in sys.modules if name not in _modules]:
        del sys.modules[name]
    sys.modules.update(_modules)
    for current, saved in _lists:
        current[:] = saved
    sys.path_importer_cache.clear()
    sys.setrecursionlimit(_recursion_limit)

def _line(error):
    tb = error.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == '<main>':
            line = tb.tb_lineno
        tb = tb.tb_next
    if line is None and isinstance(error, SyntaxError) and error.filename == '<main>':
        line = error.lineno
    return line

def _failure(kind, error):
    text = ''.join(_format_exception(type(error), error, None)).strip().splitlines()[-1]
    line = _line(error)
    return _dumps({'ok': False, 'kind': kind, 'detail': (f'{text} (line {line})' if line else text)[:2000]})

def _run(code, args_json, max_chars):
    try:
        scope = {'__name__': '__main__', '__builtins__': builtins}
        exec(compile(code, '<main>', 'exec'), scope)
        main = scope.get('main')
        if not callable(main):
            return _dumps({'ok': False, 'kind': 'error', 'detail': 'The code must define a function main(**args)'})
        result = main(**_loads(args_json))
        if not isinstance(result, dict):
            return _dumps({'ok': False, 'kind': 'output', 'detail': f'main must return a dict, not {type(result).__name__}'})
        try:
            text = _dumps(result, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as error:
            return _dumps({'ok': False, 'kind': 'output', 'detail': f'the result is not JSON: {error}'})
        if len(text) > max_chars:
            return _dumps({'ok': False, 'kind': 'output', 'detail': f'the result is {len(text)} characters of JSON, over {max_chars}'})
        return _dumps({'ok': True, 'json': text})
    except KeyboardInterrupt as error:
        return _dumps({'ok': False, 'kind': 'timeout', 'detail': 'interrupted', 'retire': True})
    except MemoryError as error:
        return _failure('memory', error)[:-1] + ', "retire": true}'
    except BaseException as error:
        return _failure('error', error)
    finally:
        _restore()
`;
