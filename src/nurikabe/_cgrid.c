/* nurikabe._cgrid: the flood fill of `nurikabe.grid` on 64-bit words.
 *
 * A set of cells is a Python int (bit i for cell i, see grid.py). Growing a region
 * through a mask one layer at a time is a handful of big-int shifts and ands per layer
 * in Python, each making a new int; a long snake of an island or a winding sea takes
 * dozens of layers. Here the masks are copied once into arrays of 64-bit words and the
 * layers are grown there, with the same shifts and ands: the answers are the same ints,
 * only made faster (the engines flood all the time, so it shows in every walkthrough).
 *
 *   grow(region, within, west, east, cols, steps) -> int
 *       `region` together with the cells of `within` it reaches in at most `steps`
 *       layers (-1: no limit). `west` and `east` are the cells of `within` off the last
 *       and off the first column (the targets of a step west and east).
 *   components(mask, west, east, cols) -> list[int]
 *       The 4-connected components of `mask`, ordered by their smallest cell.
 *
 * Every mask must be a non-negative int; `cols` at least 1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t word;

/* Words needed for the bits of `v` (a non-negative int), or -1 with an error set. */
static Py_ssize_t words_of(PyObject *v) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "masks must be ints");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(v, NULL, 0,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                            Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0) return -1;
    return (n + 7) / 8;
#else
    if (_PyLong_Sign(v) < 0) {
        PyErr_SetString(PyExc_ValueError, "masks must not be negative");
        return -1;
    }
    size_t n = _PyLong_NumBits(v);
    if (n == (size_t)-1 && PyErr_Occurred()) return -1;
    return (Py_ssize_t)((n + 63) / 64);
#endif
}

/* Copy `v` into `nw` words (little-endian word order; bits beyond are dropped). */
static int to_words(PyObject *v, word *out, Py_ssize_t nw, unsigned char *scratch) {
    size_t n = (size_t)nw * 8;
#if PY_VERSION_HEX >= 0x030D0000
    if (PyLong_AsNativeBytes(v, scratch, (Py_ssize_t)n,
                             Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER) < 0)
        return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, scratch, n, 1, 0) < 0) return -1;
#endif
    for (Py_ssize_t i = 0; i < nw; i++) {
        word w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | scratch[8 * i + j];
        out[i] = w;
    }
    return 0;
}

