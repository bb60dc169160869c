/* The exact endgame solver of pinochlekit.players.search.solver, in C.
 *
 * Alpha-beta over the rest of the play with every hand known; the value is the
 * trick points of one team (docs/rules.md §1 Counting: the cards' points and 10 for
 * the last trick). Legal cards follow docs/rules.md §1 Play rules 1-3 with the §2
 * must-beat, trump-follows-trump and first-lead options, exactly as
 * pinochlekit.engine.tricks.follow_mask / legal_mask. A transposition table at trick
 * boundaries stores bounds; interchangeable kinds (same suit, same points, no
 * other card between them outside the hand) are searched once. The Python
 * module solver.py is the reference; tests/test_solver.py checks both against
 * a plain minimax.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "pinochle.h"

typedef struct {
    int trump;
    PlayRules play; /* first_lead_trump is set only when the search starts at the hand's
                     * first lead, and then holds for every lead, as in solver.py */
    int points[24];
    int bonus, team, out, size;
    uint32_t once[4], twice[4];
    int trick[4], seats[4], ntrick;
    int held; /* the points of the cards still in the hands (not in the trick) */
    long long nodes, limit; /* positions searched; at most limit of them (0: no limit) */
    int aborted;            /* the limit was reached: every value since is meaningless */
} Search;

/* Transposition table: key = the four hands and the leader; bounds low..high. Buckets
 * of two: the first slot keeps the entry with the most cards left (the costliest to
 * search again), the second the latest. */
typedef struct {
    uint64_t k[4];
    uint32_t gen;
    int16_t low, high;
    int16_t left; /* cards left in the hands: the deeper the search behind it, the more */
} Entry;

#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)
static Entry *table = NULL;
static uint32_t generation = 0;

/* The legal cards of a hand (pinochle.h legal_mask). */
static inline uint32_t legal(const Search *s, uint32_t once) {
    return legal_mask(&s->play, once, s->trick, s->ntrick, s->trump, 1);
}

/* Of each group of interchangeable kinds of ``once`` keep the lowest. */
static uint32_t groups(uint32_t once, uint32_t others, const int *points) {
    uint32_t keep = 0;
    for (int suit = 0; suit < 4; suit++) {
        int previous = -1;
        for (int kind = suit * 6; kind < suit * 6 + 6; kind++) {
            if (!((once >> kind) & 1u)) {
                if ((others >> kind) & 1u) previous = -1;
                continue;
            }
            int other = (others >> kind) & 1u;
            if (previous >= 0 && !other && points[kind] == points[previous]) continue;
            keep |= 1u << kind;
            previous = other ? -1 : kind;
        }
    }
    return keep;
}

static inline int next_seat(const Search *s, int seat) {
    seat = (seat + 1) % 4;
    return seat == s->out ? (seat + 1) % 4 : seat;
}

static int search(Search *s, int seat, int alpha, int beta);

/* The moves of ``seat`` in the order alpha-beta tries them (the order changes no
 * value, only how soon a branch is cut off): on a lead the higher cards first; on a
 * trick the partner wins, the cards with more points first; else the cheapest card
 * that takes the trick, then the other cards with the fewest points first. */
static int ordered(const Search *s, int seat, uint32_t moves, int *out) {
    int n = 0, win[24], lose[24], nw = 0, nl = 0;
    if (s->ntrick == 0) {
        while (moves) {
            int card = high_bit(moves);
            moves &= ~(1u << card);
            out[n++] = card;
        }
        return n;
    }
    int w = winner_index(s->trick, s->ntrick, s->trump);
    int high = s->trick[w];
    int partner_wins = s->seats[w] % 2 == seat % 2;
    while (moves) {
        int card = low_bit(moves);
        moves &= moves - 1;
        if (!partner_wins && beats(high, card, s->trump)) win[nw++] = card;
        else lose[nl++] = card;
    }
    /* insertion sorts by points: winners cheapest first, others by the rule above */
    for (int i = 1; i < nw; i++)
        for (int j = i; j > 0 && s->points[win[j]] < s->points[win[j - 1]]; j--) {
            int t = win[j]; win[j] = win[j - 1]; win[j - 1] = t;
        }
    for (int i = 1; i < nl; i++)
        for (int j = i; j > 0 && (partner_wins ? s->points[lose[j]] > s->points[lose[j - 1]]
                                               : s->points[lose[j]] < s->points[lose[j - 1]]);
             j--) {
            int t = lose[j]; lose[j] = lose[j - 1]; lose[j - 1] = t;
        }
    for (int i = 0; i < nw; i++) out[n++] = win[i];
    for (int i = 0; i < nl; i++) out[n++] = lose[i];
    return n;
}

