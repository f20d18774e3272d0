/* nurikabe._cgrid: the grid walks the engines make all the time, compiled: flood fills
 * and cell lists of `nurikabe.grid`, the logic engine's listing of island shapes
 * (`logic.techniques.completions`) and its cut cells of the sea (`...articulation`).
 * Each gives exactly what the Python it replaced gave (the tests keep that Python as
 * their oracle), only faster.
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
 *   cells(mask) -> list[int]
 *       The cells of `mask` in increasing order (what `grid.bits` walks).
 *   shapes(rows, cols, start, allowed, need, cap, check) -> list[int] | None
 *       Every connected superset of `start` with `need` more cells of `allowed`, in the
 *       order of the logic engine's listing of island shapes (Redelmeier's method, each
 *       set made once), or None when there are more than `cap` or the search takes more
 *       than 20 * `cap` nodes; `check()` is called every 4096 nodes (None: never) and may
 *       raise to stop it.
 *   cuts(rows, cols, domain, black, root) -> int
 *       The cells of `domain` (other than `root`, a cell of it) whose removal cuts some
 *       cell of `black` off from `root` within `domain` (Tarjan's walk).
 *   keep_shapes(shapes, alive, full, not_first_col, not_last_col, forbidden, held, white,
 *               black, dead, cols) -> int
 *   sea_shapes(shapes, alive, full, not_first_col, not_last_col, black, dead, domain,
 *              base, cols) -> int
 *       The shapes of an island's list (those of `alive`, None: all) a position keeps, as
 *       a mask over the list: the per-shape tests of `logic.techniques.completions`
 *       (see "filters of an island's list of shapes" below).
 *   bottleneck(start, allowed, unknown, not_first_col, not_last_col, need, cols) -> int
 *       The first cell of `unknown` without which `start` cannot collect `need` cells of
 *       `allowed` within `need` layers, or -1 (`logic.techniques.bottlenecks._bottleneck`).
 *   reaches(start, allowed, blocked, target, not_first_col, not_last_col, steps, cols)
 *       -> bool
 *       Whether `start` reaches a cell of `target` through `allowed` less `blocked` within
 *       `steps` layers (`...bottlenecks._island_reaches`).
 *   priced_reach(start, allowed, orphans, sizes, steps, not_first_col, not_last_col,
 *                cols) -> int
 *       The cells `start` reaches through `allowed` at a cost of at most `steps`, where a
 *       cell costs one and a clueless white region of `orphans` (a list of masks, their
 *       cell counts in `sizes`) costs its size and is taken whole (`Analysis.reach`).
 *   island_fields(masks, dils, unknown, free, not_first_col, not_last_col, full, cols)
 *       -> (touching_two, arounds, borders, forbiddens, alloweds)
 *       What `logic.state.Analysis` gives every island at once: its cells and their
 *       neighbours (from `dils`, or dilated here where an entry is None), its unknown
 *       neighbours, the cells it may never take (next to another island, or to two) and
 *       the cells of `free` it may grow into; and the cells next to two or more islands.
 *   islands(cls, masks, cells, values, arounds, borders, forbiddens, alloweds, unbounded)
 *       -> list
 *       One `cls` (`logic.state.Island`, a class with __slots__) per mask, its slots
 *       filled as `Island.__init__` fills them (the clue cell from `cells`, its value
 *       from `values[cell]`, the fields from island_fields) without running it: the
 *       logic engine makes tens of islands for every position it looks at.
 *   pairwise(kept, others, not_first_col, not_last_col, full, cols) -> int
 *       The shapes of `kept` (as a mask over the list) that leave every list of
 *       `others` a shape neither overlapping nor touching them
 *       (`logic.techniques.completions._pairwise`).
 *   Dilation(cols, not_first_col, not_last_col, full)(mask) -> int
 *       `mask` together with every orthogonal neighbour of its cells, on a grid of
 *       `cols` columns whose cells are `full` (`Grid.dilate`, the engines' most called
 *       function: a Python closure made a new int for each of its nine operations).
 *
 * Every mask must be a non-negative int; `cols` at least 1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stddef.h>
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

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
/* CPython 3.11 keeps an int as 30-bit digits (cpython/longintrepr.h): copied straight
 * into 64-bit words and back, a few operations a digit, where the portable byte arrays
 * below take a loop per byte each way (every walk converts its masks both ways). */
#define FAST_WORDS 1
#endif

/* Copy `v` into `nw` words (little-endian word order; bits beyond are dropped). */
static int to_words(PyObject *v, word *out, Py_ssize_t nw, unsigned char *scratch) {
#ifdef FAST_WORDS
    (void)scratch;
    const PyLongObject *l = (const PyLongObject *)v;
    Py_ssize_t nd = Py_SIZE(l), bit = 0;
    memset(out, 0, sizeof(word) * (size_t)nw);
    for (Py_ssize_t i = 0; i < nd; i++, bit += PyLong_SHIFT) {
        word d = l->ob_digit[i];
        Py_ssize_t at = bit >> 6;
        int off = (int)(bit & 63);
        if (at >= nw) break;
        out[at] |= d << off;
        if (off > 64 - PyLong_SHIFT && at + 1 < nw) out[at + 1] |= d >> (64 - off);
    }
    return 0;
#else
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
#endif
}

