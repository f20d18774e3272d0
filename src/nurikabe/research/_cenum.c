/* The compiled core of `nurikabe.research.enumerate`: every correct puzzle of a small grid.
 *
 * Method (the same as the pure-Python twin in enumerate.py):
 * 1. Enumerate every valid solution board of an R x C grid (R*C <= 48) row by row: the
 *    black cells (the sea) form one 4-connected region (or there are none), no 2x2 block
 *    is black, and every white island has at most `max_clue` cells. A board without any
 *    island is skipped (its puzzle would have no clue). Rows are pruned as soon as a
 *    pool appears, an island grows too big, or a finished part of the sea is cut off
 *    from the rest.
 * 2. A puzzle is consistent with a board when it has exactly one clue per island, equal
 *    to the island's size. For each board, every such clue set is counted in a hash map
 *    keyed by the clue set (4 bits per cell, three 64-bit words). A clue set's count is
 *    then its number of solutions; count 1 = a correct puzzle.
 * 3. Sharding: with `shards` > 1 only the clue sets of one shard are kept, so large
 *    grids run in pieces that need a fraction of the memory. A clue set's shard is a sum
 *    over its clues, modulo `shards`, of a fixed pseudo-random residue per (cell, value):
 *    being a sum, it is known before the last island's clue is chosen, so a shard looks
 *    only at the last island's cells whose residue completes its own (a mask per residue
 *    and value) and never builds a clue set of another shard. Every shard enumerates the
 *    boards again; the islands are ordered so that the largest comes last, which makes
 *    the clue sets built before that filter as few as the board allows.
 *
 * Returns per shard: the number of valid boards, the histogram of solution counts, and
 * additive statistics of the correct puzzles (so shards merge by summing), and, if asked,
 * the correct clue sets themselves as packed bytes (three little-endian uint64 words each).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CELLS 48
#define MAX_ISLANDS 48
#define MAX_SHARDS 65536

typedef struct {
    uint64_t w[3];
    uint32_t count;
} Entry;

typedef struct {
    int rows, cols, cells, max_clue;
    uint64_t full, not_left, not_right;
    uint64_t row_mask[MAX_CELLS];
    uint64_t shards, shard;
    uint32_t residue[MAX_CELLS][16]; /* the shard residue of a clue of value v at a cell */
    uint64_t *masks; /* masks[r * 16 + v]: the cells whose residue for value v is r */
    Entry *table;
    size_t cap, used;
    uint64_t boards;
    int keep_boards;   /* 1: record each valid board's sea in `kept` instead of its puzzles */
    uint64_t *kept;    /* the seas of the valid boards, when several shards share them */
    size_t nkept, kept_cap;
    int failed; /* 1: out of memory; 2: a Python signal handler raised (Ctrl-C) */
    uint64_t ticks;
    PyThreadState *released; /* the thread state saved while the GIL is released */
} Ctx;

/* Takes the GIL back for a moment and runs Python's signal handlers: 1 when one raised. */
static int signal_raised(Ctx *c) {
    PyEval_RestoreThread(c->released);
    int raised = PyErr_CheckSignals() < 0;
    c->released = PyEval_SaveThread();
    return raised;
}

/* Every 4096 rows or clue sets tried, run Python's signal handlers: a census of a big grid
 * takes minutes, and Ctrl-C must stop it. */
