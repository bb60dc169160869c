/*
 * _core.c: the fast simulation core of pinochlekit.
 *
 * A C twin of the Python engine's play, meld and scoring (tricks.py, meld.py,
 * game.py `_finish`) and of the `standard` computer player of docs/players.md,
 * for rollouts and bid simulations. The Python engine is the reference:
 * tests/test_fastcore.py checks this file against it, result for result.
 * Three-handed hands (docs/rules.md §3: three seats, the pile set aside as a fourth
 * hand, each player's score) are simulated by simulate_deals, checked against
 * the Python simulator by tests/test_fastcore_three.py; the other functions
 * play the four-handed game.
 * Use it through pinochlekit.players.search.fastcore, never directly.
 *
 * Sections:
 *   1. cards and multisets as masks      6. the standard player: card play
 *   2. the rules struct (a Python type)  7. the standard and pro passing orders
 *   3. trick play: legal cards, winner   8. random numbers and hidden-card deals
 *   4. meld                              9. bid rounds (passing, meld, play)
 *   5. a hand in play, memory, scoring  10. the Python functions, rollouts
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "pinochle.h"

/* ===== 1. Cards and multisets (docs/rules.md §1 Deck; cards.py) ================
 * Kinds and masks are pinochle.h's. A multiset of cards, at most two of a kind, is
 * two 24-bit masks: `one` (held at least once) and `two` (held twice), like
 * cards.Hand. */

typedef struct { Mask one, two; } Cards;

#define HAND_SIZE 12      /* four-handed; three-handed: 15 (docs/rules.md §3) */
#define TRICKS 12
#define THREE_HAND_SIZE 15

static Mask RANK_MASK[6]; /* the four kinds of each rank */
static const Cards FULL_DECK = {DECK_MASK, DECK_MASK};
static const Cards NO_CARDS = {0, 0};

static inline int count_of(Cards h, int k) { return (int)(h.one >> k & 1) + (int)(h.two >> k & 1); }
static inline int cards_len(Cards h) { return popcount(h.one) + popcount(h.two); }

static inline Cards add_card(Cards h, int k)
{
    if (h.one & BIT(k)) h.two |= BIT(k); else h.one |= BIT(k);
    return h;
}

static inline Cards remove_card(Cards h, int k)
{
    if (h.two & BIT(k)) h.two &= ~BIT(k); else h.one &= ~BIT(k);
    return h;
}

/* Per kind max(0, x - y): what is left of x once y is taken away. */
static inline Cards cards_minus(Cards x, Cards y)
{
    Cards r = {(x.one & ~y.one) | (x.two & ~y.two), x.two & ~y.one};
    return r;
}

/* Per kind max(x, y). */
static inline Cards cards_max(Cards x, Cards y)
{
    Cards r = {x.one | y.one, x.two | y.two};
    return r;
}

/* Per kind min(2, x + y). */
static inline Cards cards_plus(Cards x, Cards y)
{
    Cards r = {x.one | y.one, x.two | y.two | (x.one & y.one)};
    return r;
}

static void counts_of(Cards h, int *c)
{
    for (int k = 0; k < 24; k++) c[k] = count_of(h, k);
}

static void init_tables(void)
{
    for (int r = 0; r < 6; r++)
        RANK_MASK[r] = BIT(r) | BIT(6 + r) | BIT(12 + r) | BIT(18 + r);
}

/* ===== 2. The rules (rules.py, docs/rules.md §2), flattened by fastcore ======== */

/* Meld values in the game's own scale are in the order of pinochle.h's M_* (meld.meld_values). */
enum { PENALTY_CONTRACT, PENALTY_CHIPS, PENALTY_SHORTFALL };

typedef struct {
    PlayRules play;     /* tricks.must_beat_flags, trump follows trump, first lead */
    int points[24];     /* trick points of each kind (tricks.card_points) */
    Mask counters;      /* kinds worth trick points (docs/players.md "Counter") */
    int last_bonus;     /* the last trick's 10 (1 with divide_by_ten) */
    int trick_total;    /* all trick points of a hand: 250 (25) */
    int meld[M_COUNT];
    int run_marries;    /* run_extra == "marries" */
    int reuse_once;     /* meld_reuse == "once" */
    int save_needs_trick, set_penalty, set_forfeits_meld;
    int moon_value;     /* 1000 (100) for a moon made */
    int cards_passed;
    int players;        /* 4 (partnerships) or 3 (each for themself, docs/rules.md §3) */
    int widow_size;     /* three-handed: the widow of 3 (rules.widow_size), else 0 */
    int widow_take;     /* three-handed widow == "take": taken in hand, 3 discarded */
} CoreRules;

typedef struct {
    PyObject_HEAD
    CoreRules r;
} RulesObject;

static PyTypeObject RulesType;

static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *name)
{
    PyObject *fast = PySequence_Fast(seq, name);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", name, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kwds)
{
    static char *kw[] = {"beat_follow", "beat_trump_led", "over_trump", "first_lead_trump",
                         "trump_follows_trump", "points", "last_bonus", "trick_total",
                         "meld_values", "run_marries", "reuse_once", "save_needs_trick",
                         "set_penalty", "set_forfeits_meld", "moon_value", "cards_passed",
                         "players", "widow_take", NULL};
    CoreRules *r = &self->r;
    PyObject *points = NULL, *melds = NULL;
    memset(r, 0, sizeof *r);
    r->players = 4;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|$pppppOiiOpppipiiip", kw,
            &r->play.beat_follow, &r->play.beat_trump_led, &r->play.over_trump,
            &r->play.first_lead_trump, &r->play.trump_follows, &points, &r->last_bonus,
            &r->trick_total, &melds,
            &r->run_marries, &r->reuse_once, &r->save_needs_trick, &r->set_penalty,
            &r->set_forfeits_meld, &r->moon_value, &r->cards_passed, &r->players,
            &r->widow_take))
        return -1;
    if (r->players != 3 && r->players != 4) {
        PyErr_SetString(PyExc_ValueError, "the C core plays 4 or 3 players");
        return -1;
    }
    if (r->players == 4 && r->widow_take) {
        PyErr_SetString(PyExc_ValueError, "only three-handed has a widow to take");
        return -1;
    }
    r->widow_size = r->players == 3 ? 3 : 0; /* docs/rules.md §3: a widow of 3 */
    if (!points || !melds) {
        PyErr_SetString(PyExc_TypeError, "Rules needs points and meld_values");
        return -1;
    }
    if (read_ints(points, r->points, 24, "points") < 0) return -1;
    if (read_ints(melds, r->meld, M_COUNT, "meld_values") < 0) return -1;
    if (r->set_penalty < 0 || r->set_penalty > 2 || r->cards_passed < 0 || r->cards_passed > 4) {
        PyErr_SetString(PyExc_ValueError, "bad set_penalty or cards_passed");
        return -1;
    }
    for (int k = 0; k < 24; k++)
        if (r->points[k] > 0) r->counters |= BIT(k);
    return 0;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pinochlekit.native._core.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The rules options that matter to play, meld and scoring, as a C struct.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
};

/* ===== 3. Trick play (tricks.py; docs/rules.md §1 Play, §2 options) ============ */

/* The trick winner (winner_index, beats, beaters_of) and the legal plays
 * (legal_mask) are pinochle.h's. */

/* Trick points of some cards (docs/rules.md §1 Counting, §2 trick points). */
static int cards_points(const CoreRules *r, const int *cards, int n, int last)
{
    int points = last ? r->last_bonus : 0;
    for (int i = 0; i < n; i++) points += r->points[cards[i]];
    return points;
}

/* ===== 4. Meld (meld.py; docs/rules.md §1 Meld, §2 meld options) =============== */

typedef struct {
    int points;
    int dix_only; /* one or two dix and nothing else (MeldResult.dix_only) */
    Cards shown;  /* the cards laid on the table (MeldResult.shown) */
} Meld;


/* need[k] = max(need[k], min(use[k], held[k])): the cards one class shows. */
static void show_class(int *need, const int *use, const int *held)
{
    for (int k = 0; k < 24; k++) {
        int n = use[k] < held[k] ? use[k] : held[k];
        if (n > need[k]) need[k] = n;
    }
}

static Cards cards_of_counts(const int *need)
{
    Cards h = NO_CARDS;
    for (int k = 0; k < 24; k++) {
        if (need[k] >= 1) h.one |= BIT(k);
        if (need[k] >= 2) h.two |= BIT(k);
    }
    return h;
}

/* meld_reuse='per_class' (meld._meld_cached): pinochle.h's meld_per_class_counts. */
static Meld meld_per_class(const CoreRules *r, const int *c, int trump, int want_shown)
{
    int need[24];
    int points = meld_per_class_counts(r->meld, r->run_marries, c, trump,
                                       want_shown ? need : NULL);
    int nines = trump >= 0 ? c[KIND(trump, NINE)] : 0;
    Meld m = {points, nines > 0 && points == nines * r->meld[M_DIX], NO_CARDS};
    if (want_shown) m.shown = cards_of_counts(need);
    return m;
}

/* Meld lost by giving up one copy of kind k: per_class, only k's suit, rank
 * and pinochle change. */
static int per_class_cost(const CoreRules *r, int *c, int k, int trump)
{
    int s = SUIT_OF(k), rank = RANK_OF(k), cost = 0, around = -1;
    for (int i = 0; i < 4; i++)
        if (AROUND_RANKS[i] == rank) around = i;
    const int *v = r->meld;
    cost += meld_suit(v, r->run_marries, c, s, trump, NULL);
    if (around >= 0) cost += meld_around(v, c, around, NULL);
    if (k == QS || k == JD) cost += meld_pinochle(v, c, NULL);
    c[k]--;
    cost -= meld_suit(v, r->run_marries, c, s, trump, NULL);
    if (around >= 0) cost -= meld_around(v, c, around, NULL);
    if (k == QS || k == JD) cost -= meld_pinochle(v, c, NULL);
    c[k]++;
    return cost;
}