static PyObject *from_words(const word *in, Py_ssize_t nw, unsigned char *scratch) {
#ifdef FAST_WORDS
    (void)scratch;
    Py_ssize_t top = nw;
    while (top > 0 && !in[top - 1]) top--;
    if (top <= 1) return PyLong_FromUnsignedLongLong(top ? in[0] : 0);
    Py_ssize_t bits = (top - 1) * 64 + (64 - __builtin_clzll(in[top - 1]));
    Py_ssize_t nd = (bits + PyLong_SHIFT - 1) / PyLong_SHIFT;
    PyLongObject *l = _PyLong_New(nd);
    if (!l) return NULL;
    for (Py_ssize_t i = 0, bit = 0; i < nd; i++, bit += PyLong_SHIFT) {
        Py_ssize_t at = bit >> 6;
        int off = (int)(bit & 63);
        word d = in[at] >> off;
        if (off > 64 - PyLong_SHIFT && at + 1 < top) d |= in[at + 1] << (64 - off);
        l->ob_digit[i] = (digit)(d & PyLong_MASK);
    }
    return (PyObject *)l;
#else
    for (Py_ssize_t i = 0; i < nw; i++) {
        word w = in[i];
        for (int j = 0; j < 8; j++, w >>= 8) scratch[8 * i + j] = (unsigned char)(w & 0xff);
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(scratch, (size_t)nw * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(scratch, (size_t)nw * 8, 1, 0);
#endif
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

/* The words the widest of `count` masks needs (at least 1), or -1 with an error set
 * (also for `cols` below 1). */
static Py_ssize_t widest(PyObject **masks, int count, Py_ssize_t cols) {
    if (cols < 1) {
        PyErr_SetString(PyExc_ValueError, "cols must be at least 1");
        return -1;
    }
    Py_ssize_t nw = 1;
    for (int k = 0; k < count; k++) {
        Py_ssize_t n = words_of(masks[k]);
        if (n < 0) return -1;
        if (n > nw) nw = n;
    }
    return nw;
}

static PyObject *py_grow(PyObject *self, PyObject *args) {
    PyObject *region, *within, *west, *east;
    Py_ssize_t cols;
    long steps;
    if (!PyArg_ParseTuple(args, "OOOOnl:grow", &region, &within, &west, &east, &cols, &steps))
        return NULL;
    PyObject *masks[4] = {region, within, west, east};
    Py_ssize_t nw = widest(masks, 4, cols);
    if (nw < 0) return NULL;
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
    PyObject *masks[3] = {mask, west, east};
    Py_ssize_t nw = widest(masks, 3, cols);
    if (nw < 0) return NULL;
    Scratch s;
    if (scratch_init(&s, nw, 7) < 0) return NULL;
    word *rest = s.words, *west_w = rest + nw, *east_w = west_w + nw, *part = east_w + nw,
         *front = part + nw, *next = front + nw, *whole = next + nw;
    PyObject *out = PyList_New(0);
    if (!out) goto fail;
    if (to_words(mask, rest, nw, s.bytes) < 0 || to_words(west, west_w, nw, s.bytes) < 0 ||
        to_words(east, east_w, nw, s.bytes) < 0)
        goto fail;
    /* Each component is flooded through the whole mask (the others are apart), and
       taken out of `rest`, which starts as the whole mask. */
    memcpy(whole, rest, sizeof(word) * (size_t)nw);
    for (Py_ssize_t i = 0; i < nw; i++) {
        while (rest[i]) {
            memset(part, 0, sizeof(word) * (size_t)nw);
            part[i] = rest[i] & (~rest[i] + 1);
            grow_words(part, whole, west_w, east_w, front, next, nw, cols, -1);
            PyObject *v = from_words(part, nw, s.bytes);
            if (!v || PyList_Append(out, v) < 0) {
                Py_XDECREF(v);
                goto fail;
            }
            Py_DECREF(v);
            for (Py_ssize_t j = i; j < nw; j++) rest[j] &= ~part[j];
        }
    }
    scratch_free(&s);
    return out;
fail:
    Py_XDECREF(out);
    scratch_free(&s);
    return NULL;
}

static PyObject *py_cells(PyObject *self, PyObject *mask) {
    Py_ssize_t nw = words_of(mask);
    if (nw < 0) return NULL;
    if (nw == 0) return PyList_New(0);
    Scratch s;
    if (scratch_init(&s, nw, 1) < 0) return NULL;
    PyObject *out = NULL;
    if (to_words(mask, s.words, nw, s.bytes) < 0) goto done;
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < nw; i++) count += __builtin_popcountll(s.words[i]);
    out = PyList_New(count);
    if (!out) goto done;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < nw; i++)
        for (word w = s.words[i]; w; w &= w - 1) {
            PyObject *v = PyLong_FromSsize_t(i * 64 + __builtin_ctzll(w));
            if (!v) {
                Py_CLEAR(out);
                goto done;
            }
            PyList_SET_ITEM(out, k++, v);
        }
done:
    scratch_free(&s);
    return out;
}


/* ---- island shapes ------------------------------------------------------------------ */

/* The search of `shapes`: cells renumbered 0..k-1 in increasing order (so "the lowest
 * untried cell" is the same cell as on the grid), masks of `kw` words over them. */
typedef struct {
    Py_ssize_t k, kw;
    const int *nbr;         /* 4 per cell: its neighbours among the k cells, -1 for none */
    int *chosen;            /* the cells taken so far (as renumbered) */
    const Py_ssize_t *cell; /* renumbered -> grid cell */
    word *frames;           /* per depth: untried and seen, kw words each */
    word *start;            /* the start mask on the grid, nw words */
    word *shape;            /* scratch for an output shape, nw words */
    unsigned char *bytes;
    Py_ssize_t nw;
    long nodes, cap;
    PyObject *out, *check;
} Shapes;

/* One level of Redelmeier's method, as `completions._enumerate` wrote it in Python:
 * 1 go on, 0 too many (nodes or shapes), -1 an error (the check raised). */
static int shapes_grow(Shapes *sh, int depth, long left) {
    sh->nodes--;
    if (sh->nodes < 0) return 0;
    if (sh->check != Py_None && !(sh->nodes & 4095)) {
        PyObject *r = PyObject_CallNoArgs(sh->check);
        if (!r) return -1;
        Py_DECREF(r);
    }
    Py_ssize_t kw = sh->kw;
    word *untried = sh->frames + (Py_ssize_t)depth * 2 * kw, *seen = untried + kw;
    word *next = seen + kw, *next_seen = next + kw;
    for (Py_ssize_t i = 0; i < kw; i++) {
        while (untried[i]) {
            word low = untried[i] & (~untried[i] + 1);
            untried[i] ^= low;
            int b = (int)(i * 64 + __builtin_ctzll(low));
            sh->chosen[depth] = b;
            if (left == 1) {
                memcpy(sh->shape, sh->start, sizeof(word) * (size_t)sh->nw);
                for (int d = 0; d <= depth; d++) {
                    Py_ssize_t c = sh->cell[sh->chosen[d]];
                    sh->shape[c / 64] |= (word)1 << (c % 64);
                }
                PyObject *v = from_words(sh->shape, sh->nw, sh->bytes);
                if (!v || PyList_Append(sh->out, v) < 0) {
                    Py_XDECREF(v);
                    return -1;
                }
                Py_DECREF(v);
                if (PyList_GET_SIZE(sh->out) > sh->cap) return 0;
                continue;
            }
            memcpy(next, untried, sizeof(word) * (size_t)kw);
            memcpy(next_seen, seen, sizeof(word) * (size_t)kw);
            for (int d = 0; d < 4; d++) {
                int w = sh->nbr[4 * b + d];
                if (w < 0) continue;
                word bit = (word)1 << (w % 64);
                if (!(seen[w / 64] & bit)) {
                    next[w / 64] |= bit;
                    next_seen[w / 64] |= bit;
                }
            }
            int r = shapes_grow(sh, depth + 1, left - 1);
            if (r <= 0) return r;
        }
    }
    return 1;
}

static int by_cell(const void *a, const void *b) {
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return x < y ? -1 : x > y;
}

static PyObject *py_shapes(PyObject *self, PyObject *args) {
    Py_ssize_t rows, cols;
    PyObject *start, *allowed, *check;
    long need, cap;
    if (!PyArg_ParseTuple(args, "nnOOllO:shapes", &rows, &cols, &start, &allowed, &need, &cap,
                          &check))
        return NULL;
    if (rows < 1 || cols < 1) {
        PyErr_SetString(PyExc_ValueError, "rows and cols must be at least 1");
        return NULL;
    }
    if (need <= 0) return Py_BuildValue("[O]", start);
    Py_ssize_t nw = (rows * cols + 63) / 64, n1 = words_of(start), n2 = words_of(allowed);
    if (n1 < 0 || n2 < 0) return NULL;
    if (n1 > nw || n2 > nw) {
        PyErr_SetString(PyExc_ValueError, "a mask has cells beyond the grid");
        return NULL;
    }
    PyObject *out = NULL;
    Shapes sh = {0};
    Py_ssize_t *cell = NULL, *start_cells = NULL;
    int *nbr = NULL, *chosen = NULL;
    word *grid_words = PyMem_Malloc(sizeof(word) * (size_t)(3 * nw));
    unsigned char *bytes = PyMem_Malloc((size_t)nw * 8);
    if (!grid_words || !bytes) {
        PyErr_NoMemory();
        goto done;
    }
    word *start_w = grid_words, *allowed_w = start_w + nw, *shape = allowed_w + nw;
    if (to_words(start, start_w, nw, bytes) < 0 || to_words(allowed, allowed_w, nw, bytes) < 0)
        goto done;
    /* the cells that matter: the start's and the allowed ones, renumbered in order */
    Py_ssize_t k = 0, ks = 0;
    for (Py_ssize_t i = 0; i < nw; i++) {
        k += __builtin_popcountll(start_w[i] | allowed_w[i]);
        ks += __builtin_popcountll(start_w[i]);
    }
    cell = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(k + 1));
    start_cells = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(ks + 1));
    nbr = PyMem_Malloc(sizeof(int) * (size_t)(4 * k + 1));
    chosen = PyMem_Malloc(sizeof(int) * (size_t)(need + 1));
    Py_ssize_t kw = (k + 63) / 64 + 1;
    sh.frames = PyMem_Calloc((size_t)(2 * (need + 1) * kw), sizeof(word));
    if (!cell || !start_cells || !nbr || !chosen || !sh.frames) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t j = 0, js = 0;
    for (Py_ssize_t i = 0; i < nw; i++) {
        for (word w = start_w[i] | allowed_w[i]; w; w &= w - 1) {
            Py_ssize_t c = i * 64 + __builtin_ctzll(w);
            if (start_w[i] >> (c % 64) & 1) start_cells[js++] = j;
            cell[j++] = c;
        }
    }
    for (Py_ssize_t a = 0; a < k; a++) {
        Py_ssize_t c = cell[a], r = c / cols, x = c % cols;
        Py_ssize_t around[4] = {r > 0 ? c - cols : -1, x > 0 ? c - 1 : -1,
                                x < cols - 1 ? c + 1 : -1, r < rows - 1 ? c + cols : -1};
        for (int d = 0; d < 4; d++) {
            nbr[4 * a + d] = -1;
            if (around[d] < 0) continue;
            Py_ssize_t *hit = bsearch(&around[d], cell, (size_t)k, sizeof(Py_ssize_t), by_cell);
            if (hit) nbr[4 * a + d] = (int)(hit - cell);
        }
    }
    /* the first frame: untried = the start's neighbours that are allowed and not its own,
       seen = the start and those */
    word *untried = sh.frames, *seen = untried + kw;
    for (Py_ssize_t a = 0; a < ks; a++) {
        Py_ssize_t s0 = start_cells[a];
        seen[s0 / 64] |= (word)1 << (s0 % 64);
    }
    for (Py_ssize_t a = 0; a < ks; a++)
        for (int d = 0; d < 4; d++) {
            int w = nbr[4 * start_cells[a] + d];
            if (w < 0) continue;
            Py_ssize_t c = cell[w];
            if ((allowed_w[c / 64] >> (c % 64) & 1) && !(start_w[c / 64] >> (c % 64) & 1))
                untried[w / 64] |= (word)1 << (w % 64);
        }
    for (Py_ssize_t i = 0; i < kw; i++) seen[i] |= untried[i];
    sh.k = k;
    sh.kw = kw;
    sh.nbr = nbr;
    sh.chosen = chosen;
    sh.cell = cell;
    sh.start = start_w;
    sh.shape = shape;
    sh.bytes = bytes;
    sh.nw = nw;
    sh.nodes = cap * 20;
    sh.cap = cap;
    sh.check = check;
    sh.out = PyList_New(0);
    if (!sh.out) goto done;
    int r = shapes_grow(&sh, 0, need);
    if (r < 0) {
        Py_CLEAR(sh.out);
        goto done;
    }
    if (r == 0) {
        Py_CLEAR(sh.out);
        out = Py_NewRef(Py_None);
        goto done;
    }
    out = sh.out;
    sh.out = NULL;