static inline void check_signals(Ctx *c) {
    if ((++c->ticks & 0xFFF) != 0) return;
    if (signal_raised(c)) c->failed = 2;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline uint64_t key_hash(const uint64_t *w) {
    return mix(w[0] ^ mix(w[1] ^ mix(w[2] + 0x9e3779b97f4a7c15ULL)));
}

static inline uint64_t grow(const Ctx *c, uint64_t x) {
    return x | ((x << 1) & c->not_left) | ((x >> 1) & c->not_right) | (x << c->cols) |
           (x >> c->cols);
}

/* The 4-connected component of `region` containing the cells of `seed`. */
static inline uint64_t flood(const Ctx *c, uint64_t seed, uint64_t region) {
    uint64_t x = seed;
    for (;;) {
        uint64_t y = grow(c, x) & region;
        if (y == x) return x;
        x = y;
    }
}

/* Doubles the table: 0, or -1 out of memory, or -2 when Ctrl-C came while it rehashed (a
 * big table takes seconds to rehash: Python's signal handlers run every 2^14 entries, so
 * that Ctrl-C stops a census within a fraction of a second, not after the rehash). */
static int table_grow(Ctx *c) {
    size_t ncap = c->cap ? c->cap * 2 : (1u << 16);
    Entry *nt = calloc(ncap, sizeof(Entry));
    if (!nt) return -1;
    for (size_t i = 0; i < c->cap; i++) {
        if ((i & 0x3FFF) == 0x3FFF && signal_raised(c)) {
            free(nt);
            return -2;
        }
        Entry *e = &c->table[i];
        if (!e->count) continue;
        size_t j = key_hash(e->w) & (ncap - 1);
        while (nt[j].count) j = (j + 1) & (ncap - 1);
        nt[j] = *e;
    }
    free(c->table);
    c->table = nt;
    c->cap = ncap;
    return 0;
}

static inline void add_key(Ctx *c, const uint64_t *w) {
    uint64_t h = key_hash(w);
    if (c->used * 10 >= c->cap * 6) {
        int grown = table_grow(c);
        if (grown < 0) {
            c->failed = grown == -2 ? 2 : 1;
            return;
        }
    }
    size_t j = h & (c->cap - 1);
    for (;;) {
        Entry *e = &c->table[j];
        if (!e->count) {
            memcpy(e->w, w, sizeof(e->w));
            e->count = 1;
            c->used++;
            return;
        }
        if (e->w[0] == w[0] && e->w[1] == w[1] && e->w[2] == w[2]) {
            e->count++;
            return;
        }
        j = (j + 1) & (c->cap - 1);
    }
}

/* Every clue set consistent with a board: one cell per island carrying its size.
 * `sum` is the shard residue of the clues chosen for islands 0..i-1. */
static void add_puzzles(Ctx *c, int n, const uint64_t *islands, const int *sizes,
                        uint64_t *w, int i, uint64_t sum) {
    if (c->failed) return;
    uint64_t m = islands[i];
    int last = i == n - 1;
    if (last && c->shards > 1) {
        uint64_t want = c->shard >= sum ? c->shard - sum : c->shard + c->shards - sum;
        m &= c->masks[want * 16 + (uint64_t)sizes[i]];
    }
    while (m) {
        int cell = __builtin_ctzll(m);
        m &= m - 1;
        uint64_t v = (uint64_t)sizes[i] << (4 * (cell & 15));
        w[cell >> 4] |= v;
        if (last) {
            check_signals(c);
            if (c->failed) break; /* Ctrl-C: no more keys (a key may grow the table) */
            add_key(c, w);
        } else {
            uint64_t next = sum + c->residue[cell][sizes[i]]; /* both below `shards` */
            add_puzzles(c, n, islands, sizes, w, i + 1, next >= c->shards ? next - c->shards : next);
        }
        w[cell >> 4] &= ~v;
    }
}

/* The shard residues and their masks (`shards` <= MAX_SHARDS). */
static int shard_tables(Ctx *c) {
    if (c->shards <= 1) return 0;
    c->masks = calloc((size_t)c->shards * 16, sizeof(uint64_t));
    if (!c->masks) return -1;
    for (int cell = 0; cell < c->cells; cell++)
        for (int v = 1; v < 16; v++) {
            uint64_t r = mix(((uint64_t)cell << 4 | (uint64_t)v) ^ 0x2545f4914f6cdd1dULL) % c->shards;
            c->residue[cell][v] = (uint32_t)r;
            c->masks[r * 16 + (uint64_t)v] |= (uint64_t)1 << cell;
        }
    return 0;
}

/* The islands of a board with sea `black`, largest last; -1 if the board is not valid
 * (a sea in pieces or an island over the clue limit), 0 if it has no island. */
static int islands_of(const Ctx *c, uint64_t black, uint64_t *islands, int *sizes) {
    if (black) {
        uint64_t low = black & (~black + 1);
        if (flood(c, low, black) != black) return -1;
    }
    uint64_t white = c->full & ~black;
    int n = 0;
    while (white) {
        uint64_t low = white & (~white + 1);
        uint64_t isl = flood(c, low, white);
        int s = __builtin_popcountll(isl);
        if (s > c->max_clue) return -1;
        islands[n] = isl;
        sizes[n] = s;
        n++;
        white &= ~isl;
    }
    int big = 0;
    for (int k = 1; k < n; k++)
        if (sizes[k] > sizes[big]) big = k;
    if (n > 1) {
        uint64_t isl = islands[big];
        int sz = sizes[big];
        islands[big] = islands[n - 1];
        sizes[big] = sizes[n - 1];
        islands[n - 1] = isl;
        sizes[n - 1] = sz;
    }
    return n;
}

/* Records the puzzles of a board known to be valid. */
static void board_puzzles(Ctx *c, int n, const uint64_t *islands, const int *sizes) {
    uint64_t w[3] = {0, 0, 0};
    add_puzzles(c, n, islands, sizes, w, 0, 0);
}

/* Checks a finished board and records its puzzles (or keeps it for later passes). */
static void finish(Ctx *c, uint64_t black) {
    uint64_t islands[MAX_ISLANDS];
    int sizes[MAX_ISLANDS];
    int n = islands_of(c, black, islands, sizes);
    if (n <= 0) return;
    c->boards++;
    if (!c->keep_boards) {
        board_puzzles(c, n, islands, sizes);
        return;
    }
    if (c->nkept == c->kept_cap) {
        size_t ncap = c->kept_cap ? 2 * c->kept_cap : (1u << 16);
        uint64_t *nk = realloc(c->kept, ncap * sizeof(uint64_t));
        if (!nk) {
            c->failed = 1;
            return;
        }
        c->kept = nk;
        c->kept_cap = ncap;
    }
    c->kept[c->nkept++] = black;
}

/* One shard's pass over the kept boards. */
static void shard_pass(Ctx *c) {
    uint64_t islands[MAX_ISLANDS];
    int sizes[MAX_ISLANDS];
    for (size_t i = 0; i < c->nkept && !c->failed; i++) {
        check_signals(c);
        int n = islands_of(c, c->kept[i], islands, sizes);
        board_puzzles(c, n, islands, sizes);
    }
}

/* Whether the first r+1 rows can still be completed: no island already too big, and no
 * black region cut off from the last row unless it is the only one. */
static int partial_ok(const Ctx *c, uint64_t black, int r) {
    uint64_t done = 0;
    for (int i = 0; i <= r; i++) done |= c->row_mask[i];
    uint64_t last = c->row_mask[r];
    uint64_t white = done & ~black;
    while (white) {
        uint64_t low = white & (~white + 1);
        uint64_t isl = flood(c, low, white);
        if (__builtin_popcountll(isl) > c->max_clue) return 0;
        white &= ~isl;
    }
    if (r + 1 < c->rows) {
        uint64_t b = black;
        int closed = 0, comps = 0;
        while (b) {
            uint64_t low = b & (~b + 1);
            uint64_t comp = flood(c, low, b);
            comps++;
            if (!(comp & last)) closed = 1;
            b &= ~comp;
        }
        if (closed && comps > 1) return 0;
    }
    return 1;
}

static void rows_dfs(Ctx *c, int r, uint64_t black, uint64_t prev) {
    if (c->failed) return;
    if (r == c->rows) {
        finish(c, black);
        return;
    }
    uint64_t width = (uint64_t)1 << c->cols;
    for (uint64_t b = 0; b < width && !c->failed; b++) {
        check_signals(c);
        if (r > 0) {
            uint64_t both = prev & b;
            if (both & (both >> 1)) continue; /* a 2x2 pool */
        }
        uint64_t nb = black | (b << (r * c->cols));
        if (!partial_ok(c, nb, r)) continue;
        rows_dfs(c, r + 1, nb, b);
    }
}

/* The figures of the clue sets in the table, as a dict (the GIL held); NULL on error. */
static PyObject *table_result(const Ctx *c, int want) {
    uint32_t maxcount = 0;
    for (size_t i = 0; i < c->cap; i++)
        if (c->table[i].count > maxcount) maxcount = c->table[i].count;
    uint64_t *hist = calloc((size_t)maxcount + 1, sizeof(uint64_t));
    double cell_count[MAX_CELLS] = {0}, cell_sum[MAX_CELLS] = {0};
    uint64_t value_hist[16] = {0}, clues_hist[MAX_CELLS + 1] = {0}, white_hist[MAX_CELLS + 1] = {0};
    uint64_t ones_only = 0, no_ones = 0, correct = 0;
    double mean_sum = 0, mean_sq = 0;
    PyObject *blob = NULL;
    char *out = NULL;
    if (!hist) return PyErr_NoMemory();
    for (size_t i = 0; i < c->cap; i++) {
        const Entry *e = &c->table[i];
        if (!e->count) continue;
        hist[e->count]++;
        if (e->count == 1) correct++;
    }
    if (want) {
        blob = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(correct * 24));
        if (!blob) {
            free(hist);
            return NULL;
        }
        out = PyBytes_AS_STRING(blob);
    }
    for (size_t i = 0; i < c->cap; i++) {
        const Entry *e = &c->table[i];
        if (e->count != 1) continue;
        int nclues = 0, white = 0, ones = 0;
        for (int cell = 0; cell < c->cells; cell++) {
            int v = (int)((e->w[cell >> 4] >> (4 * (cell & 15))) & 15);
            if (!v) continue;
            nclues++;
            white += v;
            ones += v == 1;
            value_hist[v]++;
            cell_count[cell] += 1;
            cell_sum[cell] += v;
        }
        clues_hist[nclues]++;
        white_hist[white]++;
        if (ones == nclues) ones_only++;
        if (!ones) no_ones++;
        double m = (double)white / nclues;
        mean_sum += m;
        mean_sq += m * m;
        if (out) {
            for (int k = 0; k < 3; k++)
                for (int b = 0; b < 8; b++) *out++ = (char)((e->w[k] >> (8 * b)) & 255);
        }
    }
    PyObject *h = PyList_New((Py_ssize_t)maxcount + 1);
    for (uint32_t k = 0; k <= maxcount; k++) PyList_SET_ITEM(h, k, PyLong_FromUnsignedLongLong(hist[k]));
    free(hist);
    PyObject *vh = PyList_New(16), *ch = PyList_New(c->cells + 1), *wh = PyList_New(c->cells + 1);
    PyObject *cc = PyList_New(c->cells), *cs = PyList_New(c->cells);
    for (int k = 0; k < 16; k++) PyList_SET_ITEM(vh, k, PyLong_FromUnsignedLongLong(value_hist[k]));
    for (int k = 0; k <= c->cells; k++) {
        PyList_SET_ITEM(ch, k, PyLong_FromUnsignedLongLong(clues_hist[k]));
        PyList_SET_ITEM(wh, k, PyLong_FromUnsignedLongLong(white_hist[k]));
    }
    for (int k = 0; k < c->cells; k++) {
        PyList_SET_ITEM(cc, k, PyLong_FromDouble(cell_count[k]));
        PyList_SET_ITEM(cs, k, PyLong_FromDouble(cell_sum[k]));
    }
    return Py_BuildValue(
        "{s:K,s:N,s:N,s:N,s:N,s:N,s:N,s:K,s:K,s:d,s:d,s:N}", "boards",
        (unsigned long long)c->boards, "solution_counts", h, "value_counts", vh, "clue_counts", ch,
        "white_counts", wh, "cell_clues", cc, "cell_values", cs, "ones_only",
        (unsigned long long)ones_only, "no_ones", (unsigned long long)no_ones, "mean_sum",
        mean_sum, "mean_sq", mean_sq, "correct", blob ? blob : Py_NewRef(Py_None));
}