/* meld_reuse='once': every card in at most one meld, the best total. Tries every
 * count (0-2) of the run, the four arounds and the pinochle in the order of
 * meld._best_once (the first best wins ties), then marries what is left. */
static Meld meld_once(const CoreRules *r, const int *c, int trump, int want_shown)
{
    const int *v = r->meld;
    int cards[6][5], sizes[6], single[6], dbl[6], top[6], g = 0;
    if (trump >= 0) {
        for (int i = 0; i < 5; i++) cards[g][i] = KIND(trump, RUN_RANKS[i]);
        sizes[g] = 5; single[g] = v[M_RUN]; dbl[g++] = v[M_DRUN];
    }
    for (int i = 0; i < 4; i++) {
        for (int s = 0; s < 4; s++) cards[g][s] = KIND(s, AROUND_RANKS[i]);
        sizes[g] = 4; single[g] = v[M_ACES + 2 * i]; dbl[g++] = v[M_ACES + 2 * i + 1];
    }
    cards[g][0] = QS; cards[g][1] = JD;
    sizes[g] = 2; single[g] = v[M_PIN]; dbl[g++] = v[M_DPIN];
    for (int i = 0; i < g; i++) { /* a group can be melded at most this often */
        top[i] = 2;
        for (int j = 0; j < sizes[i]; j++)
            if (c[cards[i][j]] < top[i]) top[i] = c[cards[i][j]];
    }
    int choice[6] = {0}, best_choice[6] = {0}, best = -1;
    for (;;) {
        int left[24], points = 0, ok = 1;
        memcpy(left, c, sizeof left);
        for (int i = 0; i < g && ok; i++) {
            for (int j = 0; j < sizes[i]; j++)
                if ((left[cards[i][j]] -= choice[i]) < 0) ok = 0;
            points += choice[i] == 2 ? dbl[i] : choice[i] == 1 ? single[i] : 0;
        }
        if (ok) {
            for (int s = 0; s < 4; s++) {
                int K = KIND(s, KING), Q = KIND(s, QUEEN);
                int m = left[K] < left[Q] ? left[K] : left[Q];
                points += m * (s == trump ? v[M_ROYAL] : v[M_COMMON]);
            }
            if (trump >= 0) points += left[KIND(trump, NINE)] * v[M_DIX];
            if (points > best) { best = points; memcpy(best_choice, choice, sizeof choice); }
        }
        int i = g - 1; /* next choice, the last group fastest (itertools.product) */
        while (i >= 0 && choice[i] == top[i]) choice[i--] = 0;
        if (i < 0) break;
        choice[i]++;
    }
    int nines = trump >= 0 ? c[KIND(trump, NINE)] : 0;
    Meld m = {best, nines > 0 && best == nines * v[M_DIX], NO_CARDS};
    if (want_shown) { /* one class: each card shows once per meld it is in */
        int use[24] = {0}, need[24] = {0}, left[24];
        memcpy(left, c, sizeof left);
        for (int i = 0; i < g; i++)
            for (int j = 0; j < sizes[i]; j++) {
                use[cards[i][j]] += best_choice[i];
                left[cards[i][j]] -= best_choice[i];
            }
        for (int s = 0; s < 4; s++) {
            int K = KIND(s, KING), Q = KIND(s, QUEEN);
            int n = left[K] < left[Q] ? left[K] : left[Q];
            use[K] += n; use[Q] += n;
        }
        if (trump >= 0) use[KIND(trump, NINE)] += nines;
        show_class(need, use, c);
        m.shown = cards_of_counts(need);
    }
    return m;
}

/* The best meld of one hand with `trump` (-1: before trump is named). */
static Meld meld_eval(const CoreRules *r, Cards hand, int trump, int want_shown)
{
    int c[24];
    counts_of(hand, c);
    return r->reuse_once ? meld_once(r, c, trump, want_shown)
                         : meld_per_class(r, c, trump, want_shown);
}

/* ===== 5. A hand in play, each seat's memory, and the hand's score ======== */

/* A hand from the first lead on, with what every seat remembers
 * (docs/players.md "What a player knows"). Three-handed (docs/rules.md §3) seats
 * 0-2 play and place 3 is the pile set aside (the widow kept out, or the
 * declarer's discards): hand[3] holds it, base[s][3] is what seat s knows of it
 * (players.search.simulate: the set-aside pile as a fourth place of each memory). */
typedef struct {
    Cards hand[4];
    Cards played_by[4];  /* memory: the cards each seat has played */
    Cards played;        /* memory: every card played */
    Cards base[4][4];    /* base[s][o]: the cards s saw o hold when play began (shown
                          * meld, and the passed cards between declarer and partner) */
    Mask void_kinds[4];  /* memory: the kinds of the suits each seat has shown void in */
    int trump, declarer, contract;
    int sitting;         /* the declarer's partner when shooting the moon, else -1 */
    int meld[4], dix_bits;
    int to_act, tricks_done, trick_len, took_all;
    int trick[4], trick_seat[4];
    int points[4];       /* trick points per team (four-handed), per seat (three) */
    int players;         /* 4 or 3 */
    int n_tricks;        /* tricks in the hand: 12, or 15 three-handed */
    int policy;          /* the card play of every seat: CARD_POLICY_STANDARD or _SKILLED */
} State;

/* The card play of simulated seats (docs/players.md standard, skilled). */
enum { CARD_POLICY_STANDARD, CARD_POLICY_SKILLED };

static inline int partner_of(int seat) { return (seat + 2) & 3; }
static inline int partners(const State *st) { return st->players == 4; }
/* Whose trick points: the team four-handed, the seat itself three-handed. */
static inline int team_of(const State *st, int seat) { return partners(st) ? seat & 1 : seat; }
static inline int trick_size(const State *st)
{
    return st->sitting >= 0 ? st->players - 1 : st->players;
}

static inline int next_seat(const State *st, int seat)
{
    int n = seat + 1 == st->players ? 0 : seat + 1;
    if (n == st->sitting) n = n + 1 == st->players ? 0 : n + 1; /* docs/rules.md §2 moon */
    return n;
}

/* A state before the first lead for `r`'s number of players. */
static void state_init(const CoreRules *r, State *st, int trump, int declarer, int contract)
{
    memset(st, 0, sizeof *st);
    st->players = r->players;
    st->n_tricks = r->players == 3 ? THREE_HAND_SIZE : TRICKS;
    st->trump = trump; st->declarer = declarer; st->contract = contract; st->sitting = -1;
    st->to_act = declarer; st->took_all = 1;
}

static inline Mask state_legal(const CoreRules *r, const State *st)
{
    return legal_mask(&r->play, st->hand[st->to_act].one, st->trick, st->trick_len, st->trump,
                      st->tricks_done == 0);
}

/* Memory of passing (docs/players.md): what declarer and partner passed each other. */
static void set_pass_memory(State *st, Cards given, Cards returned)
{
    int d = st->declarer, p = partner_of(d);
    /* The declarer knows partner holds the returned cards; partner knows the
     * declarer holds the given cards it did not return (until played). */
    st->base[d][p] = cards_max(st->base[d][p], returned);
    st->base[p][d] = cards_max(st->base[p][d], cards_minus(given, returned));
}

static void set_meld_memory(State *st, const Cards *shown)
{
    for (int s = 0; s < 4; s++)
        for (int o = 0; o < 4; o++)
            st->base[s][o] = s == o ? NO_CARDS : shown[o];
}

/* Play `card` for the seat to act (game._play). Returns 1 when the hand is over. */
static int state_play(const CoreRules *r, State *st, int card)
{
    int seat = st->to_act, suit = SUIT_OF(card), trump = st->trump;
    if (st->trick_len) {
        /* Memory, voids shown in play (docs/players.md, to the letter): not following
         * the suit led shows a void in it; void in it and not trumping, a void in
         * trump. (Under trump follows trump a seat that trumps may still hold the
         * suit led; the spec infers the void all the same.) */
        int led = SUIT_OF(st->trick[0]);
        if (suit != led) {
            st->void_kinds[seat] |= SUIT_MASK(led);
            if (suit != trump) st->void_kinds[seat] |= SUIT_MASK(trump);
        }
    }
    st->hand[seat] = remove_card(st->hand[seat], card);
    st->played_by[seat] = add_card(st->played_by[seat], card);
    st->played = add_card(st->played, card);
    st->trick[st->trick_len] = card;
    st->trick_seat[st->trick_len++] = seat;
    if (st->trick_len < trick_size(st)) {
        st->to_act = next_seat(st, seat);
        return 0;
    }
    int winner = st->trick_seat[winner_index(st->trick, st->trick_len, trump)];
    int last = ++st->tricks_done == st->n_tricks; /* docs/rules.md §1 Counting: last trick 10 */
    st->points[team_of(st, winner)] += cards_points(r, st->trick, st->trick_len, last);
    if (winner != st->declarer) st->took_all = 0;
    st->trick_len = 0;
    st->to_act = winner;
    return last;
}

enum { OUT_MADE, OUT_SET, OUT_NOT_PLAYED, OUT_MOON, OUT_MOON_FAILED };

/* The score of a hand per team (game._finish; docs/rules.md §1 Scoring a hand, §2
 * going set / set forfeits meld / saving meld, Not on the board). `played` is 0
 * for a hand thrown in or not on the board. Returns the outcome. */
