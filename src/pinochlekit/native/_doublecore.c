/*
 * _doublecore.c: the C play-out of the double-deck game.
 *
 * A C twin of players/double/policy.py's playout(): the rest of a double-deck hand
 * (docs/rules.md §6: 80 cards, four copies of A 10 K Q J per suit) played by every
 * seat on the `standard` card play (docs/players.md standard, leading and following),
 * and the trick points each team takes, the last trick's 2 included. A hand is 24
 * copy counts (0 to 4) plus the mask of the kinds it holds, so the legal plays are
 * pinochle.h's follow_mask on that mask, as the engine's are. The Python function
 * is the reference: tests/test_doublecore.py checks that both give the same points
 * on many random positions. Use it through pinochlekit.players.double.policy, never
 * directly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pinochle.h"

#define COPIES 4          /* docs/rules.md §6: four copies of each kind */
#define LAST_TRICK 2      /* docs/rules.md §6: the last trick is worth 2 */
/* The kinds of each rank: bit r of each suit. */
#define RANK_MASK(r) ((1u << (r)) | (1u << ((r) + 6)) | (1u << ((r) + 12)) | (1u << ((r) + 18)))
/* The counters A, 10, K (docs/rules.md §6), one point each; nines are not in the deck. */
#define COUNTERS (RANK_MASK(KING) | RANK_MASK(TEN) | RANK_MASK(ACE))
#define NINES RANK_MASK(NINE)

/* ===== The orders of docs/players.md (players/policy.py HIGH_ORDER, LOW_ORDER) ===== */

/* The highest card of a non-empty mask: the highest trump; else by rank, of two
 * non-trumps of one rank the one of the lower suit (S H D C). */
static int highest(Mask m, int trump)
{
    Mask trumps = m & SUIT_MASK(trump);
    if (trumps) return high_bit(trumps);
    for (int r = ACE; r >= NINE; r--) {
        Mask of_rank = m & RANK_MASK(r);
        if (of_rank) return low_bit(of_rank);
    }
    return -1;
}

/* The lowest card of a non-empty mask: the lowest rank; of one rank, a non-trump
 * before the trump, then the lower suit. */
static int lowest(Mask m, int trump)
{
    for (int r = NINE; r <= ACE; r++) {
        Mask of_rank = m & RANK_MASK(r);
        if (of_rank & ~SUIT_MASK(trump)) return low_bit(of_rank & ~SUIT_MASK(trump));
        if (of_rank) return low_bit(of_rank);
    }
    return -1;
}

/* policy.standard_card: leading, the highest non-trump (the highest trump when only
 * trumps are left); following, players/policy.py standard_follow. */
static int standard_card(Mask legal, const int *trick, int n, int trump, int partner, int last)
{
    if (n == 0) {
        Mask plain = legal & ~SUIT_MASK(trump);
        return plain ? highest(plain, trump) : highest(legal, trump);
    }
    Mask winners = legal & beaters_of(trick[winner_index(trick, n, trump)], trump);
    if (!winners) {
        if (partner && (legal & COUNTERS)) return lowest(legal & COUNTERS, trump);
        return lowest(legal, trump);
    }
    return last ? lowest(winners, trump) : highest(winners, trump);
}

/* ===== A play-out ================================================================= */

typedef struct {
    int counts[4][KINDS];
    Mask masks[4];
    int sizes[4];
    int cards[4], seats[4], n; /* the current trick */
} Position;

/* policy.playout: play to the end from `p`, the next seat to play after the trick's
 * last card (or `leader` on an empty trick); add the trick points to `points`.
 * -1 (ValueError set) if a seat must play from an empty hand. */
static int playout(Position *p, int leader, int trump, const PlayRules *r, long points[2])
{
    int turn = p->n ? (p->seats[p->n - 1] + 1) % 4 : leader;
    int left = p->sizes[turn];
    for (;;) {
        while (p->n < 4) {
            Mask legal;
            int partner = 0;
            if (!p->masks[turn]) {
                PyErr_Format(PyExc_ValueError,
                             "not a double-deck position: seat %d must play and holds no card",
                             turn);
                return -1;
            }
            if (p->n) {
                int best = winner_index(p->cards, p->n, trump);
                legal = follow_mask(r, p->masks[turn], SUIT_OF(p->cards[0]), p->cards[best],
                                    trump);
                partner = p->seats[best] == (turn + 2) % 4;
            } else {
                legal = p->masks[turn];
            }
            int card = standard_card(legal, p->cards, p->n, trump, partner, p->n == 3);
            if (!--p->counts[turn][card]) p->masks[turn] &= ~BIT(card);
            p->sizes[turn]--;
            p->cards[p->n] = card;
            p->seats[p->n++] = turn;
            turn = (turn + 1) % 4;
        }
        int winner = p->seats[winner_index(p->cards, 4, trump)];
        long won = 0;
        for (int i = 0; i < 4; i++) won += (COUNTERS >> p->cards[i]) & 1;
        p->n = 0;
        if (!(p->sizes[0] | p->sizes[1] | p->sizes[2] | p->sizes[3])) {
            points[winner % 2] += won + LAST_TRICK;
            return 0;
        }
        points[winner % 2] += won;
        turn = winner;
        if (--left < 0) return 0; /* never: every hand empties together */
    }
}