done:
    Py_XDECREF(sh.out);
    PyMem_Free(grid_words);
    PyMem_Free(bytes);
    PyMem_Free(cell);
    PyMem_Free(start_cells);
    PyMem_Free(nbr);
    PyMem_Free(chosen);
    PyMem_Free(sh.frames);
    return out;
}

/* ---- cut cells of the sea ----------------------------------------------------------- */

static PyObject *py_cuts(PyObject *self, PyObject *args) {
    Py_ssize_t rows, cols, root;
    PyObject *domain, *black;
    if (!PyArg_ParseTuple(args, "nnOOn:cuts", &rows, &cols, &domain, &black, &root)) return NULL;
    if (rows < 1 || cols < 1) {
        PyErr_SetString(PyExc_ValueError, "rows and cols must be at least 1");
        return NULL;
    }
    Py_ssize_t n = rows * cols, nw = (n + 63) / 64, n1 = words_of(domain), n2 = words_of(black);
    if (n1 < 0 || n2 < 0) return NULL;
    if (n1 > nw || n2 > nw || root < 0 || root >= n) {
        PyErr_SetString(PyExc_ValueError, "a cell beyond the grid");
        return NULL;
    }
    PyObject *out = NULL;
    word *w = PyMem_Calloc((size_t)(3 * nw), sizeof(word));
    unsigned char *bytes = PyMem_Malloc((size_t)nw * 8);
    int *disc = PyMem_Malloc(sizeof(int) * (size_t)n), *low = PyMem_Malloc(sizeof(int) * (size_t)n);
    int *parent = PyMem_Malloc(sizeof(int) * (size_t)n), *stack = PyMem_Malloc(sizeof(int) * (size_t)n);
    unsigned char *edge = PyMem_Malloc((size_t)n), *dark = PyMem_Malloc((size_t)n);
    if (!w || !bytes || !disc || !low || !parent || !stack || !edge || !dark) {
        PyErr_NoMemory();
        goto done;
    }
    word *in = w, *blk = in + nw, *forced = blk + nw;
    if (to_words(domain, in, nw, bytes) < 0 || to_words(black, blk, nw, bytes) < 0) goto done;
#define HAS(m, c) ((m)[(c) / 64] >> ((c) % 64) & 1)
    if (!HAS(in, root)) {
        out = PyLong_FromLong(0);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) disc[i] = -1;
    /* Tarjan's walk from `root`, iteratively: `edge` is where each cell's neighbours
       resume (up, left, right, down), `dark` whether its subtree holds a black cell */
    int counter = 1, top = 0;
    disc[root] = low[root] = 0;
    dark[root] = 1;
    parent[root] = -1;
    edge[root] = 0;
    stack[top++] = (int)root;
    while (top) {
        int v = stack[top - 1];
        if (edge[v] < 4) {
            int d = edge[v]++, r = (int)(v / cols), x = (int)(v % cols), u;
            if (d == 0) u = r > 0 ? v - (int)cols : -1;
            else if (d == 1) u = x > 0 ? v - 1 : -1;
            else if (d == 2) u = x < cols - 1 ? v + 1 : -1;
            else u = r < rows - 1 ? v + (int)cols : -1;
            if (u < 0 || !HAS(in, u)) continue;
            if (disc[u] >= 0) {
                if (u != parent[v] && disc[u] < low[v]) low[v] = disc[u];
                continue;
            }
            disc[u] = low[u] = counter++;
            dark[u] = (unsigned char)HAS(blk, u);
            parent[u] = v;
            edge[u] = 0;
            stack[top++] = u;
            continue;
        }
        top--;
        int p = parent[v];
        if (p < 0) continue;
        if (low[v] < low[p]) low[p] = low[v];
        if (dark[v]) {
            dark[p] = 1;
            /* only `p` joins this subtree's black cells to the root (outside it) */
            if (low[v] >= disc[p] && p != root) forced[p / 64] |= (word)1 << (p % 64);
        }
    }
#undef HAS
    out = from_words(forced, nw, bytes);
done:
    PyMem_Free(w);
    PyMem_Free(bytes);
    PyMem_Free(disc);
    PyMem_Free(low);
    PyMem_Free(parent);
    PyMem_Free(stack);
    PyMem_Free(edge);
    PyMem_Free(dark);
    return out;
}

/* ---- dilation ----------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Py_ssize_t cols, nw; /* nw: the words of `full` */
    word *not_first_col, *not_last_col, *full; /* nw words each */
} Dilation;

static void Dilation_dealloc(Dilation *d) {
    PyMem_Free(d->not_first_col);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

/* mask | ((mask & not_first_col) >> 1) | ((mask & not_last_col) << 1) | (mask >> cols)
   | ((mask << cols) & full), word by word */
static PyObject *Dilation_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames) {
    Dilation *d = (Dilation *)self;
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames && PyTuple_GET_SIZE(kwnames))) {
        PyErr_SetString(PyExc_TypeError, "dilate(mask) takes one mask");
        return NULL;
    }
    PyObject *mask = args[0];
    Py_ssize_t nm = words_of(mask);
    if (nm < 0) return NULL;
    Py_ssize_t nw = nm > d->nw ? nm : d->nw, q = d->cols / 64;
    int r = (int)(d->cols % 64);
    Scratch s;
    if (scratch_init(&s, nw, 4) < 0) return NULL;
    word *m = s.words, *west = m + nw, *east = west + nw, *out = east + nw;
    PyObject *result = NULL;
    if (to_words(mask, m, nw, s.bytes) < 0) goto done;
    for (Py_ssize_t i = 0; i < nw; i++) {
        west[i] = i < d->nw ? m[i] & d->not_first_col[i] : 0;
        east[i] = i < d->nw ? m[i] & d->not_last_col[i] : 0;
    }
    for (Py_ssize_t i = 0; i < nw; i++) {
        word up = shl_at(m, i, q, r);
        out[i] = m[i] | shr_at(west, nw, i, 0, 1) | shl_at(east, i, 0, 1) | shr_at(m, nw, i, q, r) |
                 (i < d->nw ? up & d->full[i] : 0);
    }
    result = from_words(out, nw, s.bytes);
done:
    scratch_free(&s);
    return result;
}

static PyObject *Dilation_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    Py_ssize_t cols;
    PyObject *first, *last, *full;
    static char *kwlist[] = {"cols", "not_first_col", "not_last_col", "full", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOOO:Dilation", kwlist, &cols, &first, &last,
                                     &full))
        return NULL;
    PyObject *masks[3] = {first, last, full};
    Py_ssize_t nw = widest(masks, 3, cols);
    if (nw < 0) return NULL;
    Dilation *d = (Dilation *)type->tp_alloc(type, 0);
    if (!d) return NULL;
    d->vectorcall = Dilation_vectorcall;
    d->cols = cols;
    d->nw = nw;
    d->not_first_col = PyMem_Calloc((size_t)(3 * nw), sizeof(word));
    unsigned char *bytes = PyMem_Malloc((size_t)nw * 8);
    if (!d->not_first_col || !bytes) {
        PyMem_Free(bytes);
        Py_DECREF(d);
        return PyErr_NoMemory();
    }
    d->not_last_col = d->not_first_col + nw;
    d->full = d->not_last_col + nw;
    int bad = to_words(first, d->not_first_col, nw, bytes) < 0 ||
              to_words(last, d->not_last_col, nw, bytes) < 0 || to_words(full, d->full, nw, bytes) < 0;
    PyMem_Free(bytes);
    if (bad) {
        Py_DECREF(d);
        return NULL;
    }
    return (PyObject *)d;
}

