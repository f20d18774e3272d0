/* The CPython binding of the exact engine: the extension type `_csolve.Search`, driven by
 * `solver/native.py` and `solver/refuter.py`, over the C API of _csolve.h (the engine,
 * _csolve.c, knows nothing of Python). It parses the arguments, runs the search without
 * the GIL (taking it back now and then, through the engine's poll hook, only to let
 * Python's signal handlers run) and turns the answers into Python objects. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_csolve.h"

typedef struct {
    PyObject_HEAD
    CsolveMemo *memo; /* NULL when out of memory */
    int busy;         /* a search using it is running (in some thread) */
} MemoObject;

static PyTypeObject MemoType;

typedef struct {
    PyObject_HEAD
    Search *engine;        /* NULL until __init__ succeeds */
    PyThreadState *tstate; /* saved while the search runs without the GIL */
    int running;           /* next() is under way (in some thread) */
    MemoObject *memo;      /* the memo it uses (a reference held), or NULL */
} SearchObject;

/* The engine's poll hook: take the GIL back just to let Python's signal handlers run
   (Ctrl-C); nonzero when one raised (its exception stays set for next()). */
static int poll_signals(void *arg) {
    SearchObject *self = arg;
    PyEval_RestoreThread(self->tstate);
    int signalled = PyErr_CheckSignals() != 0;
    self->tstate = PyEval_SaveThread();
    return signalled;
}

static int ready(SearchObject *self) {
    if (self->engine) return 1;
    PyErr_SetString(PyExc_RuntimeError, "Search.__init__ was not called");
    return 0;
}

static void Search_dealloc(SearchObject *self) {
    csolve_free(self->engine);
    Py_XDECREF(self->memo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"rows", "cols", "clues", "start", "seconds", "nodes", "cpu",
                             "strong", "lean", "near", "learn", "reasons", "learn_after",
                             "diversify", "memo", NULL};
    int R, C;
    PyObject *clues;
    Py_buffer start = {0}, near = {0};
    CsolveOptions opt = {.seconds = -1, .nodes = -1};
    PyObject *memo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOy*|dLpppz*ppLpO", kwlist, &R, &C, &clues,
                                     &start, &opt.seconds, &opt.nodes, &opt.cpu, &opt.strong,
                                     &opt.lean, &near, &opt.learn, &opt.reasons,
                                     &opt.learn_after, &opt.diversify, &memo))
        return -1;
    if (memo != Py_None && !PyObject_TypeCheck(memo, &MemoType)) {
        PyErr_SetString(PyExc_TypeError, "memo must be a Memo or None");
        PyBuffer_Release(&start);
        PyBuffer_Release(&near);
        return -1;
    }
    int *cells = NULL, *values = NULL, error = 0;
    PyObject *seq = NULL;
    if (R < 1 || C < 1 || (long long)R * C > 1000000 || start.len != (Py_ssize_t)R * C ||
        (near.buf && near.len != (Py_ssize_t)R * C)) {
        PyErr_SetString(PyExc_ValueError, "bad grid size or start length");
        goto done;
    }
    seq = PySequence_Fast(clues, "clues must be a sequence of (cell, value)");
    if (!seq) goto done;
    int K = (int)PySequence_Fast_GET_SIZE(seq);
    cells = malloc(sizeof(int) * ((size_t)K + 1));
    values = malloc(sizeof(int) * ((size_t)K + 1));
    if (!cells || !values) {
        PyErr_NoMemory();
        goto done;
    }
    for (int k = 0; k < K; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyArg_ParseTuple(item, "ii", &cells[k], &values[k])) goto done;
    }
    Search *engine = csolve_create(R, C, K, cells, values, start.buf, near.buf, &opt, &error);
    if (!engine) {
        if (error == CSOLVE_BAD_CLUE) PyErr_SetString(PyExc_ValueError, "bad clue");
        else PyErr_NoMemory();
        goto done;
    }
    if (memo != Py_None && ((MemoObject *)memo)->memo &&
        !csolve_set_memo(engine, ((MemoObject *)memo)->memo)) {
        csolve_free(engine);
        PyErr_SetString(PyExc_ValueError,
                        "this memo is another puzzle's or another configuration's");
        goto done;
    }
    csolve_free(self->engine);
    self->engine = engine;
    Py_CLEAR(self->memo);
    if (memo != Py_None) {
        Py_INCREF(memo);
        self->memo = (MemoObject *)memo;
    }
    csolve_set_poll(engine, poll_signals, self);
done:
    free(cells);
    free(values);
    Py_XDECREF(seq);
    PyBuffer_Release(&start);
    PyBuffer_Release(&near);
    return self->engine && !PyErr_Occurred() ? 0 : -1;
}