/* After a card completed the trick: score it and search on from the winner. */
static int close_trick(Search *s, int alpha, int beta) {
    int w = s->seats[winner_index(s->trick, s->ntrick, s->trump)];
    int value = 0;
    for (int i = 0; i < s->ntrick; i++) value += s->points[s->trick[i]];
    if (!s->once[w]) value += s->bonus;
    int gained = (w % 2 == s->team) ? value : 0;
    int trick[4], seats[4], n = s->ntrick;
    memcpy(trick, s->trick, sizeof trick);
    memcpy(seats, s->seats, sizeof seats);
    s->ntrick = 0;
    int score = gained + search(s, w, alpha - gained, beta - gained);
    memcpy(s->trick, trick, sizeof trick);
    memcpy(s->seats, seats, sizeof seats);
    s->ntrick = n;
    return score;
}

static int search(Search *s, int seat, int alpha, int beta) {
    Entry *entry = NULL;
    uint64_t k[4] = {0, 0, 0, 0};
    int left = 0;
    if (s->limit && ++s->nodes > s->limit) {
        s->aborted = 1;
        return 0;
    }
    /* The value lies between 0 and every point still to be taken (the cards in the
     * hands and the trick, and the last trick's bonus): a window outside it is
     * answered at once with that bound. */
    int most = s->held + s->bonus;
    for (int i = 0; i < s->ntrick; i++) most += s->points[s->trick[i]];
    if (alpha >= most) return most;
    if (beta <= 0) return 0;
    if (s->ntrick == 0) {
        if (!s->once[seat]) return 0;
        uint64_t h = (uint64_t)seat;
        for (int i = 0; i < 4; i++) {
            k[i] = (uint64_t)s->once[i] | (uint64_t)s->twice[i] << 24;
            h = (h ^ k[i]) * 0x9E3779B97F4A7C15ull;
        }
        k[3] |= (uint64_t)seat << 48;
        Entry *bucket = &table[(h >> 29) & (TT_SIZE - 2)];
        entry = bucket[0].gen == generation && !memcmp(bucket[0].k, k, sizeof k) ? bucket
              : bucket + 1;
        if (entry->gen == generation && !memcmp(entry->k, k, sizeof k)) {
            int low = entry->low, high = entry->high;
            if (low >= beta || low == high) return low;
            if (high <= alpha) return high;
            if (low > alpha) alpha = low;
            if (high < beta) beta = high;
        }
        for (int i = 0; i < 4; i++) left += popcount(s->once[i]) + popcount(s->twice[i]);
        if (entry == bucket + 1 && !(entry->gen == generation && !memcmp(entry->k, k, sizeof k))
            && (bucket[0].gen != generation || bucket[0].left <= left))
            entry = bucket;
    }
    int maximize = seat % 2 == s->team;
    uint32_t others = 0;
    for (int o = 0; o < 4; o++) if (o != seat) others |= s->once[o];
    for (int i = 0; i < s->ntrick; i++) others |= 1u << s->trick[i];
    uint32_t moves = groups(legal(s, s->once[seat]), others, s->points);
    int order[24];
    int count = ordered(s, seat, moves, order);
    int best = maximize ? -1 : (1 << 30);
    int a = alpha, b = beta;
    for (int m = 0; m < count; m++) {
        int card = order[m];
        uint32_t bit = 1u << card;
        uint32_t o = s->once[seat], t = s->twice[seat];
        if (t & bit) s->twice[seat] = t & ~bit; else s->once[seat] = o & ~bit;
        s->trick[s->ntrick] = card;
        s->seats[s->ntrick] = seat;
        s->ntrick++;
        s->held -= s->points[card];
        int score;
        if (s->ntrick == s->size) score = close_trick(s, a, b);
        else score = search(s, next_seat(s, seat), a, b);
        s->held += s->points[card];
        s->ntrick--;
        s->once[seat] = o;
        s->twice[seat] = t;
        if (maximize) {
            if (score > best) { best = score; if (score > a) a = score; }
        } else if (score < best) {
            best = score;
            if (score < b) b = score;
        }
        if (a >= b) break;
    }
    if (entry) {
        int low = 0, high = 1 << 14;
        if (entry->gen == generation && !memcmp(entry->k, k, sizeof k)) {
            low = entry->low;
            high = entry->high;
        }
        if (best <= alpha) { if (best < high) high = best; }
        else if (best >= beta) { if (best > low) low = best; }
        else low = high = best;
        memcpy(entry->k, k, sizeof k);
        entry->gen = generation;
        entry->low = (int16_t)low;
        entry->high = (int16_t)high;
        entry->left = (int16_t)left;
    }
    return best;
}

