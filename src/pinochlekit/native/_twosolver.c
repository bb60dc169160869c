/* The exact last-tricks solver of the two-handed game, in C.
 *
 * pinochlekit.players.two.solver.LateSolver is the reference and the
 * documentation: alpha-beta over whole tricks of docs/rules.md §4's last twelve
 * tricks (every card known), the value being the trick points of the side to
 * play minus the opponent's, 10 for the last trick. Legal answers follow
 * docs/rules.md §1 Play rules 1-3 with the §2 must-beat options, as
 * pinochlekit.engine.tricks.follow_mask (with two cards in a trick there is never a
 * trump to over-trump, and trump-follows-trump cannot arise). A
 * transposition table keyed by the two hands at trick boundaries (seen from
 * the leader) stores lower and upper bounds; it is kept between calls while
 * the trump suit, the options and the points stay the same. Kinds of one suit
 * in one hand with equal points and no card of the other hand between them
 * are searched once. tests/test_expert_two.py checks both against a plain
 * minimax.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pinochle.h"

#define INF (1 << 20)

typedef struct {
    int trump;
    PlayRules play; /* only the two must-beat flags: a trick of two cards (follow_one) */
    int groupable, bonus;
    int points[24];
    long nodes;
} Search;

typedef struct {
    uint64_t lead, follow; /* (once | twice << 24) of the leader and of the follower */
    int32_t low, high;
    int8_t best;
    uint8_t used;
} Entry;

#define TT_BITS 18
#define TT_SIZE (1u << TT_BITS)
static Entry *table = NULL;
static char signature[64];

static uint32_t grouped(const Search *s, uint32_t mine, uint32_t theirs) {
    if (!s->groupable) return mine;
    uint32_t keep = 0;
    for (int suit = 0; suit < 4; suit++) {
        int previous = -1;
        for (int k = suit * 6; k < suit * 6 + 6; k++) {
            if (theirs >> k & 1u) previous = -1;
            if (!(mine >> k & 1u)) continue;
            if (previous >= 0 && s->points[k] == s->points[previous]) continue;
            keep |= 1u << k;
            previous = k;
        }
    }
    return keep;
}

static inline void take(uint32_t *once, uint32_t *twice, int card) {
    uint32_t bit = 1u << card;
    if (*twice & bit) *twice ^= bit; else *once ^= bit;
}

static int search(Search *s, uint32_t lo, uint32_t lt, uint32_t fo, uint32_t ft, int alpha,
                  int beta);

static int answer(Search *s, uint32_t lo, uint32_t lt, uint32_t fo, uint32_t ft, int lead,
                  int card, int last, int alpha, int beta) {
    int points = s->points[lead] + s->points[card] + (last ? s->bonus : 0);
    int wins = beats(lead, card, s->trump);
    if (last) return wins ? -points : points;
    take(&lo, &lt, lead);
    take(&fo, &ft, card);
    if (wins) return -points - search(s, fo, ft, lo, lt, -beta - points, -alpha - points);
    return points + search(s, lo, lt, fo, ft, alpha - points, beta - points);
}

static int sort_cards(const Search *s, uint32_t mask, int lead, int *out) {
    /* Answers: cheapest winner first, then the cheapest loser (insertion sort). */
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        int start = n;
        for (uint32_t m = mask; m; m &= m - 1) {
            int c = low_bit(m);
            if (beats(lead, c, s->trump) != (pass == 0)) continue;
            int i = n++;
            while (i > start && s->points[out[i - 1]] > s->points[c]) { out[i] = out[i - 1]; i--; }
            out[i] = c;
        }
    }
    return n;
}

static int lead_value(Search *s, uint32_t lo, uint32_t lt, uint32_t fo, uint32_t ft, int lead,
                      int last, int alpha, int beta) {
    uint32_t allowed = grouped(s, follow_one(&s->play, fo, lead, s->trump), lo);
    int order[24];
    int n = sort_cards(s, allowed, lead, order);
    int worst = INF;
    for (int i = 0; i < n; i++) {
        int value = answer(s, lo, lt, fo, ft, lead, order[i], last, alpha,
                           beta < worst ? beta : worst);
        if (value < worst) {
            worst = value;
            if (worst <= alpha) break;
        }
    }
    return worst;
}