/* census(rows, cols, max_clue, shards, shard_list, keep_correct) -> list of dicts, one per
 * shard of `shard_list`. With one shard, each board's puzzles are recorded as the board is
 * found; with several, the valid boards are enumerated once and kept (8 bytes each), then
 * each shard makes its own pass over them with the same table, emptied in between. */
static PyObject *py_census(PyObject *self, PyObject *args) {
    int rows, cols, max_clue, want;
    unsigned long long shards;
    PyObject *wanted;
    if (!PyArg_ParseTuple(args, "iiiKOp", &rows, &cols, &max_clue, &shards, &wanted, &want))
        return NULL;
    PyObject *seq = PySequence_Fast(wanted, "shard_list must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t nshards = PySequence_Fast_GET_SIZE(seq);
    unsigned long long *list = calloc((size_t)nshards + 1, sizeof(unsigned long long));
    if (!list) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    int bad = nshards < 1;
    for (Py_ssize_t k = 0; k < nshards && !bad; k++) {
        list[k] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, k));
        if (PyErr_Occurred()) bad = 1;
        else if (list[k] >= shards) bad = 1;
    }
    Py_DECREF(seq);
    if (bad || rows < 1 || cols < 1 || rows * cols > MAX_CELLS || max_clue < 1 || max_clue > 15 ||
        shards < 1 || shards > MAX_SHARDS) {
        free(list);
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "bad grid size, clue limit or shard");
        return NULL;
    }
    Ctx c;
    memset(&c, 0, sizeof(c));
    c.rows = rows;
    c.cols = cols;
    c.cells = rows * cols;
    c.max_clue = max_clue;
    c.full = c.cells == 64 ? ~0ULL : (((uint64_t)1 << c.cells) - 1);
    uint64_t left = 0, right = 0;
    for (int r = 0; r < rows; r++) {
        left |= (uint64_t)1 << (r * cols);
        right |= (uint64_t)1 << (r * cols + cols - 1);
        c.row_mask[r] = (((uint64_t)1 << cols) - 1) << (r * cols);
    }
    c.not_left = c.full & ~left;
    c.not_right = c.full & ~right;
    c.shards = shards;
    c.shard = list[0];
    c.keep_boards = nshards > 1;

    PyObject *results = PyList_New(0);
    c.released = PyEval_SaveThread();
    if (table_grow(&c) < 0 || shard_tables(&c) < 0) c.failed = 1;
    else rows_dfs(&c, 0, 0, 0);
    PyEval_RestoreThread(c.released);
    for (Py_ssize_t k = 0; k < nshards && !c.failed && results; k++) {
        if (c.keep_boards) {
            memset(c.table, 0, c.cap * sizeof(Entry));
            c.used = 0;
            c.shard = list[k];
            c.released = PyEval_SaveThread();
            shard_pass(&c);
            PyEval_RestoreThread(c.released);
            if (c.failed) break;
        }
        PyObject *one = table_result(&c, want);
        if (!one || PyList_Append(results, one) < 0) Py_CLEAR(results);
        Py_XDECREF(one);
    }
    free(list);
    free(c.masks);
    free(c.kept);
    free(c.table);
    if (c.failed) {
        Py_XDECREF(results);
        return c.failed == 2 ? NULL : PyErr_NoMemory();
    }
    return results;
}