/* next() -> bytes of the next solution's black cells (bit i = cell i), or None. */
static PyObject *Search_next(SearchObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!ready(self)) return NULL;
    Search *s = self->engine;
    if (csolve_idle(s)) Py_RETURN_NONE;
    if (!csolve_arm(s)) Py_RETURN_NONE;
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running in another thread");
        return NULL;
    }
    self->running = 1; /* set under the GIL, so no other thread can enter too */
    /* a memo is used by one search at a time: another's, running now, leaves this one
       without it for this call (the memo changes no answer, only the time) */
    MemoObject *memo = self->memo && self->memo->memo ? self->memo : NULL;
    if (memo && memo->busy) {
        csolve_set_memo(s, NULL);
        memo = NULL;
    }
    if (memo) memo->busy = 1;
    self->tstate = PyEval_SaveThread();
    int found = csolve_run(s);
    PyEval_RestoreThread(self->tstate);
    if (memo) memo->busy = 0;
    else if (self->memo && self->memo->memo) csolve_set_memo(s, self->memo->memo);
    self->running = 0;
    if (found < 0) return PyErr_NoMemory();
    if (csolve_stop(s) == CSOLVE_STOP_INTERRUPTED) return NULL; /* the handler's exception */
    if (!found) Py_RETURN_NONE;
    int N = csolve_cells(s), nbytes = (N + 7) / 8;
    const uint8_t *solution = csolve_solution(s);
    PyObject *out = PyBytes_FromStringAndSize(NULL, nbytes);
    if (!out) return NULL;
    uint8_t *bits = (uint8_t *)PyBytes_AS_STRING(out);
    memset(bits, 0, nbytes);
    for (int i = 0; i < N; i++)
        if (solution[i] == CSOLVE_BLACK) bits[i >> 3] |= (uint8_t)(1u << (i & 7));
    return out;
}

static PyObject *Search_get_stop(SearchObject *self, void *closure) {
    (void)closure;
    if (!ready(self)) return NULL;
    switch (csolve_stop(self->engine)) {
    case CSOLVE_STOP_SECONDS: return PyUnicode_FromString("seconds");
    case CSOLVE_STOP_NODES: return PyUnicode_FromString("nodes");
    case CSOLVE_STOP_INTERRUPTED: return PyUnicode_FromString("interrupted");
    case CSOLVE_STOP_CANCELLED: return PyUnicode_FromString("cancelled");
    default: Py_RETURN_NONE;
    }
}

static PyObject *Search_get_complete(SearchObject *self, void *closure) {
    (void)closure;
    if (!ready(self)) return NULL;
    return PyBool_FromLong(csolve_complete(self->engine));
}

/* Whether some branch is left to explore (False once the search space is exhausted). */
static PyObject *Search_get_pending(SearchObject *self, void *closure) {
    (void)closure;
    if (!ready(self)) return NULL;
    return PyBool_FromLong(csolve_pending(self->engine));
}

static PyObject *Search_get_counter(SearchObject *self, void *closure) {
    if (!ready(self)) return NULL;
    CsolveCounters c = csolve_counters(self->engine);
    switch ((int)(intptr_t)closure) {
    case 0: return PyLong_FromLongLong(c.nodes);
    case 1: return PyLong_FromLongLong(c.propagations);
    case 2: return PyLong_FromLongLong(c.probes);
    case 4: return PyLong_FromLongLong(c.learned);
    case 5: return PyLong_FromLongLong(c.restarts);
    case 6: return PyLong_FromLongLong(c.jumps);
    case 7: return PyLong_FromLongLong(c.cut_literals);
    case 8: return PyLong_FromLongLong(c.path_literals);
    default: return PyLong_FromUnsignedLongLong(c.trace);
    }
}

/* extend(nodes, seconds=-1): let a search its node limit stopped go on, up to `nodes`
 * nodes in all (and, given seconds >= 0, that many more seconds); the next call of next()
 * carries on from where it stopped, as if the limit had been `nodes` from the start.
 * A search stopped by anything else stays stopped. */
static PyObject *Search_extend(SearchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"nodes", "seconds", NULL};
    long long nodes;
    double seconds = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "L|d", kwlist, &nodes, &seconds)) return NULL;
    if (!ready(self)) return NULL;
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this search is running in another thread");
        return NULL;
    }
    csolve_extend(self->engine, nodes, seconds);
    Py_RETURN_NONE;
}

/* cancel(): stop the search soon, from any thread (it may be running in another, without
 * the GIL); next() then returns None and `stop` is "cancelled". */
static PyObject *Search_cancel(SearchObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!ready(self)) return NULL;
    csolve_cancel(self->engine);
    Py_RETURN_NONE;
}

/* _restart_stamps_at(limit): let every stamp counter start again once it passes `limit`
 * rather than near INT_MAX, so that a test sees restarts within a short search (they must
 * change nothing the search finds). */