static PyTypeObject DilationType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nurikabe._cgrid.Dilation",
    .tp_basicsize = sizeof(Dilation),
    .tp_dealloc = (destructor)Dilation_dealloc,
    .tp_vectorcall_offset = offsetof(Dilation, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Dilation(cols, not_first_col, not_last_col, full)(mask) -> mask with its "
              "neighbours",
    .tp_new = Dilation_new,
};

/* ---- filters of an island's list of shapes (`logic.techniques.completions`) ----------
 *
 * Both take a list of shapes (ints), `alive` (an int: bit n for the list's shape n; None:
 * every shape) and the masks of a position, copied into words once; each shape is then
 * tested in words, without making an int. They answer the set of the shapes kept, as a
 * mask over the list's positions. A shape wider than `full` is an error. */

typedef struct {
    Py_ssize_t nw, q, cols;
    int r;
    word *m;        /* the masks of the call, nw words each (see Filter_masks) */
    unsigned char *bytes;
    word *alive;    /* the set tested, one bit per shape, NULL: all */
    Py_ssize_t nalive;
    word *kept;     /* the answer, as many words as `alive` needs */
} Filter;

enum { F_COMP, F_RING, F_WORK, F_WEST, F_EAST, F_FRONT, F_NEXT, F_REGION, F_TEMP, F_FULL,
       F_NOT_FIRST, F_NOT_LAST, F_A, F_B, F_C, F_D, F_E, F_COUNT };

static word *fm(Filter *f, int k) { return f->m + (Py_ssize_t)k * f->nw; }

/* The masks of the call into words (`given`: F_FULL, F_NOT_FIRST, F_NOT_LAST, then the
 * filter's own from F_A on), and `alive`; -1 with an error set. */
static int filter_init(Filter *f, PyObject *shapes, PyObject *alive, PyObject **given, int count,
                       Py_ssize_t cols) {
    memset(f, 0, sizeof *f);
    if (!PyList_Check(shapes)) {
        PyErr_SetString(PyExc_TypeError, "shapes must be a list");
        return -1;
    }
    if (cols < 1) {
        PyErr_SetString(PyExc_ValueError, "cols must be at least 1");
        return -1;
    }
    Py_ssize_t nw = words_of(given[0]); /* full: every other mask lies within it */
    if (nw < 0) return -1;
    if (nw < 1) nw = 1;
    for (int k = 1; k < count; k++) {
        Py_ssize_t n = words_of(given[k]);
        if (n < 0) return -1;
        if (n > nw) {
            PyErr_SetString(PyExc_ValueError, "a mask lies outside the grid");
            return -1;
        }
    }
    Py_ssize_t n = PyList_GET_SIZE(shapes);
    f->nw = nw;
    f->cols = cols;
    f->q = cols / 64;
    f->r = (int)(cols % 64);
    f->nalive = (n + 63) / 64 + 1;
    Py_ssize_t bytes = 8 * (nw > f->nalive ? nw : f->nalive);
    f->m = PyMem_Calloc((size_t)(nw * F_COUNT + 2 * f->nalive), sizeof(word));
    f->bytes = PyMem_Malloc((size_t)bytes);
    if (!f->m || !f->bytes) {
        PyErr_NoMemory();
        return -1;
    }
    f->kept = f->m + nw * F_COUNT;
    for (int k = 0; k < count; k++)
        if (to_words(given[k], fm(f, F_FULL + k), nw, f->bytes) < 0) return -1;
    if (alive != Py_None) {
        Py_ssize_t na = words_of(alive);
        if (na < 0) return -1;
        f->alive = f->kept + f->nalive;
        if (na > f->nalive) {
            PyErr_SetString(PyExc_ValueError, "alive names shapes beyond the list");
            return -1;
        }
        if (na > 0 && to_words(alive, f->alive, na, f->bytes) < 0) return -1;
    }
    return 0;
}

static void filter_free(Filter *f) {
    PyMem_Free(f->m);
    PyMem_Free(f->bytes);
}

/* Shape n of the list into F_COMP, and its border into F_RING; -1 with an error set. */
static int filter_shape(Filter *f, PyObject *shapes, Py_ssize_t n) {
    PyObject *shape = PyList_GET_ITEM(shapes, n);
    Py_ssize_t need = words_of(shape);
    if (need < 0) return -1;
    if (need > f->nw) {
        PyErr_SetString(PyExc_ValueError, "a shape lies outside the grid");
        return -1;
    }
    Py_ssize_t nw = f->nw, q = f->q;
    int r = f->r;
    word *c = fm(f, F_COMP), *ring = fm(f, F_RING), *west = fm(f, F_WEST), *east = fm(f, F_EAST);
    const word *full = fm(f, F_FULL), *nf = fm(f, F_NOT_FIRST), *nl = fm(f, F_NOT_LAST);
    if (to_words(shape, c, nw, f->bytes) < 0) return -1;
    for (Py_ssize_t i = 0; i < nw; i++) {
        west[i] = c[i] & nf[i];
        east[i] = c[i] & nl[i];
    }
    for (Py_ssize_t i = 0; i < nw; i++) {
        word grown = shr_at(west, nw, i, 0, 1) | shl_at(east, i, 0, 1) | shr_at(c, nw, i, q, r) |
                     (shl_at(c, i, q, r) & full[i]);
        ring[i] = grown & ~c[i];
    }
    return 0;
}

/* Whether `m` holds every cell of some 2x2 block (`Grid.pool_corners` is not 0). */
static int filter_pooled(Filter *f, const word *m) {
    Py_ssize_t nw = f->nw;
    word *pairs = fm(f, F_TEMP);
    const word *nl = fm(f, F_NOT_LAST);
    for (Py_ssize_t i = 0; i < nw; i++) pairs[i] = m[i] & shr_at(m, nw, i, 0, 1) & nl[i];
    for (Py_ssize_t i = 0; i < nw; i++)
        if (pairs[i] & shr_at(pairs, nw, i, f->q, f->r)) return 1;
    return 0;
}

/* The answer as an int (a mask over the list's positions). */
static PyObject *filter_answer(Filter *f) { return from_words(f->kept, f->nalive, f->bytes); }

static int filter_tests(const Filter *f, Py_ssize_t n) {
    return f->alive == NULL || (f->alive[n / 64] >> (n % 64) & 1);
}

/* keep_shapes(shapes, alive, full, not_first_col, not_last_col, forbidden, held, white,
 * black, dead, cols): the shapes that take no cell of `forbidden`, hold every cell of
 * `held`, border no white cell, and leave no 2x2 block all black once their border and
 * the cells of `dead` they do not take are black (`completions._Index.tested`). */
static PyObject *py_keep_shapes(PyObject *self, PyObject *args) {
    PyObject *shapes, *alive, *given[8];
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOn:keep_shapes", &shapes, &alive, &given[0], &given[1],
                          &given[2], &given[3], &given[4], &given[5], &given[6], &given[7], &cols))
        return NULL;
    Filter f;
    PyObject *out = NULL;
    if (filter_init(&f, shapes, alive, given, 8, cols) < 0) goto done;
    Py_ssize_t nw = f.nw;
    const word *forbidden = fm(&f, F_A), *held = fm(&f, F_B), *white = fm(&f, F_C),
               *black = fm(&f, F_D), *dead = fm(&f, F_E);
    word *c = fm(&f, F_COMP), *ring = fm(&f, F_RING), *work = fm(&f, F_WORK);
    for (Py_ssize_t n = 0; n < PyList_GET_SIZE(shapes); n++) {
        if (!filter_tests(&f, n)) continue;
        if (filter_shape(&f, shapes, n) < 0) goto done;
        int ok = 1;
        for (Py_ssize_t i = 0; i < nw && ok; i++)
            if (c[i] & forbidden[i] || (c[i] & held[i]) != held[i] || ring[i] & white[i]) ok = 0;
        if (!ok) continue;
        for (Py_ssize_t i = 0; i < nw; i++) work[i] = black[i] | ring[i] | (dead[i] & ~c[i]);
        if (!filter_pooled(&f, work)) f.kept[n / 64] |= (word)1 << (n % 64);
    }
    out = filter_answer(&f);
done:
    filter_free(&f);
    return out;
}