static int hand_score(const CoreRules *r, int contract, int declarer, const int *meld,
                      int dix_bits, const int *tricks, int played, int moon, int took_all,
                      int *scores)
{
    int us = declarer & 1, them = 1 - us, made, outcome;
    int melds[2] = {meld[0] + meld[2], meld[1] + meld[3]};
    scores[0] = scores[1] = 0;
    if (played) {
        /* Defenders save their meld with a trick point, or if it is only dix. */
        int a = them, b = them + 2;
        int dix_only = (meld[a] == 0 || (dix_bits >> a & 1)) &&
                       (meld[b] == 0 || (dix_bits >> b & 1)) && (meld[a] || meld[b]);
        int saved = !r->save_needs_trick || tricks[them] > 0 || dix_only;
        scores[them] = tricks[them] + (saved ? melds[them] : 0);
        if (moon) {
            made = took_all;
            outcome = made ? OUT_MOON : OUT_MOON_FAILED;
        } else {
            made = melds[us] + tricks[us] >= contract;
            outcome = made ? OUT_MADE : OUT_SET;
        }
    } else {
        made = 0;
        outcome = OUT_NOT_PLAYED;
        scores[them] = melds[them]; /* no play: the defenders score their meld */
    }
    if (outcome == OUT_MOON) {
        scores[us] = r->moon_value;
    } else if (made) {
        scores[us] = melds[us] + tricks[us];
    } else {
        int kept = r->set_forfeits_meld ? 0 : melds[us];
        if (r->set_penalty == PENALTY_CHIPS) { /* the opponents score the contract */
            scores[us] = kept;
            scores[them] += contract;
        } else if (r->set_penalty == PENALTY_SHORTFALL && outcome != OUT_MOON_FAILED) {
            int short_by = contract - melds[us] - tricks[us]; /* only the shortfall (002), */
            scores[us] = short_by > 0 ? -short_by : 0;        /* never a gain */
        } else {
            scores[us] = kept - contract;
        }
    }
    return outcome;
}

static int state_score(const CoreRules *r, const State *st, int *scores)
{
    return hand_score(r, st->contract, st->declarer, st->meld, st->dix_bits, st->points, 1,
                      st->sitting >= 0, st->took_all, scores);
}

/* Three-handed (docs/rules.md §3; players.search.simulate.player_scores): each player's
 * score for the hand. `aside` is the trick points of the pile set aside, the
 * declarer's whether the hand is played or not (docs/three-handed.md step 8). */
static void three_scores(const CoreRules *r, const State *st, int played, int aside,
                         int *scores)
{
    int d = st->declarer, contract = st->contract;
    for (int s = 0; s < 3; s++) {
        int tricks = st->points[s] + (s == d ? aside : 0), meld = st->meld[s];
        if (s == d) {
            if (played && meld + tricks >= contract) {
                scores[s] = meld + tricks;
            } else if (r->set_penalty == PENALTY_SHORTFALL) { /* only the shortfall (002) */
                int short_by = contract - meld - tricks;
                scores[s] = short_by > 0 ? -short_by : 0;
            } else {
                scores[s] = (r->set_forfeits_meld ? 0 : meld) - contract;
            }
        } else if (!played) {
            scores[s] = meld; /* no play: the defenders score their meld */
        } else { /* a defender saves its meld with a trick point, or if it is only dix */
            int saved = !r->save_needs_trick || tricks > 0 || (st->dix_bits >> s & 1);
            scores[s] = tricks + (saved ? meld : 0);
        }
    }
}

/* The round score of 003 (docs/rules.md §5; players.search.simulate._round_score with
 * score "take"): what `side` takes in the round, its meld plus its trick points,
 * the meld counted as saved and no set penalty. Four-handed `side` is a team;
 * three-handed a seat, with the set-aside pile's points (`aside`) the declarer's. */
static int take_of(const State *st, int side, int aside)
{
    if (!partners(st))
        return st->meld[side] + st->points[side] + (side == st->declarer ? aside : 0);
    return st->meld[side] + st->meld[side + 2] + st->points[side];
}

/* The round score of `seat` three-handed (docs/players.md): its own score minus
 * the average of its two opponents' scores, rounded down. */
static int three_round_score(const int *scores, int seat)
{
    int others = scores[0] + scores[1] + scores[2] - scores[seat];
    return scores[seat] - (others >= 0 ? others / 2 : -((1 - others) / 2));
}

/* What seat s knows seat o still holds: seen at meld or passing, not yet played. */
static inline Cards known_in(const State *st, int s, int o)
{
    return cards_minus(st->base[s][o], st->played_by[o]);
}

/* The kinds seat s thinks opponent o possibly holds: outstanding (not in s's hand,
 * not played), not known to be in another seat's hand, of a suit o has not shown
 * void in; or known to be in o's hand (docs/players.md "What a player knows"). */
static Mask possibly_held(const State *st, int s, int o)
{
    Cards outstanding = cards_minus(cards_minus(FULL_DECK, st->hand[s]), st->played);
    Cards elsewhere = NO_CARDS;
    for (int p = 0; p < 4; p++)
        if (p != s && p != o) elsewhere = cards_plus(elsewhere, known_in(st, s, p));
    Cards free = cards_minus(outstanding, elsewhere);
    return (free.one & ~st->void_kinds[o]) | known_in(st, s, o).one;
}

/* docs/players.md "Guaranteed to take the trick": `card` beats the card now
 * winning, and no opponent still to play possibly holds a card that beats it and
 * that it could legally play (a card of the suit led, or a trump if no card of
 * the suit led is known to be in its hand). */
static int guaranteed(const State *st, int card)
{
    int s = st->to_act, trump = st->trump, n = st->trick_len;
    int led = n ? SUIT_OF(st->trick[0]) : SUIT_OF(card);
    if (n) {
        int trick[4];
        memcpy(trick, st->trick, sizeof trick);
        trick[n] = card;
        if (winner_index(trick, n + 1, trump) != n) return 0;
    }
    int o = s;
    for (int left = trick_size(st) - n - 1; left > 0; left--) {
        o = next_seat(st, o);
        if (partners(st) && (o & 1) == (s & 1)) continue; /* partner */
        Mask held = possibly_held(st, s, o), beat = 0;
        if (SUIT_OF(card) == led) beat |= held & ABOVE[card];
        if (led != trump && !(known_in(st, s, o).one & SUIT_MASK(led)))
            beat |= held & (SUIT_OF(card) == trump ? ABOVE[card] : SUIT_MASK(trump));
        if (beat) return 0;
    }
    return 1;
}

/* ===== 6. The standard (and pro) player's card play (docs/players.md) ===== */

/* "Highest card": greatest by (is trump, rank, -suit). */
static int highest_card(Mask m, int trump)
{
    if (m & SUIT_MASK(trump)) return high_bit(m & SUIT_MASK(trump));
    for (int r = ACE; r >= NINE; r--)
        if (m & RANK_MASK[r]) return low_bit(m & RANK_MASK[r]);
    return -1;
}

/* "Lowest card": least by (rank, is trump, suit). */
static int lowest_card(Mask m, int trump)
{
    for (int r = NINE; r <= ACE; r++) {
        Mask x = m & RANK_MASK[r];
        if (x) return low_bit(x & ~SUIT_MASK(trump) ? x & ~SUIT_MASK(trump) : x);
    }
    return -1;
}

static int choose_skilled(const CoreRules *r, const State *st, Mask legal);

/* The card the standard player (pro: the pro's final rule, among `legal`, the
 * cards its rollouts kept) chooses for the seat to act; the skilled player's
 * (section 6b) when the state's policy says so. */
static int choose_card(const CoreRules *r, const State *st, Mask legal, int pro)
{
    if (!pro && st->policy == CARD_POLICY_SKILLED) return choose_skilled(r, st, legal);
    int trump = st->trump, seat = st->to_act;
    Mask trumps = legal & SUIT_MASK(trump);
    if (st->trick_len == 0) {
        /* Leading: the highest trump guaranteed to take the trick ... */
        for (Mask t = trumps; t; t &= ~BIT(high_bit(t)))
            if (guaranteed(st, high_bit(t))) return high_bit(t);
        Mask plain = legal & ~trumps;
        if (pro) { /* ... pro: the highest guaranteed non-trump, else the lowest card */
            for (Mask t = plain; t; t &= ~BIT(highest_card(t, trump)))
                if (guaranteed(st, highest_card(t, trump))) return highest_card(t, trump);
            return lowest_card(legal, trump);
        }
        /* ... standard: the highest non-trump (the highest card if none) */
        return highest_card(plain ? plain : legal, trump);
    }
    int w = winner_index(st->trick, st->trick_len, trump);
    Mask beat = legal & beaters_of(st->trick[w], trump);
    if (!beat) {
        /* Nothing beats: partner winning, the lowest counter; else the lowest card. */
        if (partners(st) && st->trick_seat[w] == partner_of(seat) && (legal & r->counters))
            return lowest_card(legal & r->counters, trump);
        return lowest_card(legal, trump);
    }
    /* Something beats: the highest such card; last to play, the lowest that beats. */
    if (st->trick_len == trick_size(st) - 1) return lowest_card(beat, trump);
    return highest_card(beat, trump);
}

static inline int low_rank(int k, int trump);

/* ===== 6b. The skilled player's card play (docs/players.md skilled; the
 * reference is players.policy.skilled_lead and skilled_follow) ============ */

/* What the seat to act knows of the opponents still to play to this trick:
 * their seat bits, and per seat the kinds possibly held and known to be held
 * (computed once per decision; players.policy reads the same `possible` and
 * `known_once` lists). */
typedef struct {
    int opps;
    Mask held[4], known[4];
} Seen;

static void seen_of(const State *st, Seen *v)
{
    int s = st->to_act, o = s;
    v->opps = 0;
    for (int left = trick_size(st) - st->trick_len - 1; left > 0; left--) {
        o = next_seat(st, o);
        if (partners(st) && (o & 1) == (s & 1)) continue; /* partner */
        v->opps |= 1 << o;
        v->held[o] = possibly_held(st, s, o);
        v->known[o] = known_in(st, s, o).one;
    }
}

/* Whether `card`, winning (or about to win) the trick led in `led`, is sure to take
 * it: no opponent still to play possibly holds a card it could play that beats it
 * (players.policy.holds_trick; with the beat test first, `guaranteed`). */
static int holds_trick(const State *st, const Seen *v, int card, int led)
{
    int trump = st->trump;
    Mask threats = SUIT_OF(card) == trump ? ABOVE[card] : ABOVE[card] | SUIT_MASK(trump);
    for (int o = 0; o < 4; o++) {
        if (!(v->opps >> o & 1)) continue;
        Mask playable = SUIT_MASK(led);
        if (led != trump && !(v->known[o] & SUIT_MASK(led))) playable |= SUIT_MASK(trump);
        if (v->held[o] & playable & threats) return 0;
    }
    return 1;
}