/* ===== The Python function ======================================================== */

static int bad(const char *why)
{
    PyErr_Format(PyExc_ValueError, "not a double-deck position: %s", why);
    return -1;
}

/* An int of `seq`'s item i into *out, within [lo, hi]. */
static int read_int(PyObject *item, int lo, int hi, int *out, const char *what)
{
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "not a double-deck position: %s %ld is not in %d..%d",
                     what, v, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int read_hands(PyObject *obj, Position *p)
{
    PyObject *seq = PySequence_Fast(obj, "the hands are four sequences of 24 counts");
    if (!seq) return -1;
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        bad("the hands are four sequences of 24 counts");
        goto done;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *hand = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, s),
                                         "a hand is a sequence of 24 counts");
        if (!hand) goto done;
        if (PySequence_Fast_GET_SIZE(hand) != KINDS) {
            Py_DECREF(hand);
            bad("a hand is a sequence of 24 counts");
            goto done;
        }
        p->masks[s] = 0;
        p->sizes[s] = 0;
        for (int k = 0; k < KINDS; k++) {
            int n;
            if (read_int(PySequence_Fast_GET_ITEM(hand, k), 0, COPIES, &n, "a count") < 0) {
                Py_DECREF(hand);
                goto done;
            }
            if (n && (NINES >> k & 1)) {
                Py_DECREF(hand);
                bad("the double deck has no nines");
                goto done;
            }
            p->counts[s][k] = n;
            p->sizes[s] += n;
            if (n) p->masks[s] |= BIT(k);
        }
        Py_DECREF(hand);
    }
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

static int read_trick(PyObject *obj, Position *p)
{
    PyObject *seq = PySequence_Fast(obj, "the trick is a sequence of (seat, card) pairs");
    if (!seq) return -1;
    int rc = -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 4) {
        bad("a trick holds at most four cards");
        goto done;
    }
    p->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i),
                                         "a trick's card is a (seat, card) pair");
        if (!pair) goto done;
        int ok = PySequence_Fast_GET_SIZE(pair) == 2 &&
                 read_int(PySequence_Fast_GET_ITEM(pair, 0), 0, 3, &p->seats[i], "a seat") == 0 &&
                 read_int(PySequence_Fast_GET_ITEM(pair, 1), 0, KINDS - 1, &p->cards[i],
                          "a card") == 0;
        Py_DECREF(pair);
        if (!ok) {
            if (!PyErr_Occurred()) bad("a trick's card is a (seat, card) pair");
            goto done;
        }
        if (NINES >> p->cards[i] & 1) {
            bad("the double deck has no nines");
            goto done;
        }
    }
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

static int read_fixed(PyObject *obj, Py_ssize_t size, long *out, int truth, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(seq) != size) {
        bad(what);
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (truth) {
            int t = PyObject_IsTrue(item);
            if (t < 0) goto done;
            out[i] = t;
        } else {
            out[i] = PyLong_AsLong(item);
            if (out[i] == -1 && PyErr_Occurred()) goto done;
        }
    }
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

static PyObject *py_playout(PyObject *self, PyObject *args)
{
    PyObject *hands, *trick, *flags_obj, *taken;
    int leader, trump;
    Position p;
    long flags[4], points[2];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiiOO", &hands, &trick, &leader, &trump, &flags_obj, &taken))
        return NULL;
    if (leader < 0 || leader > 3 || trump < 0 || trump > 3) {
        bad("the leader is a seat 0..3 and trump a suit 0..3");
        return NULL;
    }
    if (read_hands(hands, &p) < 0 || read_trick(trick, &p) < 0 ||
        read_fixed(flags_obj, 4, flags, 1, "the play flags are four booleans") < 0 ||
        read_fixed(taken, 2, points, 0, "the points taken are two ints") < 0)
        return NULL;
    PlayRules r = {(int)flags[0], (int)flags[1], (int)flags[2], (int)flags[3], 0};
    if (playout(&p, leader, trump, &r, points) < 0) return NULL;
    return Py_BuildValue("[ll]", points[0], points[1]);
}