/* sea_shapes(shapes, alive, full, not_first_col, not_last_col, black, dead, domain, base,
 * cols): the shapes after which the sea can still connect: the black cells, the shape's
 * border and the cells of `dead` it does not take all lie in the piece of `domain`
 * without the shape that holds `base` (`completions._sea_survives` with a `base`). */
static PyObject *py_sea_shapes(PyObject *self, PyObject *args) {
    PyObject *shapes, *alive, *given[7];
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOn:sea_shapes", &shapes, &alive, &given[0], &given[1],
                          &given[2], &given[3], &given[4], &given[5], &given[6], &cols))
        return NULL;
    Filter f;
    PyObject *out = NULL;
    if (filter_init(&f, shapes, alive, given, 7, cols) < 0) goto done;
    Py_ssize_t nw = f.nw, q = f.q;
    int r = f.r;
    const word *black = fm(&f, F_A), *dead = fm(&f, F_B), *domain = fm(&f, F_C),
               *base = fm(&f, F_D), *nf = fm(&f, F_NOT_FIRST), *nl = fm(&f, F_NOT_LAST);
    word *c = fm(&f, F_COMP), *ring = fm(&f, F_RING), *sea = fm(&f, F_WORK),
         *within = fm(&f, F_TEMP), *west = fm(&f, F_WEST), *east = fm(&f, F_EAST),
         *front = fm(&f, F_FRONT), *next = fm(&f, F_NEXT), *region = fm(&f, F_REGION);
    for (Py_ssize_t n = 0; n < PyList_GET_SIZE(shapes); n++) {
        if (!filter_tests(&f, n)) continue;
        if (filter_shape(&f, shapes, n) < 0) goto done;
        /* filter_shape used F_WEST and F_EAST as scratch: set them now */
        int open = 0;
        for (Py_ssize_t i = 0; i < nw; i++) {
            sea[i] = black[i] | ring[i] | (dead[i] & ~c[i]);
            within[i] = domain[i] & ~c[i];
            west[i] = within[i] & nl[i];
            east[i] = within[i] & nf[i];
            front[i] = region[i] = base[i];
            if (sea[i] & ~region[i]) open = 1;
        }
        /* flood from the whole base a layer at a time until the sea is reached */
        while (open) {
            int grew = 0;
            for (Py_ssize_t i = 0; i < nw; i++) {
                word w = (shr_at(front, nw, i, 0, 1) & west[i]) | (shl_at(front, i, 0, 1) & east[i]) |
                         ((shr_at(front, nw, i, q, r) | shl_at(front, i, q, r)) & within[i]);
                next[i] = w & ~region[i];
                if (next[i]) grew = 1;
            }
            if (!grew) break; /* the flood stopped short of some sea cell */
            open = 0;
            for (Py_ssize_t i = 0; i < nw; i++) {
                region[i] |= next[i];
                front[i] = next[i];
                if (sea[i] & ~region[i]) open = 1;
            }
        }
        if (!open) f.kept[n / 64] |= (word)1 << (n % 64);
    }
    out = filter_answer(&f);
done:
    filter_free(&f);
    return out;
}

/* ---- layers of an island's reach ----------------------------------------------------- */

/* One layer: the cells of `within` next to `front` and not in `region`, into `next`;
 * whether there are any, and their number in *count when count is not NULL. */
static int layer_words(const word *front, const word *region, const word *within,
                       const word *west, const word *east, word *next, Py_ssize_t nw,
                       Py_ssize_t cols, long *count) {
    Py_ssize_t q = cols / 64;
    int r = (int)(cols % 64), any = 0;
    long n = 0;
    for (Py_ssize_t i = 0; i < nw; i++) {
        word w = (shr_at(front, nw, i, 0, 1) & west[i]) | (shl_at(front, i, 0, 1) & east[i]) |
                 ((shr_at(front, nw, i, q, r) | shl_at(front, i, q, r)) & within[i]);
        w &= ~region[i];
        next[i] = w;
        if (w) {
            any = 1;
            if (count) n += __builtin_popcountll(w);
        }
    }
    if (count) *count = n;
    return any;
}

/* How many cells of `within` lie within `need` layers of `start`, counting stopped once
 * it reaches `need` (`bottlenecks._layer_count`); `region`, `front` and `next` are
 * scratch. */
static long layer_count_words(const word *start, const word *within, const word *west,
                              const word *east, word *region, word *front, word *next,
                              Py_ssize_t nw, Py_ssize_t cols, long need) {
    long count = 0, grown;
    for (Py_ssize_t i = 0; i < nw; i++) region[i] = front[i] = start[i];
    for (long k = 0; k < need; k++) {
        if (!layer_words(front, region, within, west, east, next, nw, cols, &grown)) break;
        count += grown;
        if (count >= need) return count;
        for (Py_ssize_t i = 0; i < nw; i++) {
            region[i] |= next[i];
            front[i] = next[i];
        }
    }
    return count;
}

static PyObject *py_bottleneck(PyObject *self, PyObject *args) {
    PyObject *masks[5];
    long need;
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "OOOOOln:bottleneck", &masks[0], &masks[1], &masks[2], &masks[3],
                          &masks[4], &need, &cols))
        return NULL;
    Py_ssize_t nw = widest(masks, 5, cols);
    if (nw < 0) return NULL;
    if (need <= 0) return PyLong_FromLong(-1);
    Scratch s;
    if (scratch_init(&s, nw, 12) < 0) return NULL;
    word *start = s.words, *within = start + nw, *unknown = within + nw, *nf = unknown + nw,
         *nl = nf + nw, *west = nl + nw, *east = west + nw, *region = east + nw,
         *front = region + nw, *next = front + nw, *cand = next + nw, *seen = cand + nw;
    PyObject *out = NULL;
    long *counts = NULL;
    PyObject *given[5] = {masks[0], masks[1], masks[2], masks[3], masks[4]};
    word *into[5] = {start, within, unknown, nf, nl};
    for (int k = 0; k < 5; k++)
        if (to_words(given[k], into[k], nw, s.bytes) < 0) goto done;
    for (Py_ssize_t i = 0; i < nw; i++) {
        west[i] = within[i] & nl[i];
        east[i] = within[i] & nf[i];
        region[i] = front[i] = start[i];
        cand[i] = 0;
    }
    /* the layers of the reach by distance, each kept as the cells first reached then */
    counts = PyMem_Malloc(sizeof(long) * (size_t)need);
    word *layers = PyMem_Malloc(sizeof(word) * (size_t)(need * nw));
    if (!counts || !layers) {
        PyMem_Free(layers);
        PyErr_NoMemory();
        goto done;
    }
    long nlayers = 0, total = 0;
    while (nlayers < need) {
        word *layer = layers + nlayers * nw;
        if (!layer_words(front, region, within, west, east, layer, nw, cols, &counts[nlayers]))
            break;
        total += counts[nlayers];
        for (Py_ssize_t i = 0; i < nw; i++) {
            region[i] |= layer[i];
            front[i] = layer[i];
        }
        nlayers++;
    }
    /* losing a cell at distance d costs at most the cells beyond d */
    long beyond = total;
    for (long k = 0; k < nlayers; k++) {
        beyond -= counts[k];
        if (total - 1 - beyond < need)
            for (Py_ssize_t i = 0; i < nw; i++) cand[i] |= layers[k * nw + i];
    }
    PyMem_Free(layers);
    long found = -1;
    for (Py_ssize_t i = 0; i < nw && found < 0; i++) {
        word w = cand[i] & unknown[i];
        while (w && found < 0) {
            int b = __builtin_ctzll(w);
            w &= w - 1;
            word bit = (word)1 << b, keep[3] = {within[i], west[i], east[i]};
            within[i] &= ~bit;
            west[i] &= ~bit;
            east[i] &= ~bit;
            if (layer_count_words(start, within, west, east, region, front, seen, nw, cols, need) <
                need)
                found = (long)(i * 64 + b);
            within[i] = keep[0];
            west[i] = keep[1];
            east[i] = keep[2];
        }
    }
    out = PyLong_FromLong(found);
done:
    PyMem_Free(counts);
    scratch_free(&s);
    return out;
}