/* The cards of `m` guaranteed to take the trick (docs/players.md), as `guaranteed`. */
static Mask sure_cards(const State *st, const Seen *v, Mask m)
{
    int trump = st->trump, n = st->trick_len;
    if (n) m &= beaters_of(st->trick[winner_index(st->trick, n, trump)], trump);
    Mask out = 0;
    for (; m; m &= m - 1) {
        int k = low_bit(m);
        if (holds_trick(st, v, k, n ? SUIT_OF(st->trick[0]) : SUIT_OF(k))) out |= BIT(k);
    }
    return out;
}

/* The least card of `m` by the smear order (non-trumps, most points, lowest card;
 * `smear`) or by the shed order (non-counters, lowest card) of docs/players.md
 * skilled. */
static int least_by(const CoreRules *r, Mask m, int trump, int smear)
{
    int best = -1, best_key = 0;
    for (; m; m &= m - 1) {
        int k = low_bit(m), key;
        if (smear)
            key = (SUIT_OF(k) == trump) * 100000 + (1000 - r->points[k]) * 100 +
                  low_rank(k, trump);
        else
            key = (int)(r->counters >> k & 1) * 100 + low_rank(k, trump);
        if (best < 0 || key < best_key) { best = k; best_key = key; }
    }
    return best;
}

static int skilled_lead(const CoreRules *r, const State *st, Mask legal, const Seen *v)
{
    int s = st->to_act, trump = st->trump;
    Mask trumps = legal & SUIT_MASK(trump), plain = legal & ~trumps;
    /* 1. the highest non-trump guaranteed to take the trick */
    Mask sure = sure_cards(st, v, plain);
    if (sure) return highest_card(sure, trump);
    /* 2. declaring side, an opponent possibly holding trump: the highest sure trump */
    int declaring = partners(st) ? (s & 1) == (st->declarer & 1) : s == st->declarer;
    int trump_out = 0;
    for (int o = 0; o < 4; o++)
        if (v->opps >> o & 1 && v->held[o] & SUIT_MASK(trump)) trump_out = 1;
    if (declaring && trump_out && (sure = sure_cards(st, v, trumps)))
        return high_bit(sure);
    /* 3. partner void in a non-trump suit and not in trump: the lowest such card */
    int p = partner_of(s);
    if (partners(st) && p != st->sitting && !(st->void_kinds[p] & SUIT_MASK(trump))) {
        Mask ruffs = plain & st->void_kinds[p];
        if (ruffs) return lowest_card(ruffs, trump);
    }
    /* 4. the highest non-trump ace; 5. the lowest non-trump non-counter */
    if (plain & RANK_MASK[ACE]) return highest_card(plain & RANK_MASK[ACE], trump);
    if (plain & ~r->counters) return lowest_card(plain & ~r->counters, trump);
    /* 6. the lowest card by the shed order */
    return least_by(r, legal, trump, 0);
}

static int skilled_follow(const CoreRules *r, const State *st, Mask legal, const Seen *v)
{
    int trump = st->trump, n = st->trick_len;
    int w = winner_index(st->trick, n, trump), win = st->trick[w];
    int partner_winning = partners(st) && st->trick_seat[w] == partner_of(st->to_act);
    /* 1. partner's card is sure to take the trick: smear */
    if (partner_winning && holds_trick(st, v, win, SUIT_OF(st->trick[0])))
        return least_by(r, legal, trump, 1);
    /* 2. a card beats the winning card: last, the lowest; else the lowest sure
     * one; else the highest */
    Mask beat = legal & beaters_of(win, trump);
    if (beat) {
        if (n == trick_size(st) - 1) return lowest_card(beat, trump);
        Mask sure = sure_cards(st, v, beat);
        return sure ? lowest_card(sure, trump) : highest_card(beat, trump);
    }
    /* 3. partner's card is winning and on top of its suit: the lowest counter */
    if (partner_winning) {
        int on_top = 1;
        for (int o = 0; o < 4; o++)
            if (v->opps >> o & 1 && v->held[o] & ABOVE[win]) on_top = 0;
        if (on_top)
            return lowest_card(legal & r->counters ? legal & r->counters : legal, trump);
    }
    /* 4. the lowest card by the shed order */
    return least_by(r, legal, trump, 0);
}

static int choose_skilled(const CoreRules *r, const State *st, Mask legal)
{
    Seen v;
    seen_of(st, &v);
    return st->trick_len ? skilled_follow(r, st, legal, &v) : skilled_lead(r, st, legal, &v);
}

/* Play the hand out with standard players; the hand's score per team. */
static int rollout_standard(const CoreRules *r, State *st, int *scores)
{
    while (!state_play(r, st, choose_card(r, st, state_legal(r, st), 0))) {}
    return state_score(r, st, scores);
}

/* ===== 7. Passing orders (docs/players.md standard and pro passing) ====== */

/* Positions in the "highest-card order" (0: the highest) and the "lowest-card
 * order" (0: the lowest); both orders are total. */
static inline int high_rank(int k, int trump)
{
    return 200 - ((SUIT_OF(k) == trump) * 100 + RANK_OF(k) * 10 + (3 - SUIT_OF(k)));
}

static inline int low_rank(int k, int trump)
{
    return RANK_OF(k) * 10 + (SUIT_OF(k) == trump) * 5 + SUIT_OF(k);
}

/* Meld cost of each kind held: the meld lost by giving up one copy. A "meld
 * card" is one whose removal lowers the hand's meld with the named trump. */
static void meld_costs(const CoreRules *r, Cards hand, int trump, int *cost)
{
    int c[24], full = 0;
    counts_of(hand, c);
    if (r->reuse_once) full = meld_once(r, c, trump, 0).points;
    for (Mask m = hand.one; m; m &= m - 1) {
        int k = low_bit(m);
        if (r->reuse_once) {
            c[k]--;
            cost[k] = full - meld_once(r, c, trump, 0).points;
            c[k]++;
        } else {
            cost[k] = per_class_cost(r, c, k, trump);
        }
    }
}

/* Of the kinds of `hand`, the one with the least (cost, key). */
static int least(Mask hand, const int *cost, const int *key)
{
    int best = -1;
    for (Mask m = hand; m; m &= m - 1) {
        int k = low_bit(m);
        if (best < 0 || cost[k] < cost[best] || (cost[k] == cost[best] && key[k] < key[best]))
            best = k;
    }
    return best;
}

/* Cards given up one at a time (policy.pass_cards), "meld card" and cost judged
 * on the cards still kept: the non-meld cards first, then the least meld cost;
 * ties by `key` (lower first). */
static int pass_by_key(const CoreRules *r, Cards hand, int trump, const int *key, int want,
                       int *out)
{
    int cost[24], n = 0;
    for (; n < want && hand.one; n++) {
        meld_costs(r, hand, trump, cost);
        out[n] = least(hand.one, cost, key);
        hand = remove_card(hand, out[n]);
    }
    return n;
}

/* Partner's cards to the declarer (docs/players.md). Standard: by the
 * highest-card order. Pro: trumps from the highest except nines of trump; aces;
 * nines of trump; QS and JD; jacks; nines; the rest (each group by the
 * highest-card order). */
static int give_order(const CoreRules *r, Cards hand, int trump, int pro, int want, int *out)
{
    int key[24];
    for (int k = 0; k < 24; k++) {
        int group = 0, is_trump = SUIT_OF(k) == trump, rank = RANK_OF(k);
        if (pro)
            group = is_trump && rank != NINE ? 0 : rank == ACE ? 1 : is_trump ? 2
                  : k == QS || k == JD ? 3 : rank == JACK ? 4 : rank == NINE ? 5 : 6;
        key[k] = group * 1000 + high_rank(k, trump);
    }
    return pass_by_key(r, hand, trump, key, want, out);
}

/* Three-handed, widow taken (policy.discard_key): the cards the declarer lays
 * aside, chosen like passed cards (non-meld first, else the least meld cost):
 * non-trump tens and kings, then non-trump queens, jacks and nines, then
 * non-trump aces, trumps last; each group by the lowest-card order. */
static int discard_order(const CoreRules *r, Cards hand, int trump, int want, int *out)
{
    int key[24];
    for (int k = 0; k < 24; k++) {
        int rank = RANK_OF(k);
        int group = SUIT_OF(k) == trump ? 3 : rank == TEN || rank == KING ? 0
                  : rank == ACE ? 2 : 1;
        key[k] = group * 1000 + low_rank(k, trump);
    }
    return pass_by_key(r, hand, trump, key, want, out);
}

/* The declarer's cards back to partner from the hand with the cards received,
 * one card (or, at step 1, one suit) at a time, never a meld card while a non-
 * meld card remains: 1. (standard only) a whole non-trump suit of non-ace non-
 * meld cards whose removal keeps the meld and that fits in the cards still to
 * pass, the shortest first (ties S H D C); 2. non-trump kings; 3. non-trump
 * queens; 4. JD while more are held than were received; 5. the lowest non-
 * trumps; 6. the lowest trumps (each step by the lowest-card order); 7. meld
 * cards, least cost first (ties by the lowest-card order). */