/* ---------------------------------------------------------------------------------------
 * Island shapes (the thesis's figure 8): Redelmeier's enumeration of fixed polyominoes.
 * Each fixed polyomino is generated once, with its first cell (lowest row, then lowest
 * column in that row) at the origin (0, 0); cells may then lie in row 0 at columns >= 0
 * or in rows > 0. For a polyomino P of k cells: the placements of P through a given cell
 * are k (free), the cells of P in its first row (the cell next to a wall, P on one side),
 * and 1 if P holds the corner cell (first row, first column) else 0 (cell in a corner). */

typedef struct {
    int n, width;
    unsigned char *seen;
    uint64_t *free_, *wall, *corner;
    int row0, negcols;
    uint64_t ticks;
    int stopped;             /* a Python signal handler raised (Ctrl-C) */
    PyThreadState *released; /* the thread state saved while the GIL is released */
} Shapes;

/* As in the census: every 4096 shapes of at most n - 4 cells, run Python's signal
 * handlers (size 20 takes minutes, and Ctrl-C must stop it). */
static inline void shapes_check_signals(Shapes *s) {
    if ((++s->ticks & 0xFFF) != 0) return;
    PyEval_RestoreThread(s->released);
    if (PyErr_CheckSignals() < 0) s->stopped = 1;
    s->released = PyEval_SaveThread();
}