/* ===== Mending a sampled deal (players/double/mend.py, the reference) =========== */

#define MEND_STEPS_MAX 1000000L /* mend.MEND_STEPS_MAX */
#define MELD_MAX 100000L        /* mend.MELD_MAX: no meld value or total comes near */

/* splitmix64 (mend.SplitMix): every draw of the mend, so C and Python swap alike. */
typedef struct { uint64_t state; } Mix;

static uint64_t mix_next(Mix *m)
{
    uint64_t z = (m->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int mix_below(Mix *m, int n) { return (int)(mix_next(m) % (uint64_t)n); }

static int imin(int a, int b) { return a < b ? a : b; }

/* The meld of 24 counts from meld.meld_table's 32 values (docs/rules.md §6 meld):
 * runs 0-4 at v[0..4], royal v[5], common v[6], arounds of A K Q J at v[7 + 5i ..],
 * pinochles at v[27..31]. */
static long table_meld(const long *v, const int *c, int trump)
{
    long total = 0;
    for (int s = 0; s < 4; s++) {
        int pairs = imin(c[KIND(s, KING)], c[KIND(s, QUEEN)]);
        if (s == trump) {
            int runs = COPIES;
            for (int i = 0; i < 5; i++) runs = imin(runs, c[KIND(s, RUN_RANKS[i])]);
            total += v[runs] + v[5] * (pairs - runs);
        } else {
            total += v[6] * pairs;
        }
    }
    for (int i = 0; i < 4; i++) {
        int least = COPIES;
        for (int s = 0; s < 4; s++) least = imin(least, c[KIND(s, AROUND_RANKS[i])]);
        total += v[7 + 5 * i + least];
    }
    return total + v[27 + imin(c[QS], c[JD])];
}

static long excess_of(const Position *h, const Position *played, const long *points,
                      const long *v, int trump, int s)
{
    int held[KINDS];
    for (int k = 0; k < KINDS; k++) held[k] = h->counts[s][k] + played->counts[s][k];
    return table_meld(v, held, trump) - points[s];
}

/* The meld table argument (meld.meld_table's 32 values, docs/rules.md §6 meld) into
 * values: 32 ints from 0 to MELD_MAX, else a ValueError saying so (mend.py's words). */
static int read_meld_table(PyObject *obj, long values[32])
{
    static const char what[] = "the meld table is 32 ints from 0 to 100000";
    if (read_fixed(obj, 32, values, 0, what) < 0) return -1;
    for (int i = 0; i < 32; i++) {
        if (values[i] < 0 || values[i] > MELD_MAX) return bad(what);
    }
    return 0;
}

/* mend.python_mend, step for step. */
static int mend(Position *h, const Position *known, const long *excluded,
                const Position *played, const long *points, int trump, const long *v,
                int seat, long steps, uint64_t seed)
{
    int others[3], n = 0;
    for (int s = 0; s < 4; s++)
        if (s != seat) others[n++] = s;
    long over[4] = {0, 0, 0, 0};
    for (int i = 0; i < 3; i++) over[others[i]] = excess_of(h, played, points, v, trump, others[i]);
    Mix mix = {seed};
    for (long step = 0; step < steps; step++) {
        int bad[3], nb = 0;
        for (int i = 0; i < 3; i++)
            if (over[others[i]]) bad[nb++] = others[i];
        if (!nb) return 1;
        int s = bad[mix_below(&mix, nb)];
        int rest[2], nr = 0;
        for (int i = 0; i < 3; i++)
            if (others[i] != s) rest[nr++] = others[i];
        int t = rest[mix_below(&mix, 2)];
        int give[KINDS], take[KINDS], ng = 0, nt = 0;
        for (int x = 0; x < KINDS; x++) {
            if (NINES >> x & 1) continue;
            if (h->counts[s][x] > known->counts[s][x] && !(excluded[t] >> x & 1)) give[ng++] = x;
            if (h->counts[t][x] > known->counts[t][x] && !(excluded[s] >> x & 1)) take[nt++] = x;
        }
        if (!ng || !nt) continue;
        int a = give[mix_below(&mix, ng)];
        int b = take[mix_below(&mix, nt)];
        if (a == b) continue;
        h->counts[s][a]--; h->counts[t][a]++; h->counts[t][b]--; h->counts[s][b]++;
        long es = excess_of(h, played, points, v, trump, s);
        long et = excess_of(h, played, points, v, trump, t);
        if (es + et > over[s] + over[t]) { /* undo a swap that adds unshown meld */
            h->counts[s][a]++; h->counts[t][a]--; h->counts[t][b]++; h->counts[s][b]--;
        } else {
            over[s] = es;
            over[t] = et;
        }
    }
    return !over[others[0]] && !over[others[1]] && !over[others[2]];
}

static PyObject *py_mend(PyObject *self, PyObject *args)
{
    PyObject *hands, *known_obj, *excluded_obj, *played_obj, *points_obj, *values_obj;
    int trump, seat;
    long steps;
    unsigned long long seed;
    Position h, known, played;
    long excluded[4], points[4], values[32];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOiOilK", &hands, &known_obj, &excluded_obj, &played_obj,
                          &points_obj, &trump, &values_obj, &seat, &steps, &seed))
        return NULL;
    if (trump < 0 || trump > 3 || seat < 0 || seat > 3 || steps < 0) {
        bad("trump is a suit 0..3, the seat 0..3 and the steps at least 0");
        return NULL;
    }
    if (read_hands(hands, &h) < 0 || read_hands(known_obj, &known) < 0 ||
        read_hands(played_obj, &played) < 0 ||
        read_fixed(excluded_obj, 4, excluded, 0, "the excluded kinds are four masks") < 0 ||
        read_fixed(points_obj, 4, points, 0, "the meld shown is four ints") < 0)
        return NULL;
    if (steps > MEND_STEPS_MAX) {
        bad("at most 1000000 steps");
        return NULL;
    }
    for (int k = 0; k < KINDS; k++) {
        int copies = 0;
        for (int s = 0; s < 4; s++) copies += h.counts[s][k] + played.counts[s][k];
        if (copies > COPIES) {
            PyErr_Format(PyExc_ValueError, "not a double-deck position: %d copies of kind %d "
                         "held and played, more than %d", copies, k, COPIES);
            return NULL;
        }
    }
    for (int s = 0; s < 4; s++) {
        if (points[s] < 0 || points[s] > MELD_MAX) {
            bad("the meld shown is four ints from 0 to 100000");
            return NULL;
        }
    }
    if (read_meld_table(values_obj, values) < 0) return NULL;
    int ok = mend(&h, &known, excluded, &played, points, trump, values, seat, steps,
                  (uint64_t)seed);
    PyObject *out = PyList_New(4);
    if (!out) return NULL;
    for (int s = 0; s < 4; s++) {
        PyObject *hand = PyList_New(KINDS);
        if (!hand) {
            Py_DECREF(out);
            return NULL;
        }
        for (int k = 0; k < KINDS; k++) PyList_SET_ITEM(hand, k, PyLong_FromLong(h.counts[s][k]));
        PyList_SET_ITEM(out, s, hand);
    }
    return Py_BuildValue("(NN)", PyBool_FromLong(ok), out);
}