static int return_order(const CoreRules *r, Cards hand, Cards given, int trump, int pro,
                        int want, int *out)
{
    int cost[24], key[24], zero[24] = {0}, n = 0, jd_received = count_of(given, JD);
    while (n < want && hand.one) {
        meld_costs(r, hand, trump, cost);
        Mask plain = 0;
        for (Mask m = hand.one; m; m &= m - 1)
            if (!cost[low_bit(m)]) plain |= BIT(low_bit(m));
        int void_suit = -1, void_size = 99, base = -1;
        for (int s = 0; s < 4 && !pro; s++) {
            Mask held = hand.one & SUIT_MASK(s);
            int size = popcount(held) + popcount(hand.two & held);
            if (s == trump || !held || (held & RANK_MASK[ACE]) || (held & ~plain) ||
                size > want - n || size >= void_size)
                continue;
            Cards rest = {hand.one & ~SUIT_MASK(s), hand.two & ~SUIT_MASK(s)};
            if (base < 0) base = meld_eval(r, hand, trump, 0).points;
            if (meld_eval(r, rest, trump, 0).points == base) {
                void_suit = s;
                void_size = size;
            }
        }
        if (void_suit >= 0) {
            for (Mask m = hand.one & SUIT_MASK(void_suit); m; m &= m - 1)
                for (int c = count_of(hand, low_bit(m)); c > 0; c--) out[n++] = low_bit(m);
            hand.one &= ~SUIT_MASK(void_suit);
            hand.two &= ~SUIT_MASK(void_suit);
            continue;
        }
        int jd_free = count_of(hand, JD) > jd_received;
        for (int k = 0; k < 24; k++) {
            int is_trump = SUIT_OF(k) == trump, rank = RANK_OF(k);
            int step = !is_trump && rank == KING ? 2 : !is_trump && rank == QUEEN ? 3
                     : k == JD && jd_free ? 4 : !is_trump ? 5 : 6;
            key[k] = (plain ? step * 100 : 0) + low_rank(k, trump);
        }
        out[n] = plain ? least(plain, zero, key) : least(hand.one, cost, key);
        hand = remove_card(hand, out[n++]);
    }
    return n;
}

/* ===== 8. Random numbers and hidden-card deals ============================= */

/* xoshiro256** seeded by splitmix64 (Blackman and Vigna). */
typedef struct { uint64_t s[4]; } Rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *rng)
{
    uint64_t *s = rng->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) without bias (Lemire's multiply-and-reject). */
static uint32_t rng_below(Rng *rng, uint32_t n)
{
    uint64_t m = (rng_next(rng) >> 32) * (uint64_t)n;
    if ((uint32_t)m < n) {
        uint32_t floor = (uint32_t)(-n) % n;
        while ((uint32_t)m < floor) m = (rng_next(rng) >> 32) * (uint64_t)n;
    }
    return (uint32_t)(m >> 32);
}

static void shuffle(Rng *rng, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1), t = a[i];
        a[i] = a[j]; a[j] = t;
    }
}

/* What one seat knows about the hidden cards: every other seat holds its known
 * cards plus `cap` of the unseen ones, none of a kind in `forbidden`. */
typedef struct {
    int observer;
    Cards known[4];
    Mask forbidden[4];
    int cap[4];
    int unseen[48], n_unseen;
} DealSpec;

#define MAX_REJECTIONS 20000

/* Deal the unseen cards uniformly over the consistent physical deals, by
 * rejection: shuffle, deal in order, retry if a seat got a forbidden kind.
 * Returns 0 if MAX_REJECTIONS deals in a row failed (the constraints leave
 * almost no deal: use the exact Python sampler, players.search.sampler, instead). */
static int deal_hidden(const DealSpec *d, Rng *rng, Cards *hands)
{
    int cards[48];
    memcpy(cards, d->unseen, sizeof(int) * (size_t)d->n_unseen);
    for (int attempt = 0; attempt < MAX_REJECTIONS; attempt++) {
        shuffle(rng, cards, d->n_unseen);
        int i = 0, ok = 1;
        for (int s = 0; s < 4 && ok; s++) {
            if (s == d->observer) continue;
            Cards h = d->known[s];
            for (int j = 0; j < d->cap[s] && ok; j++) {
                int k = cards[i++];
                ok = !(d->forbidden[s] >> k & 1);
                h = add_card(h, k);
            }
            hands[s] = h;
        }
        if (ok) return 1;
    }
    return 0;
}

/* ===== 9. Simulations ====================================================== */

/* Each seat's meld after passing, and the memory it leaves (shown cards). */
static void meld_all(const CoreRules *r, State *st)
{
    Cards shown[4];
    st->dix_bits = 0;
    for (int s = 0; s < 4; s++) {
        Meld m = meld_eval(r, st->hand[s], st->trump, 1);
        st->meld[s] = m.points;
        st->dix_bits |= m.dix_only << s;
        shown[s] = m.shown;
    }
    set_meld_memory(st, shown);
}

/* Move passed cards from one hand to another; returns them as a multiset. */
static Cards move_cards(State *st, int from, int to, const int *cards, int n)
{
    Cards moved = NO_CARDS;
    for (int i = 0; i < n; i++) {
        st->hand[from] = remove_card(st->hand[from], cards[i]);
        st->hand[to] = add_card(st->hand[to], cards[i]);
        moved = add_card(moved, cards[i]);
    }
    return moved;
}

/* A record of a bid round, for tests (bid_hand): the passed cards and the plays. */
typedef struct {
    int given[4], returned[4], n_plays;
    unsigned char plays[48];
} BidTrace;

/* One bid round from the dealt hands (docs/players.md standard Bid; the
 * reference is players.search.simulate._from_passing): `declarer` declares `contract`
 * in `trump`; standard passing, meld, the not-on-the-board throw-in, twelve
 * tricks by standard players. Leaves the hand's score per team in `scores`. */
static void bid_round(const CoreRules *r, const Cards *dealt, int declarer, int trump,
                      int contract, int policy, BidTrace *trace, int *scores, int *takes)
{
    State st;
    int given[4] = {0}, returned[4] = {0};
    state_init(r, &st, trump, declarer, contract);
    st.policy = policy;
    memcpy(st.hand, dealt, sizeof st.hand);
    int partner = partner_of(declarer), n = r->cards_passed;
    Cards gave = NO_CARDS, back = NO_CARDS;
    if (n) { /* docs/rules.md §1 Passing: partner gives, the declarer gives back */
        give_order(r, st.hand[partner], trump, 0, n, given);
        gave = move_cards(&st, partner, declarer, given, n);
        return_order(r, st.hand[declarer], gave, trump, 0, n, returned);
        back = move_cards(&st, declarer, partner, returned, n);
    }
    meld_all(r, &st);
    set_pass_memory(&st, gave, back);
    if (trace) {
        memcpy(trace->given, given, sizeof given);
        memcpy(trace->returned, returned, sizeof returned);
        trace->n_plays = 0;
    }
    if (contract > st.meld[declarer] + st.meld[partner] + r->trick_total) {
        /* docs/rules.md §1 Not on the board: the hand is not played */
        hand_score(r, contract, declarer, st.meld, st.dix_bits, st.points, 0, 0, 0, scores);
    } else if (trace) {
        int card;
        do {
            card = choose_card(r, &st, state_legal(r, &st), 0);
            trace->plays[trace->n_plays++] = (unsigned char)card;
        } while (!state_play(r, &st, card));
        state_score(r, &st, scores);
    } else {
        rollout_standard(r, &st, scores);
    }
    if (takes) { /* unplayed, the trick points stay 0 */
        takes[0] = take_of(&st, 0, 0);
        takes[1] = take_of(&st, 1, 0);
    }
}

/* Trick points of the cards set aside (players.search.simulate._aside_points). */
static int aside_points(const CoreRules *r, Cards pile)
{
    int points = 0;
    for (int k = 0; k < 24; k++) points += count_of(pile, k) * r->points[k];
    return points;
}

/* What each seat knows of the pile set aside three-handed (players.search.simulate
 * _memories): the declarer its own pile; the others the widow kept out, which is
 * public, or nothing when the pile is the declarer's discards. */
static void set_pile_memory(const CoreRules *r, State *st)
{
    for (int s = 0; s < 3; s++)
        st->base[s][3] = s == st->declarer || !r->widow_take ? st->hand[3] : NO_CARDS;
}

/* Play a three-handed hand out with standard players from `st` (memory set);
 * the round score of `seat` (players.search.simulate._round_score). */
static int three_rollout(const CoreRules *r, State *st, int seat, int take)
{
    int scores[3];
    while (!state_play(r, st, choose_card(r, st, state_legal(r, st), 0))) {}
    if (take) return take_of(st, seat, aside_points(r, st->hand[3]));
    three_scores(r, st, 1, aside_points(r, st->hand[3]), scores);
    return three_round_score(scores, seat);
}

/* One simulated three-handed hand from trump named (docs/rules.md §3; the reference is
 * players.search.simulate._from_widow): `dealt` is the three hands and the pile (the
 * widow, or nothing when the declarer holds it already). With widow "take" the
 * declarer takes the widow and lays 3 cards aside by the discard order; then
 * meld, the not-on-the-board rule, fifteen tricks by standard players. Returns
 * the round score of `seat`. */
static int widow_round(const CoreRules *r, const Cards *dealt, int declarer, int trump,
                       int contract, int seat, int policy, int take)
{
    State st;
    Cards shown[4];
    state_init(r, &st, trump, declarer, contract);
    st.policy = policy;
    memcpy(st.hand, dealt, sizeof st.hand);
    if (r->widow_take) {
        int out[3];
        if (cards_len(st.hand[3])) { /* the widow still to take */
            st.hand[declarer] = cards_plus(st.hand[declarer], st.hand[3]);
            st.hand[3] = NO_CARDS;
        }
        int n = discard_order(r, st.hand[declarer], trump, r->widow_size, out);
        for (int i = 0; i < n; i++) {
            st.hand[declarer] = remove_card(st.hand[declarer], out[i]);
            st.hand[3] = add_card(st.hand[3], out[i]);
        }
    }
    st.dix_bits = 0;
    for (int s = 0; s < 3; s++) { /* every player melds alone */
        Meld m = meld_eval(r, st.hand[s], trump, 1);
        st.meld[s] = m.points;
        st.dix_bits |= (m.dix_only && m.points) << s;
        shown[s] = m.shown;
    }
    shown[3] = NO_CARDS;
    set_meld_memory(&st, shown);
    set_pile_memory(r, &st);
    if (contract > st.meld[declarer] + r->trick_total) { /* docs/rules.md §1 Not on the board */
        int scores[3];
        if (take) return take_of(&st, seat, aside_points(r, st.hand[3]));
        three_scores(r, &st, 0, aside_points(r, st.hand[3]), scores);
        return three_round_score(scores, seat);
    }
    return three_rollout(r, &st, seat, take);
}