static PyObject *py_reaches(PyObject *self, PyObject *args) {
    PyObject *masks[6];
    long steps;
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "OOOOOOln:reaches", &masks[0], &masks[1], &masks[2], &masks[3],
                          &masks[4], &masks[5], &steps, &cols))
        return NULL;
    Py_ssize_t nw = widest(masks, 6, cols);
    if (nw < 0) return NULL;
    Scratch s;
    if (scratch_init(&s, nw, 9) < 0) return NULL;
    word *start = s.words, *within = start + nw, *blocked = within + nw, *target = blocked + nw,
         *nf = target + nw, *nl = nf + nw, *region = nl + nw, *front = region + nw,
         *next = front + nw;
    PyObject *out = NULL;
    word *into[6] = {start, within, blocked, target, nf, nl};
    for (int k = 0; k < 6; k++)
        if (to_words(masks[k], into[k], nw, s.bytes) < 0) goto done;
    /* west and east reuse nf and nl: each is only read through its own word */
    for (Py_ssize_t i = 0; i < nw; i++) {
        within[i] &= ~blocked[i];
        nl[i] &= within[i];
        nf[i] &= within[i];
        region[i] = front[i] = start[i];
    }
    int hit = 0;
    for (long k = 0; k < steps && !hit; k++) {
        if (!layer_words(front, region, within, nl, nf, next, nw, cols, NULL)) break;
        for (Py_ssize_t i = 0; i < nw; i++) {
            if (next[i] & target[i]) hit = 1;
            region[i] |= next[i];
            front[i] = next[i];
        }
    }
    out = PyBool_FromLong(hit);
done:
    scratch_free(&s);
    return out;
}

/* priced_reach(start, allowed, orphans, sizes, steps, not_first_col, not_last_col, cols):
 * Dijkstra by layers where a cell costs one and a clueless white region costs its size:
 * a region first touched by the layer of cost k arrives whole at cost k - 1 + its size
 * (`logic.state.Analysis.reach`). */
static PyObject *py_priced_reach(PyObject *self, PyObject *args) {
    PyObject *start_o, *allowed_o, *orphans, *sizes, *nf_o, *nl_o;
    long steps;
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "OOO!O!lOOn:priced_reach", &start_o, &allowed_o, &PyList_Type,
                          &orphans, &PyList_Type, &sizes, &steps, &nf_o, &nl_o, &cols))
        return NULL;
    Py_ssize_t norph = PyList_GET_SIZE(orphans);
    if (PyList_GET_SIZE(sizes) != norph) {
        PyErr_SetString(PyExc_ValueError, "orphans and sizes differ in length");
        return NULL;
    }
    PyObject *masks[4] = {start_o, allowed_o, nf_o, nl_o};
    Py_ssize_t nw = widest(masks, 4, cols);
    if (nw < 0) return NULL;
    for (Py_ssize_t k = 0; k < norph; k++) {
        Py_ssize_t n = words_of(PyList_GET_ITEM(orphans, k));
        if (n < 0) return NULL;
        if (n > nw) nw = n;
    }
    Py_ssize_t total = nw * (9 + norph);
    word *w = PyMem_Calloc((size_t)total, sizeof(word));
    unsigned char *bytes = PyMem_Malloc((size_t)nw * 8);
    long *size = PyMem_Malloc(sizeof(long) * (size_t)(norph + 1));
    /* pending arrivals: (cost, orphan), at most one per orphan and cost */
    long *at = NULL, *who = NULL;
    Py_ssize_t npend = 0, cap = 0;
    PyObject *out = NULL;
    if (!w || !bytes || !size) {
        PyErr_NoMemory();
        goto done;
    }
    word *region = w, *within = region + nw, *nf = within + nw, *nl = nf + nw, *west = nl + nw,
         *east = west + nw, *front = east + nw, *next = front + nw, *owhite = next + nw,
         *parts = owhite + nw;
    if (to_words(start_o, region, nw, bytes) < 0 || to_words(allowed_o, within, nw, bytes) < 0 ||
        to_words(nf_o, nf, nw, bytes) < 0 || to_words(nl_o, nl, nw, bytes) < 0)
        goto done;
    for (Py_ssize_t k = 0; k < norph; k++) {
        if (to_words(PyList_GET_ITEM(orphans, k), parts + k * nw, nw, bytes) < 0) goto done;
        size[k] = PyLong_AsLong(PyList_GET_ITEM(sizes, k));
        if (size[k] == -1 && PyErr_Occurred()) goto done;
        for (Py_ssize_t i = 0; i < nw; i++) owhite[i] |= parts[k * nw + i];
    }
    for (Py_ssize_t i = 0; i < nw; i++) {
        west[i] = within[i] & nl[i];
        east[i] = within[i] & nf[i];
        front[i] = region[i];
    }
    long cost = 0;
    int moving = 1; /* a frontier, or arrivals to come */
    while (cost < steps && moving) {
        cost++;
        layer_words(front, region, within, west, east, next, nw, cols, NULL);
        int entered = 0;
        for (Py_ssize_t i = 0; i < nw; i++)
            if (next[i] & owhite[i]) entered = 1;
        if (entered) {
            for (Py_ssize_t k = 0; k < norph; k++) {
                const word *part = parts + k * nw;
                long when = cost - 1 + size[k];
                int touched = 0;
                for (Py_ssize_t i = 0; i < nw && !touched; i++)
                    if (next[i] & part[i]) touched = 1;
                if (!touched || when > steps) continue;
                if (npend == cap) {
                    cap = cap ? 2 * cap : 16;
                    long *a = PyMem_Realloc(at, sizeof(long) * (size_t)cap);
                    if (a) at = a;
                    long *b = a ? PyMem_Realloc(who, sizeof(long) * (size_t)cap) : NULL;
                    if (b) who = b;
                    if (!a || !b) {
                        PyErr_NoMemory();
                        goto done;
                    }
                }
                at[npend] = when;
                who[npend++] = (long)k;
            }
            for (Py_ssize_t i = 0; i < nw; i++) next[i] &= ~owhite[i];
        }
        /* the regions arriving now, whole; the pending list keeps the later ones */
        Py_ssize_t kept = 0;
        for (Py_ssize_t e = 0; e < npend; e++) {
            if (at[e] == cost) {
                const word *part = parts + who[e] * nw;
                for (Py_ssize_t i = 0; i < nw; i++) next[i] |= part[i] & ~region[i];
            } else {
                at[kept] = at[e];
                who[kept++] = who[e];
            }
        }
        npend = kept;
        int any = 0;
        for (Py_ssize_t i = 0; i < nw; i++) {
            region[i] |= next[i];
            front[i] = next[i];
            if (next[i]) any = 1;
        }
        moving = any || npend > 0;
    }
    out = from_words(region, nw, bytes);
done:
    PyMem_Free(w);
    PyMem_Free(bytes);
    PyMem_Free(size);
    PyMem_Free(at);
    PyMem_Free(who);
    return out;
}

/* ---- every island's surroundings at once ------------------------------------------- */

