/*
 * _table.c: the play phase of one hand, for Game's checked hot path.
 *
 * game.py keeps the pure-Python play phase (`Game._play`, `Game._play_mask`) as the
 * reference and the fallback; when this extension is built, Game hands the state of
 * the play phase to a `Table` and its `legal_actions()` / `apply()` for a card call
 * `Table.legal()` / `Table.play()`. The Table writes every change straight into the
 * Game's own lists (hands, current trick, finished tricks, trick points), so the rest
 * of the Game (views, scoring, undo, copy) reads the same state either way.
 * tests/test_engine_speedpaths.py plays random games both ways and compares them.
 *
 * Nothing here assumes four seats: the number of seats, the seats per trick and the
 * team of each seat are parameters. Kinds are suit * 6 + rank (cards.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pinochle.h"

#define MAX_SEATS 8

typedef struct {
    PyObject_HEAD
    int n;                  /* seats at the table (rules.players) */
    int size;               /* cards in a full trick: n, or n - 1 while a seat sits out */
    int sitting;            /* the seat that sits out (shoot the moon), or -1 */
    int to_act, trump;
    PlayRules play;         /* tricks.must_beat_flags, trump follows trump, first lead */
    int points[24];         /* trick points of each kind (tricks.card_points) */
    int last_bonus;         /* docs/rules.md §1 Counting: the last trick's 10, in the game's scale */
    int team[MAX_SEATS];    /* rules.team_of(seat) */
    int n_teams;
    Mask once[MAX_SEATS], twice[MAX_SEATS];
    int cards[MAX_SEATS], seats[MAX_SEATS], count; /* the trick being played */
    int high, high_seat;    /* its winning card so far and who played it */
    int tricks_done;
    int team_points[MAX_SEATS];
    int mask_valid;
    Mask mask;
    /* The Game's lists, kept equal to the fields above. */
    PyObject *once_list, *twice_list, *trick_list, *seats_list, *tricks_list, *points_list;
    PyObject *card_objects;  /* tuple: the 24 Card instances (cards.ALL_CARDS) */
    PyObject *play_objects;  /* tuple: the 24 Play actions (actions.PLAYS) */
    PyObject *trick_type;    /* views.Trick */
    PyObject *concede;       /* tuple: ThrowIn (and Moon), legal before the first card */
} TableObject;

static PyTypeObject TableType;

/* The legal plays of the seat to act (pinochle.h: lead_mask, follow_mask), kept
 * until the next card. */
static Mask legal_now(TableObject *t)
{
    if (!t->mask_valid) {
        Mask hand = t->once[t->to_act];
        if (t->count)
            t->mask = follow_mask(&t->play, hand, SUIT_OF(t->cards[0]), t->high, t->trump);
        else
            t->mask = lead_mask(&t->play, hand, t->trump, t->tricks_done == 0);
        t->mask_valid = 1;
    }
    return t->mask;
}

static int set_mask_item(PyObject *list, int i, Mask value)
{
    PyObject *v = PyLong_FromUnsignedLong(value);
    if (!v) return -1;
    return PyList_SetItem(list, i, v); /* steals v */
}

static int read_masks(PyObject *list, Mask *out, int n, const char *name)
{
    if (!PyList_CheckExact(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of %d masks", name, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyList_GET_ITEM(list, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
        if (v >> 24) {
            PyErr_Format(PyExc_ValueError, "%s: not a 24-bit mask", name);
            return -1;
        }
        out[i] = (Mask)v;
    }
    return 0;
}

static int read_int_tuple(PyObject *seq, int *out, int n, const char *name)
{
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of %d ints", name, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        out[i] = (int)v;
    }
    return 0;
}

static int Table_traverse(TableObject *t, visitproc visit, void *arg)
{
    Py_VISIT(t->once_list); Py_VISIT(t->twice_list); Py_VISIT(t->trick_list);
    Py_VISIT(t->seats_list); Py_VISIT(t->tricks_list); Py_VISIT(t->points_list);
    Py_VISIT(t->card_objects); Py_VISIT(t->play_objects); Py_VISIT(t->trick_type);
    Py_VISIT(t->concede);
    return 0;
}