/* ===== 10. The Python functions ============================================ */

/* What the functions read, through PyArg converters ("O&"): the rules first,
 * then a position replayed under them, then a deal spec for that position. */
typedef struct {
    CoreRules *r;
    State st;
    DealSpec spec;
    int has_spec;
} Args;

static int check_cards(unsigned long one, unsigned long two, const char *what, Cards *out)
{
    if ((one | two) & ~(unsigned long)DECK_MASK || two & ~one) {
        PyErr_Format(PyExc_ValueError, "bad %s masks once=%#lx twice=%#lx", what, one, two);
        return -1;
    }
    out->one = (Mask)one;
    out->two = (Mask)two;
    return 0;
}

static int to_rules(PyObject *obj, void *out)
{
    if (!PyObject_TypeCheck(obj, &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "expected a pinochlekit.native._core.Rules");
        return 0;
    }
    ((Args *)out)->r = &((RulesObject *)obj)->r;
    return 1;
}

/* Cards as (once, twice) masks. */
static int to_cards(PyObject *obj, void *out)
{
    unsigned long one, two;
    if (!PyArg_ParseTuple(obj, "kk;cards are (once, twice) masks", &one, &two)) return 0;
    return check_cards(one, two, "cards", out) == 0;
}

/* Four hands as 8 masks, (once, twice) per seat. */
static int to_hands(PyObject *obj, void *out)
{
    unsigned long h[8];
    Cards *hands = out;
    if (!PyArg_ParseTuple(obj, "kkkkkkkk;four hands are 8 masks", &h[0], &h[1], &h[2], &h[3],
                          &h[4], &h[5], &h[6], &h[7]))
        return 0;
    for (int s = 0; s < 4; s++)
        if (check_cards(h[2 * s], h[2 * s + 1], "hand", &hands[s]) < 0) return 0;
    return 1;
}

/* Whether four hands hold every card of the deck, two of each kind. */
static int is_deck(const Cards *hands)
{
    int held[24] = {0};
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 24; k++) held[k] += count_of(hands[s], k);
    for (int k = 0; k < 24; k++)
        if (held[k] != 2) return 0;
    return 1;
}

/* Whether four hands are a deal as dealt: 12 cards to each seat; three-handed
 * (docs/rules.md §3) 15 to each seat and the widow of 3 as the fourth hand. */
static int is_whole_deal(const CoreRules *r, const Cards *hands)
{
    for (int s = 0; s < 4; s++) {
        int size = r->players == 4 ? HAND_SIZE : s < 3 ? THREE_HAND_SIZE : r->widow_size;
        if (cards_len(hands[s]) != size) return 0;
    }
    return is_deck(hands);
}

/* A three-handed deal once trump is named (players.search.simulate._from_widow): the
 * defenders 15 cards each, the declarer 15 and the widow 3, or with the widow
 * taken (widow "take") the declarer 18 and nothing set aside yet. */
static int is_widow_deal(const CoreRules *r, const Cards *hands, int declarer)
{
    for (int s = 0; s < 3; s++)
        if (s != declarer && cards_len(hands[s]) != THREE_HAND_SIZE) return 0;
    int held = cards_len(hands[declarer]), pile = cards_len(hands[3]);
    int ok = (held == THREE_HAND_SIZE && pile == r->widow_size) ||
             (r->widow_take && held == THREE_HAND_SIZE + r->widow_size && pile == 0);
    return ok && is_deck(hands);
}

/* The functions of the four-handed game only (positions of four seats with
 * their team scores, bid rounds with passing): a clear error for other rules. */
static int four_handed(const Args *a)
{
    if (a->r->players == 4) return 1;
    PyErr_SetString(PyExc_ValueError, "this function of the C core plays the four-handed "
                    "game only; three-handed hands are simulated by simulate_deals");
    return 0;
}

/* A position (fastcore.Position.core): trump, declarer, contract, moon, the four
 * current hands, the four shown melds, meld points, dix-only bits, given and
 * returned cards, and the plays so far as bytes (seat, card)*. The plays are
 * replayed from the hands play began with, each checked. */
static int to_position(PyObject *pos, void *out)
{
    Args *a = out;
    State *st = &a->st;
    int trump, declarer, contract, moon, dix_bits, meld[4];
    Cards shown[4], given, returned;
    const unsigned char *plays;
    Py_ssize_t n_plays;
    memset(st, 0, sizeof *st);
    if (!PyTuple_Check(pos) ||
        !PyArg_ParseTuple(pos, "iiiiO&O&(iiii)iO&O&y#;bad position tuple", &trump, &declarer,
                          &contract, &moon, to_hands, st->hand, to_hands, shown, &meld[0],
                          &meld[1], &meld[2], &meld[3], &dix_bits, to_cards, &given, to_cards,
                          &returned, &plays, &n_plays)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a position is a tuple");
        return 0;
    }
    const CoreRules *r = a->r;
    if (trump < 0 || trump > 3 || declarer < 0 || declarer >= r->players || n_plays % 2 ||
        (moon && r->players != 4)) {
        PyErr_SetString(PyExc_ValueError, "bad trump, declarer, moon or plays in position");
        return 0;
    }
    Cards dealt[4];
    memcpy(dealt, st->hand, sizeof dealt);
    state_init(r, st, trump, declarer, contract);
    memcpy(st->hand, dealt, sizeof dealt);
    memcpy(st->meld, meld, sizeof meld);
    st->sitting = moon ? partner_of(declarer) : -1;
    st->dix_bits = dix_bits;
    for (Py_ssize_t i = 0; i < n_plays; i += 2) { /* the hands play began with */
        int seat = plays[i], card = plays[i + 1];
        if (seat >= r->players || card > 23 || count_of(st->hand[seat], card) == 2) {
            PyErr_Format(PyExc_ValueError, "bad play %zd in position", i / 2);
            return 0;
        }
        st->hand[seat] = add_card(st->hand[seat], card);
    }
    if (!is_whole_deal(r, st->hand)) {
        PyErr_SetString(PyExc_ValueError, "the hands and plays of a position must make a deal");
        return 0;
    }
    /* Three-handed, shown[3] is the pile as the other seats know it (the widow
     * kept out, else nothing); simulate_deals gives the declarer its own pile. */
    set_meld_memory(st, shown);
    if (r->players == 4) set_pass_memory(st, given, returned);
    for (Py_ssize_t i = 0; i < n_plays; i += 2) {
        int seat = plays[i], card = plays[i + 1];
        if (st->tricks_done == st->n_tricks || seat != st->to_act ||
            !(state_legal(a->r, st) >> card & 1)) {
            PyErr_Format(PyExc_ValueError, "play %zd in position (seat %d, kind %d) is not "
                         "legal: seat %d is to play", i / 2, seat, card, st->to_act);
            return 0;
        }
        state_play(a->r, st, card);
    }
    if (st->tricks_done == st->n_tricks) {
        PyErr_SetString(PyExc_ValueError, "the hand in the position is over");
        return 0;
    }
    return 1;
}

/* A deal spec (fastcore.DealSpec.core) or None: observer, known cards per seat
 * (8 masks), forbidden kinds per seat (4 masks). */
static int to_spec(PyObject *obj, void *out)
{
    Args *a = out;
    DealSpec *d = &a->spec;
    unsigned long f[4];
    if (!(a->has_spec = obj != Py_None)) return 1;
    if (!PyArg_ParseTuple(obj, "iO&(kkkk);bad deal spec tuple", &d->observer, to_hands,
                          d->known, &f[0], &f[1], &f[2], &f[3]))
        return 0;
    if (d->observer < 0 || d->observer > 3) {
        PyErr_SetString(PyExc_ValueError, "bad observer seat");
        return 0;
    }
    const State *st = &a->st;
    Cards unseen = cards_minus(cards_minus(FULL_DECK, st->played), st->hand[d->observer]);
    int room = 0;
    for (int s = 0; s < 4; s++) {
        d->forbidden[s] = (Mask)f[s] & DECK_MASK;
        d->cap[s] = s == d->observer ? 0 : cards_len(st->hand[s]) - cards_len(d->known[s]);
        if (s != d->observer) unseen = cards_minus(unseen, d->known[s]);
        room += d->cap[s];
        if (d->cap[s] < 0) {
            PyErr_Format(PyExc_ValueError, "seat %d is known to hold more cards than it has", s);
            return 0;
        }
    }
    d->n_unseen = 0;
    for (int kind = 0; kind < 24; kind++)
        for (int c = count_of(unseen, kind); c > 0; c--) d->unseen[d->n_unseen++] = kind;
    if (room != d->n_unseen) {
        PyErr_Format(PyExc_ValueError, "%d unseen cards for %d places", d->n_unseen, room);
        return 0;
    }
    return 1;
}

/* Replace the hidden hands of `st` by a deal of `d`; 0 if none fits. */
static int redeal(const DealSpec *d, Rng *rng, State *st)
{
    Cards hands[4];
    if (!deal_hidden(d, rng, hands)) return 0;
    for (int s = 0; s < 4; s++)
        if (s != d->observer) st->hand[s] = hands[s];
    return 1;
}

static PyObject *no_deal(void)
{
    PyErr_SetString(PyExc_ValueError, "no deal of the unseen cards fits the deal spec (none "
                    "in 20,000 tries: use players.search.sampler)");
    return NULL;
}

static PyObject *cards_list(const int *cards, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(cards[i]));
    return list;
}

/* A card policy argument: CARD_POLICY_STANDARD or CARD_POLICY_SKILLED. */
static int check_policy(int policy)
{
    if (policy == CARD_POLICY_STANDARD || policy == CARD_POLICY_SKILLED) return 1;
    PyErr_Format(PyExc_ValueError, "card policy %d: 0 (standard) or 1 (skilled)", policy);
    return 0;
}