static PyObject *Search_restart_stamps_at(SearchObject *self, PyObject *arg) {
    long limit = PyLong_AsLong(arg);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (!ready(self)) return NULL;
    if (!csolve_restart_stamps_at(self->engine, limit)) {
        PyErr_SetString(PyExc_ValueError, "limit out of range");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyGetSetDef Search_getset[] = {
    {"pending", (getter)Search_get_pending, NULL, "Whether branches are left to explore.", NULL},
    {"stop", (getter)Search_get_stop, NULL, "Which limit stopped the search, or None.", NULL},
    {"complete", (getter)Search_get_complete, NULL, "Whether the space was exhausted.", NULL},
    {"nodes", (getter)Search_get_counter, NULL, "Search nodes (states propagated).", (void *)0},
    {"propagations", (getter)Search_get_counter, NULL, "Propagations run.", (void *)1},
    {"probes", (getter)Search_get_counter, NULL, "Cells probed both ways.", (void *)2},
    {"learned", (getter)Search_get_counter, NULL, "Nogoods learned (with learn).", (void *)4},
    {"restarts", (getter)Search_get_counter, NULL, "Restarts (with learn).", (void *)5},
    {"jumps", (getter)Search_get_counter, NULL, "Frames backjumps skipped (with learn).",
     (void *)6},
    {"cut_literals", (getter)Search_get_counter, NULL,
     "Literals of the refuted leaves' decision cuts (with learn).", (void *)7},
    {"path_literals", (getter)Search_get_counter, NULL,
     "Literals of those leaves' decision paths (with learn).", (void *)8},
#ifdef CSOLVE_TRACE
    {"trace", (getter)Search_get_counter, NULL, "Hash of the fixpoints reached.", (void *)3},
#endif
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Search_methods[] = {
    {"next", (PyCFunction)Search_next, METH_NOARGS,
     "The next solution's black cells as little-endian bits, or None when there is none "
     "left or a limit stopped the search."},
    {"extend", (PyCFunction)(void (*)(void))Search_extend, METH_VARARGS | METH_KEYWORDS,
     "extend(nodes, seconds=-1): let a search stopped by its node limit go on, up to "
     "`nodes` nodes in all (and `seconds` more, when given); the next call of next() "
     "carries on from where it stopped."},
    {"cancel", (PyCFunction)Search_cancel, METH_NOARGS,
     "Stop the search soon; callable from any thread while next() runs in another."},
    {"_restart_stamps_at", (PyCFunction)Search_restart_stamps_at, METH_O,
     "Test hook: start the stamp counters again whenever they pass this (default near "
     "INT_MAX)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nurikabe.solver._csolve.Search",
    .tp_doc = "Search(rows, cols, clues, start, seconds=-1, nodes=-1, cpu=False, strong=False,"
              " lean=False, near=None, learn=False, reasons=False, learn_after=0, diversify=False,"
              " memo=None):"
              " an exact search;"
              " with cpu,"
              " seconds are CPU seconds of the searching thread; with near (a position start"
              " extends), the root probes first near what start adds; with strong and learn, it"
              " learns from conflicts (with reasons, a refuted leaf's nogood is its decision cut,"
              " not its path; with learn_after > 0, it starts learning only after that many"
              " nodes; with diversify, each restart branches on one of the best few cells, drawn"
              " by a seeded generator; with memo, a Memo of this puzzle's searches, states"
              " propagated before are answered from it).",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static int Memo_init(MemoObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"max_bytes", NULL};
    long long max_bytes = 32LL << 20;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|L", kwlist, &max_bytes)) return -1;
    if (self->memo) {
        PyErr_SetString(PyExc_RuntimeError, "Memo.__init__ called twice");
        return -1;
    }
    self->memo = csolve_memo_new(max_bytes);
    if (!self->memo) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Memo_dealloc(MemoObject *self) {
    csolve_memo_free(self->memo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* stats() -> (hits, misses, entries, resets). */
static PyObject *Memo_stats(MemoObject *self, PyObject *Py_UNUSED(ignored)) {
    long long out[4] = {0, 0, 0, 0};
    if (self->memo) csolve_memo_stats(self->memo, out);
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

static PyMethodDef Memo_methods[] = {
    {"stats", (PyCFunction)Memo_stats, METH_NOARGS,
     "(hits, misses, entries held, times it started again empty)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject MemoType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nurikabe.solver._csolve.Memo",
    .tp_doc = "Memo(max_bytes=32 MiB): the fixpoints of states propagated before, shared by"
              " searches of one puzzle and configuration (Search(..., memo=)), one running at"
              " a time; it changes no answer and no count, only the time.",
    .tp_basicsize = sizeof(MemoObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Memo_init,
    .tp_dealloc = (destructor)Memo_dealloc,
    .tp_methods = Memo_methods,
};

static struct PyModuleDef csolve_module = {
    PyModuleDef_HEAD_INIT, "_csolve",
    "The compiled core of the native exact engine (see solver/native.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__csolve(void) {
    if (PyType_Ready(&SearchType) < 0 || PyType_Ready(&MemoType) < 0) return NULL;
    PyObject *m = PyModule_Create(&csolve_module);
    if (!m) return NULL;
    Py_INCREF(&MemoType);
    if (PyModule_AddObject(m, "Memo", (PyObject *)&MemoType) < 0) {
        Py_DECREF(&MemoType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