static int Table_clear(TableObject *t)
{
    Py_CLEAR(t->once_list); Py_CLEAR(t->twice_list); Py_CLEAR(t->trick_list);
    Py_CLEAR(t->seats_list); Py_CLEAR(t->tricks_list); Py_CLEAR(t->points_list);
    Py_CLEAR(t->card_objects); Py_CLEAR(t->play_objects); Py_CLEAR(t->trick_type);
    Py_CLEAR(t->concede);
    return 0;
}

static void Table_dealloc(TableObject *t)
{
    PyObject_GC_UnTrack(t);
    Table_clear(t);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* Bind the Game's lists (shared by Table() and Table.clone()). */
static int bind_lists(TableObject *t, PyObject *once, PyObject *twice, PyObject *trick,
                      PyObject *seats, PyObject *tricks, PyObject *points)
{
    PyObject *lists[6] = {once, twice, trick, seats, tricks, points};
    for (int i = 0; i < 6; i++)
        if (!PyList_CheckExact(lists[i])) {
            PyErr_SetString(PyExc_TypeError, "Table needs the Game's lists");
            return -1;
        }
    if (PyList_GET_SIZE(points) != t->n_teams) {
        PyErr_SetString(PyExc_ValueError, "trick points: one entry per team");
        return -1;
    }
    if (read_masks(once, t->once, t->n, "once") < 0) return -1;
    if (read_masks(twice, t->twice, t->n, "twice") < 0) return -1;
    for (int s = 0; s < t->n; s++)
        if (t->twice[s] & ~t->once[s]) {
            PyErr_SetString(PyExc_ValueError, "twice must be a subset of once");
            return -1;
        }
    for (int i = 0; i < t->n_teams; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(points, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        t->team_points[i] = (int)v;
    }
    Py_INCREF(once); Py_XSETREF(t->once_list, once);
    Py_INCREF(twice); Py_XSETREF(t->twice_list, twice);
    Py_INCREF(trick); Py_XSETREF(t->trick_list, trick);
    Py_INCREF(seats); Py_XSETREF(t->seats_list, seats);
    Py_INCREF(tricks); Py_XSETREF(t->tricks_list, tricks);
    Py_INCREF(points); Py_XSETREF(t->points_list, points);
    return 0;
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kw[] = {"n", "leader", "trump", "flags", "first_lead_trump", "points",
                         "last_bonus", "teams", "once", "twice", "trick", "seats", "tricks",
                         "trick_points", "cards", "plays", "trick_type", "concede", NULL};
    int n, leader, trump, first_lead_trump, last_bonus;
    int flags[4];
    PyObject *flag_tuple, *points, *teams, *once, *twice, *trick, *seats, *tricks;
    PyObject *trick_points, *cards, *plays, *trick_type, *concede;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiO!pO!iO!OOOOOOO!O!O!O!:Table", kw,
            &n, &leader, &trump, &PyTuple_Type, &flag_tuple, &first_lead_trump,
            &PyTuple_Type, &points, &last_bonus, &PyTuple_Type, &teams, &once, &twice,
            &trick, &seats, &tricks, &trick_points, &PyTuple_Type, &cards, &PyTuple_Type,
            &plays, &PyType_Type, &trick_type, &PyTuple_Type, &concede))
        return NULL;
    if (n < 2 || n > MAX_SEATS || leader < 0 || leader >= n || trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "Table: bad seat count, leader or trump");
        return NULL;
    }
    if (PyTuple_GET_SIZE(cards) != 24 || PyTuple_GET_SIZE(plays) != 24
            || !PyType_IsSubtype((PyTypeObject *)trick_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Table: 24 cards, 24 plays and a tuple type");
        return NULL;
    }
    TableObject *t = (TableObject *)type->tp_alloc(type, 0);
    if (!t) return NULL;
    t->n = n;
    t->size = n;
    t->sitting = -1;
    t->to_act = leader;
    t->trump = trump;
    if (read_int_tuple(flag_tuple, flags, 4, "flags") < 0
            || read_int_tuple(points, t->points, 24, "points") < 0
            || read_int_tuple(teams, t->team, n, "teams") < 0)
        goto fail;
    t->play.beat_follow = flags[0];
    t->play.beat_trump_led = flags[1];
    t->play.over_trump = flags[2];
    t->play.trump_follows = flags[3];
    t->play.first_lead_trump = first_lead_trump;
    t->last_bonus = last_bonus;
    t->n_teams = 0;
    for (int s = 0; s < n; s++) {
        if (t->team[s] < 0 || t->team[s] >= MAX_SEATS) {
            PyErr_SetString(PyExc_ValueError, "Table: bad team");
            goto fail;
        }
        if (t->team[s] + 1 > t->n_teams) t->n_teams = t->team[s] + 1;
    }
    if (!PyList_CheckExact(trick) || PyList_GET_SIZE(trick) != 0
            || !PyList_CheckExact(tricks) || PyList_GET_SIZE(tricks) != 0) {
        PyErr_SetString(PyExc_ValueError, "Table starts a play phase: no card played yet");
        goto fail;
    }
    if (bind_lists(t, once, twice, trick, seats, tricks, trick_points) < 0) goto fail;
    Py_INCREF(cards); t->card_objects = cards;
    Py_INCREF(plays); t->play_objects = plays;
    Py_INCREF(trick_type); t->trick_type = trick_type;
    Py_INCREF(concede); t->concede = concede;
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

/* legal() -> list[Action]: the legal plays of the seat to act, lowest kind first, then
 * the `concede` actions while they are allowed: before the first card, and not after
 * shooting the moon (game.py `Game._may_concede`, docs/rules.md §1 Not on the board). */
static PyObject *Table_legal(TableObject *t, PyObject *Py_UNUSED(ignored))
{
    Mask m = legal_now(t);
    int plays = popcount(m);
    Py_ssize_t extra = t->count == 0 && t->tricks_done == 0 && t->sitting < 0
        ? PyTuple_GET_SIZE(t->concede) : 0;
    PyObject *out = PyList_New(plays + extra);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; m; i++, m &= m - 1) {
        PyObject *play = PyTuple_GET_ITEM(t->play_objects, low_bit(m));
        Py_INCREF(play);
        PyList_SET_ITEM(out, i, play);
    }
    for (Py_ssize_t i = 0; i < extra; i++) {
        PyObject *action = PyTuple_GET_ITEM(t->concede, i);
        Py_INCREF(action);
        PyList_SET_ITEM(out, plays + i, action);
    }
    return out;
}