static PyObject *py_legal_mask(PyObject *self, PyObject *args)
{
    Args a;
    unsigned long hand;
    const unsigned char *bytes;
    Py_ssize_t n;
    int trump, first, trick[4];
    if (!PyArg_ParseTuple(args, "O&ky#ip", to_rules, &a, &hand, &bytes, &n, &trump, &first))
        return NULL;
    if (n > 3) {
        PyErr_SetString(PyExc_ValueError, "a trick holds at most 3 cards before a play");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) trick[i] = bytes[i] % 24;
    return PyLong_FromUnsignedLong(legal_mask(&a.r->play, (Mask)hand & DECK_MASK, trick, (int)n,
                                              trump & 3, first));
}

static PyObject *py_meld(PyObject *self, PyObject *args)
{
    Args a;
    int trump;
    Cards hand;
    if (!PyArg_ParseTuple(args, "O&O&i", to_rules, &a, to_cards, &hand, &trump)) return NULL;
    Meld m = meld_eval(a.r, hand, trump < 0 || trump > 3 ? -1 : trump, 1);
    return Py_BuildValue("(iN(kk))", m.points, PyBool_FromLong(m.dix_only),
                         (unsigned long)m.shown.one, (unsigned long)m.shown.two);
}

static PyObject *py_hand_score(PyObject *self, PyObject *args)
{
    Args a;
    int contract, declarer, meld[4], dix_bits, tricks[2], played, moon, took_all, scores[2];
    if (!PyArg_ParseTuple(args, "O&ii(iiii)i(ii)ppp", to_rules, &a, &contract, &declarer,
                          &meld[0], &meld[1], &meld[2], &meld[3], &dix_bits, &tricks[0],
                          &tricks[1], &played, &moon, &took_all))
        return NULL;
    if (!four_handed(&a)) return NULL;
    int outcome = hand_score(a.r, contract, declarer & 3, meld, dix_bits, tricks, played, moon,
                             took_all, scores);
    return Py_BuildValue("(iii)", scores[0], scores[1], outcome);
}

static PyObject *py_pass_cards(PyObject *self, PyObject *args)
{
    Args a;
    int trump, pro, giving, n, out[16];
    Cards hand, given;
    if (!PyArg_ParseTuple(args, "O&O&ippO&i", to_rules, &a, to_cards, &hand, &trump, &pro,
                          &giving, to_cards, &given, &n))
        return NULL;
    if (trump < 0 || trump > 3 || n < 0 || n > cards_len(hand) || n > 16) {
        PyErr_SetString(PyExc_ValueError, "bad trump or number of cards to pass");
        return NULL;
    }
    int got = giving ? give_order(a.r, hand, trump, pro, n, out)
                     : return_order(a.r, hand, given, trump, pro, n, out);
    return cards_list(out, got);
}

enum { POLICY_STOP = -1, POLICY_RANDOM = 0, POLICY_STANDARD = 1, POLICY_SKILLED = 2 };

/* Play the given cards (checked), then by the policy to the end; every play with
 * the legal kinds before it, every trick's winner and points (fastcore.Playout). */
static PyObject *py_play_out(PyObject *self, PyObject *args)
{
    Args a;
    const unsigned char *given;
    Py_ssize_t n_given;
    int policy, over = 0, n = 0, n_tricks = 0, points[12], scores[2] = {0, 0}, outcome = -1;
    unsigned long long seed;
    unsigned char seats[48], cards[48], winners[12];
    Mask legal_sets[48];
    if (!PyArg_ParseTuple(args, "O&O&y#iK", to_rules, &a, to_position, &a, &given, &n_given,
                          &policy, &seed))
        return NULL;
    if (!four_handed(&a)) return NULL;
    State *st = &a.st;
    Rng rng;
    rng_seed(&rng, seed);
    while (!over) {
        Mask legal = state_legal(a.r, st), pick = legal;
        int card;
        if (n < n_given) {
            card = given[n];
            if (card > 23 || !(legal >> card & 1)) {
                PyErr_Format(PyExc_ValueError, "card %d of the play-out (kind %d) is not "
                             "legal for seat %d", n, card, st->to_act);
                return NULL;
            }
        } else if (policy == POLICY_RANDOM) {
            for (int skip = (int)rng_below(&rng, (uint32_t)popcount(pick)); skip; skip--)
                pick &= pick - 1;
            card = low_bit(pick);
        } else if (policy == POLICY_STANDARD || policy == POLICY_SKILLED) {
            st->policy = policy == POLICY_SKILLED ? CARD_POLICY_SKILLED : CARD_POLICY_STANDARD;
            card = choose_card(a.r, st, legal, 0);
        } else {
            break;
        }
        seats[n] = (unsigned char)st->to_act;
        cards[n] = (unsigned char)card;
        legal_sets[n++] = legal;
        int before = st->points[0] + st->points[1], tricks = st->tricks_done;
        over = state_play(a.r, st, card);
        if (st->tricks_done != tricks) {
            winners[n_tricks] = (unsigned char)st->to_act;
            points[n_tricks++] = st->points[0] + st->points[1] - before;
        }
    }
    PyObject *legal = PyList_New(n), *trick_points = cards_list(points, n_tricks);
    for (int i = 0; legal && i < n; i++)
        PyList_SET_ITEM(legal, i, PyLong_FromUnsignedLong(legal_sets[i]));
    if (over) outcome = state_score(a.r, st, scores);
    return Py_BuildValue("(y#y#Ny#N(ii)(ii)i)", seats, (Py_ssize_t)n, cards, (Py_ssize_t)n,
                         legal, winners, (Py_ssize_t)n_tricks, trick_points, st->points[0],
                         st->points[1], scores[0], scores[1], outcome);
}

static PyObject *py_choose_card(PyObject *self, PyObject *args)
{
    Args a;
    int level;
    unsigned long among;
    if (!PyArg_ParseTuple(args, "O&O&ik", to_rules, &a, to_position, &a, &level, &among))
        return NULL;
    if (level < 0 || level > 2) {
        PyErr_SetString(PyExc_ValueError, "choose_card: level 0 (standard), 1 (pro) or 2 "
                        "(skilled)");
        return NULL;
    }
    int pro = level == 1;
    a.st.policy = level == 2 ? CARD_POLICY_SKILLED : CARD_POLICY_STANDARD;
    if (!four_handed(&a)) return NULL;
    Mask legal = state_legal(a.r, &a.st) & (among ? (Mask)among : DECK_MASK);
    if (!legal) {
        PyErr_SetString(PyExc_ValueError, "no legal card among the cards offered");
        return NULL;
    }
    return PyLong_FromLong(choose_card(a.r, &a.st, legal, pro));
}

static PyObject *py_memory(PyObject *self, PyObject *args)
{
    Args a;
    int seat;
    if (!PyArg_ParseTuple(args, "O&O&i", to_rules, &a, to_position, &a, &seat)) return NULL;
    if (!four_handed(&a)) return NULL;
    const State *st = &a.st;
    unsigned long known[4], held[4], voids[4], sure = 0;
    seat &= 3;
    for (int o = 0; o < 4; o++) {
        known[o] = o == seat ? 0 : known_in(st, seat, o).one;
        held[o] = o == seat ? 0 : possibly_held(st, seat, o);
        voids[o] = st->void_kinds[o];
    }
    if (seat == st->to_act)
        for (Mask m = state_legal(a.r, st); m; m &= m - 1)
            if (guaranteed(st, low_bit(m))) sure |= BIT(low_bit(m));
    return Py_BuildValue("((kkkk)(kkkk)(kkkk)k)", known[0], known[1], known[2], known[3],
                         held[0], held[1], held[2], held[3], voids[0], voids[1], voids[2],
                         voids[3], sure);
}

/* rollout (values=0): the hand scores per team summed over n rollouts; card_values
 * (values=1): per legal card, its summed round score for the team to act. With a
 * spec the hidden cards are dealt anew for each rollout (the same deal for every
 * card: common random numbers). */
static PyObject *simulate_position(PyObject *args, int values)
{
    Args a;
    long n;
    unsigned long long seed;
    int policy = CARD_POLICY_STANDARD;
    if (!PyArg_ParseTuple(args, "O&O&lKO&|i", to_rules, &a, to_position, &a, &n, &seed,
                          to_spec, &a, &policy) || !check_policy(policy))
        return NULL;
    a.st.policy = policy;
    if (!four_handed(&a)) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    int cards[24], n_cards = 0, team = a.st.to_act & 1, ok = 1;
    long long totals[24] = {0};
    if (values)
        for (Mask m = state_legal(a.r, &a.st); m; m &= m - 1) cards[n_cards++] = low_bit(m);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < n && ok; i++) {
        State dealt = a.st, st;
        if (a.has_spec && !(ok = redeal(&a.spec, &rng, &dealt))) break;
        for (int c = 0; c < (values ? n_cards : 1); c++) {
            int scores[2];
            st = dealt;
            if (!values) {
                rollout_standard(a.r, &st, scores);
                totals[0] += scores[0];
                totals[1] += scores[1];
                continue;
            }
            if (state_play(a.r, &st, cards[c])) state_score(a.r, &st, scores);
            else rollout_standard(a.r, &st, scores);
            totals[c] += scores[team] - scores[1 - team];
        }
    }
    Py_END_ALLOW_THREADS
    if (!ok) return no_deal();
    if (!values) return Py_BuildValue("(LL)", totals[0], totals[1]);
    PyObject *out = PyList_New(n_cards);
    for (int c = 0; out && c < n_cards; c++)
        PyList_SET_ITEM(out, c, Py_BuildValue("(iL)", cards[c], totals[c]));
    return out;
}

static PyObject *py_rollout(PyObject *self, PyObject *args) { return simulate_position(args, 0); }
static PyObject *py_card_values(PyObject *self, PyObject *args)
{
    return simulate_position(args, 1);
}