/* The exact value at the root by zero-window searches (MTD(f), Plaat et al. 1996):
 * each search of a window one point wide tells whether the value is above or below
 * a guess; the bounds it leaves in the transposition table make the next one cheap.
 * ``seat`` is the seat to play, or -1 when the trick on the table is complete. */
static int exact(Search *s, int seat, int guess) {
    int low = 0, high = 1 << 14, value = guess;
    while (low < high && !s->aborted) {
        int beta = value == low ? value + 1 : value;
        value = seat < 0 ? close_trick(s, beta - 1, beta) : search(s, seat, beta - 1, beta);
        if (value < beta) high = value; else low = value;
    }
    return value;
}

/* Parse the arguments shared by solve and card_values. */
static int parse(PyObject *args, Search *s, int *to_act) {
    int trump, bits, bonus, out, team;
    Py_buffer points, trick;
    PyObject *hands;
    if (!PyArg_ParseTuple(args, "iiy*iO!y*iii", &trump, &bits, &points, &bonus, &PyTuple_Type,
                          &hands, &trick, to_act, &out, &team))
        return -1;
    int ok = 0;
    memset(s, 0, sizeof *s);
    if (trump < 0 || trump > 3 || team < 0 || team > 1 || *to_act < 0 || *to_act > 3
        || out < -1 || out > 3) {
        PyErr_SetString(PyExc_ValueError, "trump, seat or team out of range");
        ok = -1;
    } else if (points.len != 24 || PyTuple_GET_SIZE(hands) != 8 || trick.len % 2
               || trick.len > 6) {
        PyErr_SetString(PyExc_ValueError, "24 points, 8 hand masks and at most 3 plays needed");
        ok = -1;
    }
    if (!ok) {
        s->trump = trump;
        s->play.beat_follow = bits & 1;
        s->play.beat_trump_led = (bits >> 1) & 1;
        s->play.over_trump = (bits >> 2) & 1;
        s->play.trump_follows = (bits >> 3) & 1;
        s->play.first_lead_trump = (bits >> 4) & 1;
        for (int k = 0; k < 24; k++) s->points[k] = ((unsigned char *)points.buf)[k];
        s->bonus = bonus;
        s->team = team;
        s->out = out;
        s->size = out >= 0 ? 3 : 4;
        for (int i = 0; i < 8 && !ok; i++) {
            unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(hands, i));
            if (PyErr_Occurred() || v >> 24) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "hand masks are 24-bit whole numbers");
                ok = -1;
            } else if (i % 2) {
                s->twice[i / 2] = (uint32_t)v;
            } else {
                s->once[i / 2] = (uint32_t)v;
            }
        }
        for (int i = 0; i < 4; i++)
            for (int kind = 0; kind < 24; kind++)
                s->held += s->points[kind] * ((int)((s->once[i] >> kind) & 1u)
                                              + (int)((s->twice[i] >> kind) & 1u));
        const unsigned char *t = trick.buf;
        s->ntrick = (int)(trick.len / 2);
        for (int i = 0; i < s->ntrick && !ok; i++) {
            if (t[2 * i] > 3 || t[2 * i + 1] > 23) {
                PyErr_SetString(PyExc_ValueError, "bad play in the trick");
                ok = -1;
            }
            s->seats[i] = t[2 * i];
            s->trick[i] = t[2 * i + 1];
        }
        if (!ok && s->ntrick >= s->size) {
            PyErr_SetString(PyExc_ValueError, "the trick is already complete");
            ok = -1;
        }
    }
    PyBuffer_Release(&points);
    PyBuffer_Release(&trick);
    if (!ok && !table) {
        table = PyMem_Calloc(TT_SIZE, sizeof(Entry));
        if (!table) { PyErr_NoMemory(); ok = -1; }
    }
    if (!ok) {
        generation++;
        if (!generation) {  /* wrapped: clear for real */
            memset(table, 0, TT_SIZE * sizeof(Entry));
            generation = 1;
        }
    }
    return ok;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Search s;
    int to_act;
    if (parse(args, &s, &to_act) < 0) return NULL;
    int value;
    value = exact(&s, to_act, s.held / 2);
    return PyLong_FromLong(value);
}