static PyObject *Table_mask(TableObject *t, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong(legal_now(t));
}

/* The finished trick as a views.Trick(leader, cards, seats, winner, points). */
static PyObject *make_trick(TableObject *t, int winner, int points)
{
    PyObject *cards = PyTuple_New(t->count), *seats = PyTuple_New(t->count);
    PyObject *out = NULL;
    if (!cards || !seats) goto done;
    for (int i = 0; i < t->count; i++) {
        PyObject *card = PyTuple_GET_ITEM(t->card_objects, t->cards[i]);
        Py_INCREF(card);
        PyTuple_SET_ITEM(cards, i, card);
        PyObject *seat = PyLong_FromLong(t->seats[i]);
        if (!seat) goto done;
        PyTuple_SET_ITEM(seats, i, seat);
    }
    PyObject *leader = PyLong_FromLong(t->seats[0]), *who = PyLong_FromLong(winner);
    PyObject *worth = PyLong_FromLong(points);
    if (leader && who && worth) {
        /* A NamedTuple subclass of tuple (no __dict__): allocated and filled as
         * tuple.__new__(Trick, fields) does it, without the intermediate tuples. */
        PyTypeObject *type = (PyTypeObject *)t->trick_type;
        out = type->tp_alloc(type, 5);
    }
    if (!out) {
        Py_XDECREF(leader); Py_XDECREF(who); Py_XDECREF(worth);
        goto done;
    }
    PyTuple_SET_ITEM(out, 0, leader);
    PyTuple_SET_ITEM(out, 1, cards);
    PyTuple_SET_ITEM(out, 2, seats);
    PyTuple_SET_ITEM(out, 3, who);
    PyTuple_SET_ITEM(out, 4, worth);
    return out; /* cards and seats now belong to the trick */
done:
    Py_XDECREF(cards); Py_XDECREF(seats);
    return out;
}