static PyObject *py_island_fields(PyObject *self, PyObject *args) {
    PyObject *masks, *dils, *given[5];
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "O!O!OOOOOn:island_fields", &PyList_Type, &masks, &PyList_Type,
                          &dils, &given[0], &given[1], &given[2], &given[3], &given[4], &cols))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(masks);
    if (PyList_GET_SIZE(dils) != n) {
        PyErr_SetString(PyExc_ValueError, "masks and dils differ in length");
        return NULL;
    }
    Py_ssize_t nw = widest(given, 5, cols);
    if (nw < 0) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *m = PyList_GET_ITEM(masks, k), *d = PyList_GET_ITEM(dils, k);
        Py_ssize_t a = words_of(m), b = d == Py_None ? 0 : words_of(d);
        if (a < 0 || b < 0) return NULL;
        if (a > nw || b > nw) {
            PyErr_SetString(PyExc_ValueError, "a cell beyond the grid");
            return NULL;
        }
    }
    Py_ssize_t q = cols / 64;
    int r = (int)(cols % 64);
    word *w = PyMem_Calloc((size_t)(nw * (10 + n)), sizeof(word));
    unsigned char *bytes = PyMem_Malloc((size_t)nw * 8);
    PyObject *arounds = PyList_New(n), *borders = PyList_New(n), *forbiddens = PyList_New(n),
             *alloweds = PyList_New(n), *out = NULL, *two = NULL;
    if (!w || !bytes) {
        PyErr_NoMemory();
        goto done;
    }
    if (!arounds || !borders || !forbiddens || !alloweds) goto done;
    word *unknown = w, *free_ = unknown + nw, *nf = free_ + nw, *nl = nf + nw, *full = nl + nw,
         *in_any = full + nw, *in_two = in_any + nw, *tmp = in_two + nw, *west = tmp + nw,
         *east = west + nw, *ds = east + nw;
    word *into[5] = {unknown, free_, nf, nl, full};
    for (int k = 0; k < 5; k++)
        if (to_words(given[k], into[k], nw, bytes) < 0) goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        word *d = ds + k * nw;
        PyObject *known = PyList_GET_ITEM(dils, k);
        if (known != Py_None) {
            if (to_words(known, d, nw, bytes) < 0) goto done;
        } else {
            word *m = tmp;
            if (to_words(PyList_GET_ITEM(masks, k), m, nw, bytes) < 0) goto done;
            for (Py_ssize_t i = 0; i < nw; i++) {
                west[i] = m[i] & nf[i];
                east[i] = m[i] & nl[i];
            }
            for (Py_ssize_t i = 0; i < nw; i++)
                d[i] = m[i] | shr_at(west, nw, i, 0, 1) | shl_at(east, i, 0, 1) |
                       shr_at(m, nw, i, q, r) | (shl_at(m, i, q, r) & full[i]);
        }
        for (Py_ssize_t i = 0; i < nw; i++) {
            in_two[i] |= in_any[i] & d[i];
            in_any[i] |= d[i];
        }
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        const word *d = ds + k * nw;
        PyObject *known = PyList_GET_ITEM(dils, k), *around;
        if (known != Py_None) {
            Py_INCREF(known);
            around = known;
        } else if (!(around = from_words(d, nw, bytes))) {
            goto done;
        }
        PyList_SET_ITEM(arounds, k, around);
        for (Py_ssize_t i = 0; i < nw; i++) tmp[i] = d[i] & unknown[i];
        PyObject *border = from_words(tmp, nw, bytes);
        if (!border) goto done;
        PyList_SET_ITEM(borders, k, border);
        for (Py_ssize_t i = 0; i < nw; i++) tmp[i] = (in_any[i] & ~d[i]) | in_two[i];
        PyObject *forbidden = from_words(tmp, nw, bytes);
        if (!forbidden) goto done;
        PyList_SET_ITEM(forbiddens, k, forbidden);
        for (Py_ssize_t i = 0; i < nw; i++) tmp[i] = free_[i] & ~tmp[i];
        PyObject *allowed = from_words(tmp, nw, bytes);
        if (!allowed) goto done;
        PyList_SET_ITEM(alloweds, k, allowed);
    }
    two = from_words(in_two, nw, bytes);
    if (two) out = PyTuple_Pack(5, two, arounds, borders, forbiddens, alloweds);
done:
    Py_XDECREF(two);
    Py_XDECREF(arounds);
    Py_XDECREF(borders);
    Py_XDECREF(forbiddens);
    Py_XDECREF(alloweds);
    PyMem_Free(w);
    PyMem_Free(bytes);
    return out;
}

/* ---- shapes that clash with every shape of a neighbouring island ------------------- */

/* A list of masks, each kept as the span of words between its lowest and highest
 * nonzero word (island shapes are small, the grid may be wide). */
typedef struct {
    Py_ssize_t count, *lo, *hi, *at; /* shape k: words pool[at[k] .. at[k] + hi - lo] */
    word *pool;
} Spans;

static void spans_free(Spans *sp) {
    PyMem_Free(sp->lo);
    PyMem_Free(sp->pool);
}

static int spans_of(Spans *sp, PyObject *list, Py_ssize_t nw, word *tmp, unsigned char *bytes) {
    Py_ssize_t n = PyList_GET_SIZE(list), used = 0, room = 4 * n + 4;
    sp->count = n;
    sp->lo = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(3 * n + 3));
    sp->pool = PyMem_Malloc(sizeof(word) * (size_t)room);
    if (!sp->lo || !sp->pool) {
        PyErr_NoMemory();
        return -1;
    }
    sp->hi = sp->lo + n + 1;
    sp->at = sp->hi + n + 1;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *m = PyList_GET_ITEM(list, k);
        Py_ssize_t need = words_of(m);
        if (need < 0) return -1;
        if (need > nw) {
            PyErr_SetString(PyExc_ValueError, "a shape outside the grid");
            return -1;
        }
        if (to_words(m, tmp, nw, bytes) < 0) return -1;
        Py_ssize_t lo = 0, hi = nw - 1;
        while (lo < nw && !tmp[lo]) lo++;
        while (hi >= lo && !tmp[hi]) hi--;
        if (lo > hi) lo = hi = 0; /* an empty shape: one zero word */
        Py_ssize_t len = hi - lo + 1;
        if (used + len > room) {
            room = 2 * (used + len);
            word *p = PyMem_Realloc(sp->pool, sizeof(word) * (size_t)room);
            if (!p) {
                PyErr_NoMemory();
                return -1;
            }
            sp->pool = p;
        }
        memcpy(sp->pool + used, tmp + lo, sizeof(word) * (size_t)len);
        sp->lo[k] = lo;
        sp->hi[k] = hi;
        sp->at[k] = used;
        used += len;
    }
    return 0;
}

/* Whether shape k of `sp` shares no cell with `halo` (words lo .. hi of it nonzero). */
static int apart(const Spans *sp, Py_ssize_t k, const word *halo, Py_ssize_t lo, Py_ssize_t hi) {
    Py_ssize_t from = sp->lo[k] > lo ? sp->lo[k] : lo, to = sp->hi[k] < hi ? sp->hi[k] : hi;
    const word *c = sp->pool + sp->at[k] - sp->lo[k];
    for (Py_ssize_t i = from; i <= to; i++)
        if (c[i] & halo[i]) return 0;
    return 1;
}

static PyObject *py_pairwise(PyObject *self, PyObject *args) {
    PyObject *kept, *others, *given[3];
    Py_ssize_t cols;
    if (!PyArg_ParseTuple(args, "O!O!OOOn:pairwise", &PyList_Type, &kept, &PyList_Type, &others,
                          &given[0], &given[1], &given[2], &cols))
        return NULL;
    Py_ssize_t nw = widest(given, 3, cols), nk = PyList_GET_SIZE(kept);
    Py_ssize_t nl = PyList_GET_SIZE(others);
    if (nw < 0) return NULL;
    for (Py_ssize_t j = 0; j < nl; j++)
        if (!PyList_Check(PyList_GET_ITEM(others, j))) {
            PyErr_SetString(PyExc_TypeError, "others must be a list of lists of masks");
            return NULL;
        }
    Py_ssize_t q = cols / 64;
    int r = (int)(cols % 64);
    Spans *lists = PyMem_Calloc((size_t)(nl + 1), sizeof(Spans));
    word *w = PyMem_Calloc((size_t)(8 * nw), sizeof(word));
    Py_ssize_t nout = nk / 64 + 1;
    unsigned char *bytes = PyMem_Malloc((size_t)(nw > nout ? nw : nout) * 8);
    word *out = PyMem_Calloc((size_t)nout, sizeof(word));
    PyObject *result = NULL;
    if (!lists || !w || !bytes || !out) {
        PyErr_NoMemory();
        goto done;
    }
    word *nf = w, *nlc = nf + nw, *full = nlc + nw, *m = full + nw, *west = m + nw,
         *east = west + nw, *halo = east + nw, *tmp = halo + nw;
    word *into[3] = {nf, nlc, full};
    for (int k = 0; k < 3; k++)
        if (to_words(given[k], into[k], nw, bytes) < 0) goto done;
    for (Py_ssize_t j = 0; j < nl; j++)
        if (spans_of(&lists[j], PyList_GET_ITEM(others, j), nw, tmp, bytes) < 0) goto done;
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *shape = PyList_GET_ITEM(kept, k);
        Py_ssize_t need = words_of(shape);
        if (need < 0) goto done;
        if (need > nw) {
            PyErr_SetString(PyExc_ValueError, "a shape outside the grid");
            goto done;
        }
        if (to_words(shape, m, nw, bytes) < 0) goto done;
        Py_ssize_t lo = 0, hi = nw - 1;
        while (lo < nw && !m[lo]) lo++;
        while (hi >= lo && !m[hi]) hi--;
        /* the shape and its neighbours: a row's width of words around it at most */
        Py_ssize_t from = lo - q - 1 < 0 ? 0 : lo - q - 1, to = hi + q + 1 >= nw ? nw - 1 : hi + q + 1;
        for (Py_ssize_t i = from; i <= to; i++) {
            west[i] = m[i] & nf[i];
            east[i] = m[i] & nlc[i];
        }
        for (Py_ssize_t i = from; i <= to; i++)
            halo[i] = m[i] | shr_at(west, nw, i, 0, 1) | shl_at(east, i, 0, 1) |
                      shr_at(m, nw, i, q, r) | (shl_at(m, i, q, r) & full[i]);
        int every = 1;
        for (Py_ssize_t j = 0; j < nl && every; j++) {
            int found = 0;
            for (Py_ssize_t c = 0; c < lists[j].count && !found; c++)
                found = apart(&lists[j], c, halo, from, to);
            every = found;
        }
        for (Py_ssize_t i = from; i <= to; i++) m[i] = west[i] = east[i] = halo[i] = 0;
        if (every) out[k / 64] |= (word)1 << (k % 64);
    }
    result = from_words(out, nout, bytes);