static void shapes_rec(Shapes *s, const int *untried, int nu, int size) {
    int mine[8 * 64];
    int nu_local = nu;
    int *list = mine;
    memcpy(list, untried, sizeof(int) * nu);
    int check = size + 4 < s->n; /* only far from the leaves, where shapes are few */
    while (nu_local > 0 && !s->stopped) {
        if (check) shapes_check_signals(s);
        int cell = list[--nu_local];
        int y = cell / s->width - 1, x = cell % s->width - (s->n + 1);
        int k = size + 1;
        s->row0 += y == 0;
        s->negcols += x < 0;
        s->free_[k] += k;
        s->wall[k] += s->row0;
        s->corner[k] += s->negcols == 0;
        if (k < s->n) {
            int added[4], na = 0, nn = nu_local;
            int next[8 * 64];
            memcpy(next, list, sizeof(int) * nu_local);
            const int nbs[4] = {cell + 1, cell - 1, cell + s->width, cell - s->width};
            for (int i = 0; i < 4; i++) {
                int d = nbs[i];
                if (!s->seen[d]) {
                    s->seen[d] = 1;
                    added[na++] = d;
                    next[nn++] = d;
                }
            }
            shapes_rec(s, next, nn, k);
            for (int i = 0; i < na; i++) s->seen[added[i]] = 0;
        }
        s->row0 -= y == 0;
        s->negcols -= x < 0;
    }
}