/* mend.best_table_meld: the best meld of 24 counts over the four trump suits. */
static PyObject *py_best_meld(PyObject *self, PyObject *args)
{
    PyObject *counts_obj, *values_obj;
    long values[32], counts[KINDS];
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &counts_obj, &values_obj)) return NULL;
    if (read_fixed(counts_obj, KINDS, counts, 0, "a hand is a sequence of 24 counts") < 0)
        return NULL;
    int c[KINDS];
    for (int k = 0; k < KINDS; k++) {
        if (counts[k] < 0 || counts[k] > COPIES || (counts[k] && (NINES >> k & 1))) {
            bad("a hand holds 0 to 4 copies of each kind and no nine");
            return NULL;
        }
        c[k] = (int)counts[k];
    }
    if (read_meld_table(values_obj, values) < 0) return NULL;
    long best = 0;
    for (int t = 0; t < 4; t++) {
        long m = table_meld(values, c, t);
        if (m > best) best = m;
    }
    return PyLong_FromLong(best);
}

static PyMethodDef METHODS[] = {
    {"playout", py_playout, METH_VARARGS,
     "playout(hands, trick, leader, trump, flags, taken) -> [int, int]: the rest of a "
     "double-deck hand played by the standard card play; the arguments and the result "
     "of pinochlekit.players.double.policy.playout."},
    {"mend", py_mend, METH_VARARGS,
     "mend(hands, known, excluded, played, points, trump, values, seat, steps, seed) -> "
     "(bool, hands): pinochlekit.players.double.mend.python_mend in C, the same swaps."},
    {"best_meld", py_best_meld, METH_VARARGS,
     "best_meld(counts, values) -> int: pinochlekit.players.double.mend.best_table_meld."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_doublecore",
    "The double-deck play-out; use pinochlekit.players.double.policy.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__doublecore(void) { return PyModule_Create(&MODULE); }