static PyObject *py_deal(PyObject *self, PyObject *args)
{
    Args a;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O&O&O&K", to_rules, &a, to_position, &a, to_spec, &a, &seed))
        return NULL;
    if (!four_handed(&a)) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    if (!a.has_spec || !redeal(&a.spec, &rng, &a.st)) return no_deal();
    const Cards *h = a.st.hand;
    return Py_BuildValue("(kkkkkkkk)", (unsigned long)h[0].one, (unsigned long)h[0].two,
                         (unsigned long)h[1].one, (unsigned long)h[1].two,
                         (unsigned long)h[2].one, (unsigned long)h[2].two,
                         (unsigned long)h[3].one, (unsigned long)h[3].two);
}

static PyObject *py_simulate_bid_hands(PyObject *self, PyObject *args)
{
    Args a;
    int seat, trumps, contract;
    long n;
    unsigned long long seed;
    Cards hand;
    int policy = CARD_POLICY_STANDARD;
    if (!PyArg_ParseTuple(args, "O&O&iiilK|i", to_rules, &a, to_cards, &hand, &seat, &trumps,
                          &contract, &n, &seed, &policy) || !check_policy(policy))
        return NULL;
    if (!four_handed(&a)) return NULL;
    if (cards_len(hand) != HAND_SIZE || trumps <= 0 || trumps > 15 || seat < 0 || seat > 3 ||
        n < 0) {
        PyErr_SetString(PyExc_ValueError, "simulate_bid_hands needs 12 cards, trumps, n >= 0");
        return NULL;
    }
    int others[36], m = 0, n_trumps = popcount((Mask)trumps), team = seat & 1;
    Cards rest = cards_minus(FULL_DECK, hand);
    for (int k = 0; k < 24; k++)
        for (int c = count_of(rest, k); c > 0; c--) others[m++] = k;
    int *results = PyMem_Malloc(sizeof(int) * (size_t)(n * n_trumps + 1));
    if (!results) return PyErr_NoMemory();
    Rng rng;
    rng_seed(&rng, seed);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < n; i++) {
        /* The other 36 cards dealt at random; the same deal serves every trump. */
        Cards dealt[4] = {NO_CARDS, NO_CARDS, NO_CARDS, NO_CARDS};
        dealt[seat] = hand;
        shuffle(&rng, others, 36);
        for (int j = 0; j < 36; j++) {
            int s = (seat + 1 + j / HAND_SIZE) & 3;
            dealt[s] = add_card(dealt[s], others[j]);
        }
        for (int t = 0, j = 0; t < 4; t++) {
            int scores[2];
            if (!(trumps >> t & 1)) continue;
            bid_round(a.r, dealt, seat, t, contract, policy, NULL, scores, NULL);
            results[j++ * n + i] = scores[team] - scores[1 - team];
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyList_New(n_trumps);
    for (int j = 0; out && j < n_trumps; j++)
        PyList_SET_ITEM(out, j, cards_list(results + j * n, (int)n));
    PyMem_Free(results);
    return out;
}

static PyObject *py_bid_hand(PyObject *self, PyObject *args)
{
    Args a;
    int seat, trump, contract, scores[2];
    Cards hands[4];
    if (!PyArg_ParseTuple(args, "O&O&iii", to_rules, &a, to_hands, hands, &seat, &trump,
                          &contract))
        return NULL;
    if (!four_handed(&a)) return NULL;
    if (!is_whole_deal(a.r, hands)) {
        PyErr_SetString(PyExc_ValueError, "a deal is 12 cards to each seat, 48 in all");
        return NULL;
    }
    BidTrace trace;
    bid_round(a.r, hands, seat & 3, trump & 3, contract, 0, &trace, scores, NULL);
    return Py_BuildValue("(NNy#(ii))", cards_list(trace.given, a.r->cards_passed),
                         cards_list(trace.returned, a.r->cards_passed), trace.plays,
                         (Py_ssize_t)trace.n_plays, scores[0], scores[1]);
}

/* Whether the hands of a deal are those of the position `st` with other cards:
 * as many cards in each place, and with the cards played the whole deck. */
static int fits_position(const State *st, const Cards *hands)
{
    Cards all[4];
    for (int s = 0; s < 4; s++) {
        if (cards_len(hands[s]) != cards_len(st->hand[s])) return 0;
        all[s] = hands[s];
    }
    all[0] = cards_plus(all[0], st->played); /* the cards played, put back anywhere */
    return cards_len(all[0]) == cards_len(hands[0]) + cards_len(st->played) && is_deck(all);
}

/* The simulation backend of players.search.simulate: a round score for `team` per deal,
 * from passing (position None: bid rounds) or from a play-phase position.
 * Three-handed (docs/rules.md §3) `team` is a seat, each deal is the three hands and
 * the pile set aside as a fourth hand, and the hand goes on from trump named
 * (position None: players.search.simulate._from_widow) or from the position; the
 * declarer knows the pile of each deal. */
static PyObject *py_simulate_deals(PyObject *self, PyObject *args)
{
    Args a;
    PyObject *pos, *deals, *out = NULL;
    int declarer, trump, contract, team, policy = CARD_POLICY_STANDARD, take = 0;
    if (!PyArg_ParseTuple(args, "O&OOiiii|ip", to_rules, &a, &pos, &deals, &declarer, &trump,
                          &contract, &team, &policy, &take) ||
        (pos != Py_None && !to_position(pos, &a)) || !check_policy(policy))
        return NULL;
    a.st.policy = policy;
    int three = a.r->players == 3;
    if (declarer < 0 || declarer >= a.r->players || trump < 0 || trump > 3 || team < 0 ||
        team >= (three ? 3 : 2) || (pos != Py_None && a.st.declarer != declarer)) {
        PyErr_SetString(PyExc_ValueError, "bad declarer, trump or team for simulate_deals");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(deals, "deals must be a sequence");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Cards *hands = PyMem_Malloc(sizeof(Cards) * 4 * (size_t)(n + 1));
    int *results = PyMem_Malloc(sizeof(int) * (size_t)(n + 1));
    if (!hands || !results) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        Cards *deal = hands + 4 * i;
        if (!to_hands(PySequence_Fast_GET_ITEM(fast, i), deal)) goto done;
        if (pos == Py_None && !three && !is_whole_deal(a.r, deal)) {
            PyErr_SetString(PyExc_ValueError, "a deal is 12 cards to each seat, 48 in all");
            goto done;
        }
        if (pos == Py_None && three && !is_widow_deal(a.r, deal, declarer)) {
            PyErr_SetString(PyExc_ValueError, "a three-handed deal is 15 cards to each seat "
                            "and the widow of 3 (or 18 to the declarer who took it)");
            goto done;
        }
        if (pos != Py_None && three && !fits_position(&a.st, deal)) {
            PyErr_Format(PyExc_ValueError, "deal %zd does not fit the position (the cards "
                         "of each place and those played must make the deck)", i);
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int scores[2], takes[2];
        if (three && pos == Py_None) {
            results[i] = widow_round(a.r, hands + 4 * i, declarer, trump, contract, team,
                                     policy, take);
            continue;
        }
        if (three) {
            State st = a.st;
            memcpy(st.hand, hands + 4 * i, sizeof st.hand);
            st.base[declarer][3] = st.hand[3]; /* the simulated declarer knows its pile */
            results[i] = three_rollout(a.r, &st, team, take);
            continue;
        }
        if (pos == Py_None) {
            bid_round(a.r, hands + 4 * i, declarer & 3, trump & 3, contract, policy, NULL,
                      scores, takes);
        } else {
            State st = a.st;
            memcpy(st.hand, hands + 4 * i, sizeof st.hand);
            rollout_standard(a.r, &st, scores);
            takes[0] = take_of(&st, 0, 0);
            takes[1] = take_of(&st, 1, 0);
        }
        results[i] = take ? takes[team & 1] : scores[team & 1] - scores[1 - (team & 1)];
    }
    Py_END_ALLOW_THREADS
    out = cards_list(results, (int)n);
done:
    Py_DECREF(fast);
    PyMem_Free(hands);
    PyMem_Free(results);
    return out;
}

static PyMethodDef methods[] = {
    {"legal_mask", py_legal_mask, METH_VARARGS, "legal_mask(rules, hand, trick, trump, first)"},
    {"meld", py_meld, METH_VARARGS, "meld(rules, once, twice, trump) -> (points, dix_only, "
     "shown_once, shown_twice)"},
    {"hand_score", py_hand_score, METH_VARARGS, "hand_score(rules, contract, declarer, melds, "
     "dix_bits, tricks, played, moon, took_all) -> (score0, score1, outcome)"},
    {"pass_cards", py_pass_cards, METH_VARARGS, "pass_cards(rules, once, twice, trump, pro, "
     "giving, given, n) -> cards"},
    {"play_out", py_play_out, METH_VARARGS, "play_out(rules, position, cards, policy, seed)"},
    {"choose_card", py_choose_card, METH_VARARGS, "choose_card(rules, position, level, among)"},
    {"memory", py_memory, METH_VARARGS, "memory(rules, position, seat)"},
    {"rollout", py_rollout, METH_VARARGS, "rollout(rules, position, n, seed, spec)"},
    {"card_values", py_card_values, METH_VARARGS, "card_values(rules, position, n, seed, spec)"},
    {"simulate_bid_hands", py_simulate_bid_hands, METH_VARARGS,
     "simulate_bid_hands(rules, once, twice, seat, trumps, contract, n, seed)"},
    {"simulate_deals", py_simulate_deals, METH_VARARGS,
     "simulate_deals(rules, position, deals, declarer, trump, contract, team, policy, take)"},
    {"bid_hand", py_bid_hand, METH_VARARGS,
     "bid_hand(rules, hands, seat, trump, contract) -> (given, returned, plays, scores)"},
    {"deal", py_deal, METH_VARARGS, "deal(rules, position, spec, seed)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The fast simulation core of pinochlekit; use pinochlekit.players.search.fastcore.", -1, methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    init_tables();
    if (PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