done:
    if (lists)
        for (Py_ssize_t j = 0; j < nl; j++) spans_free(&lists[j]);
    PyMem_Free(lists);
    PyMem_Free(w);
    PyMem_Free(bytes);
    PyMem_Free(out);
    return result;
}

/* ---- islands made without running their __init__ --------------------------------- */

/* The slots of Island that py_islands fills, in this order. */
static const char *const island_slots[] = {"allowed", "around", "border", "clue", "forbidden",
                                           "least", "mask", "most", "reach", "size", "value"};
enum { S_ALLOWED, S_AROUND, S_BORDER, S_CLUE, S_FORBIDDEN, S_LEAST, S_MASK, S_MOST, S_REACH,
       S_SIZE, S_VALUE, NSLOTS };

/* The class whose slot offsets are known (a strong reference), and those offsets. */
static PyTypeObject *island_type = NULL;
static Py_ssize_t island_offset[NSLOTS];

/* Reads the offsets of cls's slots (each must be a writable object slot of its own);
 * 0, or -1 with an error set. */
static int island_offsets(PyTypeObject *cls) {
    if (cls == island_type) return 0;
    Py_ssize_t offset[NSLOTS];
    for (int k = 0; k < NSLOTS; k++) {
        PyObject *d = PyDict_GetItemString(cls->tp_dict, island_slots[k]); /* borrowed */
        if (!d || !PyObject_TypeCheck(d, &PyMemberDescr_Type) ||
            ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX ||
            (((PyMemberDescrObject *)d)->d_member->flags & READONLY)) {
            PyErr_Format(PyExc_TypeError, "islands: %s has no slot %s of its own", cls->tp_name,
                         island_slots[k]);
            return -1;
        }
        offset[k] = ((PyMemberDescrObject *)d)->d_member->offset;
    }
    Py_INCREF(cls);
    Py_XSETREF(island_type, cls);
    memcpy(island_offset, offset, sizeof offset);
    return 0;
}

/* Stores v (a new reference, stolen) in slot k of the new object o. */
static void put_slot(PyObject *o, int k, PyObject *v) {
    PyObject **at = (PyObject **)((char *)o + island_offset[k]);
    Py_XSETREF(*at, v);
}

static PyObject *py_islands(PyObject *self, PyObject *args) {
    PyTypeObject *cls;
    PyObject *lists[6], *values, *unbounded;
    if (!PyArg_ParseTuple(args, "O!O!O!OO!O!O!O!O!:islands", &PyType_Type, &cls, &PyList_Type,
                          &lists[0], &PyList_Type, &lists[1], &values, &PyList_Type, &lists[2],
                          &PyList_Type, &lists[3], &PyList_Type, &lists[4], &PyList_Type,
                          &lists[5], &PyLong_Type, &unbounded))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(lists[0]);
    for (int k = 1; k < 6; k++)
        if (PyList_GET_SIZE(lists[k]) != n) {
            PyErr_SetString(PyExc_ValueError, "islands: the lists differ in length");
            return NULL;
        }
    if (island_offsets(cls) < 0) return NULL;
    PyObject *out = PyList_New(n), *zero = PyLong_FromLong(0);
    if (!out || !zero) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *mask = PyList_GET_ITEM(lists[0], i), *cell = PyList_GET_ITEM(lists[1], i);
        if (!PyLong_Check(mask) || !PyLong_Check(cell)) {
            PyErr_SetString(PyExc_TypeError, "islands: masks and cells must be ints");
            goto fail;
        }
        PyObject *value = PyObject_GetItem(values, cell);
        if (!value) goto fail;
        long v = PyLong_AsLong(value);
        PyObject *size = v == -1 && PyErr_Occurred()
                             ? NULL
                             : PyObject_CallMethod(mask, "bit_count", NULL);
        long z = size ? PyLong_AsLong(size) : -1;
        if (!size || (z == -1 && PyErr_Occurred())) {
            Py_DECREF(value);
            Py_XDECREF(size);
            goto fail;
        }
        PyObject *o = cls->tp_alloc(cls, 0);
        if (!o) {
            Py_DECREF(value);
            Py_DECREF(size);
            goto fail;
        }
        PyList_SET_ITEM(out, i, o); /* owned by the list from here on */
        PyObject *least, *most;
        if (v == -1) { /* a `?` island: 0 to unbounded */
            least = zero;
            most = unbounded;
            Py_INCREF(least);
            Py_INCREF(most);
        } else {
            least = PyLong_FromLong(v - z);
            if (!least) {
                Py_DECREF(value);
                Py_DECREF(size);
                goto fail;
            }
            most = least;
            Py_INCREF(most);
        }
        put_slot(o, S_MASK, Py_NewRef(mask));
        put_slot(o, S_CLUE, Py_NewRef(cell));
        put_slot(o, S_VALUE, value);
        put_slot(o, S_SIZE, size);
        put_slot(o, S_LEAST, least);
        put_slot(o, S_MOST, most);
        put_slot(o, S_AROUND, Py_NewRef(PyList_GET_ITEM(lists[2], i)));
        put_slot(o, S_BORDER, Py_NewRef(PyList_GET_ITEM(lists[3], i)));
        put_slot(o, S_FORBIDDEN, Py_NewRef(PyList_GET_ITEM(lists[4], i)));
        put_slot(o, S_ALLOWED, Py_NewRef(PyList_GET_ITEM(lists[5], i)));
        put_slot(o, S_REACH, Py_NewRef(zero));
    }
    Py_DECREF(zero);
    return out;
fail:
    Py_XDECREF(zero);
    Py_XDECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"cells", py_cells, METH_O, "cells(mask) -> the cells of mask, in increasing order"},
    {"grow", py_grow, METH_VARARGS,
     "grow(region, within, west, east, cols, steps) -> region grown through within"},
    {"components", py_components, METH_VARARGS,
     "components(mask, west, east, cols) -> the 4-connected components of mask"},
    {"shapes", py_shapes, METH_VARARGS,
     "shapes(rows, cols, start, allowed, need, cap, check) -> the island's shapes, or None"},
    {"cuts", py_cuts, METH_VARARGS,
     "cuts(rows, cols, domain, black, root) -> cells cutting black cells off from root"},
    {"keep_shapes", py_keep_shapes, METH_VARARGS,
     "keep_shapes(shapes, alive, full, not_first_col, not_last_col, forbidden, held, white, "
     "black, dead, cols) -> the shapes kept, as a mask over the list"},
    {"sea_shapes", py_sea_shapes, METH_VARARGS,
     "sea_shapes(shapes, alive, full, not_first_col, not_last_col, black, dead, domain, base, "
     "cols) -> the shapes the sea survives, as a mask over the list"},
    {"bottleneck", py_bottleneck, METH_VARARGS,
     "bottleneck(start, allowed, unknown, not_first_col, not_last_col, need, cols) -> the "
     "first cell start cannot collect need cells without, or -1"},
    {"reaches", py_reaches, METH_VARARGS,
     "reaches(start, allowed, blocked, target, not_first_col, not_last_col, steps, cols) -> "
     "whether start reaches target within steps layers"},
    {"priced_reach", py_priced_reach, METH_VARARGS,
     "priced_reach(start, allowed, orphans, sizes, steps, not_first_col, not_last_col, cols) "
     "-> the cells start reaches, a clueless region costing its size"},
    {"island_fields", py_island_fields, METH_VARARGS,
     "island_fields(masks, dils, unknown, free, not_first_col, not_last_col, full, cols) -> "
     "(touching_two, arounds, borders, forbiddens, alloweds)"},
    {"islands", py_islands, METH_VARARGS,
     "islands(cls, masks, cells, values, arounds, borders, forbiddens, alloweds, unbounded) "
     "-> a cls per mask, its slots filled as Island.__init__ fills them"},
    {"pairwise", py_pairwise, METH_VARARGS,
     "pairwise(kept, others, not_first_col, not_last_col, full, cols) -> the shapes of kept "
     "that leave every list of others a shape apart from them, as a mask over kept"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cgrid", "The grid walks of the engines, compiled (see _cgrid.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__cgrid(void) {
    if (PyType_Ready(&DilationType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&DilationType);
    if (PyModule_AddObject(m, "Dilation", (PyObject *)&DilationType) < 0) {
        Py_DECREF(&DilationType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