/* play(card) -> int: play a card for the seat to act. Returns the next seat to act,
 * -2 when that card ended the hand (the last trick is taken), or -1, changing nothing,
 * when the card is not a legal play. */
static PyObject *Table_play(TableObject *t, PyObject *arg)
{
    long card = PyLong_AsLong(arg);
    if (card == -1 && PyErr_Occurred()) {
        PyErr_Clear(); /* not a kind: the caller's checked path explains */
        return PyLong_FromLong(-1);
    }
    if (card < 0 || card >= 24 || !(legal_now(t) >> card & 1)) return PyLong_FromLong(-1);
    int seat = t->to_act;
    Mask bit = BIT(card);
    /* Compute the new state, then write the Game's lists, then commit. */
    Mask once = t->once[seat], twice = t->twice[seat];
    if (twice & bit) twice &= ~bit; else once &= ~bit;
    if (set_mask_item(t->once_list, seat, once) < 0
            || set_mask_item(t->twice_list, seat, twice) < 0)
        return NULL;
    PyObject *seat_obj = PyLong_FromLong(seat);
    if (!seat_obj) return NULL;
    if (PyList_Append(t->trick_list, PyTuple_GET_ITEM(t->card_objects, card)) < 0
            || PyList_Append(t->seats_list, seat_obj) < 0) {
        Py_DECREF(seat_obj);
        return NULL;
    }
    Py_DECREF(seat_obj);
    t->once[seat] = once;
    t->twice[seat] = twice;
    t->cards[t->count] = (int)card;
    t->seats[t->count] = seat;
    t->count++;
    t->mask_valid = 0;
    /* The winning card so far (docs/rules.md §1 Play; pinochle.h beats). */
    if (t->count == 1 || beats(t->high, (int)card, t->trump)) {
        t->high = (int)card;
        t->high_seat = seat;
    }
    if (t->count < t->size) {
        int next = (seat + 1) % t->n;
        if (next == t->sitting) next = (next + 1) % t->n; /* docs/rules.md §2 shoot the moon */
        t->to_act = next;
        return PyLong_FromLong(next);
    }
    int winner = t->high_seat, points = 0;
    for (int i = 0; i < t->count; i++) points += t->points[t->cards[i]];
    int last = t->once[winner] == 0;
    if (last) points += t->last_bonus; /* docs/rules.md §1 Counting: last trick 10 */
    int team = t->team[winner];
    PyObject *trick = make_trick(t, winner, points);
    if (!trick) return NULL;
    int failed = PyList_Append(t->tricks_list, trick) < 0;
    Py_DECREF(trick);
    if (failed || set_mask_item(t->points_list, team, (Mask)(t->team_points[team] + points)) < 0
            || PyList_SetSlice(t->trick_list, 0, PY_SSIZE_T_MAX, NULL) < 0
            || PyList_SetSlice(t->seats_list, 0, PY_SSIZE_T_MAX, NULL) < 0)
        return NULL;
    t->team_points[team] += points;
    t->count = 0;
    t->tricks_done++;
    t->to_act = winner;
    return PyLong_FromLong(last ? -2 : winner);
}

/* sit_out(seat): docs/rules.md §2 shoot the moon: the declarer's partner sits out. */
static PyObject *Table_sit_out(TableObject *t, PyObject *arg)
{
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= t->n || t->count || t->tricks_done || t->sitting >= 0) {
        PyErr_SetString(PyExc_ValueError, "sit_out: a seat, once, before the first card");
        return NULL;
    }
    t->sitting = (int)seat;
    t->size = t->n - 1;
    if (t->to_act == seat) t->to_act = (t->to_act + 1) % t->n;
    t->mask_valid = 0;
    Py_RETURN_NONE;
}

/* clone(once, twice, trick, seats, tricks, trick_points): the same position, bound to
 * another Game's copies of these lists (Game.copy). */