static PyObject *from_words(const word *in, Py_ssize_t nw, unsigned char *scratch) {
    for (Py_ssize_t i = 0; i < nw; i++) {
        word w = in[i];
        for (int j = 0; j < 8; j++, w >>= 8) scratch[8 * i + j] = (unsigned char)(w & 0xff);
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(scratch, (size_t)nw * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(scratch, (size_t)nw * 8, 1, 0);
#endif
}

/* Word i of `f` shifted right (towards lower cells) by `k` bits. */
static inline word shr_at(const word *f, Py_ssize_t nw, Py_ssize_t i, Py_ssize_t q, int r) {
    Py_ssize_t lo = i + q;
    word out = lo < nw ? f[lo] >> r : 0;
    if (r && lo + 1 < nw) out |= f[lo + 1] << (64 - r);
    return out;
}

/* Word i of `f` shifted left (towards higher cells) by `k` bits. */
static inline word shl_at(const word *f, Py_ssize_t i, Py_ssize_t q, int r) {
    Py_ssize_t hi = i - q;
    word out = hi >= 0 ? f[hi] << r : 0;
    if (r && hi - 1 >= 0) out |= f[hi - 1] >> (64 - r);
    return out;
}

/* Grow `region` (changed in place) through `within`, at most `steps` layers (-1: no
 * limit); `front` and `next` are scratch. */
static void grow_words(word *region, const word *within, const word *west, const word *east,
                       word *front, word *next, Py_ssize_t nw, Py_ssize_t cols, long steps) {
    Py_ssize_t q = cols / 64;
    int r = (int)(cols % 64);
    Py_ssize_t lo = nw, hi = -1; /* the frontier's nonzero words */
    for (Py_ssize_t i = 0; i < nw; i++) {
        front[i] = region[i];
        if (front[i]) {
            if (lo > i) lo = i;
            hi = i;
        }
    }
    while (steps != 0 && hi >= 0) {
        if (steps > 0) steps--;
        /* the layer can only reach words a row's width around the frontier's */
        Py_ssize_t from = lo - q - 1, to = hi + q + 1;
        if (from < 0) from = 0;
        if (to > nw - 1) to = nw - 1;
        Py_ssize_t nlo = nw, nhi = -1;
        for (Py_ssize_t i = from; i <= to; i++) {
            word w = (shr_at(front, nw, i, 0, 1) & west[i]) | (shl_at(front, i, 0, 1) & east[i]) |
                     ((shr_at(front, nw, i, q, r) | shl_at(front, i, q, r)) & within[i]);
            w &= ~region[i];
            next[i] = w;
            if (w) {
                if (nlo > i) nlo = i;
                nhi = i;
            }
        }
        for (Py_ssize_t i = from; i <= to; i++) {
            region[i] |= next[i];
            front[i] = 0;
        }
        for (Py_ssize_t i = nlo; i <= nhi; i++) front[i] = next[i];
        /* words of the old frontier outside [from, to] cannot exist: it lies inside */
        lo = nlo;
        hi = nhi;
    }
}

/* Scratch for one call: `count` arrays of `nw` words and the byte buffer. */
typedef struct {
    word *words;
    unsigned char *bytes;
    word stack[8 * 64];
    unsigned char stack_bytes[64 * 8];
} Scratch;

static int scratch_init(Scratch *s, Py_ssize_t nw, int count) {
    if (nw * count <= 8 * 64 && nw <= 64) {
        s->words = s->stack;
        s->bytes = s->stack_bytes;
        return 0;
    }
    s->words = PyMem_Malloc(sizeof(word) * (size_t)(nw * count));
    s->bytes = PyMem_Malloc((size_t)nw * 8);
    if (!s->words || !s->bytes) {
        PyMem_Free(s->words);
        PyMem_Free(s->bytes);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void scratch_free(Scratch *s) {
    if (s->words != s->stack) {
        PyMem_Free(s->words);
        PyMem_Free(s->bytes);
    }
}

static PyObject *py_grow(PyObject *self, PyObject *args) {
    PyObject *region, *within, *west, *east;
    Py_ssize_t cols;
    long steps;
    if (!PyArg_ParseTuple(args, "OOOOnl:grow", &region, &within, &west, &east, &cols, &steps))
        return NULL;
    if (cols < 1) {
        PyErr_SetString(PyExc_ValueError, "cols must be at least 1");
        return NULL;
    }
    Py_ssize_t nw = 1;
    PyObject *masks[4] = {region, within, west, east};
    for (int k = 0; k < 4; k++) {
        Py_ssize_t n = words_of(masks[k]);
        if (n < 0) return NULL;
        if (n > nw) nw = n;
    }
    Scratch s;
    if (scratch_init(&s, nw, 6) < 0) return NULL;
    word *w[6];
    for (int k = 0; k < 6; k++) w[k] = s.words + k * nw;
    PyObject *out = NULL;
    for (int k = 0; k < 4; k++)
        if (to_words(masks[k], w[k], nw, s.bytes) < 0) goto done;
    grow_words(w[0], w[1], w[2], w[3], w[4], w[5], nw, cols, steps);
    out = from_words(w[0], nw, s.bytes);
done:
    scratch_free(&s);
    return out;
}

static PyObject *py_components(PyObject *self, PyObject *args) {
    PyObject *mask, *west, *east;
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "OOOn:components", &mask, &west, &east, &cols)) return NULL;
    if (cols < 1) {
        PyErr_SetString(PyExc_ValueError, "cols must be at least 1");
        return NULL;
    }
    Py_ssize_t nw = 1;
    PyObject *masks[3] = {mask, west, east};
    for (int k = 0; k < 3; k++) {
        Py_ssize_t n = words_of(masks[k]);
        if (n < 0) return NULL;
        if (n > nw) nw = n;
    }
    Scratch s;
    if (scratch_init(&s, nw, 6) < 0) return NULL;
    word *rest = s.words, *west_w = rest + nw, *east_w = west_w + nw, *part = east_w + nw,
         *front = part + nw, *next = front + nw;
    PyObject *out = PyList_New(0);
    if (!out) goto fail;
    if (to_words(mask, rest, nw, s.bytes) < 0 || to_words(west, west_w, nw, s.bytes) < 0 ||
        to_words(east, east_w, nw, s.bytes) < 0)
        goto fail;
    /* Each component is flooded through the whole mask: the others are apart. The
       mask itself is kept in `mask`'s words below by re-reading: `rest` shrinks. */
    word *whole = PyMem_Malloc(sizeof(word) * (size_t)nw);
    if (!whole) {
        PyErr_NoMemory();
        goto fail;
    }
    memcpy(whole, rest, sizeof(word) * (size_t)nw);
    for (Py_ssize_t i = 0; i < nw; i++) {
        while (rest[i]) {
            memset(part, 0, sizeof(word) * (size_t)nw);
            part[i] = rest[i] & (~rest[i] + 1);
            grow_words(part, whole, west_w, east_w, front, next, nw, cols, -1);
            PyObject *v = from_words(part, nw, s.bytes);
            if (!v || PyList_Append(out, v) < 0) {
                Py_XDECREF(v);
                PyMem_Free(whole);
                goto fail;
            }
            Py_DECREF(v);
            for (Py_ssize_t j = i; j < nw; j++) rest[j] &= ~part[j];
        }
    }
    PyMem_Free(whole);
    scratch_free(&s);
    return out;
fail:
    Py_XDECREF(out);
    scratch_free(&s);
    return NULL;
}

static PyMethodDef methods[] = {
    {"grow", py_grow, METH_VARARGS,
     "grow(region, within, west, east, cols, steps) -> region grown through within"},
    {"components", py_components, METH_VARARGS,
     "components(mask, west, east, cols) -> the 4-connected components of mask"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cgrid", "The flood fill of nurikabe.grid on 64-bit words.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__cgrid(void) { return PyModule_Create(&module); }