static int search(Search *s, uint32_t lo, uint32_t lt, uint32_t fo, uint32_t ft, int alpha,
                  int beta) {
    if (!lo) return 0;
    s->nodes++;
    uint64_t kl = lo | (uint64_t)lt << 24, kf = fo | (uint64_t)ft << 24;
    uint64_t h = (kl * 0x9E3779B97F4A7C15ull) ^ (kf * 0xC2B2AE3D27D4EB4Full);
    Entry *e = &table[(h >> 20) & (TT_SIZE - 1)];
    int first = -1, low = -INF, high = INF;
    if (e->used && e->lead == kl && e->follow == kf) {
        low = e->low; high = e->high; first = e->best;
        if (low >= beta) return low;
        if (high <= alpha) return high;
        if (low == high) return low;
        if (low > alpha) alpha = low;
        if (high < beta) beta = high;
    }
    int start = alpha;
    int last = lt == 0 && (lo & (lo - 1)) == 0;
    uint32_t leads = grouped(s, lo, fo);
    /* Order: the table's best lead, then most points, then highest kind. */
    int order[24], n = 0;
    if (first >= 0 && (leads >> first & 1u)) order[n++] = first;
    for (int k = 23; k >= 0; k--) {
        if (!(leads >> k & 1u) || k == first) continue;
        int i = n++;
        int begin = (first >= 0 && (leads >> first & 1u)) ? 1 : 0;
        while (i > begin && s->points[order[i - 1]] < s->points[k]) { order[i] = order[i - 1]; i--; }
        order[i] = k;
    }
    int best = -INF, best_card = -1;
    for (int i = 0; i < n; i++) {
        int value = lead_value(s, lo, lt, fo, ft, order[i], last, alpha > best ? alpha : best,
                               beta);
        if (value > best) {
            best = value; best_card = order[i];
            if (best >= beta) break;
        }
    }
    if (best <= start) { if (best < high) high = best; }
    else if (best >= beta) { if (best > low) low = best; }
    else low = high = best;
    e->lead = kl; e->follow = kf; e->low = low; e->high = high; e->best = (int8_t)best_card;
    e->used = 1;
    return best;
}

/* Parse (trump, flags, points, bonus) into a Search; reset the table if they changed. */
static int setup(Search *s, int trump, int flags, Py_buffer *points, int bonus) {
    if (points->len != 24 || trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "24 trick points and a trump suit 0-3 expected");
        return -1;
    }
    memset(s, 0, sizeof *s);
    s->trump = trump;
    s->play.beat_follow = flags & 1;
    s->play.beat_trump_led = (flags >> 1) & 1;
    s->bonus = bonus;
    const unsigned char *p = points->buf;
    for (int k = 0; k < 24; k++) s->points[k] = p[k];
    for (int k = 0; k < 24; k++)
        if (k % 6 != 5 && s->points[k] == s->points[k + 1]) s->groupable = 1;
    if (!table) {
        table = calloc(TT_SIZE, sizeof(Entry));
        if (!table) { PyErr_NoMemory(); return -1; }
    }
    char sig[64];
    memset(sig, 0, sizeof sig);
    sig[0] = (char)trump; sig[1] = (char)flags; sig[2] = (char)bonus;
    memcpy(sig + 3, p, 24);
    if (memcmp(sig, signature, sizeof sig) != 0) {
        memset(table, 0, TT_SIZE * sizeof(Entry));
        memcpy(signature, sig, sizeof sig);
    }
    return 0;
}

static PyObject *py_value(PyObject *self, PyObject *args) {
    int trump, flags, bonus;
    Py_buffer points;
    unsigned long lo, lt, fo, ft;
    if (!PyArg_ParseTuple(args, "iiy*ikkkk", &trump, &flags, &points, &bonus, &lo, &lt, &fo,
                          &ft))
        return NULL;
    Search s;
    int bad = setup(&s, trump, flags, &points, bonus);
    PyBuffer_Release(&points);
    if (bad) return NULL;
    int value = search(&s, (uint32_t)lo, (uint32_t)lt, (uint32_t)fo, (uint32_t)ft, -INF, INF);
    return PyLong_FromLong(value);
}

static PyObject *py_values(PyObject *self, PyObject *args) {
    int trump, flags, bonus, lead;
    Py_buffer points;
    unsigned long lo, lt, fo, ft;
    if (!PyArg_ParseTuple(args, "iiy*ikkkki", &trump, &flags, &points, &bonus, &lo, &lt, &fo,
                          &ft, &lead))
        return NULL;
    Search s;
    int bad = setup(&s, trump, flags, &points, bonus);
    PyBuffer_Release(&points);
    if (bad) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    if (lead < 0) {
        int last = lt == 0 && (lo & (lo - 1)) == 0;
        for (uint32_t m = (uint32_t)lo; m; m &= m - 1) {
            int card = low_bit(m);
            int value = lead_value(&s, lo, lt, fo, ft, card, last, -INF, INF);
            PyObject *item = Py_BuildValue("(ii)", card, value);
            if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
            Py_DECREF(item);
        }
    } else {
        int last = ft == 0 && (fo & (fo - 1)) == 0;
        for (uint32_t m = follow_one(&s.play, (uint32_t)fo, lead, s.trump); m; m &= m - 1) {
            int card = low_bit(m);
            int value = -answer(&s, lo, lt, fo, ft, lead, card, last, -INF, INF);
            PyObject *item = Py_BuildValue("(ii)", card, value);
            if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
            Py_DECREF(item);
        }
    }
    return out;
}

static PyMethodDef methods[] = {
    {"value", py_value, METH_VARARGS,
     "value(trump, flags, points, bonus, lo, lt, fo, ft): the leader's exact value."},
    {"values", py_values, METH_VARARGS,
     "values(trump, flags, points, bonus, lo, lt, fo, ft, lead): [(card, value)] for the "
     "side to play (the leader if lead < 0, else the follower)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_twosolver",
    "The exact two-handed last-tricks solver (see pinochlekit.players.two.solver).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__twosolver(void) { return PyModule_Create(&module); }