/* solve() searching at most ``limit`` positions: (value, positions searched), the value
 * None when the limit is not enough. The count of positions, unlike a clock, is the
 * same on every machine. */
static PyObject *py_solve_within(PyObject *self, PyObject *args) {
    Search s;
    int to_act;
    long long limit;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n < 1) {
        PyErr_SetString(PyExc_TypeError, "solve_within(limit, ...solve's arguments)");
        return NULL;
    }
    limit = PyLong_AsLongLong(PyTuple_GET_ITEM(args, 0));
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (limit < 1) {
        PyErr_SetString(PyExc_ValueError, "the limit is a positive number of positions");
        return NULL;
    }
    PyObject *rest = PyTuple_GetSlice(args, 1, n);
    if (!rest) return NULL;
    int failed = parse(rest, &s, &to_act) < 0;
    Py_DECREF(rest);
    if (failed) return NULL;
    s.limit = limit;
    int value = exact(&s, to_act, s.held / 2);
    if (s.aborted) {
        generation++; /* the bounds stored since the limit was reached are wrong */
        if (!generation) {
            memset(table, 0, TT_SIZE * sizeof(Entry));
            generation = 1;
        }
        return Py_BuildValue("(OL)", Py_None, s.nodes);
    }
    return Py_BuildValue("(iL)", value, s.nodes);
}

static PyObject *py_card_values(PyObject *self, PyObject *args) {
    Search s;
    int to_act;
    if (parse(args, &s, &to_act) < 0) return NULL;
    uint32_t moves = legal(&s, s.once[to_act]);
    int values[24];
    uint32_t done = moves;
    int guess = s.held / 2;
    while (moves) {
        int card = low_bit(moves);
        uint32_t bit = 1u << card;
        moves &= moves - 1;
        uint32_t o = s.once[to_act], t = s.twice[to_act];
        if (t & bit) s.twice[to_act] = t & ~bit; else s.once[to_act] = o & ~bit;
        s.trick[s.ntrick] = card;
        s.seats[s.ntrick] = to_act;
        s.ntrick++;
        s.held -= s.points[card];
        values[card] = exact(&s, s.ntrick == s.size ? -1 : next_seat(&s, to_act), guess);
        guess = values[card];
        s.held += s.points[card];
        s.ntrick--;
        s.once[to_act] = o;
        s.twice[to_act] = t;
    }
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int card = 0; card < 24; card++) {
        if (!((done >> card) & 1u)) continue;
        PyObject *pair = Py_BuildValue("(ii)", card, values[card]);
        if (!pair || PyList_Append(out, pair) < 0) {
            Py_XDECREF(pair);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(pair);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(trump, flags, points, bonus, hands, trick, to_act, sitting_out, team) -> int"},
    {"solve_within", py_solve_within, METH_VARARGS,
     "solve_within(limit, trump, flags, points, bonus, hands, trick, to_act, sitting_out,"
     " team) -> (int | None, positions)"},
    {"card_values", py_card_values, METH_VARARGS,
     "card_values(trump, flags, points, bonus, hands, trick, to_act, sitting_out, team)"
     " -> [(card, value)]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver",
    "Exact endgame solver (see pinochlekit.players.search.solver).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&module); }