static PyObject *Table_clone(TableObject *t, PyObject *args)
{
    PyObject *once, *twice, *trick, *seats, *tricks, *points;
    if (!PyArg_ParseTuple(args, "OOOOOO:clone", &once, &twice, &trick, &seats, &tricks,
                          &points))
        return NULL;
    TableObject *c = (TableObject *)TableType.tp_alloc(&TableType, 0);
    if (!c) return NULL;
    /* Copy the plain fields, then take references of our own. */
    size_t head = offsetof(TableObject, n);
    memcpy((char *)c + head, (char *)t + head, offsetof(TableObject, once_list) - head);
    if (PyList_CheckExact(trick) && PyList_GET_SIZE(trick) != t->count) {
        PyErr_SetString(PyExc_ValueError, "clone: the trick lists differ");
        Py_DECREF(c);
        return NULL;
    }
    if (bind_lists(c, once, twice, trick, seats, tricks, points) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    Py_INCREF(t->card_objects); c->card_objects = t->card_objects;
    Py_INCREF(t->play_objects); c->play_objects = t->play_objects;
    Py_INCREF(t->trick_type); c->trick_type = t->trick_type;
    Py_INCREF(t->concede); c->concede = t->concede;
    return (PyObject *)c;
}

static PyObject *Table_get_to_act(TableObject *t, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(t->to_act);
}

static PyMethodDef Table_methods[] = {
    {"legal", (PyCFunction)Table_legal, METH_NOARGS,
     "legal() -> list of the legal Play actions of the seat to act, lowest kind first"},
    {"mask", (PyCFunction)Table_mask, METH_NOARGS, "mask() -> the legal kinds as a mask"},
    {"play", (PyCFunction)Table_play, METH_O,
     "play(card) -> next seat to act; -2: the hand is over; -1: illegal, nothing changed"},
    {"sit_out", (PyCFunction)Table_sit_out, METH_O,
     "sit_out(seat): that seat sits out the play (shoot the moon)"},
    {"clone", (PyCFunction)Table_clone, METH_VARARGS,
     "clone(once, twice, trick, seats, tricks, trick_points) -> Table bound to these lists"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Table_getset[] = {
    {"to_act", (getter)Table_get_to_act, NULL, "the seat to play next", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pinochlekit.native._table.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The play phase of one hand, writing into a Game's lists (see game.py).",
    .tp_new = Table_new,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_traverse = (traverseproc)Table_traverse,
    .tp_clear = (inquiry)Table_clear,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
};

/* deal_masks(digest, dealer, players) -> (once, twice) of each seat: deals.deal after
 * SHAKE-256. The 48 big-endian 64-bit keys of `digest` order the positions of the
 * unshuffled deck (position p holds kind p / 2; equal keys keep that order), and the
 * shuffled deck goes out three cards at a time from the dealer's left (docs/rules.md §1 Deal). */
static PyObject *py_deal_masks(PyObject *Py_UNUSED(module), PyObject *args)
{
    Py_buffer digest;
    int dealer, players;
    if (!PyArg_ParseTuple(args, "y*ii:deal_masks", &digest, &dealer, &players)) return NULL;
    if (digest.len != 48 * 8 || players < 1 || players > MAX_SEATS || dealer < 0
            || dealer >= players) {
        PyBuffer_Release(&digest);
        PyErr_SetString(PyExc_ValueError, "deal_masks: 384 bytes, a dealer and 1-8 seats");
        return NULL;
    }
    const unsigned char *bytes = digest.buf;
    uint64_t keys[48];
    int order[48], spare[48];
    for (int i = 0; i < 48; i++) {
        uint64_t k = 0;
        for (int b = 0; b < 8; b++) k = k << 8 | bytes[8 * i + b];
        keys[i] = k;
        order[i] = i;
    }
    PyBuffer_Release(&digest);
    /* A stable bottom-up merge sort of the positions by key: of equal keys the earlier
     * position stays first (the left run wins ties). */
    int *from = order, *to = spare;
    for (int width = 1; width < 48; width *= 2) {
        for (int lo = 0; lo < 48; lo += 2 * width) {
            int mid = lo + width < 48 ? lo + width : 48;
            int hi = lo + 2 * width < 48 ? lo + 2 * width : 48;
            int a = lo, b = mid, out = lo;
            while (a < mid && b < hi)
                to[out++] = keys[from[b]] < keys[from[a]] ? from[b++] : from[a++];
            while (a < mid) to[out++] = from[a++];
            while (b < hi) to[out++] = from[b++];
        }
        int *swap = from; from = to; to = swap;
    }
    Mask once[MAX_SEATS] = {0}, twice[MAX_SEATS] = {0};
    int per_hand = 48 / players;
    for (int i = 0; i < per_hand * players; i++) {
        int seat = (dealer + 1 + i / 3) % players;
        Mask bit = BIT(from[i] / 2);
        if (once[seat] & bit) twice[seat] |= bit; else once[seat] |= bit;
    }
    PyObject *out = PyTuple_New(2 * players);
    if (!out) return NULL;
    for (int s = 0; s < players; s++) {
        PyObject *a = PyLong_FromUnsignedLong(once[s]), *b = PyLong_FromUnsignedLong(twice[s]);
        if (!a || !b) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, 2 * s, a);
        PyTuple_SET_ITEM(out, 2 * s + 1, b);
    }
    return out;
}

/* meld_masks(once, twice, trump, special, marries, unit) -> (points, shown_once,
 * shown_twice): the total and the cards shown of meld.meld_of_masks with
 * meld_reuse="per_class" (docs/rules.md §1 Meld: a card may serve once in each class), for
 * Game's hot path; meld.py builds (and memoizes) the itemized result from the cards
 * shown alone, with its Python reference. trump is -1 before trump is named; special: doubles =
 * "special" (docs/rules.md §2 double melds), else twice the single value; marries:
 * run_extra = "marries". Values are the ordinary scale divided by unit. A count of a
 * kind is 0, 1 or 2: the once bit plus the twice bit. */

/* docs/rules.md §1.7 Meld table; §2 double melds: the value of each meld and of its
 * double, in pinochle.h's M_* order, in the game's scale (meld._values). */
static void meld_value_table(int special, int unit, int *v)
{
    static const int single[M_COUNT] = {150, 0, 40, 20, 10, 100, 0, 80, 0, 60, 0, 40, 0,
                                        40, 0};
    static const int special_double[M_COUNT] = {0, 1500, 0, 0, 0, 0, 1000, 0, 800, 0, 600,
                                                0, 400, 0, 300};
    for (int m = 0; m < M_COUNT; m++) { /* a double has no single value: it follows its single */
        int value = single[m] ? single[m] : special ? special_double[m] : 2 * single[m - 1];
        v[m] = value / unit;
    }
}

static PyObject *py_meld_masks(PyObject *Py_UNUSED(module), PyObject *args)
{
    unsigned long once_l, twice_l;
    int trump, special, marries, unit;
    if (!PyArg_ParseTuple(args, "kkippi:meld_masks", &once_l, &twice_l, &trump, &special,
                          &marries, &unit))
        return NULL;
    if ((once_l | twice_l) >> 24 || twice_l & ~once_l || trump < -1 || trump > 3
            || unit < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "meld_masks: 24-bit masks (twice within once), trump -1 to 3, unit >= 1");
        return NULL;
    }
    /* the values of the last (special, unit) asked, kept: a game asks for one */
    static int v[M_COUNT], v_special = -1, v_unit = -1;
    if (special != v_special || unit != v_unit) {
        meld_value_table(special, unit, v);
        v_special = special;
        v_unit = unit;
    }
    int c[KINDS], need[KINDS];
    for (int k = 0; k < KINDS; k++) c[k] = (int)(once_l >> k & 1) + (int)(twice_l >> k & 1);
    long points = meld_per_class_counts(v, marries, c, trump, need);
    Mask so = 0, st = 0;
    for (int k = 0; k < KINDS; k++) {
        if (need[k] >= 1) so |= BIT(k);
        if (need[k] >= 2) st |= BIT(k);
    }
    return Py_BuildValue("(lkk)", points, (unsigned long)so, (unsigned long)st);
}

static PyMethodDef module_methods[] = {
    {"deal_masks", py_deal_masks, METH_VARARGS,
     "deal_masks(digest, dealer, players) -> (once, twice) masks of each seat"},
    {"meld_masks", py_meld_masks, METH_VARARGS,
     "meld_masks(once, twice, trump, special, marries, unit) -> (points, shown_once, "
     "shown_twice) of meld_reuse='per_class'"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_table",
    "The play phase of a hand and the deal in C, for pinochlekit.engine.game and deals "
    "(optional accelerators).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__table(void)
{
    if (PyType_Ready(&TableType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