static PyObject *py_shapes(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n)) return NULL;
    if (n < 1 || n > 20) {
        PyErr_SetString(PyExc_ValueError, "shape size must be 1..20");
        return NULL;
    }
    Shapes s;
    memset(&s, 0, sizeof(s));
    s.n = n;
    s.width = 2 * n + 3;
    int height = n + 2;
    s.seen = calloc((size_t)s.width * height, 1);
    s.free_ = calloc((size_t)n + 1, sizeof(uint64_t));
    s.wall = calloc((size_t)n + 1, sizeof(uint64_t));
    s.corner = calloc((size_t)n + 1, sizeof(uint64_t));
    if (!s.seen || !s.free_ || !s.wall || !s.corner) {
        free(s.seen), free(s.free_), free(s.wall), free(s.corner);
        return PyErr_NoMemory();
    }
    for (int x = 0; x < s.width; x++) {
        s.seen[x] = 1;                               /* the row above the first */
        s.seen[(height - 1) * s.width + x] = 1;      /* beyond reach, kept as a guard */
    }
    for (int y = 0; y < height; y++) {
        s.seen[y * s.width] = 1;
        s.seen[y * s.width + s.width - 1] = 1;
    }
    for (int x = 0; x < n + 1; x++) s.seen[1 * s.width + x] = 1; /* row 0, columns < 0 */
    int origin = 1 * s.width + (n + 1);
    s.seen[origin] = 1;
    s.released = PyEval_SaveThread();
    shapes_rec(&s, &origin, 1, 0);
    PyEval_RestoreThread(s.released);
    if (s.stopped) {
        free(s.seen), free(s.free_), free(s.wall), free(s.corner);
        return NULL;
    }
    PyObject *res = PyList_New(n);
    for (int k = 1; k <= n; k++)
        PyList_SET_ITEM(res, k - 1,
                        Py_BuildValue("(KKK)", (unsigned long long)s.free_[k],
                                      (unsigned long long)s.wall[k],
                                      (unsigned long long)s.corner[k]));
    free(s.seen), free(s.free_), free(s.wall), free(s.corner);
    return res;
}

static PyMethodDef methods[] = {
    {"census", py_census, METH_VARARGS,
     "census(rows, cols, max_clue, shards, shard_list, keep_correct) -> list of dicts"},
    {"shapes", py_shapes, METH_VARARGS, "shapes(n) -> [(free, wall, corner)] for k = 1..n"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cenum",
                                    "Compiled core of nurikabe.research.enumerate.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__cenum(void) { return PyModule_Create(&module); }
